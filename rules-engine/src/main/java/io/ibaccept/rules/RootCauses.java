package io.ibaccept.rules;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Links consequences to their root finding: a finding that needs keys K becomes a consequence of the finding that
 * covers all of K and covers the most (a missing switch covers every host behind it; a host port down covers only
 * that host). Chains are flattened, so every consequence is listed directly under a root.
 */
final class RootCauses {
    private RootCauses() {}

    static List<Finding> group(List<Finding> findings, Map<Finding, Set<String>> covers, Map<Finding, Set<String>> needs) {
        Map<Finding, String> id = new IdentityHashMap<>();
        Map<String, Integer> seq = new LinkedHashMap<>();
        for (Finding f : findings) id.put(f, f.check() + "#" + seq.merge(f.check(), 1, Integer::sum));
        List<Finding> roots = new ArrayList<>(covers.keySet());
        roots.sort(Comparator.comparingInt((Finding f) -> covers.get(f).size()).reversed());
        Map<Finding, Finding> parent = new IdentityHashMap<>();
        for (Map.Entry<Finding, Set<String>> e : needs.entrySet()) {
            Finding f = e.getKey();
            if (e.getValue().isEmpty() || f.status() == Status.PASS) continue;
            int own = covers.getOrDefault(f, Set.of()).size();
            for (Finding r : roots) {
                if (r == f || covers.get(r).size() <= own && covers.containsKey(f)) continue;
                if (r.status() != Status.FAIL && r.status() != Status.WARN) continue;
                if (covers.get(r).containsAll(e.getValue())) {
                    parent.put(f, r);
                    break;
                }
            }
        }
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            Finding p = parent.get(f);
            for (int hops = 0; p != null && parent.containsKey(p) && hops < 8; hops++) p = parent.get(p);
            Finding g = f.withId(id.get(f));
            out.add(p == null ? g : g.withParent(id.get(p)));
        }
        return out;
    }
}
