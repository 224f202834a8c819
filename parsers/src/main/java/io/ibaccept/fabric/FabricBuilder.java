package io.ibaccept.fabric;

import io.ibaccept.fabric.Fabric.End;
import io.ibaccept.fabric.Fabric.Link;
import io.ibaccept.fabric.Fabric.Node;
import io.ibaccept.fabric.Fabric.Role;
import io.ibaccept.fabric.Fabric.Type;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.model.Topology;
import io.ibaccept.parse.SourceRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jgrapht.Graph;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.SimpleGraph;
import org.jgrapht.traverse.BreadthFirstIterator;

/**
 * Joins ibnetdiscover (nodes, GUIDs, the links that are up) and iblinkinfo (the state of every port, down ports
 * included, remote ends by LID) into one {@link Fabric}. Either input may be null. Pure and linear in the input size.
 */
public final class FabricBuilder {
    private FabricBuilder() {}

    private static final class RawNode {
        final long guid;
        final Type type;
        String description;
        int lid;
        SourceRef ref;
        long sysImage;
        Role role;

        RawNode(long guid, Type type, String description, int lid, SourceRef ref) {
            this.guid = guid;
            this.type = type;
            this.description = description;
            this.lid = lid;
            this.ref = ref;
        }
    }

    private static final class RawLink {
        final End a, b;
        LinkWidth width;
        LinkSpeed speed;
        String state = "", phys = "";
        final List<SourceRef> refs = new ArrayList<>();

        RawLink(End a, End b) {
            this.a = a;
            this.b = b;
        }
    }

    /** The fabric of a parsed dump (its ibnetdiscover and iblinkinfo; either may be unusable, i.e. null). */
    public static Fabric build(io.ibaccept.model.ClusterData data, NodeNameMap names) {
        return build(data.fabric().topology(), data.fabric().links(), names);
    }

    public static Fabric build(Topology topology, List<LinkInfo> iblinkinfo, NodeNameMap names) {
        NodeNameMap map = names == null ? NodeNameMap.EMPTY : names;
        Map<Long, RawNode> nodes = new LinkedHashMap<>();
        Map<String, RawLink> links = new LinkedHashMap<>();
        Map<String, Long> idKeys = new HashMap<>();
        Map<Long, Long> caPortToNode = new HashMap<>();
        Map<Integer, Long> lidToNode = new HashMap<>();
        List<String> notes = new ArrayList<>();

        if (topology != null) {
            for (Topology.Node n : topology.nodes()) {
                long key = key(n.guid(), n.id(), idKeys);
                RawNode raw = new RawNode(key, type(n.type()), n.description(), n.lid(), n.ref());
                raw.sysImage = n.sysImageGuid();
                nodes.put(key, raw);
                if (n.type() == Topology.NodeType.SWITCH && n.lid() > 0) lidToNode.put(n.lid(), key);
            }
            for (Topology.Node n : topology.nodes()) {
                long key = key(n.guid(), n.id(), idKeys);
                for (Topology.Port p : n.ports()) {
                    if (n.type() != Topology.NodeType.SWITCH) {
                        if (p.portGuid() != 0) caPortToNode.put(p.portGuid(), key);
                        if (p.lid() > 0) lidToNode.put(p.lid(), key);
                    }
                    long remote = key(p.remoteGuid(), p.remoteId(), idKeys);
                    if (!nodes.containsKey(remote)) {
                        // a peer ibnetdiscover printed on a port line but whose own record is missing (truncated output)
                        nodes.put(remote, new RawNode(remote, p.remoteId().startsWith("S-") ? Type.SWITCH : Type.CA,
                                p.remoteDescription().isEmpty() ? p.remoteId() : p.remoteDescription(), p.remoteLid(), p.ref()));
                        // iblinkinfo names a CA by its port GUID, known only from the missing record: its LID joins them
                        if (p.remoteLid() > 0) lidToNode.putIfAbsent(p.remoteLid(), remote);
                        notes.add(p.ref() + ": " + p.remoteId() + " appears as a peer but has no node record");
                    }
                    RawLink l = link(links, new End(key, p.port()), new End(remote, p.remotePort()));
                    if (l.width == null) l.width = p.width();
                    if (l.speed == null) l.speed = p.speed();
                    l.refs.add(p.ref());
                }
            }
        }

        if (iblinkinfo != null) {
            Map<String, Long> byName = new HashMap<>();
            List<long[]> keys = new ArrayList<>(iblinkinfo.size());
            for (LinkInfo li : iblinkinfo) {
                long key = li.switchNode() ? li.nodeGuid() : caPortToNode.getOrDefault(li.nodeGuid(), caByLid(nodes, lidToNode, li));
                if (key == 0) key = byLid(nodes, lidToNode, li, idKeys);
                RawNode n = nodes.get(key);
                if (n == null) {
                    n = new RawNode(key, li.switchNode() ? Type.SWITCH : Type.CA, li.nodeName(), li.switchNode() ? li.lid() : 0, li.ref());
                    nodes.put(key, n);
                }
                if (li.lid() > 0) lidToNode.putIfAbsent(li.lid(), key);
                byName.putIfAbsent(li.nodeName(), key);
                keys.add(new long[] {key});
            }
            for (int i = 0; i < iblinkinfo.size(); i++) {
                LinkInfo li = iblinkinfo.get(i);
                End me = new End(keys.get(i)[0], li.port());
                if (!li.isConnected()) {
                    continue; // collected below, once every cable is known
                }
                Long remote = li.remoteLid() > 0 ? lidToNode.get(li.remoteLid()) : null;
                if (remote == null) remote = byName.get(li.remoteName());
                if (remote == null) {
                    notes.add(li.ref() + ": remote LID " + li.remoteLid() + " (\"" + li.remoteName() + "\") is not a known node");
                    continue;
                }
                RawLink l = link(links, me, new End(remote, li.remotePort()));
                // iblinkinfo is the authority on state and the rate actually trained
                if (li.width() != null) l.width = li.width();
                if (li.speed() != null) l.speed = li.speed();
                if (l.state.isEmpty() || !li.isActive()) {
                    l.state = li.state();
                    l.phys = li.physState();
                }
                l.refs.add(li.ref());
            }
            Set<End> cabled = new HashSet<>();
            for (RawLink l : links.values()) {
                cabled.add(l.a);
                cabled.add(l.b);
            }
            List<Fabric.Port> down = new ArrayList<>();
            for (int i = 0; i < iblinkinfo.size(); i++) {
                LinkInfo li = iblinkinfo.get(i);
                End me = new End(keys.get(i)[0], li.port());
                if (!li.isConnected() && !cabled.contains(me)) down.add(new Fabric.Port(me, li.state(), li.physState(), li.ref()));
            }
            return finish(nodes, links, down, notes, map, caPortToNode, lidToNode);
        }
        return finish(nodes, links, List.of(), notes, map, caPortToNode, lidToNode);
    }

    /** The CA of an iblinkinfo entry whose port GUID no CA record gave (a cut topology), by its LID; else its own GUID. */
    private static long caByLid(Map<Long, RawNode> nodes, Map<Integer, Long> lidToNode, LinkInfo li) {
        Long byLid = li.lid() > 0 ? lidToNode.get(li.lid()) : null;
        return byLid != null && nodes.get(byLid) != null && nodes.get(byLid).type == Type.CA ? byLid : li.nodeGuid();
    }

    /**
     * A node whose GUID iblinkinfo does not give (redacted before the output was published): the topology's node of its
     * LID and type, else one node per LID (per name without a LID), so two of them are never one node.
     */
    private static long byLid(Map<Long, RawNode> nodes, Map<Integer, Long> lidToNode, LinkInfo li, Map<String, Long> idKeys) {
        Type type = li.switchNode() ? Type.SWITCH : Type.CA;
        Long known = li.lid() > 0 ? lidToNode.get(li.lid()) : null;
        if (known != null && nodes.get(known) != null && nodes.get(known).type == type) return known;
        return key(0, "iblinkinfo " + type + " " + (li.lid() > 0 ? "lid " + li.lid() : li.nodeName()), idKeys);
    }

    private static Fabric finish(Map<Long, RawNode> raw, Map<String, RawLink> rawLinks, List<Fabric.Port> down,
                                 List<String> notes, NodeNameMap map, Map<Long, Long> caPortToNode, Map<Integer, Long> lidToNode) {
        List<Link> links = new ArrayList<>(rawLinks.size());
        for (RawLink l : rawLinks.values()) links.add(new Link(l.a, l.b, l.width, l.speed, l.state, l.phys, l.refs));
        for (RawNode n : raw.values()) n.role = role(n);
        appliances(raw);
        Map<Long, Long> systems = chassis(raw);
        Map<Long, Integer> levels = levels(raw, links, systems.keySet());
        Map<Long, String> names = new HashMap<>();
        for (RawNode n : raw.values()) names.put(n.guid, map.name(n.guid).orElse(n.description));
        Map<Long, Integer> groups = groups(raw, links, levels, names);
        Map<Long, Node> nodes = new LinkedHashMap<>();
        for (RawNode n : raw.values()) {
            int level = n.type == Type.SWITCH ? levels.getOrDefault(n.guid, -1) : 0;
            nodes.put(n.guid, new Node(n.guid, n.type, n.role, names.get(n.guid), n.description, n.lid, level, systems.getOrDefault(n.guid, 0L),
                    groups.getOrDefault(n.guid, 0), n.ref));
        }
        return new Fabric(nodes, links, down, notes, caPortToNode, lidToNode);
    }

    /**
     * Switch groups: below the top level of a fabric of three or more levels, the switches joined without passing the
     * top (a scalable unit: its leaves and the spines they share); the top switches, and every switch of a fabric of
     * one or two levels, by the switches joined at all (a plane or rail). Numbered from 1 in the order of their first
     * member's name.
     */
    static Map<Long, Integer> groups(Map<Long, RawNode> raw, List<Link> links, Map<Long, Integer> levels, Map<Long, String> names) {
        int top = levels.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        Map<Long, Long> below = new HashMap<>(), all = new HashMap<>();
        for (long g : levels.keySet()) {
            below.put(g, g);
            all.put(g, g);
        }
        for (Link l : links) {
            if (!l.isUp()) continue;
            long a = l.a().guid(), b = l.b().guid();
            if (a == b || !levels.containsKey(a) || !levels.containsKey(b)) continue;
            union(all, a, b);
            if (levels.get(a) < top && levels.get(b) < top) union(below, a, b);
        }
        Map<Long, Long> rootOf = new HashMap<>();
        // the sign bit keeps a plane's root apart from a unit's root that happens to be the same switch
        for (long g : levels.keySet()) rootOf.put(g, top >= 3 && levels.get(g) < top ? find(below, g) : find(all, g) ^ Long.MIN_VALUE);
        // number the groups by the smallest name among their members, so the numbers do not depend on GUIDs
        Map<Long, String> first = new HashMap<>();
        rootOf.forEach((g, r) -> first.merge(r, names.getOrDefault(g, ""), (x, y) -> x.compareTo(y) <= 0 ? x : y));
        List<Long> order = new ArrayList<>(first.keySet());
        order.sort(java.util.Comparator.comparing((Long r) -> first.get(r)).thenComparing(r -> r));
        Map<Long, Integer> number = new HashMap<>();
        for (long r : order) number.put(r, number.size() + 1);
        Map<Long, Integer> out = new HashMap<>();
        rootOf.forEach((g, r) -> out.put(g, number.get(r)));
        return out;
    }

    private static long find(Map<Long, Long> parent, long x) {
        long r = x;
        while (parent.get(r) != r) r = parent.get(r);
        while (parent.get(x) != r) {
            long next = parent.get(x);
            parent.put(x, r);
            x = next;
        }
        return r;
    }

    private static void union(Map<Long, Long> parent, long a, long b) {
        long ra = find(parent, a), rb = find(parent, b);
        if (ra != rb) parent.put(ra, rb);
    }

    /** NVIDIA's SHARP aggregation node as every Quantum switch describes it ("Mellanox Technologies Aggregation Node"). */
    private static final java.util.regex.Pattern AGGREGATION_NODE = java.util.regex.Pattern.compile("(?i)\\bAggregation Node\\b");

    /**
     * What names a management machine in a CA's node description: a UFM appliance or server ("B11-P1-CUFM-02 mlx5_0",
     * "selene-ufm-s-01 HCA-2"), an appliance, a management node ("mgmt01").
     */
    private static final java.util.regex.Pattern APPLIANCE = java.util.regex.Pattern.compile(
            "(?i)ufm|appliance|management|mgmt");

    /**
     * CAs whose host part names a management machine become appliances, while such hosts are fewer than half of the
     * hosts: a word most hosts share is the cluster's naming (a lab of "r-ufm96", "r-ufm101" servers), not an appliance.
     */
    private static void appliances(Map<Long, RawNode> raw) {
        Set<String> hosts = new HashSet<>(), named = new HashSet<>();
        for (RawNode n : raw.values()) {
            if (n.role != Role.HOST) continue;
            String host = Fabric.hostPart(n.description);
            hosts.add(host);
            if (APPLIANCE.matcher(host).find() || APPLIANCE.matcher(n.description == null ? "" : n.description).find()) named.add(host);
        }
        if (named.isEmpty() || named.size() * 2 >= hosts.size()) return;
        for (RawNode n : raw.values()) if (n.role == Role.HOST && named.contains(Fabric.hostPart(n.description))) n.role = Role.APPLIANCE;
    }

    private static Role role(RawNode n) {
        return switch (n.type) {
            case SWITCH -> Role.SWITCH;
            case ROUTER -> Role.ROUTER;
            case CA -> n.description != null && AGGREGATION_NODE.matcher(n.description).find() ? Role.AGGREGATION_NODE : Role.HOST;
        };
    }

    /**
     * Switch GUID -> system image GUID for the ASICs of chassis switches: two or more switches that print the same
     * sysimgguid are one system (a director's line and spine ASICs). A switch alone in its system is not listed.
     */
    private static Map<Long, Long> chassis(Map<Long, RawNode> raw) {
        Map<Long, List<Long>> bySystem = new HashMap<>();
        for (RawNode n : raw.values())
            if (n.type == Type.SWITCH && n.sysImage != 0) bySystem.computeIfAbsent(n.sysImage, k -> new ArrayList<>()).add(n.guid);
        Map<Long, Long> out = new HashMap<>();
        bySystem.forEach((system, members) -> {
            if (members.size() > 1) for (long g : members) out.put(g, system);
        });
        return out;
    }

    /**
     * Switch levels from the hosts up. Leaves are the switches with hosts, except a switch whose switch neighbours
     * are mostly leaves themselves: that is a spine with a host plugged into it (fat-tree validation reports it).
     * The other levels are the BFS depth from the leaves over the switch-to-switch links that are up.
     */
    static Map<Long, Integer> levels(Map<Long, RawNode> nodes, List<Link> links, Set<Long> chassis) {
        Graph<Long, DefaultEdge> g = new SimpleGraph<>(DefaultEdge.class);
        Set<Long> withHosts = new HashSet<>();
        for (RawNode n : nodes.values()) if (n.type == Type.SWITCH) g.addVertex(n.guid);
        for (Link l : links) {
            if (!l.isUp()) continue;
            RawNode a = nodes.get(l.a().guid()), b = nodes.get(l.b().guid());
            if (a == null || b == null) continue;
            if (a.type == Type.SWITCH && b.type == Type.SWITCH) {
                if (a.guid != b.guid) g.addEdge(a.guid, b.guid);
            } else if (a.type == Type.SWITCH && b.role == Role.HOST) withHosts.add(a.guid);
            else if (b.type == Type.SWITCH && a.role == Role.HOST) withHosts.add(b.guid);
        }
        Set<Long> leaves = new HashSet<>();
        for (long s : withHosts) {
            int same = 0, other = 0;
            for (DefaultEdge e : g.edgesOf(s)) {
                long n = g.getEdgeSource(e) == s ? g.getEdgeTarget(e) : g.getEdgeSource(e);
                if (withHosts.contains(n)) same++;
                else other++;
            }
            if (!(same >= 2 && same > other)) leaves.add(s);
        }
        Map<Long, Integer> levels = new HashMap<>();
        if (leaves.isEmpty()) return levels;
        // multi-source BFS: a virtual root above every leaf (JGraphT's iterator walks several start vertices one by one)
        long root = Long.MIN_VALUE;
        while (g.containsVertex(root)) root++;
        g.addVertex(root);
        for (long leaf : leaves) g.addEdge(root, leaf);
        BreadthFirstIterator<Long, DefaultEdge> bfs = new BreadthFirstIterator<>(g, root);
        while (bfs.hasNext()) {
            long v = bfs.next();
            if (v != root) levels.put(v, bfs.getDepth(v));
        }
        g.removeVertex(root);
        hangingBranches(g, levels, leaves);
        emptyLeaves(g, links, leaves, levels, chassis);
        return levels;
    }

    /**
     * A unit without hosts yet, cabled below the top switches (its spines to the cores, its leaves to its spines), is
     * reached from the hosts only over the top: counted from the hosts, its spines would sit above the cores and its
     * leaves above those. The top is the deepest switch that joins parts of the fabric (reaches more leaves with hosts
     * than any one switch below it does); a switch deeper than that joins nothing, and is mirrored below the top
     * (depth top + k -> level top - k), as its unit will be once hosts are cabled.
     */
    private static void hangingBranches(Graph<Long, DefaultEdge> g, Map<Long, Integer> levels, Set<Long> leaves) {
        int deepest = levels.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        Map<Long, Integer> leafIndex = new HashMap<>();
        for (long l : leaves) leafIndex.put(l, leafIndex.size());
        // below[s]: the leaves with hosts reached from s going down one level at a time
        Map<Long, java.util.BitSet> below = new HashMap<>();
        List<List<Long>> byDepth = new ArrayList<>();
        for (int d = 0; d <= deepest; d++) byDepth.add(new ArrayList<>());
        levels.forEach((v, d) -> byDepth.get(d).add(v));
        int top = 0;
        for (int d = 1; d <= deepest; d++) {
            for (long v : byDepth.get(d)) {
                java.util.BitSet mine = new java.util.BitSet();
                if (leafIndex.containsKey(v)) mine.set(leafIndex.get(v));
                int widest = 0;
                for (long n : neighbours(g, v)) {
                    if (levels.getOrDefault(n, -1) != d - 1) continue;
                    java.util.BitSet theirs = below.get(n);
                    widest = Math.max(widest, theirs.cardinality());
                    mine.or(theirs);
                }
                below.put(v, mine);
                // it joins parts when no one switch below it reaches all it reaches (a core that lost a cable or two
                // reaches a little less than its peers; a switch above the cores reaches nothing a core does not)
                if (d >= 2 && mine.cardinality() > widest) top = d;
            }
        }
        if (top < 2) return;
        for (var e : levels.entrySet()) {
            int d = e.getValue();
            if (d > top && 2 * top - d >= 1) e.setValue(2 * top - d);
        }
    }

    /**
     * A leaf with no host cabled yet is still a leaf, not a level above the spines: a host-less switch whose every
     * switch neighbour is a spine, all of them spines some leaf with hosts reaches too, and cabled at each spine among
     * the ports that spine gives its leaves (or anywhere, when all leaves reach the same spines: one unit, no core). A core connects spines of several units or planes, which no single leaf
     * reaches, on the spines' upper ports, so it keeps its level (also when it lost its links to all units but one).
     */
    private static void emptyLeaves(Graph<Long, DefaultEdge> g, List<Link> links, Set<Long> leaves, Map<Long, Integer> levels, Set<Long> chassis) {
        List<Long> candidates = new ArrayList<>();
        for (var e : levels.entrySet()) if (e.getValue() >= 3) candidates.add(e.getKey());
        if (candidates.isEmpty()) return;
        // per spine: the highest port it gives a leaf with hosts; per (spine, neighbour): the spine's port
        Map<Long, Integer> lastLeafPort = new HashMap<>();
        Map<Long, Map<Long, Integer>> portTo = new HashMap<>();
        for (Link l : links) {
            if (!l.isUp()) continue;
            for (End e : new End[] {l.a(), l.b()}) {
                long other = l.other(e).guid();
                if (levels.getOrDefault(e.guid(), -1) != 2) continue;
                portTo.computeIfAbsent(e.guid(), k -> new HashMap<>()).merge(other, e.port(), Math::min);
                if (leaves.contains(other)) lastLeafPort.merge(e.guid(), e.port(), Math::max);
            }
        }
        // every leaf with hosts reaching the same spines: one unit, where a core layer has nothing to join, so a switch
        // above those spines is a leaf without hosts yet even on the spines' last ports (the spare leaf cabled last)
        Set<Set<Long>> units = new HashSet<>();
        for (long leaf : leaves) {
            Set<Long> spines = new HashSet<>(neighbours(g, leaf));
            spines.removeIf(n -> levels.getOrDefault(n, -1) != 2);
            units.add(spines);
        }
        boolean oneUnit = units.size() == 1;
        for (long s : candidates) {
            Set<Long> up = neighbours(g, s);
            if (up.isEmpty() || !up.stream().allMatch(n -> levels.getOrDefault(n, -1) == 2)) continue;
            // a chassis' spine ASICs sit above its line ASICs by construction: never an empty leaf
            if (chassis.contains(s)) continue;
            boolean onLeafPorts = up.stream().allMatch(sp -> portTo.getOrDefault(sp, Map.of()).getOrDefault(s, Integer.MAX_VALUE)
                    <= lastLeafPort.getOrDefault(sp, -1));
            if (!onLeafPorts && !oneUnit) continue;
            long any = up.iterator().next();
            for (long leaf : neighbours(g, any)) {
                // reaching about as many spines as a leaf of the unit does (a core that lost links reaches few)
                if (leaves.contains(leaf) && neighbours(g, leaf).containsAll(up) && up.size() * 2 >= spinesOf(g, leaf, levels)) {
                    levels.put(s, 1);
                    break;
                }
            }
        }
    }

    private static long spinesOf(Graph<Long, DefaultEdge> g, long leaf, Map<Long, Integer> levels) {
        return neighbours(g, leaf).stream().filter(n -> levels.getOrDefault(n, -1) == 2).count();
    }

    private static Set<Long> neighbours(Graph<Long, DefaultEdge> g, long v) {
        Set<Long> out = new HashSet<>();
        for (DefaultEdge e : g.edgesOf(v)) out.add(g.getEdgeSource(e) == v ? g.getEdgeTarget(e) : g.getEdgeSource(e));
        return out;
    }

    private static RawLink link(Map<String, RawLink> links, End x, End y) {
        End a = x.compareTo(y) <= 0 ? x : y, b = a == x ? y : x;
        return links.computeIfAbsent(a.guid() + ":" + a.port() + "|" + b.guid() + ":" + b.port(), k -> new RawLink(a, b));
    }

    /** Nodes keyed by GUID; ids without one (ibsim netfile names such as "S-leaf01") get a stable stand-in key. */
    private static long key(long guid, String id, Map<String, Long> idKeys) {
        if (guid != 0) return guid;
        return idKeys.computeIfAbsent(id, k -> (long) -(idKeys.size() + 1));
    }

    private static Type type(Topology.NodeType t) {
        return switch (t) {
            case SWITCH -> Type.SWITCH;
            case CA -> Type.CA;
            case ROUTER -> Type.ROUTER;
        };
    }
}
