package io.ibaccept.rules.checks.routing;

import io.ibaccept.fabric.Fabric;
import io.ibaccept.model.SlToVlTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The SL-to-VL tables of the switch-to-switch links, read for the credit-loop check: the entries of a switch port
 * cabled to another switch, from every other cabled input port (port 0 is the switch's own management port: no
 * route of a CA to a CA enters there).
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

    /** A switch port (the LID of its switch, the port) whose layers meet, and how. */
    record Meeting(SlToVlTables.Entry first, String how) {}

    /**
     * The switch-to-switch ports where the layers do not stay apart: two layers' SLs on one VL of the link, from any
     * of the switch's input ports, or an SL on VL15, where data is dropped. Layers on VLs of their own on every link
     * cannot wait on each other: each layer's routes have no cycle, so neither has any set of VLs they use.
     */
    List<Meeting> meetings(List<List<Integer>> layers) {
        Map<Long, List<SlToVlTables.Entry>> byPort = new java.util.LinkedHashMap<>();
        for (SlToVlTables.Entry e : entries) byPort.computeIfAbsent(((long) e.lid() << 8) | e.outPort(), k -> new ArrayList<>()).add(e);
        List<Meeting> out = new ArrayList<>();
        for (List<SlToVlTables.Entry> port : byPort.values()) {
            Map<Integer, Integer> layerOfVl = new TreeMap<>();
            Map<Integer, SlToVlTables.Entry> whereVl = new TreeMap<>();
            String how = null;
            SlToVlTables.Entry at = port.get(0);
            search:
            for (SlToVlTables.Entry e : port)
                for (int layer = 0; layer < layers.size(); layer++)
                    for (int sl : layers.get(layer)) {
                        int vl = e.vl(sl);
                        if (vl == 15) {
                            how = "SL " + sl + " on VL15, where data is dropped";
                            at = e;
                            break search;
                        }
                        Integer other = layerOf(layerOfVl, vl, layer);
                        if (other != null) {
                            how = "layers " + (other + 1) + " and " + (layer + 1) + " (SL " + range(layers.get(other)) + " and SL " + range(layers.get(layer))
                                    + ") both on VL" + vl + (whereVl.get(vl) != e ? " (from ports " + whereVl.get(vl).inPort() + " and " + e.inPort() + ")" : "");
                            at = e;
                            break search;
                        }
                        whereVl.putIfAbsent(vl, e);
                    }
            if (how != null) out.add(new Meeting(at, how));
        }
        return out;
    }

    // the layer already on vl, if another than this one (records this one otherwise)
    private static Integer layerOf(Map<Integer, Integer> layerOfVl, int vl, int layer) {
        Integer known = layerOfVl.putIfAbsent(vl, layer);
        return known != null && known != layer ? known : null;
    }

    /** Switch-to-switch ports whose table is in the dump, of all the active ones of the fabric. */
    int[] coverage() {
        java.util.Set<Long> covered = new java.util.HashSet<>();
        for (SlToVlTables.Entry e : entries) covered.add(f.nodeOfLid(e.lid()).guid() * 256 + e.outPort());
        int all = 0;
        for (Fabric.Link l : f.links()) if (l.isUp() && f.isSwitchToSwitch(l)) all += 2;
        return new int[] {covered.size(), all};
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
