package io.ibaccept.rules;

import io.ibaccept.dump.Cmd;
import io.ibaccept.dump.sources.Source;
import io.ibaccept.dump.sources.Sources;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.InputProblem;
import io.ibaccept.rules.checks.Checks;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs every enabled check over a dump's model. A check whose declared input is unusable is SKIPped here, with the
 * input problem and how to collect it; a check that throws becomes an ERROR finding; the rest still run.
 */
public final class RulesEngine {
    private final RuleConfig cfg;
    private final List<Check> checks;

    public RulesEngine(RuleConfig cfg) {
        this(cfg, Checks.all());
    }

    public RulesEngine(RuleConfig cfg, List<Check> checks) {
        this.cfg = cfg;
        this.checks = List.copyOf(checks);
    }

    /** Judges a dump without a node-name-map or cabling plan. */
    public Report run(ClusterData data) {
        return run(new DumpFacts(data, cfg, io.ibaccept.fabric.FabricOptions.NONE));
    }

    /**
     * Judges the dump of facts with the facts' rules (the thresholds they were derived with); what the checks derive
     * through them (the fabric graph...) stays there for the reports.
     */
    public Report run(DumpFacts facts) {
        if (facts.rules() != cfg) return new RulesEngine(facts.rules(), checks).run(facts);
        ClusterData data = facts.data();
        Ctx ctx = new Ctx(facts);
        java.util.Map<Finding, List<String>> skipped = new java.util.IdentityHashMap<>();
        for (Check c : checks) {
            if (!cfg.enabled(c.id())) continue;
            ctx.begin(c);
            String missing = unusableInput(data, c);
            if (missing != null) {
                ctx.skip(missing);
                skipped.put(ctx.findings().get(ctx.findings().size() - 1), unusable(data, c));
                continue;
            }
            int before = ctx.findings().size();
            try {
                c.evaluate(ctx);
            } catch (RuntimeException e) {
                ctx.findings().subList(before, ctx.findings().size()).clear();
                ctx.add(new Finding(c.id(), cfg.text(c.id(), "title"), Status.ERROR, List.of(), List.of(),
                        "check could not be evaluated: " + io.ibaccept.safety.IoMessages.why(e), "", "Report this with the dump attached."));
            }
        }
        explainSkips(ctx, skipped);
        markAmbiguous(ctx);
        return new Report(data, PhysicalCauses.group(RootCauses.group(ctx.findings(), ctx.covers(), ctx.needs()), ctx, checks)).withRules(cfg);
    }

    /**
     * A check skipped because its input is unusable follows from whatever made that input unusable: when every input
     * finding about those commands is explained by a root cause (no SM, a host down), so is the skip.
     */
    private static void explainSkips(Ctx ctx, java.util.Map<Finding, List<String>> skipped) {
        for (var e : skipped.entrySet()) {
            java.util.Set<String> keys = new java.util.LinkedHashSet<>();
            boolean all = true, any = false;
            for (Finding f : ctx.findings()) {
                if (!f.check().equals("input") || f.status() == Status.PASS) continue;
                String cmd = f.summary().split(":", 2)[0];
                if (!e.getValue().contains(cmd)) continue;
                any = true;
                java.util.Set<String> n = ctx.needs().get(f);
                if (n == null || n.isEmpty()) all = false;
                else keys.addAll(n);
            }
            if (any && all) ctx.explainedBy(e.getKey(), keys);
        }
    }

    /** The dump commands of the check's first unusable input. */
    private static List<String> unusable(ClusterData data, Check c) {
        for (Input in : c.inputs()) {
            if (usable(data, in)) continue;
            return in.anyOf().stream().map(Cmd::fileName).toList();
        }
        return List.of();
    }

    /** A finding that names a node whose description several nodes share says so, with the GUIDs. */
    private static void markAmbiguous(Ctx ctx) {
        java.util.Map<String, List<Long>> dup = ctx.index.ambiguousNames();
        if (dup.isEmpty()) return;
        List<Finding> fs = ctx.findings();
        for (int i = 0; i < fs.size(); i++) {
            Finding f = fs.get(i);
            if (f.check().equals("node.names") || f.status() == Status.PASS) continue;
            List<String> notes = new ArrayList<>();
            for (var e : dup.entrySet())
                if (f.objects().stream().anyMatch(o -> o.equals(e.getKey()) || o.startsWith(e.getKey() + " ") || o.startsWith(e.getKey() + "/")))
                    notes.add("\"" + e.getKey() + "\" is ambiguous: " + e.getValue().size() + " nodes carry it (GUIDs "
                            + e.getValue().stream().map(g -> String.format("0x%016x", g)).collect(java.util.stream.Collectors.joining(", ")) + ")");
            if (notes.isEmpty()) continue;
            Finding g = f.withSummary(f.summary() + " [" + String.join("; ", notes) + "]");
            ctx.replace(i, f, g);
        }
    }

    /** The SKIP reason for the first declared input with no usable alternative, or null if all are usable. */
    String unusableInput(ClusterData data, Check c) {
        for (Input in : c.inputs()) {
            if (usable(data, in)) continue;
            return "needs " + in.describe() + ": " + why(data, in);
        }
        return null;
    }

    private String why(ClusterData data, Input in) {
        List<String> parts = new ArrayList<>();
        for (Cmd cmd : in.anyOf()) {
            Source<?> s = cmd.source();
            List<InputProblem> ps = data.problemsFor(null, s.fileName());
            String state = ps.isEmpty() ? (s.optional() ? "not collected" : "not in the dump")
                    : ps.get(0).where() + ": " + ps.get(0).message() + (ps.size() > 1 ? " (+" + (ps.size() - 1) + " more)" : "");
            parts.add(s.fileName() + " " + state + " (" + s.hint() + ")");
        }
        if (in.perftests()) parts.add("no perftest results (" + Sources.PERFTEST.hint() + ")");
        return String.join("; ", parts);
    }

    /** Whether the dump holds a parsed result of one of the input's alternatives, as its descriptor finds it in the model. */
    private static boolean usable(ClusterData data, Input in) {
        return in.perftests() && Sources.PERFTEST.usable(data) || in.anyOf().stream().anyMatch(cmd -> cmd.source().usable(data));
    }
}
