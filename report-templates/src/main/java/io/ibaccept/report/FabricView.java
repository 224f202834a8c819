package io.ibaccept.report;

import io.ibaccept.model.ClusterData;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The ibnetdiscover topology seen from the operations side: which host each CA belongs to, which switches are leaves
 * (they have CAs) and the switch levels above them, and a unique Slurm-safe name per switch.
 */
final class FabricView {
    final Topology topology;
    /** switch GUID -> Slurm-safe unique name */
    final Map<Long, String> switchNames = new LinkedHashMap<>();
    /** CA node GUID -> host (manifest host name where it can be matched, else the first word of the node description) */
    final Map<Long, String> caHost = new HashMap<>();
    /** leaf name -> hosts cabled to it */
    final Map<String, Set<String>> leafHosts = new TreeMap<>();
    /** host -> leaf names it is cabled to */
    final Map<String, Set<String>> hostLeaves = new HashMap<>();
    /** levels above the leaves: switch name -> names of the lower-level switches it connects, per level from 2 */
    final List<Map<String, Set<String>>> upper = new ArrayList<>();

    FabricView(ClusterData data) {
        this.topology = data.fabric() == null ? null : data.fabric().topology();
        if (topology == null) return;
        Map<Long, String> byGuid = new HashMap<>();
        for (HostData h : data.hosts().values())
            if (h.ibstat() != null) for (Ibstat.Ca ca : h.ibstat()) byGuid.put(ca.nodeGuid(), h.host());
        Map<Long, Topology.Node> nodes = new HashMap<>();
        Set<String> used = new HashSet<>();
        for (Topology.Node n : topology.nodes()) {
            nodes.put(n.guid(), n);
            if (n.type() == Topology.NodeType.CA) {
                String host = byGuid.get(n.guid());
                if (host == null) {
                    String first = firstWord(n.description());
                    host = first.isEmpty() ? String.format("0x%016x", n.guid()) : first;
                }
                caHost.put(n.guid(), host);
            }
        }
        topology.nodes().stream().filter(n -> n.type() == Topology.NodeType.SWITCH)
                .sorted(java.util.Comparator.comparing(Topology.Node::description).thenComparingLong(Topology.Node::guid))
                .forEach(n -> {
                    String name = slurmName(n.description(), n.guid());
                    if (!used.add(name)) {
                        name = name + "-" + String.format("%016x", n.guid());
                        used.add(name);
                    }
                    switchNames.put(n.guid(), name);
                });
        Set<Long> placed = new HashSet<>();
        for (Topology.Node n : topology.nodes()) {
            if (n.type() != Topology.NodeType.SWITCH) continue;
            for (Topology.Port p : n.ports()) {
                Topology.Node remote = nodes.get(p.remoteGuid());
                boolean ca = remote != null ? remote.type() == Topology.NodeType.CA : p.remoteId().startsWith("H-");
                if (!ca) continue;
                String host = caHost.getOrDefault(p.remoteGuid(), firstWord(p.remoteDescription()));
                if (host.isEmpty()) continue;
                String leaf = switchNames.get(n.guid());
                leafHosts.computeIfAbsent(leaf, k -> new TreeSet<>()).add(host);
                hostLeaves.computeIfAbsent(host, k -> new TreeSet<>()).add(leaf);
                placed.add(n.guid());
            }
        }
        Set<Long> level = new HashSet<>(placed);
        while (!level.isEmpty()) {
            Map<String, Set<String>> above = new TreeMap<>();
            Set<Long> next = new HashSet<>();
            for (Topology.Node n : topology.nodes()) {
                if (n.type() != Topology.NodeType.SWITCH || placed.contains(n.guid())) continue;
                for (Topology.Port p : n.ports()) {
                    if (!level.contains(p.remoteGuid())) continue;
                    above.computeIfAbsent(switchNames.get(n.guid()), k -> new TreeSet<>()).add(switchNames.get(p.remoteGuid()));
                    next.add(n.guid());
                }
            }
            if (above.isEmpty()) break;
            upper.add(above);
            placed.addAll(next);
            level = next;
        }
    }

    boolean known() {
        return topology != null;
    }

    static String firstWord(String s) {
        if (s == null) return "";
        String t = s.strip();
        int sp = t.indexOf(' ');
        return sp < 0 ? t : t.substring(0, sp);
    }

    /**
     * A Slurm-safe switch name from a node description. Managed switches describe themselves "MF0;hostname:model/U1":
     * the hostname part is used. Characters outside [A-Za-z0-9._-] become '_'; an empty name is the GUID.
     */
    static String slurmName(String description, long guid) {
        String d = description == null ? "" : description.strip();
        int semi = d.indexOf(';'), colon = d.indexOf(':', Math.max(semi, 0));
        if (semi >= 0 && colon > semi + 1) d = d.substring(semi + 1, colon);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < d.length() && sb.length() < 64; i++) {
            char c = d.charAt(i);
            sb.append((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' ? c : '_');
        }
        String s = sb.toString().replaceAll("_+", "_").replaceAll("^[_.-]+|_+$", "");
        return s.isEmpty() ? String.format("sw%016x", guid) : s;
    }
}
