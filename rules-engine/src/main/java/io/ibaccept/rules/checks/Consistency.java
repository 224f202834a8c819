package io.ibaccept.rules.checks;

import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** "Same value on every host" checks (OFED version, firmware per CA type, MTU): the minority groups are findings. */
final class Consistency {
    private Consistency() {}

    static void check(Ctx c, Map<String, String> byHost, Map<String, String> srcByHost, String what,
                      Status status, Map<String, Object> extraVars) {
        if (byHost.isEmpty()) return;
        Map<String, List<String>> groups = Majority.groups(byHost);
        String majority = Majority.of(byHost.values(), Comparator.naturalOrder()).orElseThrow();
        if (groups.size() == 1) {
            c.pass("all " + byHost.size() + " host(s) " + what + " " + majority, List.of(), List.of());
            return;
        }
        String versions = groups.entrySet().stream().map(e -> e.getKey() + " on " + e.getValue().size())
                .collect(Collectors.joining(", "));
        for (Map.Entry<String, List<String>> g : groups.entrySet()) {
            if (g.getKey().equals(majority)) continue;
            List<Evidence> ev = new ArrayList<>();
            for (String h : g.getValue()) ev.add(Evidence.of(h + ": " + g.getKey(), srcByHost.get(h)));
            String first = groups.get(majority).get(0);
            ev.add(Evidence.of(first + ": " + majority + " (majority, " + groups.get(majority).size() + " hosts)", srcByHost.get(first)));
            Map<String, Object> v = new LinkedHashMap<>(extraVars);
            v.put("versions", versions);
            v.put("majority", majority);
            v.put("value", g.getKey());
            v.put("hosts", String.join(",", g.getValue()));
            c.problem(status, g.getValue(), ev, g.getValue().size() + " host(s) " + what + " " + g.getKey() + " instead of " + majority,
                    "", v);
        }
    }
}
