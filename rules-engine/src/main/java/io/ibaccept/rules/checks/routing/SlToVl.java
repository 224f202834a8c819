package io.ibaccept.rules.checks.routing;

import io.ibaccept.fabric.Fabric;
import io.ibaccept.model.SlToVlTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The SL-to-VL tables of the switch-to-switch links, read for the credit-loop check: the entries of a switch port
 * cabled to another switch, from every other cabled input port (port 0, the switch's own, carries only management
 * traffic on VL15).
 */
record SlToVl(List<SlToVlTables.Entry> entries, Fabric f) {
    static SlToVl of(Fabric f, SlToVlTables t) {
        List<SlToVlTables.Entry> out = new ArrayList<>();
        for (SlToVlTables.Entry e : t.entries()) {
            Fabric.Node n = f.nodeOfLid(e.lid());
            if (n == null || !n.isSwitch() || e.inPort() == 0 || e.inPort() == e.outPort()) continue;
            var link = f.linkAt(new Fabric.End(n.guid(), e.outPort()));
            if (link.isEmpty() || !link.get().isUp() || !f.isSwitchToSwitch(link.get())) continue;
            if (f.linkAt(new Fabric.End(n.guid(), e.inPort())).filter(Fabric.Link::isUp).isEmpty()) continue;
            out.add(e);
        }
        return new SlToVl(out, f);
    }

    /** "sw1 port 3". */
    String port(SlToVlTables.Entry e) {
        return f.name(new Fabric.End(f.nodeOfLid(e.lid()).guid(), e.outPort()));
    }

    /** The VL each of these SLs takes on most port pairs. */
    Map<Integer, Integer> usual(int firstSl, int sls) {
        Map<Integer, Integer> out = new TreeMap<>();
        for (int sl = firstSl; sl < firstSl + sls && sl < 16; sl++) {
            int[] count = new int[16];
            for (SlToVlTables.Entry e : entries) count[e.vl(sl)]++;
            int best = 0; // the lowest VL among the most frequent
            for (int vl = 1; vl < 16; vl++) if (count[vl] > count[best]) best = vl;
            if (count[best] > 0) out.put(sl, best);
        }
        return out;
    }

    /**
     * Where these SLs do not stay apart: two of them on one VL at a port pair, or an SL on another VL than on the other
     * port pairs (its layer would meet another layer's VL). Each with what is wrong there, "SL 0-7 on VL0".
     */
    Map<SlToVlTables.Entry, String> merged(int firstSl, int sls) {
        Map<Integer, Integer> usual = usual(firstSl, sls);
        Map<SlToVlTables.Entry, String> out = new java.util.LinkedHashMap<>();
        for (SlToVlTables.Entry e : entries) {
            Map<Integer, List<Integer>> byVl = new TreeMap<>();
            usual.keySet().forEach(sl -> byVl.computeIfAbsent(e.vl(sl), k -> new ArrayList<>()).add(sl));
            String shared = byVl.entrySet().stream().filter(x -> x.getValue().size() > 1).findFirst()
                    .map(x -> "SL " + range(x.getValue()) + " on VL" + x.getKey()).orElse(null);
            if (shared == null)
                for (var u : usual.entrySet())
                    if (e.vl(u.getKey()) != u.getValue()) {
                        shared = "SL " + u.getKey() + " on VL" + e.vl(u.getKey()) + " (VL" + u.getValue() + " elsewhere)";
                        break;
                    }
            if (shared != null) out.put(e, shared);
        }
        return out;
    }

    /** The VLs SL sl takes over these port pairs. */
    java.util.SortedSet<Integer> vlsOf(int sl) {
        java.util.SortedSet<Integer> out = new java.util.TreeSet<>();
        for (SlToVlTables.Entry e : entries) out.add(e.vl(sl));
        return out;
    }

    /** "0-7", "0,8". */
    static String range(List<Integer> sls) {
        boolean consecutive = true;
        for (int i = 1; i < sls.size(); i++) consecutive &= sls.get(i) == sls.get(i - 1) + 1;
        if (consecutive && sls.size() > 2) return sls.get(0) + "-" + sls.get(sls.size() - 1);
        return String.join(",", sls.stream().map(String::valueOf).toList());
    }
}
