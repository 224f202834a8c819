package io.ibaccept.samples;

import io.ibaccept.dump.Cmd;
import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.dump.Manifest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Generates a dump of an N-node HDR fat tree in the tools' real output formats (ibnetdiscover and iblinkinfo as
 * infiniband-diags prints them, ibstat, smpquery, ...), with a few faults: a down HCA port, a 1X link, an EDR link, low
 * memlock, a Gen3 HCA, symbol errors on a leaf port. Used by the benchmark and scale tests; not a substitute for the
 * captured sample dump.
 *
 * <p>The fabric is a non-blocking folded-Clos fat tree of 40-port HDR switches (MQM8700, which reports 41 ports): each
 * leaf has 20 hosts and 20 uplinks. Up to 40 leaves (800 hosts) it has two levels, the uplinks spread evenly over 2-20
 * spines; above that three levels: pods of 20 leaves and 20 spines, spine j of every pod cabled to core group j. With
 * more than 40 pods the cores need more ports than a QM8700 has and are 64-port switches (QM9700), up to 64 pods.
 */
public final class SyntheticDump {
    private SyntheticDump() {}

    static final int HOSTS_PER_LEAF = 20;
    static final int UPLINKS = 20;
    static final long HOST_GUID0 = 0x0c42a10300100000L, LEAF_GUID0 = 0x0c42a10300a00000L, TOP_GUID0 = 0x0c42a10300a10000L,
            MID_GUID0 = 0x0c42a10300a20000L;
    static final int HOST_LID0 = 1000;

    /** What was generated. isls: switch-to-switch cables. */
    public record Shape(int hosts, int levels, int leaves, int spines, int cores, int isls) {
        @Override
        public String toString() {
            return levels + "-level fat tree, " + hosts + " hosts, " + leaves + " leaves, " + spines + " spines"
                    + (cores > 0 ? ", " + cores + " cores" : "") + ", " + isls + " switch-to-switch links";
        }
    }

    /** A switch and, per port, what is cabled to it. */
    private static final class Sw {
        final String name;
        final long guid;
        final int lid;
        final int ports;
        final Object[] peer; // Sw or Integer (host index)
        final int[] peerPort;

        Sw(String name, long guid, int lid, int ports) {
            this.name = name;
            this.guid = guid;
            this.lid = lid;
            this.ports = ports;
            peer = new Object[ports + 1];
            peerPort = new int[ports + 1];
        }
    }

    /** The switches of an N-node tree, cabled to each other and to their hosts (host index down: not cabled). */
    private record Layout(List<Sw> leaf, List<Sw> mid, List<Sw> top, int levels, int isls) {
        List<Sw> switches() {
            List<Sw> all = new ArrayList<>(top);
            all.addAll(mid);
            all.addAll(leaf);
            return all;
        }
    }

    private static Layout layout(int nodes, int down) {
        // the switches: the first two of the top level run the SMs (LIDs 500 and 501)
        int leaves = (nodes + HOSTS_PER_LEAF - 1) / HOSTS_PER_LEAF;
        int lidNext = HOST_LID0 + nodes;
        String leafFmt = leaves > 999 ? "leaf%04d" : "leaf%03d";
        List<Sw> leaf = new ArrayList<>(), mid = new ArrayList<>(), top = new ArrayList<>();
        for (int l = 0; l < leaves; l++) leaf.add(new Sw(String.format(leafFmt, l + 1), LEAF_GUID0 + l, lidNext++, 41));
        int isls = 0, levels;
        if (leaves <= 40) {
            levels = 2;
            int spines = spread(leaves), m = UPLINKS / spines;
            for (int s = 0; s < spines; s++) top.add(new Sw(String.format("spine%02d", s + 1), TOP_GUID0 + s, 500 + s, 41));
            for (int l = 0; l < leaves; l++)
                for (int k = 0; k < UPLINKS; k++, isls++) cable(leaf.get(l), HOSTS_PER_LEAF + k + 1, top.get(k % spines), l * m + k / spines + 1);
        } else {
            levels = 3;
            int pods = (leaves + HOSTS_PER_LEAF - 1) / HOSTS_PER_LEAF, perGroup = spread(pods), m = UPLINKS / perGroup;
            int corePorts = pods * m <= 40 ? 41 : Math.max(64, pods * m);
            for (int j = 0; j < UPLINKS; j++)
                for (int c = 0; c < perGroup; c++) top.add(new Sw(String.format("core%03d", top.size() + 1), TOP_GUID0 + top.size(), 500 + top.size(), corePorts));
            for (int p = 0; p < pods; p++)
                for (int j = 0; j < UPLINKS; j++) mid.add(new Sw(String.format("spine%04d", mid.size() + 1), MID_GUID0 + mid.size(), lidNext++, 41));
            for (int l = 0; l < leaves; l++)
                for (int k = 0; k < UPLINKS; k++, isls++) cable(leaf.get(l), HOSTS_PER_LEAF + k + 1, mid.get(l / HOSTS_PER_LEAF * UPLINKS + k), l % HOSTS_PER_LEAF + 1);
            for (int p = 0; p < pods; p++)
                for (int j = 0; j < UPLINKS; j++)
                    for (int k = 0; k < UPLINKS; k++, isls++)
                        cable(mid.get(p * UPLINKS + j), HOSTS_PER_LEAF + k + 1, top.get(j * perGroup + k % perGroup), p * m + k / perGroup + 1);
        }

        for (int i = 0; i < nodes; i++) {
            if (i == down) continue;
            Sw lf = leaf.get(i / HOSTS_PER_LEAF);
            lf.peer[i % HOSTS_PER_LEAF + 1] = i;
            lf.peerPort[i % HOSTS_PER_LEAF + 1] = 1;
        }
        return new Layout(leaf, mid, top, levels, isls);
    }

    /** dump_fts is written when its text stays below this (above it, bench walks the tables in memory). */
    static final long MAX_FTS_BYTES = 48L << 20;

    /**
     * Forwarding tables as a tree-aware engine writes them: towards a host, each switch chooses among its ports one
     * step closer to the host's leaf by the host's index (so each uplink carries the same number of destinations), a
     * leaf delivers on the host's port; each switch routes its own LID to port 0. Switch LIDs other than its own are
     * left out (the routing checks walk CA LIDs).
     */
    private static final class Routes {
        final List<Sw> all;
        final Map<Sw, Integer> idx = new java.util.IdentityHashMap<>();
        final List<Sw> leaf;
        final int nodes, down;
        final int[][] dist; // per leaf, per switch: switch hops to it

        Routes(Layout lay, int nodes, int down) {
            this.all = lay.switches();
            this.leaf = lay.leaf();
            this.nodes = nodes;
            this.down = down;
            for (int i = 0; i < all.size(); i++) idx.put(all.get(i), i);
            dist = new int[leaf.size()][];
            for (int l = 0; l < leaf.size(); l++) dist[l] = bfs(leaf.get(l));
        }

        private int[] bfs(Sw from) {
            int[] d = new int[all.size()];
            java.util.Arrays.fill(d, -1);
            java.util.ArrayDeque<Sw> q = new java.util.ArrayDeque<>();
            d[idx.get(from)] = 0;
            q.add(from);
            while (!q.isEmpty()) {
                Sw s = q.poll();
                for (int p = 1; p <= s.ports; p++)
                    if (s.peer[p] instanceof Sw r && d[idx.get(r)] < 0) {
                        d[idx.get(r)] = d[idx.get(s)] + 1;
                        q.add(r);
                    }
            }
            return d;
        }

        /** The port s sends host i out of. */
        int port(Sw s, int i) {
            int l = i / HOSTS_PER_LEAF;
            if (s == leaf.get(l)) return i % HOSTS_PER_LEAF + 1;
            int here = dist[l][idx.get(s)], n = 0;
            int[] closer = new int[s.ports];
            for (int p = 1; p <= s.ports; p++)
                if (s.peer[p] instanceof Sw r && dist[l][idx.get(r)] == here - 1) closer[n++] = p;
            return closer[i % n];
        }

        /** The directed-route path from the first host to each switch, as dump_fts heads its tables ("0,1,21,3"). */
        Map<Sw, String> paths() {
            Map<Sw, String> out = new java.util.IdentityHashMap<>();
            Sw first = leaf.get(0);
            out.put(first, "0,1");
            java.util.ArrayDeque<Sw> q = new java.util.ArrayDeque<>(List.of(first));
            while (!q.isEmpty()) {
                Sw s = q.poll();
                for (int p = 1; p <= s.ports; p++)
                    if (s.peer[p] instanceof Sw r && !out.containsKey(r)) {
                        out.put(r, out.get(s) + "," + p);
                        q.add(r);
                    }
            }
            return out;
        }

        long textBytes() {
            return (long) all.size() * (nodes + 4) * 84;
        }

        /** dump_fts's output for these tables. */
        String dumpFts(List<String> hosts) {
            StringBuilder sb = new StringBuilder();
            Map<Sw, String> paths = paths();
            int topLid = HOST_LID0 + nodes - 1;
            for (Sw s : all) topLid = Math.max(topLid, s.lid);
            for (Sw s : all) {
                sb.append(String.format("Unicast lids [0x0-0x%x] of switch DR path slid 0; dlid 0; %s guid 0x%016x (%s):%n", topLid, paths.get(s), s.guid, s.name));
                sb.append("  Lid  Out   Destination\n       Port     Info \n");
                int n = 0;
                boolean own = false;
                for (int i = 0; i < nodes; i++) {
                    if (!own && s.lid < HOST_LID0 + i) {
                        sb.append(String.format("0x%04x 000 : (Switch portguid 0x%016x: '%s')%n", s.lid, s.guid, s.name));
                        own = true;
                        n++;
                    }
                    if (i == down) continue;
                    sb.append(String.format("0x%04x %03d : (Channel Adapter portguid 0x%016x: '%s HCA-1')%n", HOST_LID0 + i, port(s, i), HOST_GUID0 + 2L * i, hosts.get(i)));
                    n++;
                }
                if (!own) {
                    sb.append(String.format("0x%04x 000 : (Switch portguid 0x%016x: '%s')%n", s.lid, s.guid, s.name));
                    n++;
                }
                sb.append(n).append(" valid lids dumped \n");
            }
            return sb.toString();
        }

        io.ibaccept.model.ForwardingTables tables(List<String> hosts) {
            List<io.ibaccept.model.Lft> out = new ArrayList<>();
            Map<Integer, io.ibaccept.model.ForwardingTables.Destination> dests = new java.util.HashMap<>();
            for (int i = 0; i < nodes; i++)
                if (i != down) dests.put(HOST_LID0 + i, new io.ibaccept.model.ForwardingTables.Destination(HOST_LID0 + i, "Channel Adapter", HOST_GUID0 + 2L * i, hosts.get(i) + " HCA-1"));
            for (Sw s : all) {
                io.ibaccept.model.Lft.Builder b = new io.ibaccept.model.Lft.Builder(s.lid, s.guid, s.name, new io.ibaccept.parse.SourceRef("fabric/dump_fts.out", 1));
                b.put(s.lid, 0);
                for (int i = 0; i < nodes; i++) if (i != down) b.put(HOST_LID0 + i, port(s, i));
                out.add(b.build());
            }
            return new io.ibaccept.model.ForwardingTables(out, dests);
        }
    }

    /**
     * The forwarding tables of the N-node dump generate() writes (with its faults: the down host is not routed), built
     * in memory: for fabrics whose dump_fts text would be too large to write.
     */
    public static io.ibaccept.model.ForwardingTables forwardingTables(int nodes, boolean faults) {
        int down = faults ? nodes / 3 : -1;
        List<String> hosts = new ArrayList<>();
        String hostFmt = nodes > 9999 ? "cn%05d" : "cn%04d";
        for (int i = 1; i <= nodes; i++) hosts.add(String.format(hostFmt, i));
        return new Routes(layout(nodes, down), nodes, down).tables(hosts);
    }

    /** iblinkinfo's note after a link: "Could be 4X" when both ends (4X-capable here) trained narrower, as ibsim prints it. */
    private static String couldBe(String width) {
        return width.equals("4X") ? "( )" : "(Could be 4X )";
    }

    private static void cable(Sw a, int pa, Sw b, int pb) {
        a.peer[pa] = b;
        a.peerPort[pa] = pb;
        b.peer[pb] = a;
        b.peerPort[pb] = pa;
    }

    /** Smallest number of switches d (dividing 20 so that links spread evenly) with ports used per switch <= 40. */
    private static int spread(int below) {
        for (int d : new int[] {2, 4, 5, 10, 20}) if (below * (UPLINKS / d) <= 40) return d;
        return UPLINKS;
    }

    public static Shape generate(Path dir, int nodes) {
        return generate(dir, nodes, true);
    }

    /** faults=false gives a fabric on which every check passes (the baseline rule tests mutate). */
    public static Shape generate(Path dir, int nodes, boolean faults) {
        return generate(dir, nodes, faults, false);
    }

    /**
     * everyNode: besides the single faults, every host has a memlock of 64 KiB and every other host a 1X link, the
     * worst case for report size (a cluster-wide misconfiguration plus one distinct fault per node).
     */
    public static Shape generate(Path dir, int nodes, boolean faults, boolean everyNode) {
        DumpWriter w = new DumpWriter(dir);
        List<String> hosts = new ArrayList<>();
        String hostFmt = nodes > 9999 ? "cn%05d" : "cn%04d";
        for (int i = 1; i <= nodes; i++) hosts.add(String.format(hostFmt, i));
        int leaves = (nodes + HOSTS_PER_LEAF - 1) / HOSTS_PER_LEAF;
        w.manifest(new Manifest(Manifest.FORMAT, "synthetic-" + nodes, "2026-12-02T12:00:00Z", "ibaccept synthetic", hosts.get(0), hosts,
                Map.of("infiniband-diags", "44.0")));
        int down = nodes / 3, oneX = nodes / 2, edr = nodes / 2 + 1, lowMem = nodes / 4, gen3 = nodes / 5;
        if (!faults) down = oneX = edr = lowMem = gen3 = -1;

        Layout lay = layout(nodes, down);
        List<Sw> leaf = lay.leaf(), mid = lay.mid(), top = lay.top();
        int isls = lay.isls(), levels = lay.levels();

        // hosts, their node files, and their cable to the leaf
        String[] linkWidth = new String[nodes], linkSpeed = new String[nodes];
        for (int i = 0; i < nodes; i++) {
            String h = hosts.get(i);
            long guid = HOST_GUID0 + 2L * i;
            int lid = HOST_LID0 + i;
            boolean isDown = i == down;
            linkWidth[i] = i == oneX || (everyNode && i % 2 == 1) ? "1X" : "4X";
            linkSpeed[i] = i == edr ? "25.78125 Gbps" : "53.125 Gbps";
            ok(w, Cmd.IBSTAT, h, ibstat(guid, lid, isDown));
            ok(w, Cmd.PORTINFO, h, portinfo(lid, isDown ? "Down" : "Active", linkWidth[i], linkSpeed[i]));
            ok(w, Cmd.PKEYS, h, pkeys());
            ok(w, Cmd.PEER_PKEYS, h, pkeys());
            ok(w, Cmd.ULIMIT, h, i == lowMem || everyNode ? "64\n" : "unlimited\n");
            ok(w, Cmd.NODEINFO, h, String.format("# Node info: DR path slid 65535; dlid 65535; 0\nNodeType:........................Channel Adapter\n"
                    + "NumPorts:........................1\nGuid:............................0x%016x\nPortGuid:........................0x%016x\n", guid, guid));
            ok(w, Cmd.OFED_INFO, h, "MLNX_OFED_LINUX-5.8-1.0.1.1:\n");
            ok(w, Cmd.MLXLINK_PCIE, h, "\nPCIe Operational (Enabled) Info\n-------------------------------\n"
                    + "Link Speed Active (Enabled)        : " + (i == gen3 ? "8G-Gen 3" : "16G-Gen 4") + " (16G-Gen 4)\n"
                    + "Link Width Active (Enabled)        : 16X (16X)\n");
        }

        List<Sw> switches = new ArrayList<>(top);
        switches.addAll(mid);
        switches.addAll(leaf);
        StringBuilder links = new StringBuilder(), topo = new StringBuilder(), errs = new StringBuilder();
        topo.append("#\n# Topology file: generated on Wed Dec  2 12:00:00 2026\n#\n# Initiated from node ")
                .append(String.format("%016x port %016x%n", HOST_GUID0, HOST_GUID0));
        int ports = 0;
        for (Sw s : switches) {
            links.append(String.format("Switch: 0x%016x %s:%n", s.guid, s.name));
            topo.append(String.format("%nvendid=0x2c9%ndevid=0x%s%nsysimgguid=0x%x%nswitchguid=0x%x(%x)%nSwitch\t%d \"S-%016x\"\t\t# \"%s\" enhanced port 0 lid %d lmc 0%n",
                    s.ports > 41 ? "d2f2" : "d2f0", s.guid, s.guid, s.guid, s.ports, s.guid, s.name, s.lid));
            for (int p = 1; p <= s.ports; p++) {
                Object o = s.peer[p];
                if (o == null) {
                    links.append(String.format("      %6d %4d[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )%n", s.lid, p));
                    continue;
                }
                ports++;
                if (o instanceof Integer i) {
                    String hca = hosts.get(i) + " HCA-1";
                    links.append(String.format("      %6d %4d[  ] ==(%3s %19s %6s/%8s)==>  %6d %4d[  ] \"%s\" %s%n", s.lid, p, linkWidth[i], linkSpeed[i],
                            "Active", "LinkUp", HOST_LID0 + i, 1, hca, couldBe(linkWidth[i])));
                    topo.append(String.format("[%d]\t\"H-%016x\"[1](%x) \t\t# \"%s\" lid %d %s%n", p, HOST_GUID0 + 2L * i, HOST_GUID0 + 2L * i, hca,
                            HOST_LID0 + i, rate(linkWidth[i], linkSpeed[i])));
                } else {
                    Sw r = (Sw) o;
                    links.append(String.format("      %6d %4d[  ] ==(%3s %19s %6s/%8s)==>  %6d %4d[  ] \"%s\" ( )%n", s.lid, p, "4X", "53.125 Gbps",
                            "Active", "LinkUp", r.lid, s.peerPort[p], r.name));
                    topo.append(String.format("[%d]\t\"S-%016x\"[%d]\t\t# \"%s\" lid %d 4xHDR%n", p, r.guid, s.peerPort[p], r.name, r.lid));
                }
            }
        }
        for (int i = 0; i < nodes; i++) {
            if (i == down) continue; // a host whose only port is down is not discovered
            long guid = HOST_GUID0 + 2L * i;
            Sw lf = leaf.get(i / HOSTS_PER_LEAF);
            int lp = i % HOSTS_PER_LEAF + 1;
            String hca = hosts.get(i) + " HCA-1";
            links.append(String.format("CA: %s:%n      0x%016x %6d %4d[  ] ==(%3s %19s %6s/%8s)==>  %6d %4d[  ] \"%s\" %s%n", hca, guid,
                    HOST_LID0 + i, 1, linkWidth[i], linkSpeed[i], "Active", "LinkUp", lf.lid, lp, lf.name, couldBe(linkWidth[i])));
            topo.append(String.format("%nvendid=0x2c9%ndevid=0x101b%nsysimgguid=0x%x%ncaguid=0x%x%nCa\t1 \"H-%016x\"\t\t# \"%s\"%n"
                    + "[1](%x) \t\"S-%016x\"[%d]\t\t# lid %d lmc 0 \"%s\" lid %d %s%n", guid, guid, guid, hca, guid, lf.guid, lp, HOST_LID0 + i, lf.name,
                    lf.lid, rate(linkWidth[i], linkSpeed[i])));
            ports++;
        }
        if (faults) errs.append(String.format("Errors for 0x%x \"%s\"%n   GUID 0x%x port 3: [SymbolErrorCounter == 250]%n", LEAF_GUID0, leaf.get(0).name, LEAF_GUID0));
        ok(w, Cmd.IBLINKINFO, null, links.toString());
        Routes routes = new Routes(lay, nodes, down);
        if (routes.textBytes() <= MAX_FTS_BYTES) ok(w, Cmd.DUMP_FTS, null, routes.dumpFts(hosts));
        ok(w, Cmd.IBNETDISCOVER, null, topo.toString());
        ok(w, Cmd.IBQUERYERRORS, null, errs + "\n## Summary: " + (nodes - (down >= 0 ? 1 : 0) + switches.size()) + " nodes checked, "
                + (faults ? 1 : 0) + " bad nodes found\n##          " + ports + " ports checked, " + (faults ? 1 : 0) + " ports have errors beyond threshold\n");
        ok(w, Cmd.SAQUERY_SM, null, "IsSM ports\nPortInfoRecord dump:\n\t\tEndPortLid..............500\n\t\tPortNum.................0\n"
                + "PortInfoRecord dump:\n\t\tEndPortLid..............501\n\t\tPortNum.................0\n\nIsSMdisabled ports\n");
        ok(w, Cmd.PERFQUERY, null, "# Port counters: Lid " + HOST_LID0 + " port 1 (CapMask: 0x1600)\nPortSelect:......................1\n"
                + "SymbolErrorCounter:..............0\nLinkErrorRecoveryCounter:........0\nLinkDownedCounter:...............0\nPortRcvErrors:...................0\n");
        ok(w, Cmd.SMINFO, null, "sminfo: sm lid 500 sm guid 0xc42a10300a10000, activity count 81923 priority 15 state 3 SMINFO_MASTER\n"
                + "sminfo: sm lid 501 sm guid 0xc42a10300a10001, activity count 81920 priority 14 state 2 SMINFO_STANDBY\n");
        for (int i = 0; i + 1 < nodes; i += 2) {
            String id = "ib_write_bw__" + hosts.get(i) + "__" + hosts.get(i + 1);
            double gbps = faults && i == gen3 - gen3 % 2 ? 98.7 : 196.3;
            w.write("perftest/" + id + ".client.meta", "name: ib_write_bw\nhost: " + hosts.get(i) + "\npeer: " + hosts.get(i + 1)
                    + "\ncommand: ib_write_bw --report_gbits " + hosts.get(i + 1) + "\nstatus: ok\nexit: 0\nduration_ms: 5200\nstarted: x\n");
            w.write("perftest/" + id + ".client.out", bw(gbps));
        }
        return new Shape(nodes, levels, leaves, levels == 2 ? top.size() : mid.size(), levels == 2 ? 0 : top.size(), isls);
    }

    /** ibnetdiscover's link rate label, e.g. 4xHDR. */
    private static String rate(String width, String speed) {
        return width.toLowerCase(java.util.Locale.ROOT) + (speed.startsWith("25.78125") ? "EDR" : "HDR");
    }

    private static void ok(DumpWriter w, Cmd c, String host, String out) {
        w.command(c, host == null ? "fabric" : host, new CommandResult(c.fileName(), host == null ? "fabric" : host, c.fileName(), CommandResult.OK, 0, 40, "2026-12-02T12:00:00Z", ""), out);
    }

    static String ibstat(long guid, int lid, boolean down) {
        return "CA 'mlx5_0'\n\tCA type: MT4123\n\tNumber of ports: 1\n\tFirmware version: 20.31.1014\n\tHardware version: 0\n"
                + String.format("\tNode GUID: 0x%016x\n\tSystem image GUID: 0x%016x\n", guid, guid)
                + "\tPort 1:\n\t\tState: " + (down ? "Down" : "Active") + "\n\t\tPhysical state: " + (down ? "Polling" : "LinkUp")
                + "\n\t\tRate: " + (down ? 10 : 200) + "\n\t\tBase lid: " + (down ? 65535 : lid) + "\n\t\tLMC: 0\n\t\tSM lid: 500\n"
                + String.format("\t\tCapability mask: 0xa651e848\n\t\tPort GUID: 0x%016x\n\t\tLink layer: InfiniBand\n", guid);
    }

    static String portinfo(int lid, String state, String width, String speed) {
        return "# Port info: DR path slid 65535; dlid 65535; 0 port 1\nLid:.............................." + lid
                + "\nSMLid:...........................500\nLocalPort:.......................1\nLinkWidthEnabled:................1X or 4X\n"
                + "LinkWidthSupported:..............1X or 4X\nLinkWidthActive:................." + width + "\n"
                + "LinkSpeedSupported:..............2.5 Gbps or 5.0 Gbps or 10.0 Gbps\nLinkState:......................." + state
                + "\nPhysLinkState:...................LinkUp\nLinkSpeedActive:.................10.0 Gbps\nNeighborMTU:.....................4096\n"
                + "MtuCap:..........................4096\nLinkSpeedExtActive:.............." + speed + "\n";
    }

    static String pkeys() {
        return "   0: 0xffff 0x8001 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000\n   8: 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000\n"
                + "16 pkeys capacity for this port\n";
    }

    static String bw(double gbps) {
        return "---------------------------------------------------------------------------------------\n"
                + "                    RDMA_Write BW Test\n Dual-port       : OFF\t\tDevice         : mlx5_0\n Mtu             : 4096[B]\n"
                + " Link type       : IB\n---------------------------------------------------------------------------------------\n"
                + " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
                + String.format(java.util.Locale.ROOT, " 65536      5000           %.2f             %.2f  \t\t   0.374412%n", gbps + 0.1, gbps)
                + "---------------------------------------------------------------------------------------\n";
    }
}
