package io.ibaccept.rules;

import io.ibaccept.model.ClusterData;
import java.util.ArrayList;
import java.util.List;

/** Runs every enabled rule over a dump's model. A rule that throws becomes an ERROR finding; the rest still run. */
public final class RulesEngine {
    private final RuleConfig cfg;
    private final List<Rule> rules;

    public RulesEngine(RuleConfig cfg) {
        this(cfg, defaultRules());
    }

    public RulesEngine(RuleConfig cfg, List<Rule> rules) {
        this.cfg = cfg;
        this.rules = List.copyOf(rules);
    }

    public static List<Rule> defaultRules() {
        return List.of(new FabricRules.SmCount(), new FabricRules.SmPriority(), new LinkRules.PortState(), new FabricRules.Inventory(),
                new LinkRules.Width(), new LinkRules.Speed(), new HostRules.Pcie(), new LinkRules.Errors(), new io.ibaccept.rules.counters.ErrorsWindowRule(),
                new HostRules.MlxlinkCheck(), new HostRules.Pkey(), new HostRules.Mtu(), new HostRules.Memlock(),
                new HostRules.Ofed(), new HostRules.Firmware(), new FabricRules.DuplicateGuid(),
                new FabricRules.DuplicateLid(), new FabricRules.PerftestBw(), new FabricRules.PerftestLat(),
                new FabricRules.IbdiagnetCheck(), new HostRules.Ethtool(), new FabricRules.Inputs());
    }

    public Report run(ClusterData data) {
        Ctx ctx = new Ctx(data, cfg, new FabricIndex(data));
        for (Rule r : rules) {
            if (!cfg.enabled(r.id())) continue;
            ctx.begin(r.id());
            int before = ctx.findings().size();
            try {
                r.evaluate(ctx);
            } catch (RuntimeException e) {
                ctx.findings().subList(before, ctx.findings().size()).clear();
                ctx.add(new Finding(r.id(), cfg.text(r.id(), "title"), Status.ERROR, List.of(), List.of(),
                        "check could not be evaluated: " + e.getMessage(), "", "Report this with the dump attached."));
            }
        }
        return new Report(data, new ArrayList<>(ctx.findings()));
    }
}
