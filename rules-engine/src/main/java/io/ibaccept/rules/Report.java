package io.ibaccept.rules;

import io.ibaccept.model.ClusterData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * All findings for one dump, and the verdict. Consequences (parent set) are listed under their root. rules is the
 * configuration the findings were judged with (null when not recorded: the cover page then cannot list changed
 * thresholds); waivers are those applied by {@link Waivers#apply}.
 */
public record Report(ClusterData data, List<Finding> findings, RuleConfig rules, List<WaiverUse> waivers, Coverage coverage) {
    public Report {
        findings = List.copyOf(findings);
        waivers = List.copyOf(waivers);
        if (coverage == null) coverage = Coverage.NONE;
    }

    public Report(ClusterData data, List<Finding> findings, RuleConfig rules, List<WaiverUse> waivers) {
        this(data, findings, rules, waivers, Coverage.NONE);
    }

    public Report(ClusterData data, List<Finding> findings) {
        this(data, findings, null, List.of());
    }

    /** The same report, recording the rule configuration it was judged with (for the cover page). */
    public Report withRules(RuleConfig cfg) {
        return new Report(data, findings, cfg, waivers, coverage);
    }

    /** The same report, with what the required checks covered (it qualifies the verdict). */
    public Report withCoverage(Coverage c) {
        return new Report(data, findings, rules, waivers, c);
    }

    /** The active waiver that turned this finding into WAIVED, or null. */
    public Waiver waiverFor(Finding f) {
        if (f.status() != Status.WAIVED) return null;
        for (WaiverUse u : waivers) if (!u.expired() && u.waiver().covers(f)) return u.waiver();
        return null;
    }

    /**
     * The worst status decides, so a consequence counts like its root; a consequence that is worse than its root
     * (which grouping should never produce) still makes itself heard.
     */
    public Verdict verdict() {
        return Verdict.of(findings, coverage);
    }

    /**
     * The verdict as every output prints it: the label, qualified when required checks did not run without a contract
     * ("ACCEPTED (limited coverage: 3 required checks not covered)").
     */
    public String verdictLine() {
        Verdict v = verdict();
        int gaps = coverage.gaps().size();
        if (gaps == 0 || v == Verdict.REJECTED || v == Verdict.INCOMPLETE) return v.label();
        return v.label() + " (limited coverage: " + gaps + " required check" + (gaps == 1 ? "" : "s") + " not covered)";
    }

    /** What the verdict means for this report; never "all checks passed" while required checks did not run. */
    public String meaning() {
        Verdict v = verdict();
        int gaps = coverage.gaps().size();
        if (v == Verdict.INCOMPLETE && gaps > 0 && findings.stream().noneMatch(f -> f.status() == Status.ERROR))
            return "no check failed, but " + gaps + " check" + (gaps == 1 ? "" : "s") + " the contract requires did not cover every object in scope";
        if (gaps > 0 && v == Verdict.ACCEPTED) return "no check failed or warned, but " + gaps + " of the default required checks did not cover their scope";
        return v.meaning();
    }

    /** Findings without a parent, and those whose parent is not in this report (never lost from the counts). */
    public List<Finding> roots() {
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (Finding f : findings) ids.add(f.id());
        return findings.stream().filter(f -> !f.isConsequence() || !ids.contains(f.parent())).toList();
    }

    public List<Finding> consequencesOf(Finding root) {
        return findings.stream().filter(f -> root.id().equals(f.parent())).toList();
    }

    /** Root findings per status. */
    public Map<Status, Long> counts() {
        Map<Status, Long> m = new EnumMap<>(Status.class);
        for (Status s : Status.values()) m.put(s, 0L);
        roots().forEach(f -> m.merge(f.status(), 1L, Long::sum));
        return m;
    }

    /** Root findings sorted worst first (rule order within a status), each followed by its consequences. */
    public List<Finding> worstFirst() {
        Map<String, List<Finding>> under = new LinkedHashMap<>();
        for (Finding f : findings) if (f.isConsequence()) under.computeIfAbsent(f.parent(), k -> new ArrayList<>()).add(f);
        List<Finding> out = new ArrayList<>(findings.size());
        java.util.Set<Finding> placed = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (Finding r : roots().stream().sorted(Comparator.comparing(Finding::status)).toList()) addWithConsequences(r, under, out, placed);
        // a cycle of parents has no root: list those findings too rather than drop them
        for (Finding f : findings) if (!placed.contains(f)) addWithConsequences(f, under, out, placed);
        return out;
    }

    private static void addWithConsequences(Finding f, Map<String, List<Finding>> under, List<Finding> out, java.util.Set<Finding> placed) {
        if (!placed.add(f)) return;
        out.add(f);
        for (Finding c : under.getOrDefault(f.id(), List.of())) addWithConsequences(c, under, out, placed);
    }

    /** Worst status per check id, in rule order: the per-check table of the report. */
    public Map<String, Status> checkStatus() {
        Map<String, Status> m = new LinkedHashMap<>();
        for (Finding f : findings) m.merge(f.check(), f.status(), (a, b) -> a.worseThan(b) ? a : b);
        return m;
    }

    /** host -> findings naming it, built in one pass (filtering the findings per host is quadratic on large clusters). */
    public Map<String, List<Finding>> byHost() {
        Map<String, List<Finding>> m = new java.util.HashMap<>();
        for (Finding f : findings)
            for (String h : f.hosts()) m.computeIfAbsent(h, k -> new java.util.ArrayList<>()).add(f);
        return m;
    }
}
