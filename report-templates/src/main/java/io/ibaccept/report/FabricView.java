package io.ibaccept.report;

import io.ibaccept.fabric.Fabric;
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
 * The fabric seen from the operations side: which host each host CA belongs to, which switches are leaves and the
 * switch levels above them (all read from the roles and levels of the analysis' fabric graph: a SHARP aggregation
 * node is no host), and a unique Slurm-safe name per switch. topology is the ibnetdiscover output the inventory lists.
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
    /** switch name -> its group in the fabric graph (on three levels or more, its scalable unit) */
    final Map<String, Integer> switchGroup = new HashMap<>();
    /** switch record -> its name, for a switch whose GUID the dump does not give (redacted before it was published) */
    private final Map<io.ibaccept.parse.SourceRef, String> switchByRecord = new HashMap<>();
    /** the fabric's switch levels (1: leaves only), 0 without a fabric */
    final int levels;

    FabricView(ClusterData data, Fabric fabric) {
        this.topology = data.fabric() == null ? null : data.fabric().topology();
        this.levels = topology == null || fabric == null ? 0 : fabric.maxLevel();
        if (topology == null || fabric == null) return;
        Map<Long, String> byGuid = new HashMap<>();
        for (HostData h : data.hosts().values())
            if (h.ibstat() != null) for (Ibstat.Ca ca : h.ibstat()) byGuid.put(ca.nodeGuid(), h.host());
        for (Fabric.Node n : fabric.hosts()) {
            String host = byGuid.get(n.guid());
            if (host == null) {
                String first = io.ibaccept.fabric.Fabric.hostPart(n.description());
                host = first.isEmpty() ? String.format("0x%016x", n.guid()) : first;
            }
            caHost.put(n.guid(), host);
        }
        Set<String> used = new HashSet<>();
        fabric.switches().stream().sorted(java.util.Comparator.comparing(Fabric.Node::description).thenComparingLong(Fabric.Node::guid))
                .forEach(n -> {
                    String name = slurmName(n.description(), n.guid());
                    if (!used.add(name)) {
                        name = name + "-" + guidOrKey(n.guid());
                        used.add(name);
                    }
                    switchNames.put(n.guid(), name);
                    if (n.ref() != null) switchByRecord.put(n.ref(), name);
                    switchGroup.put(name, n.group());
                });
        for (Fabric.Link l : fabric.links()) {
            if (fabric.isHostLink(l)) {
                Fabric.Node a = fabric.node(l.a().guid());
                long sw = a.isSwitch() ? l.a().guid() : l.b().guid(), ca = sw == l.a().guid() ? l.b().guid() : l.a().guid();
                String leaf = switchNames.get(sw), host = caHost.get(ca);
                leafHosts.computeIfAbsent(leaf, k -> new TreeSet<>()).add(host);
                hostLeaves.computeIfAbsent(host, k -> new TreeSet<>()).add(leaf);
            } else if (fabric.isSwitchToSwitch(l)) {
                Fabric.Node a = fabric.node(l.a().guid()), b = fabric.node(l.b().guid());
                Fabric.Node hi = a.level() > b.level() ? a : b, lo = hi == a ? b : a;
                if (lo.level() < 1 || hi.level() != lo.level() + 1) continue;
                while (upper.size() < hi.level() - 1) upper.add(new TreeMap<>());
                upper.get(hi.level() - 2).computeIfAbsent(switchNames.get(hi.guid()), k -> new TreeSet<>()).add(switchNames.get(lo.guid()));
            }
        }
        upper.removeIf(Map::isEmpty);
    }

    /** The name of a switch of the topology, by its GUID or, when the dump gives none, by its record. */
    String switchName(Topology.Node n) {
        String s = n.guid() != 0 ? switchNames.get(n.guid()) : null;
        return s != null ? s : switchByRecord.getOrDefault(n.ref(), slurmName(n.description(), n.guid()));
    }

    /** A node's GUID in hex, or "nN" for a node the fabric keys by its record (its GUID unknown). */
    private static String guidOrKey(long key) {
        return key > 0 ? String.format("%016x", key) : "n" + -key;
    }

    boolean known() {
        return topology != null;
    }

    /**
     * A Slurm-safe switch name from a node description. Managed switches describe themselves "MF0;hostname:model/U1":
     * the hostname part is used. Characters outside [A-Za-z0-9._-] become '_'; an empty name is the GUID.
     */
    static String slurmName(String description, long guid) {
        String d = io.ibaccept.fabric.Fabric.shortName(description == null ? "" : description.strip());
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < d.length() && sb.length() < 64; i++) {
            char c = d.charAt(i);
            sb.append((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' ? c : '_');
        }
        String s = sb.toString().replaceAll("_+", "_").replaceAll("^[_.-]+|_+$", "");
        return s.isEmpty() ? "sw" + guidOrKey(guid) : s;
    }
}
