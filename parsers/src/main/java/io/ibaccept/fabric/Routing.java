package io.ibaccept.fabric;

import io.ibaccept.model.ForwardingTables;
import io.ibaccept.model.Lft;
import io.ibaccept.parse.SourceRef;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the switches' unicast forwarding tables do on this fabric: whether every CA LID is reached from every switch
 * (dead ends, forwarding loops, paths longer than the tree needs), whether the routes can deadlock (a cycle in the
 * channel dependency graph of the switch-to-switch ports, all on one VL), and how evenly the destinations spread over
 * each switch's uplinks and over parallel downlinks. Walks one destination at a time over every switch (linear in
 * switches x LIDs, never all host pairs). Built once per analysis from the fabric graph and dump_fts.
 */
public final class Routing {
    /** Why a destination is not reached from a switch, found at the switch where the path breaks. */
    public enum Break {
        /** the table has no entry for the LID */
        NO_ENTRY,
        /** the entry is port 0 (the switch itself) on a switch that is not the destination */
        TO_ITSELF,
        /** the entry names a port with no active cable */
        PORT_DOWN,
        /** the entry leads to a CA that is not the destination */
        WRONG_NODE
    }

    /** A port packets leave a switch by. */
    public record Hop(long switchGuid, int port) {}

    /** LIDs kept per finding (the count says how many there are): a broken dump cannot make the model grow with switches x LIDs. */
    public static final int LIDS_KEPT = 1000;

    /**
     * Destinations that one switch's entries send nowhere, for one cause and port (port -1 for a missing entry): count
     * of them, the first LIDS_KEPT.
     */
    public record DeadEnd(Break cause, long switchGuid, int port, int count, List<Integer> lids, long reached, SourceRef ref) {}

    /** A forwarding loop: the hops the packets go round, and the destinations caught in it (count, the first LIDS_KEPT). */
    public record Loop(List<Hop> cycle, int count, List<Integer> lids) {}

    /** Destinations whose path from a switch crosses more switches than the tree needs (hops > bound). */
    public record LongPath(long switchGuid, int hops, int bound, int count, List<Integer> lids) {}

    /** LIDs found for one finding while walking: all counted, the first LIDS_KEPT kept. */
    private static final class Lids {
        final List<Integer> kept = new ArrayList<>();
        int count;

        void add(int lid) {
            if (count++ < LIDS_KEPT) kept.add(lid);
        }

        /** Those of a later slice of the walk, after these. */
        void addAll(Lids o) {
            for (int i = 0; i < o.kept.size() && kept.size() < LIDS_KEPT; i++) kept.add(o.kept.get(i));
            count += o.count;
        }
    }

    /**
     * A cycle of switch-to-switch ports in the channel dependency graph: each port's traffic waits for buffers of the
     * next. channels: how many ports depend on each other in the strongly connected part the cycle is from.
     */
    public record CreditLoop(List<Hop> cycle, int channels) {}

    /** How many destination LIDs leave a switch by one port, and the switch at its other end. */
    public record PortLoad(int port, long peer, int lids) {}

    /**
     * The spread of destinations over a group of ports of one switch: its uplinks (kind "uplinks") or its parallel
     * downlinks to one lower switch (kind "downlinks", peer that switch).
     */
    public record Spread(long switchGuid, String kind, long peer, List<PortLoad> ports) {
        public int max() {
            return ports.stream().mapToInt(PortLoad::lids).max().orElse(0);
        }

        public int min() {
            return ports.stream().mapToInt(PortLoad::lids).min().orElse(0);
        }

        public double mean() {
            return ports.stream().mapToInt(PortLoad::lids).average().orElse(0);
        }

        /** Most loaded port over the mean; 1 when even (or nothing routed). */
        public double ratio() {
            double m = mean();
            return m == 0 ? 1 : max() / m;
        }
    }

    private final List<DeadEnd> deadEnds = new ArrayList<>();
    private final List<Loop> loops = new ArrayList<>();
    private final List<LongPath> longPaths = new ArrayList<>();
    private final List<CreditLoop> creditLoops = new ArrayList<>();
    private final List<Spread> spreads = new ArrayList<>();
    private final List<Integer> unroutedLids = new ArrayList<>();
    private final List<Long> switchesWithoutTable = new ArrayList<>();
    private final List<Lft> tablesOfUnknownSwitches = new ArrayList<>();
    private final Map<Integer, Long> destinationNodes = new HashMap<>();
    private final Map<Long, SourceRef> tableRefs = new HashMap<>();
    private final Map<Long, Integer> baseLids = new HashMap<>();
    private int destinations, unresolvedLids, channels, maxHops;
    private long pathsWalked;
    private Walker walker;

    private Routing() {}

    /**
     * The switch ports a packet for this LID leaves by, from the switch fromSwitch on, to the CA that holds the LID;
     * empty when it does not get there (no table, a dead end, a loop) or the LID is not a walked CA LID.
     */
    public List<Hop> path(long fromSwitch, int lid) {
        return walker == null ? List.of() : walker.path(fromSwitch, lid);
    }

    /** The CA LIDs walked (hosts, aggregation nodes; each LID of an LMC range). */
    public int destinations() {
        return destinations;
    }

    /** The CA node a walked destination LID belongs to, or 0. */
    public long nodeOfLid(int lid) {
        return destinationNodes.getOrDefault(lid, 0L);
    }

    /** The first walked LID of a CA node (its base LID), or 0. */
    public int lidOfNode(long caNode) {
        return baseLids.getOrDefault(caNode, 0);
    }

    /** Where a switch's table starts in the dump, or null when it was not read. */
    public SourceRef tableRef(long switchGuid) {
        return tableRefs.get(switchGuid);
    }

    /** Switch-to-destination paths followed. */
    public long pathsWalked() {
        return pathsWalked;
    }

    /** LIDs routed by some table whose node neither the tables nor the fabric scan name: not walked. */
    public int unresolvedLids() {
        return unresolvedLids;
    }

    /** The most switches a working path crosses. */
    public int maxHops() {
        return maxHops;
    }

    /** Switch-to-switch ports that carry some route: the vertices of the dependency graph. */
    public int channels() {
        return channels;
    }

    public List<DeadEnd> deadEnds() {
        return deadEnds;
    }

    public List<Loop> loops() {
        return loops;
    }

    public List<LongPath> longPaths() {
        return longPaths;
    }

    public List<CreditLoop> creditLoops() {
        return creditLoops;
    }

    /** Uplink spreads of every switch below the top level, then downlink bundles of two or more parallel cables. */
    public List<Spread> spreads() {
        return spreads;
    }

    /** CA LIDs that no switch's table routes. */
    public List<Integer> unroutedLids() {
        return unroutedLids;
    }

    /** Switches of the fabric whose table was not in the dump (their paths are not judged). */
    public List<Long> switchesWithoutTable() {
        return switchesWithoutTable;
    }

    /** Tables of switches the fabric scan does not have. */
    public List<Lft> tablesOfUnknownSwitches() {
        return tablesOfUnknownSwitches;
    }

    /** Whether anything was walked: tables of the fabric's switches and CA destinations. */
    public boolean judged() {
        return destinations > 0;
    }

    public static Routing analyze(Fabric f, ForwardingTables tables) {
        return analyze(f, tables, 0);
    }

    /** slices: how many slices of the destinations are walked in parallel; 0: as the fabric's size and the machine's cores say. */
    static Routing analyze(Fabric f, ForwardingTables tables, int slices) {
        Routing r = new Routing();
        r.walker = new Walker(f, tables, r, slices);
        r.walker.run();
        return r;
    }

    /** The walk's working arrays: switches by index, each port's peer, each switch's table. */
    private static final class Walker {
        private static final int NONE = -1, CA = -2, DOWN = -3;
        private final Fabric f;
        private final ForwardingTables tables;
        private final Routing r;
        private final List<Fabric.Node> sw = new ArrayList<>();
        private final Map<Long, Integer> idx = new HashMap<>();
        private Lft[] lft;
        private int[][] peer; // per switch, per port: switch index, CA, DOWN or NONE (no cable)
        private long[][] peerGuid;
        private int[][] channel; // per switch, per port: the dependency graph's vertex, -1 when not switch-to-switch
        private int[] chanTo; // per vertex: the switch at the port's other end
        private boolean[] source;

        private final int slices;

        Walker(Fabric f, ForwardingTables tables, Routing r, int slices) {
            this.f = f;
            this.tables = tables;
            this.r = r;
            this.slices = slices;
        }

        void run() {
            for (Fabric.Node n : f.switches()) {
                idx.put(n.guid(), sw.size());
                sw.add(n);
            }
            int n = sw.size();
            lft = new Lft[n];
            for (Lft t : tables.switches()) {
                Integer i = idx.get(t.switchGuid());
                if (i == null) r.tablesOfUnknownSwitches.add(t);
                else {
                    lft[i] = t;
                    r.tableRefs.put(t.switchGuid(), t.ref());
                }
            }
            for (int i = 0; i < n; i++) if (lft[i] == null) r.switchesWithoutTable.add(sw.get(i).guid());
            ports();
            List<int[]> dests = destinations();
            r.destinations = dests.size();
            if (dests.isEmpty()) return;
            BitSet[] deps = new BitSet[r.channels];
            walk(dests, deps);
            creditLoops(deps);
            if (isTree()) spreads(dests);
        }

        List<Hop> path(long fromSwitch, int lid) {
            Integer start = idx.get(fromSwitch);
            long target = r.nodeOfLid(lid);
            if (start == null || target == 0 || peer == null) return List.of();
            List<Hop> out = new ArrayList<>();
            int x = start;
            for (int steps = 0; steps <= sw.size(); steps++) {
                if (lft[x] == null) return List.of();
                int p = lft[x].port(lid);
                if (p <= 0 || p >= peer[x].length) return List.of();
                out.add(new Hop(sw.get(x).guid(), p));
                if (peer[x][p] == CA) return peerGuid[x][p] == target ? out : List.of();
                if (peer[x][p] < 0) return List.of();
                x = peer[x][p];
            }
            return List.of();
        }

        private void ports() {
            int n = sw.size();
            peer = new int[n][];
            peerGuid = new long[n][];
            channel = new int[n][];
            source = new boolean[n];
            for (int i = 0; i < n; i++) {
                int top = Math.max(1, f.topPort(sw.get(i).guid()));
                peer[i] = new int[top + 1];
                peerGuid[i] = new long[top + 1];
                channel[i] = new int[top + 1];
                java.util.Arrays.fill(peer[i], NONE);
                java.util.Arrays.fill(channel[i], -1);
                for (Fabric.Port p : f.downPortsOf(sw.get(i).guid())) peer[i][p.end().port()] = DOWN;
            }
            int channels = 0;
            List<Integer> to = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                long g = sw.get(i).guid();
                for (Fabric.Link l : f.linksOf(g)) {
                    // a loopback cable has both ends here
                    for (Fabric.End me : l.a().guid() == l.b().guid() ? List.of(l.a(), l.b()) : List.of(l.endAt(g))) {
                        Fabric.End other = l.other(me);
                        int p = me.port();
                        peerGuid[i][p] = other.guid();
                        if (!l.isActive()) {
                            peer[i][p] = DOWN;
                            continue;
                        }
                        Integer j = idx.get(other.guid());
                        if (j != null) {
                            peer[i][p] = j;
                            channel[i][p] = channels++;
                            to.add(j);
                        } else {
                            Fabric.Node o = f.node(other.guid());
                            peer[i][p] = o != null && o.type() == Fabric.Type.CA ? CA : NONE;
                            if (peer[i][p] == CA) source[i] = true;
                        }
                    }
                }
            }
            r.channels = channels;
            chanTo = to.stream().mapToInt(Integer::intValue).toArray();
        }

        /** CA destination LIDs and their node: {lid, index into destNode}; named by the tables themselves, else by the scan. */
        private long[] destNode;

        private List<int[]> destinations() {
            BitSet lids = new BitSet();
            for (Lft t : lft) if (t != null) t.lids().forEach(lids::set);
            // a CA LID the fabric scan knows but no table routes is walked too: every switch is a dead end for it
            for (int lid : f.lids()) {
                Fabric.Node n = f.nodeOfLid(lid);
                if (n != null && n.type() == Fabric.Type.CA && lid > 0 && lid <= Lft.MAX_UNICAST_LID) lids.set(lid);
            }
            List<int[]> out = new ArrayList<>();
            List<Long> nodes = new ArrayList<>();
            for (int lid = lids.nextSetBit(0); lid >= 0; lid = lids.nextSetBit(lid + 1)) {
                ForwardingTables.Destination d = tables.destinations().get(lid);
                Fabric.Node node = null;
                if (d != null) node = d.isSwitch() ? f.node(d.portGuid()) : f.caOfPort(d.portGuid());
                if (node == null) node = f.nodeOfLid(lid);
                if (node == null) {
                    if (d == null || !d.isSwitch()) r.unresolvedLids++;
                    continue;
                }
                if (node.type() != Fabric.Type.CA) continue;
                out.add(new int[] {lid, nodes.size()});
                nodes.add(node.guid());
                r.destinationNodes.put(lid, node.guid());
                r.baseLids.putIfAbsent(node.guid(), lid);
            }
            destNode = nodes.stream().mapToLong(Long::longValue).toArray();
            return out;
        }

        /** Below this many switch x destination steps the walk stays on one thread. */
        private static final long PARALLEL_FROM = 4_000_000L;

        /**
         * Walks every destination from every switch. A large fabric's destinations are walked in consecutive slices on
         * the machine's cores, each with its own working arrays; the slices' findings are then joined in destination
         * order, so the result is the one a single pass gives.
         */
        private void walk(List<int[]> dests, BitSet[] deps) {
            int n = sw.size();
            int slices = this.slices > 0 ? Math.min(this.slices, Math.max(1, dests.size()))
                    : (long) n * dests.size() < PARALLEL_FROM ? 1 : Math.min(Runtime.getRuntime().availableProcessors(), 8);
            List<Pass> passes = new ArrayList<>();
            int per = (dests.size() + slices - 1) / slices;
            for (int from = 0; from < dests.size(); from += per)
                passes.add(new Pass(dests.subList(from, Math.min(dests.size(), from + per)), from == 0 ? deps : new BitSet[deps.length]));
            if (passes.size() == 1) passes.get(0).run();
            else passes.parallelStream().forEach(Pass::run);
            Pass all = passes.get(0);
            for (int k = 1; k < passes.size(); k++) all.join(passes.get(k), deps);
            all.conclude();
        }

        /** The walk of a slice of the destinations: its working arrays and what it found. */
        private final class Pass {
            final List<int[]> dests;
            final BitSet[] deps;
            final Map<String, DeadEnd> ends = new LinkedHashMap<>();
            final Map<String, Lids> endLids = new HashMap<>();
            final Map<String, List<Hop>> loops = new LinkedHashMap<>();
            final Map<String, Lids> loopLids = new HashMap<>();
            final Map<Long, int[]> longest = new LinkedHashMap<>(); // per switch: bound, most hops
            final Map<Long, Lids> longLids = new LinkedHashMap<>();
            final Map<Integer, Integer> noEntry = new HashMap<>();
            long paths;
            int maxHops;

            /** deps: the dependency graph this slice fills (the walk's own for the first slice; the others' are joined into it). */
            Pass(List<int[]> dests, BitSet[] deps) {
                this.dests = dests;
                this.deps = deps;
            }

            void run() {
                int n = sw.size();
                byte[] state = new byte[n]; // 0 unseen, 1 on the current path, 2 reaches, 3 broken, 4 not judged (a switch without table)
                int[] hops = new int[n];
                int[] next = new int[n]; // the next switch on the way, -1 at the last switch
                int[] out = new int[n];
                int[] stack = new int[n];
                int top = f.maxLevel();
                boolean tree = isTree();
                for (int[] d : dests) {
                    int lid = d[0];
                    long target = destNode[d[1]];
                    java.util.Arrays.fill(state, (byte) 0);
                    for (int s = 0; s < n; s++) {
                        if (state[s] != 0) continue;
                        int depth = 0, x = s;
                        byte end;
                        while (true) {
                            if (lft[x] == null) {
                                state[x] = 4;
                                end = 4;
                                break;
                            }
                            state[x] = 1;
                            stack[depth++] = x;
                            int p = lft[x].port(lid);
                            out[x] = p;
                            next[x] = -1;
                            Break cause = null;
                            if (p < 0) cause = Break.NO_ENTRY;
                            else if (p == 0) cause = Break.TO_ITSELF;
                            else if (p >= peer[x].length || peer[x][p] == NONE || peer[x][p] == DOWN) cause = Break.PORT_DOWN;
                            else if (peer[x][p] == CA) {
                                if (peerGuid[x][p] == target) {
                                    hops[x] = 1;
                                    end = 2;
                                    state[x] = 2;
                                    depth--;
                                    break;
                                }
                                cause = Break.WRONG_NODE;
                            }
                            if (cause != null) {
                                if (cause == Break.NO_ENTRY) noEntry.merge(lid, 1, Integer::sum);
                                String key = cause + " " + x + " " + (cause == Break.NO_ENTRY ? -1 : p);
                                if (!ends.containsKey(key)) ends.put(key, new DeadEnd(cause, sw.get(x).guid(), cause == Break.NO_ENTRY ? -1 : p, 0, List.of(),
                                        cause == Break.WRONG_NODE ? peerGuid[x][p] : 0, lft[x].ref()));
                                endLids.computeIfAbsent(key, k -> new Lids()).add(lid);
                                state[x] = 3;
                                depth--;
                                end = 3;
                                break;
                            }
                            int y = peer[x][p];
                            next[x] = y;
                            if (state[y] == 1) {
                                // round again: the hops from y to x are the loop
                                List<Hop> cycle = new ArrayList<>();
                                int from = depth - 1;
                                while (stack[from] != y) from--;
                                for (int k = from; k < depth; k++) cycle.add(new Hop(sw.get(stack[k]).guid(), out[stack[k]]));
                                List<Hop> round = canonical(cycle);
                                loops.putIfAbsent(round.toString(), List.copyOf(round));
                                loopLids.computeIfAbsent(round.toString(), k -> new Lids()).add(lid);
                                end = 3;
                                break;
                            }
                            if (state[y] != 0) {
                                end = state[y];
                                break;
                            }
                            x = y;
                        }
                        // unwind: everything on the path shares its end
                        for (int k = depth - 1; k >= 0; k--) {
                            int z = stack[k];
                            if (end == 2) {
                                hops[z] = next[z] >= 0 ? hops[next[z]] + 1 : hops[z];
                                state[z] = 2;
                            } else state[z] = end;
                        }
                    }
                    for (int s = 0; s < n; s++) {
                        if (state[s] != 2) continue;
                        paths++;
                        maxHops = Math.max(maxHops, hops[s]);
                        if (tree && sw.get(s).level() >= 1) {
                            int bound = 2 * top - sw.get(s).level();
                            if (hops[s] > bound) {
                                long g = sw.get(s).guid();
                                int[] b = longest.computeIfAbsent(g, k -> new int[] {bound, 0});
                                b[1] = Math.max(b[1], hops[s]);
                                longLids.computeIfAbsent(g, k -> new Lids()).add(lid);
                            }
                        }
                    }
                    dependencies(state, next, out, deps);
                }
            }

            /** Adds what a later slice found, after what this one found. */
            void join(Pass o, BitSet[] into) {
                o.ends.forEach(ends::putIfAbsent);
                o.endLids.forEach((k, v) -> endLids.computeIfAbsent(k, x -> new Lids()).addAll(v));
                o.loops.forEach(loops::putIfAbsent);
                o.loopLids.forEach((k, v) -> loopLids.computeIfAbsent(k, x -> new Lids()).addAll(v));
                o.longest.forEach((g, b) -> {
                    int[] mine = longest.computeIfAbsent(g, x -> new int[] {b[0], 0});
                    mine[1] = Math.max(mine[1], b[1]);
                });
                o.longLids.forEach((k, v) -> longLids.computeIfAbsent(k, x -> new Lids()).addAll(v));
                o.noEntry.forEach((lid, c) -> noEntry.merge(lid, c, Integer::sum));
                paths += o.paths;
                maxHops = Math.max(maxHops, o.maxHops);
                for (int c = 0; c < o.deps.length; c++) {
                    if (o.deps[c] == null) continue;
                    if (into[c] == null) into[c] = o.deps[c];
                    else into[c].or(o.deps[c]);
                }
            }

            /** The findings of the whole walk, into the routing's record. */
            void conclude() {
                r.pathsWalked += paths;
                r.maxHops = Math.max(r.maxHops, maxHops);
                // a LID no switch routes is one fault of the SM, not one per switch
                int tablesRead = (int) java.util.Arrays.stream(lft).filter(java.util.Objects::nonNull).count();
                for (var e : noEntry.entrySet()) if (e.getValue() == tablesRead) r.unroutedLids.add(e.getKey());
                java.util.Collections.sort(r.unroutedLids);
                java.util.Set<Integer> unrouted = new java.util.HashSet<>(r.unroutedLids);
                for (var en : ends.entrySet()) {
                    DeadEnd e = en.getValue();
                    Lids all = endLids.get(en.getKey());
                    List<Integer> lids = e.cause() == Break.NO_ENTRY ? all.kept.stream().filter(l -> !unrouted.contains(l)).toList() : all.kept;
                    // every switch's missing entries include the LIDs no switch routes: those are one finding of their own
                    int count = e.cause() == Break.NO_ENTRY ? all.count - unrouted.size() : all.count;
                    if (count > 0) r.deadEnds.add(new DeadEnd(e.cause(), e.switchGuid(), e.port(), count, List.copyOf(lids), e.reached(), e.ref()));
                }
                loops.forEach((k, cycle) -> r.loops.add(new Loop(cycle, loopLids.get(k).count, List.copyOf(loopLids.get(k).kept))));
                longest.forEach((g, b) -> r.longPaths.add(new LongPath(g, b[1], b[0], longLids.get(g).count, List.copyOf(longLids.get(g).kept))));
            }
        }

        /**
         * The routes towards one destination from the switches with CAs (where traffic enters): each switch-to-switch
         * port they use waits for the next switch-to-switch port on the way.
         */
        private void dependencies(byte[] state, int[] next, int[] out, BitSet[] deps) {
            int n = sw.size();
            boolean[] used = new boolean[n];
            for (int s = 0; s < n; s++) {
                if (!source[s]) continue;
                int x = s, guard = 0;
                // only working routes: a forwarding loop is reported as one, not again as a credit loop
                while (x >= 0 && state[x] == 2 && !used[x] && guard++ <= n) {
                    used[x] = true;
                    int y = next[x];
                    if (y < 0) break;
                    int c = channel[x][out[x]];
                    int q = out[y];
                    if (c >= 0 && q > 0 && q < channel[y].length && channel[y][q] >= 0) {
                        // by the next switch's port number: one small set per port, whatever the fabric's size
                        if (deps[c] == null) deps[c] = new BitSet(channel[y].length);
                        deps[c].set(q);
                    }
                    x = y;
                }
            }
        }

        /** Strongly connected parts of the dependency graph (iterative Tarjan); one cycle named from each. */
        private void creditLoops(BitSet[] deps) {
            int m = r.channels;
            if (m == 0) return;
            Hop[] hopOf = new Hop[m];
            for (int i = 0; i < sw.size(); i++)
                for (int p = 0; p < channel[i].length; p++) if (channel[i][p] >= 0) hopOf[channel[i][p]] = new Hop(sw.get(i).guid(), p);
            int[] index = new int[m], low = new int[m], comp = new int[m];
            java.util.Arrays.fill(index, -1);
            boolean[] onStack = new boolean[m];
            int[] stack = new int[m];
            int sp = 0, counter = 0, comps = 0;
            int[] callV = new int[m], callNext = new int[m];
            for (int root = 0; root < m; root++) {
                if (index[root] >= 0) continue;
                int depth = 0;
                callV[0] = root;
                callNext[0] = 0;
                index[root] = low[root] = counter++;
                stack[sp++] = root;
                onStack[root] = true;
                while (depth >= 0) {
                    int v = callV[depth];
                    BitSet out = deps[v];
                    int q = out == null ? -1 : out.nextSetBit(callNext[depth]);
                    if (q >= 0) {
                        callNext[depth] = q + 1;
                        int w = channel[chanTo[v]][q];
                        if (index[w] < 0) {
                            index[w] = low[w] = counter++;
                            stack[sp++] = w;
                            onStack[w] = true;
                            depth++;
                            callV[depth] = w;
                            callNext[depth] = 0;
                        } else if (onStack[w]) low[v] = Math.min(low[v], index[w]);
                        continue;
                    }
                    if (low[v] == index[v]) {
                        int size = 0, u;
                        do {
                            u = stack[--sp];
                            onStack[u] = false;
                            comp[u] = comps;
                            size++;
                        } while (u != v);
                        if (size > 1) r.creditLoops.add(new CreditLoop(cycleIn(v, comp, comps, deps, hopOf, chanTo, channel), size));
                        comps++;
                    }
                    depth--;
                    if (depth >= 0) low[callV[depth]] = Math.min(low[callV[depth]], low[v]);
                }
            }
            r.creditLoops.sort(Comparator.comparingInt((CreditLoop c) -> -c.channels()));
        }

        /** The shortest cycle through v inside its strongly connected part (breadth first). */
        private static List<Hop> cycleIn(int v, int[] comp, int c, BitSet[] deps, Hop[] hopOf, int[] chanTo, int[][] channel) {
            Map<Integer, Integer> parent = new HashMap<>();
            ArrayDeque<Integer> queue = new ArrayDeque<>();
            queue.add(v);
            parent.put(v, -1);
            while (!queue.isEmpty()) {
                int u = queue.poll();
                BitSet out = deps[u];
                if (out == null) continue;
                for (int q = out.nextSetBit(0); q >= 0; q = out.nextSetBit(q + 1)) {
                    int w = channel[chanTo[u]][q];
                    if (comp[w] != c) continue;
                    if (w == v) {
                        List<Hop> cycle = new ArrayList<>();
                        for (int x = u; x != -1; x = parent.get(x)) cycle.add(0, hopOf[x]);
                        return canonical(cycle);
                    }
                    if (!parent.containsKey(w)) {
                        parent.put(w, u);
                        queue.add(w);
                    }
                }
            }
            return List.of(hopOf[v]);
        }

        /** A cycle read from its smallest hop, so the same loop found from two switches is one. */
        private static List<Hop> canonical(List<Hop> cycle) {
            int start = 0;
            for (int i = 1; i < cycle.size(); i++) {
                Hop a = cycle.get(i), b = cycle.get(start);
                if (Long.compareUnsigned(a.switchGuid(), b.switchGuid()) < 0 || a.switchGuid() == b.switchGuid() && a.port() < b.port()) start = i;
            }
            List<Hop> out = new ArrayList<>(cycle.size());
            for (int i = 0; i < cycle.size(); i++) out.add(cycle.get((start + i) % cycle.size()));
            return out;
        }

        /** Levels from the hosts up make sense: two or more levels and every switch on one. */
        private boolean isTree() {
            return f.maxLevel() >= 2 && sw.stream().allMatch(s -> s.level() >= 1);
        }

        private void spreads(List<int[]> dests) {
            List<Spread> up = new ArrayList<>(), down = new ArrayList<>();
            for (int i = 0; i < sw.size(); i++) {
                if (lft[i] == null) continue;
                Fabric.Node s = sw.get(i);
                int[] count = new int[peer[i].length];
                for (int[] d : dests) {
                    int p = lft[i].port(d[0]);
                    if (p > 0 && p < peer[i].length && peer[i][p] >= 0) count[p]++;
                }
                List<PortLoad> ups = new ArrayList<>();
                Map<Integer, List<PortLoad>> bundles = new TreeMap<>();
                for (int p = 1; p < peer[i].length; p++) {
                    int j = peer[i][p];
                    if (j < 0) continue;
                    PortLoad load = new PortLoad(p, sw.get(j).guid(), count[p]);
                    if (sw.get(j).level() > s.level()) ups.add(load);
                    else if (sw.get(j).level() < s.level()) bundles.computeIfAbsent(j, k -> new ArrayList<>()).add(load);
                }
                if (ups.size() >= 2) up.add(new Spread(s.guid(), "uplinks", 0, List.copyOf(ups)));
                for (var b : bundles.entrySet())
                    if (b.getValue().size() >= 2) down.add(new Spread(s.guid(), "downlinks", sw.get(b.getKey()).guid(), List.copyOf(b.getValue())));
            }
            r.spreads.addAll(up);
            r.spreads.addAll(down);
        }
    }
}
