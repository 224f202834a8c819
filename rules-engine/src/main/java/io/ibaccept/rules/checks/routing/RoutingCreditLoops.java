package io.ibaccept.rules.checks.routing;

import io.ibaccept.fabric.Fabric;
import io.ibaccept.fabric.Routing;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.checks.sm.SmFacts;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The routes cannot deadlock: the channel dependency graph of the switch-to-switch ports (a port's traffic waits for
 * the buffers of the next port on its way, for every route from a switch with CAs to every CA LID) has no cycle. The
 * SL-to-VL tables are not read, so all routes count as one VL: for an engine that spreads routes over VLs to break
 * such cycles (lash, dfsssp, ...) a cycle over all VLs together is no deadlock, and the check says it could not judge.
 */
public final class RoutingCreditLoops implements RoutingCheck {
    public String id() {
        return "routing.credit_loops";
    }


    public List<Setting> settings() {
        return List.of(Setting.of("vl_engines", Setting.Type.LIST, "lash,dfsssp,ar_dfsssp,torus-2qos,nue",
                "routing engines that separate routes over VLs to avoid credit loops (a cycle over all VLs is not judged for them)"),
                Setting.number("max_listed", "20", "credit loops reported one by one; the others are counted in the last"));
    }

    public void evaluate(Ctx c) {
        Routing r = RoutingCheck.walked(c);
        if (r == null) return;
        Fabric f = c.fabric();
        Optional<SmFacts.Engine> engine = SmFacts.routingEngine(c);
        String eng = engine.map(SmFacts.Engine::effective).orElse("");
        boolean vl = !eng.isEmpty() && c.list("vl_engines").stream().anyMatch(e -> e.equalsIgnoreCase(eng.toLowerCase(Locale.ROOT)));
        List<Routing.CreditLoop> loops = r.creditLoops();
        if (vl) {
            c.skip("routed by " + eng + ", which puts routes on several VLs to break cycles; the SL-to-VL tables are not collected, so credit loops per VL are not judged"
                    + (loops.isEmpty() ? " (over all VLs together there is no cycle either: " + r.channels() + " switch-to-switch ports)"
                    : " (over all VLs together " + loops.size() + " cycle(s), expected for " + eng + ")"));
            return;
        }
        int max = (int) c.number("max_listed");
        for (int i = 0; i < loops.size() && i < max; i++) {
            Routing.CreditLoop l = loops.get(i);
            List<String> ports = l.cycle().stream().map(h -> RoutingFacts.hop(f, h)).toList();
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("cycle", RoutingFacts.cycle(f, l.cycle()));
            v.put("channels", l.channels());
            v.put("engine", eng.isEmpty() ? "the SM's routing engine" : eng);
            String more = i == max - 1 && loops.size() > max ? "; " + (loops.size() - max) + " more cycle(s) not listed" : "";
            Finding w = c.problem(Status.FAIL, ports, RoutingFacts.tables(f, r, l.cycle().stream().map(Routing.Hop::switchGuid).toList()),
                    "credit loop: " + RoutingFacts.cycle(f, l.cycle()) + " (" + l.channels() + " switch-to-switch ports depend on each other, all routes on one VL)"
                            + RoutingFacts.engine(c) + more, "", v);
            c.explainedBy(w, List.of(SmFacts.ROUTING_FALLBACK));
        }
        if (loops.isEmpty())
            c.pass("no credit loop: the routes over " + r.channels() + " switch-to-switch ports have no cyclic dependency (all routes counted on one VL)"
                    + RoutingFacts.engine(c), List.of(), List.of());
    }
}
