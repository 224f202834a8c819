package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.List;
import java.util.Map;

/**
 * The record of 'ibaccept resilience': the fabric's twin (ibsim with the dump's topology, opensm with the dump's
 * routing settings) with each switch-to-switch cable (and with --switches each switch) taken out in turn, and what
 * opensm's re-routed tables then do. header: "key: value" lines (engine, twin, healthy, coverage, time).
 */
public record Resilience(Map<String, String> header, List<Loss> losses, SourceRef ref) {
    public Resilience {
        header = Map.copyOf(header);
        losses = List.copyOf(losses);
    }

    /**
     * One loss. kind "cable" or "switch"; name as the report says it ("leaf01 port 33 <-> spine01 port 1"); unreachable:
     * destination LIDs no longer reached from some switch (hosts that hang only on a lost switch are not counted: they go
     * with it); cutOff: switches left without a path to the SM; loops: forwarding loops; creditLoops: cycles of
     * switch-to-switch ports; worstUplink: most destinations one uplink carries (0: not a tree); lostHosts: hosts that
     * had no other cable; fix: what makes the loss survivable, empty when it is.
     */
    public record Loss(String kind, String name, int unreachable, List<String> cutOff, int loops, int creditLoops, int worstUplink,
                       String worstAt, int lostHosts, String fix, SourceRef ref) {
        public Loss {
            cutOff = List.copyOf(cutOff);
        }

        /** Whether the fabric still carries every remaining destination without loops after this loss. */
        public boolean survivable(int healthyCreditLoops) {
            return unreachable == 0 && cutOff.isEmpty() && loops == 0 && creditLoops <= healthyCreditLoops;
        }
    }

    public int healthyCreditLoops() {
        return intOf("healthy credit loops");
    }

    public int healthyWorstUplink() {
        return intOf("healthy worst uplink");
    }

    private int intOf(String key) {
        String v = header.getOrDefault(key, "0").trim();
        int sp = v.indexOf(' ');
        try {
            return Integer.parseInt(sp < 0 ? v : v.substring(0, sp));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * The line page 1 shows, also when the answer is yes: "survives the loss of any one ISL: yes" or "no (N critical
     * cables)"; with switches taken out, their answer after it.
     */
    public String pageOneLine() {
        List<Loss> crit = critical();
        long cables = crit.stream().filter(l -> l.kind().equals("cable")).count();
        long switches = crit.stream().filter(l -> l.kind().equals("switch")).count();
        boolean switchesRun = losses.stream().anyMatch(l -> l.kind().equals("switch"));
        String s = "survives the loss of any one ISL: " + (cables == 0 ? "yes" : "no (" + cables + " critical cable" + (cables == 1 ? "" : "s") + ")");
        if (switchesRun) s += "; of any one switch: " + (switches == 0 ? "yes" : "no (" + switches + " critical switch" + (switches == 1 ? "" : "es") + ")");
        String cov = header.getOrDefault("coverage", "");
        if (cov.contains("sample")) s += " [" + cov + "]";
        return s;
    }

    /** One loss's outcome in words: "re-routed, worst uplink 4 destination(s) (healthy 3)", or what broke. */
    public String outcome(Loss l) {
        List<String> s = new java.util.ArrayList<>();
        if (l.unreachable() > 0) s.add(l.unreachable() + " destination(s) unreached");
        if (!l.cutOff().isEmpty()) s.add("cut off: " + String.join(", ", l.cutOff()));
        if (l.loops() > 0) s.add(l.loops() + " forwarding loop(s)");
        if (l.creditLoops() > healthyCreditLoops()) s.add(l.creditLoops() + " credit loop(s) (" + healthyCreditLoops() + " healthy)");
        if (l.lostHosts() > 0) s.add(l.lostHosts() + " host(s) cabled only to it lost with it");
        if (l.worstUplink() > 0) s.add("worst uplink " + l.worstUplink() + " destination(s) (healthy " + healthyWorstUplink() + ")");
        return (l.survivable(healthyCreditLoops()) ? "re-routed" : "CRITICAL") + (s.isEmpty() ? "" : ": " + String.join(", ", s));
    }

    /** Losses with the same outcome, the critical groups first. */
    public record Group(String outcome, boolean survivable, List<Loss> losses) {}

    public List<Group> groups() {
        Map<String, List<Loss>> by = new java.util.LinkedHashMap<>();
        for (Loss l : losses) by.computeIfAbsent(outcome(l), k -> new java.util.ArrayList<>()).add(l);
        List<Group> out = new java.util.ArrayList<>();
        by.forEach((k, v) -> out.add(new Group(k, v.get(0).survivable(healthyCreditLoops()), v)));
        out.sort(java.util.Comparator.comparing(Group::survivable));
        return out;
    }

    public List<Loss> critical() {
        int h = healthyCreditLoops();
        return losses.stream().filter(l -> !l.survivable(h)).toList();
    }
}
