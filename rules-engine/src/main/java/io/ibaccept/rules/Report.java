package io.ibaccept.rules;

import io.ibaccept.model.ClusterData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** All findings for one dump, and the verdict. Consequences (parent set) are listed under their root. */
public record Report(ClusterData data, List<Finding> findings) {
    public Report {
        findings = List.copyOf(findings);
    }

    /** Decided by the root findings: a root counts once, its consequences do not count again. */
    public Verdict verdict() {
        return Verdict.of(roots());
    }

    public List<Finding> roots() {
        return findings.stream().filter(f -> !f.isConsequence()).toList();
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
        for (Finding r : roots().stream().sorted(Comparator.comparing(Finding::status)).toList()) {
            out.add(r);
            out.addAll(under.getOrDefault(r.id(), List.of()));
        }
        return out;
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
