package io.ibaccept.rules;

import io.ibaccept.model.ClusterData;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * All findings for one dump, and the verdict. rules is the configuration the findings were judged with (null when not
 * recorded: the cover page then cannot list changed thresholds); waivers are those applied by {@link Waivers#apply}.
 */
public record Report(ClusterData data, List<Finding> findings, RuleConfig rules, List<WaiverUse> waivers) {
    public Report {
        findings = List.copyOf(findings);
        waivers = List.copyOf(waivers);
    }

    public Report(ClusterData data, List<Finding> findings) {
        this(data, findings, null, List.of());
    }

    /** The same report, recording the rule configuration it was judged with (for the cover page). */
    public Report withRules(RuleConfig cfg) {
        return new Report(data, findings, cfg, waivers);
    }

    /** The active waiver that turned this finding into WAIVED, or null. */
    public Waiver waiverFor(Finding f) {
        if (f.status() != Status.WAIVED) return null;
        for (WaiverUse u : waivers) if (!u.expired() && u.waiver().covers(f)) return u.waiver();
        return null;
    }

    public Verdict verdict() {
        return Verdict.of(findings);
    }

    public Map<Status, Long> counts() {
        Map<Status, Long> m = new EnumMap<>(Status.class);
        for (Status s : Status.values()) m.put(s, 0L);
        findings.forEach(f -> m.merge(f.status(), 1L, Long::sum));
        return m;
    }

    /** Findings sorted worst first, keeping rule order within a status. */
    public List<Finding> worstFirst() {
        return findings.stream().sorted(Comparator.comparing(Finding::status)).toList();
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
