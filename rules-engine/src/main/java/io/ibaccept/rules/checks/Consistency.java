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
        check(c, byHost, srcByHost, what, status, extraVars, h -> null, h -> "");
    }

    /**
     * As above, but a host whose value the acceptance contract declares (declared(host) not null) is judged against
     * it: every host off it is a FAIL, however many share its value; where(host) says where the contract declares it. The
     * hosts the contract says nothing about are compared with each other.
     */
    static void check(Ctx c, Map<String, String> byHost, Map<String, String> srcByHost, String what,
                      Status status, Map<String, Object> extraVars, java.util.function.Function<String, String> declared,
                      java.util.function.Function<String, String> where) {
        if (byHost.isEmpty()) return;
        Map<String, String> free = new java.util.TreeMap<>();
        Map<String, Map<String, List<String>>> off = new java.util.TreeMap<>(); // declared -> value -> hosts
        int matching = 0;
        for (Map.Entry<String, String> e : byHost.entrySet()) {
            String want = declared.apply(e.getKey());
            if (want == null) free.put(e.getKey(), e.getValue());
            else if (matches(e.getValue(), want)) matching++;
            else off.computeIfAbsent(want, k -> new java.util.TreeMap<>()).computeIfAbsent(e.getValue(), k -> new ArrayList<>()).add(e.getKey());
        }
        if (free.size() == byHost.size()) {
            majority(c, byHost, srcByHost, what, status, extraVars);
            return;
        }
        off.forEach((want, byValue) -> byValue.forEach((value, hosts) -> {
            List<Evidence> ev = new ArrayList<>();
            for (String h : hosts.subList(0, Math.min(10, hosts.size()))) ev.add(Evidence.of(h + ": " + value, srcByHost.get(h)));
            if (hosts.size() > 10) ev.add(Evidence.of("... and " + (hosts.size() - 10) + " more hosts", ""));
            ev.add(Evidence.of("the contract declares " + want, where.apply(hosts.get(0))));
            Map<String, Object> v = new LinkedHashMap<>(extraVars);
            v.put("versions", value + " on " + hosts.size());
            v.put("majority", want);
            v.put("value", value);
            v.put("hosts", String.join(",", hosts));
            c.problem(Status.FAIL, hosts, ev, hosts.size() + " host(s) (" + io.ibaccept.rules.Hostlists.compress(hosts) + ") " + what + " " + value
                    + ", the contract declares " + want, "contract", v);
        }));
        if (off.isEmpty() && matching > 0)
            c.pass("all " + matching + " host(s) the contract covers " + what + " as it declares", List.of(), List.of());
        if (!free.isEmpty()) majority(c, free, srcByHost, what, status, extraVars);
    }

    /** The version as the tool prints it holds the declared one ("MLNX_OFED_LINUX-5.8-1.0.1.1" holds "5.8-1.0.1.1"). */
    static boolean matches(String value, String declared) {
        if (value.equals(declared)) return true;
        int i = value.indexOf(declared);
        if (i < 0) return false;
        int end = i + declared.length();
        return (i == 0 || !Character.isLetterOrDigit(value.charAt(i - 1)) && value.charAt(i - 1) != '.')
                && (end == value.length() || !Character.isLetterOrDigit(value.charAt(end)) && value.charAt(end) != '.');
    }

    private static void majority(Ctx c, Map<String, String> byHost, Map<String, String> srcByHost, String what,
                                 Status status, Map<String, Object> extraVars) {
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
