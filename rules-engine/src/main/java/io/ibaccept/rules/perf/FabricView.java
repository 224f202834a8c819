package io.ibaccept.rules.perf;

import io.ibaccept.model.ClusterData;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.model.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The two topology questions the performance rules ask, answered from the parsed ibnetdiscover topology: which leaf
 * switch a host is cabled to, and which switch-to-switch links (uplinks) leave a leaf. Hosts are matched by their
 * ibstat port GUIDs, else by the first word of the CA's node description ("node07 HCA-1").
 * (Kept to this one class so it can be swapped for the fabric graph model when that lands.)
 */
public final class FabricView {
    /** A switch-to-switch link seen from the leaf; width/speed null when ibnetdiscover did not print them. */
    public record Uplink(String leaf, int port, String remote, int remotePort, LinkWidth width, LinkSpeed speed, String where) {
        @Override
        public String toString() {
            return leaf + " port " + port + " <-> " + remote + " port " + remotePort
                    + (width != null && speed != null ? " (" + width + " " + speed + ")" : "");
        }
    }

    private final Map<String, String> leafOfHost = new TreeMap<>();
    private final Map<String, List<Uplink>> uplinks = new HashMap<>();

    public FabricView(Map<String, String> leafOfHost, Map<String, List<Uplink>> uplinks) {
        this.leafOfHost.putAll(leafOfHost);
        this.uplinks.putAll(uplinks);
    }

    public static FabricView empty() {
        return new FabricView(Map.of(), Map.of());
    }

    public static FabricView of(ClusterData d) {
        Topology t = d.fabric() == null ? null : d.fabric().topology();
        if (t == null) return empty();
        Map<Long, Topology.Node> byGuid = new HashMap<>();
        for (Topology.Node n : t.nodes()) byGuid.put(n.guid(), n);
        Map<Long, String> hostByPortGuid = new HashMap<>();
        for (HostData h : d.hosts().values())
            if (h.ibstat() != null)
                for (Ibstat.Ca ca : h.ibstat()) for (Ibstat.Port p : ca.ports()) hostByPortGuid.put(p.portGuid(), h.host());
        Map<String, String> leafOf = new TreeMap<>();
        Map<String, List<Uplink>> ups = new HashMap<>();
        for (Topology.Node n : t.nodes()) {
            if (n.type() == Topology.NodeType.CA) {
                for (Topology.Port p : n.ports()) {
                    String host = hostByPortGuid.get(p.portGuid());
                    if (host == null) host = firstWord(n.description());
                    Topology.Node sw = byGuid.get(p.remoteGuid());
                    if (host == null) continue;
                    if (sw != null && sw.type() == Topology.NodeType.SWITCH) leafOf.putIfAbsent(host, name(sw));
                    else if (sw == null && p.remoteId() != null && p.remoteId().startsWith("S-")) // switch block not in the file
                        leafOf.putIfAbsent(host, p.remoteDescription() == null || p.remoteDescription().isBlank()
                                ? String.format("0x%016x", p.remoteGuid()) : p.remoteDescription().trim());
                }
            } else if (n.type() == Topology.NodeType.SWITCH) {
                for (Topology.Port p : n.ports()) {
                    Topology.Node r = byGuid.get(p.remoteGuid());
                    if (r != null && r.type() == Topology.NodeType.SWITCH)
                        ups.computeIfAbsent(name(n), k -> new ArrayList<>()).add(new Uplink(name(n), p.port(), name(r),
                                p.remotePort(), p.width(), p.speed(), p.ref() == null ? "" : p.ref().toString()));
                }
            }
        }
        return new FabricView(leafOf, ups);
    }

    static String name(Topology.Node n) {
        String d = n.description() == null ? "" : n.description().trim();
        return d.isEmpty() ? String.format("0x%016x", n.guid()) : d;
    }

    private static String firstWord(String s) {
        if (s == null || s.isBlank()) return null;
        return s.trim().split("\\s+")[0];
    }

    public Optional<String> leafOf(String host) {
        return Optional.ofNullable(leafOfHost.get(host));
    }

    public boolean knowsLeaves() {
        return !leafOfHost.isEmpty();
    }

    /** Switch-to-switch links of a leaf, in port order. */
    public List<Uplink> uplinks(String leaf) {
        List<Uplink> l = new ArrayList<>(uplinks.getOrDefault(leaf, List.of()));
        l.sort(java.util.Comparator.comparingInt(Uplink::port));
        return l;
    }

    /** Hosts grouped by leaf (leaf name order), hosts not in the topology under "" last. */
    public Map<String, List<String>> groupByLeaf(List<String> hosts) {
        Map<String, List<String>> g = new TreeMap<>();
        List<String> unknown = new ArrayList<>();
        for (String h : hosts) {
            String l = leafOfHost.get(h);
            if (l == null) unknown.add(h);
            else g.computeIfAbsent(l, k -> new ArrayList<>()).add(h);
        }
        g.values().forEach(java.util.Collections::sort);
        java.util.Collections.sort(unknown);
        Map<String, List<String>> out = new java.util.LinkedHashMap<>(g);
        if (!unknown.isEmpty()) out.put("", unknown);
        return out;
    }
}
