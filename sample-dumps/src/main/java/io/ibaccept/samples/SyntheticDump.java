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
 * Generates a dump of an N-node fat tree in the tools' real output formats (ibnetdiscover, iblinkinfo and dump_fts as
 * infiniband-diags prints them, ibstat, smpquery, ...), with a few faults: a down HCA port, a 1X link, a link at the
 * previous generation's speed, low memlock, a Gen3 HCA, symbol errors on a leaf port. Used by the benchmark and scale
 * tests; not a substitute for the captured sample dump.
 *
 * <p>The fabric is a non-blocking folded-Clos fat tree. Hosts with one HCA each are on 40-port HDR switches (MQM8700,
 * which reports 41 ports): each leaf has 20 hosts and 20 uplinks. Up to 40 leaves (800 hosts) it has two levels, the
 * uplinks spread evenly over 2-20 spines; above that three levels: pods of 20 leaves and 20 spines, spine j of every pod
 * cabled to core group j. With more than 40 pods the cores need more ports than a QM8700 has and are 64-port switches
 * (QM9700), up to 64 pods. GPU hosts with several HCAs (and fabrics above 64 HDR pods) are built as NVIDIA's SuperPODs
 * are: NDR, 64-port QM9700 switches (65 ports reported) with 32 hosts and 32 uplinks a leaf, rail-optimised: the hosts
 * are in scalable units of 32, and HCA r of every host of a unit is cabled to the unit's rail-r leaf.
 *
 * <p>The subnet is one: every CA and switch has a LID of the unicast space (0x1-0xbfff), so a fabric that needs more is
 * refused (a larger site is several subnets, each its own dump).
 */
public final class SyntheticDump {
    private SyntheticDump() {}

    static final long HOST_GUID0 = 0x0c42a10300100000L, LEAF_GUID0 = 0x0c42a10300a00000L, TOP_GUID0 = 0x0c42a10300a10000L,
            MID_GUID0 = 0x0c42a10300a20000L;
    static final int HOST_LID0 = 1000;

    /**
     * A switch and link generation: ports a switch uses (radix), hosts and uplinks of a leaf, the port count the switch
     * reports, how the tools print the link speed, the CA model. The top LIDs start at topLid0, the CAs' at hostLid0
     * (0: right after the top switches).
     */
    private record Design(String name, int radix, int down, int up, int ports, String devid, String speed, String slowSpeed, String rate,
                          String slowRate, int ibstatRate, String caType, String caDevid, String firmware, int topLid0, int hostLid0) {}

    private static final Design HDR = new Design("HDR", 40, 20, 20, 41, "d2f0", "53.125 Gbps", "25.78125 Gbps", "HDR", "EDR", 200,
            "MT4123", "101b", "20.31.1014", 500, HOST_LID0);
    private static final Design NDR = new Design("NDR", 64, 32, 32, 65, "d2f2", "106.25 Gbps", "53.125 Gbps", "NDR", "HDR", 400,
            "MT4129", "1021", "28.39.2048", 1, 0);

    /** Most hosts of the HDR design, with 64-port cores: 64 pods of 20 leaves of 20 hosts. */
    static final int MAX_HDR_HOSTS = 64 * 20 * 20;

    /** What was generated. isls: switch-to-switch cables; hcasPerNode: CAs per host, each on its own rail. */
    public record Shape(int hosts, int levels, int leaves, int spines, int cores, int isls, int hcasPerNode, String design) {
        public Shape(int hosts, int levels, int leaves, int spines, int cores, int isls) {
            this(hosts, levels, leaves, spines, cores, isls, 1, "HDR");
        }

        public int cas() {
            return hosts * hcasPerNode;
        }

        public int switches() {
            return leaves + spines + cores;
        }

        @Override
        public String toString() {
            return levels + "-level " + (hcasPerNode > 1 ? "rail-optimised " + design + " " : design.equals("HDR") ? "" : design + " ")
                    + "fat tree, " + hosts + " hosts" + (hcasPerNode > 1 ? " with " + hcasPerNode + " HCAs (" + cas() + " CAs)" : "")
                    + ", " + leaves + " leaves, " + spines + " spines" + (cores > 0 ? ", " + cores + " cores" : "") + ", " + isls
                    + " switch-to-switch links";
        }
    }

    /** More CAs and switches than one subnet has LIDs for, or a fabric the switch design cannot cable. */
    public static final class TooLarge extends IllegalArgumentException {
        TooLarge(String message) {
            super(message);
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

    /**
     * The switches of a tree, cabled to each other and to their CAs. A CA is an endpoint e: host e / hcas, its HCA e %
     * hcas (its rail); endpoint down is not cabled. hostLid0: the LID of endpoint 0, the others follow.
     */
    private record Layout(Design d, int hcas, List<Sw> leaf, List<Sw> mid, List<Sw> top, int levels, int isls, int hostLid0) {
        int leafOf(int e) {
            return e / hcas / d.down() * hcas + e % hcas;
        }

        int leafPort(int e) {
            return e / hcas % d.down() + 1;
        }

        List<Sw> switches() {
            List<Sw> all = new ArrayList<>(top);
            all.addAll(mid);
            all.addAll(leaf);
            return all;
        }
    }

    /** The design of a fabric: HDR for hosts with one HCA as long as 64-port cores reach, else NDR. */
    private static Design design(int nodes, int hcas) {
        return hcas == 1 && nodes <= MAX_HDR_HOSTS ? HDR : NDR;
    }

    private static Layout layout(int nodes, int hcas, int down) {
        Design d = design(nodes, hcas);
        int down1 = d.down(), up = d.up();
        // one leaf per rail per scalable unit of `down` hosts
        int leaves = (nodes + down1 - 1) / down1 * hcas;
        List<Sw> leaf = new ArrayList<>(), mid = new ArrayList<>(), top = new ArrayList<>();
        int isls = 0, levels;
        int pods = 0, perGroup = 0, spines = 0;
        if (leaves <= d.radix()) {
            levels = 2;
            spines = spread(d, leaves);
        } else {
            levels = 3;
            pods = (leaves + down1 - 1) / down1;
            perGroup = spread(d, pods);
            if (pods * (up / perGroup) > 64)
                throw new TooLarge(nodes + " hosts with " + hcas + " HCA" + (hcas == 1 ? "" : "s") + " need " + pods
                        + " pods: more than a 3-level tree of 64-port switches can cable");
        }
        int topCount = levels == 2 ? spines : up * perGroup;
        int hostLid0 = d.hostLid0() > 0 ? d.hostLid0() : d.topLid0() + topCount;
        int cas = nodes * hcas;
        long lids = (long) hostLid0 + cas + leaves + (levels == 3 ? (long) pods * up : 0) - 1;
        if (lids > io.ibaccept.model.Lft.MAX_UNICAST_LID)
            throw new TooLarge(String.format(java.util.Locale.ROOT, "%d hosts with %d HCA%s are %d CAs and %d switches: %d LIDs, more than one subnet's"
                    + " %d unicast LIDs (0x1-0xbfff); a larger site is several subnets, each collected and analysed as its own dump",
                    nodes, hcas, hcas == 1 ? "" : "s", cas, leaves + topCount + (levels == 3 ? pods * up : 0), lids - Math.min(hostLid0, d.topLid0()) + 1,
                    io.ibaccept.model.Lft.MAX_UNICAST_LID));
        int lidNext = hostLid0 + cas;
        String leafFmt = leaves > 999 ? "leaf%04d" : "leaf%03d";
        for (int l = 0; l < leaves; l++) leaf.add(new Sw(String.format(leafFmt, l + 1), LEAF_GUID0 + l, lidNext++, d.ports()));
        if (levels == 2) {
            int m = up / spines;
            for (int s = 0; s < spines; s++) top.add(new Sw(String.format("spine%02d", s + 1), TOP_GUID0 + s, d.topLid0() + s, d.ports()));
            for (int l = 0; l < leaves; l++)
                for (int k = 0; k < up; k++, isls++) cable(leaf.get(l), down1 + k + 1, top.get(k % spines), l * m + k / spines + 1);
        } else {
            int m = up / perGroup;
            int corePorts = pods * m <= d.radix() ? d.ports() : d == HDR ? Math.max(64, pods * m) : NDR.ports();
            for (int j = 0; j < up; j++)
                for (int c = 0; c < perGroup; c++) top.add(new Sw(String.format("core%03d", top.size() + 1), TOP_GUID0 + top.size(), d.topLid0() + top.size(), corePorts));
            for (int p = 0; p < pods; p++)
                for (int j = 0; j < up; j++) mid.add(new Sw(String.format("spine%04d", mid.size() + 1), MID_GUID0 + mid.size(), lidNext++, d.ports()));
            for (int l = 0; l < leaves; l++)
                for (int k = 0; k < up; k++, isls++) cable(leaf.get(l), down1 + k + 1, mid.get(l / down1 * up + k), l % down1 + 1);
            for (int p = 0; p < pods; p++)
                for (int j = 0; j < up; j++)
                    for (int k = 0; k < up; k++, isls++)
                        cable(mid.get(p * up + j), down1 + k + 1, top.get(j * perGroup + k % perGroup), p * m + k / perGroup + 1);
        }
        Layout lay = new Layout(d, hcas, leaf, mid, top, levels, isls, hostLid0);
        for (int e = 0; e < cas; e++) {
            if (e == down) continue;
            Sw lf = leaf.get(lay.leafOf(e));
            lf.peer[lay.leafPort(e)] = e;
            lf.peerPort[lay.leafPort(e)] = 1;
        }
        return lay;
    }

    /** dump_fts is written as text when it stays below this, compressed (dump_fts.out.gz, as collect stores it) above. */
    static final long MAX_FTS_BYTES = 48L << 20;

    /**
     * Forwarding tables as a tree-aware engine writes them: towards a CA, each switch chooses among its ports one step
     * closer to the CA's leaf by the CA's index (so each uplink carries the same number of destinations), a leaf
     * delivers on the CA's port; each switch routes its own LID to port 0. Switch LIDs other than its own are left out
     * (the routing checks walk CA LIDs).
     */
    private static final class Routes {
        final Layout lay;
        final List<Sw> all;
        final Map<Sw, Integer> idx = new java.util.IdentityHashMap<>();
        final int cas, down;
        final int[][] dist; // per leaf, per switch: switch hops to it

        Routes(Layout lay, int cas, int down) {
            this.lay = lay;
            this.all = lay.switches();
            this.cas = cas;
            this.down = down;
            for (int i = 0; i < all.size(); i++) idx.put(all.get(i), i);
            dist = new int[lay.leaf().size()][];
            for (int l = 0; l < lay.leaf().size(); l++) dist[l] = bfs(lay.leaf().get(l));
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

        /** The port s sends CA e out of, with the switch's ports towards each leaf worked out once (closer(s)). */
        int port(Sw s, int e, int[][] closer) {
            int l = lay.leafOf(e);
            if (s == lay.leaf().get(l)) return lay.leafPort(e);
            int[] c = closer[l];
            return c[e % c.length];
        }

        /** Per leaf, the ports of s one switch hop closer to it. */
        int[][] closer(Sw s) {
            int me = idx.get(s);
            int[][] out = new int[dist.length][];
            int[] buf = new int[s.ports];
            for (int l = 0; l < dist.length; l++) {
                int[] dl = dist[l];
                int here = dl[me], n = 0;
                for (int p = 1; p <= s.ports; p++)
                    if (s.peer[p] instanceof Sw r && dl[idx.get(r)] == here - 1) buf[n++] = p;
                out[l] = java.util.Arrays.copyOf(buf, n);
            }
            return out;
        }

        /** The directed-route path from the first CA to each switch, as dump_fts heads its tables ("0,1,21,3"). */
        Map<Sw, String> paths() {
            Map<Sw, String> out = new java.util.IdentityHashMap<>();
            Sw first = lay.leaf().get(0);
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
            return (long) all.size() * (cas + 4) * 84;
        }

        /**
         * dump_fts's output for these tables, written to out as the tool prints it; gzip: as gzip members, one per
         * switch (what 'gzip' makes of it decompresses the same, and the switches are written in parallel). The entry
         * lines are put together from bytes made once per CA (what follows the port number), so that a subnet at its
         * LID limit (some 170 million lines) is written in minutes.
         */
        void dumpFts(List<String> hosts, java.io.OutputStream out, boolean gzip) throws java.io.IOException {
            Map<Sw, String> paths = paths();
            int top = lay.hostLid0() + cas - 1;
            for (Sw s : all) top = Math.max(top, s.lid);
            int topLid = top;
            byte[][] info = new byte[cas][];
            for (int e = 0; e < cas; e++)
                if (e != down)
                    info[e] = String.format(" : (Channel Adapter portguid 0x%016x: '%s')%n", HOST_GUID0 + 2L * e, caName(hosts, lay.hcas(), e))
                            .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            int batch = 4 * Runtime.getRuntime().availableProcessors();
            for (int from = 0; from < all.size(); from += batch) {
                List<byte[]> done = all.subList(from, Math.min(all.size(), from + batch)).parallelStream().map(s -> {
                    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream(1 << 20);
                    try (java.io.OutputStream o = gzip ? gzip(b) : b) {
                        table(s, paths.get(s), topLid, info, o);
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                    return b.toByteArray();
                }).toList();
                for (byte[] b : done) out.write(b);
            }
        }

        private static java.io.OutputStream gzip(java.io.OutputStream to) throws java.io.IOException {
            return new java.io.BufferedOutputStream(new java.util.zip.GZIPOutputStream(to, 1 << 16) {
                {
                    def.setLevel(java.util.zip.Deflater.BEST_SPEED);
                }
            }, 1 << 16);
        }

        /** One switch's table. */
        private void table(Sw s, String path, int topLid, byte[][] info, java.io.OutputStream out) throws java.io.IOException {
            StringBuilder head = new StringBuilder();
            head.append(String.format("Unicast lids [0x0-0x%x] of switch DR path slid 0; dlid 0; %s guid 0x%016x (%s):%n", topLid, path, s.guid, s.name));
            head.append("  Lid  Out   Destination\n       Port     Info \n");
            out.write(head.toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            int[][] closer = closer(s);
            byte[] line = new byte[256];
            String own = String.format("0x%04x 000 : (Switch portguid 0x%016x: '%s')%n", s.lid, s.guid, s.name);
            int n = 0;
            boolean ownDone = false;
            for (int e = 0; e < cas; e++) {
                int lid = lay.hostLid0() + e;
                if (!ownDone && s.lid < lid) {
                    out.write(own.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
                    ownDone = true;
                    n++;
                }
                if (e == down) continue;
                int k = hex4(line, lid);
                line[k++] = ' ';
                int port = port(s, e, closer);
                line[k++] = (byte) ('0' + port / 100);
                line[k++] = (byte) ('0' + port / 10 % 10);
                line[k++] = (byte) ('0' + port % 10);
                System.arraycopy(info[e], 0, line, k, info[e].length);
                out.write(line, 0, k + info[e].length);
                n++;
            }
            if (!ownDone) {
                out.write(own.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
                n++;
            }
            out.write((n + " valid lids dumped \n").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        }

        /** "0x%04x" into b from 0 (ibroute prints at least four digits); returns the length. */
        private static int hex4(byte[] b, int v) {
            int digits = v > 0xffff ? 5 : 4;
            b[0] = '0';
            b[1] = 'x';
            for (int i = digits - 1; i >= 0; i--, v >>>= 4) b[2 + i] = (byte) "0123456789abcdef".charAt(v & 0xf);
            return 2 + digits;
        }
    }

    /** The node description of CA e: its host's name and "HCA-N" for its N-th HCA, as OFED names them. */
    private static String caName(List<String> hosts, int hcas, int e) {
        return hosts.get(e / hcas) + " HCA-" + (e % hcas + 1);
    }

    private static List<String> hostNames(int nodes) {
        List<String> hosts = new ArrayList<>();
        String hostFmt = nodes > 9999 ? "cn%05d" : "cn%04d";
        for (int i = 1; i <= nodes; i++) hosts.add(String.format(hostFmt, i));
        return hosts;
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

    /** Smallest number of switches n (dividing the uplinks so that links spread evenly) with ports used per switch <= radix. */
    private static int spread(Design d, int below) {
        for (int n = 2; n <= d.up(); n++) if (d.up() % n == 0 && below * (d.up() / n) <= d.radix()) return n;
        return d.up();
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
        return generate(dir, nodes, faults, everyNode, 1);
    }

    /**
     * hcas: HCAs per host, each on its own rail (GPU hosts have 8). Refuses (TooLarge) a fabric whose CAs and switches
     * need more LIDs than one subnet has.
     */
    public static Shape generate(Path dir, int nodes, boolean faults, boolean everyNode, int hcas) {
        if (nodes < 1 || hcas < 1 || hcas > 16) throw new IllegalArgumentException("nodes >= 1, 1 <= HCAs per host <= 16");
        List<String> hosts = hostNames(nodes);
        int cas = nodes * hcas;
        // faults on CAs (rail 0 of a host) and on hosts
        int down = nodes / 3 * hcas, oneX = nodes / 2 * hcas, slow = (nodes / 2 + 1) * hcas, lowMem = nodes / 4, gen3 = nodes / 5;
        if (!faults) down = oneX = slow = lowMem = gen3 = -1;
        Layout lay = layout(nodes, hcas, down);
        Design d = lay.d();
        List<Sw> leaf = lay.leaf(), mid = lay.mid(), top = lay.top();
        int isls = lay.isls(), levels = lay.levels(), lid0 = lay.hostLid0();
        int smLid = top.get(0).lid;

        DumpWriter w = new DumpWriter(dir);
        w.manifest(new Manifest(Manifest.FORMAT, "synthetic-" + nodes, "2026-12-02T12:00:00Z", "ibaccept synthetic", hosts.get(0), hosts,
                Map.of("infiniband-diags", "44.0")));
        // hosts, their node files, and their cables to the leaves
        String[] linkWidth = new String[cas], linkSpeed = new String[cas];
        for (int e = 0; e < cas; e++) {
            linkWidth[e] = e == oneX || (everyNode && e / hcas % 2 == 1 && e % hcas == 0) ? "1X" : "4X";
            linkSpeed[e] = e == slow ? d.slowSpeed() : d.speed();
        }
        for (int i = 0; i < nodes; i++) {
            String h = hosts.get(i);
            int e0 = i * hcas;
            long guid = HOST_GUID0 + 2L * e0;
            StringBuilder ibstat = new StringBuilder();
            for (int r = 0; r < hcas; r++)
                ibstat.append(ibstat(d, r, HOST_GUID0 + 2L * (e0 + r), lid0 + e0 + r, e0 + r == down, smLid));
            ok(w, Cmd.IBSTAT, h, ibstat.toString());
            ok(w, Cmd.PORTINFO, h, portinfo(lid0 + e0, e0 == down ? "Down" : "Active", linkWidth[e0], linkSpeed[e0], smLid));
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
                if (o instanceof Integer e) {
                    String hca = caName(hosts, hcas, e);
                    links.append(String.format("      %6d %4d[  ] ==(%3s %19s %6s/%8s)==>  %6d %4d[  ] \"%s\" %s%n", s.lid, p, linkWidth[e], linkSpeed[e],
                            "Active", "LinkUp", lid0 + e, 1, hca, couldBe(linkWidth[e])));
                    topo.append(String.format("[%d]\t\"H-%016x\"[1](%x) \t\t# \"%s\" lid %d %s%n", p, HOST_GUID0 + 2L * e, HOST_GUID0 + 2L * e, hca,
                            lid0 + e, rate(d, linkWidth[e], linkSpeed[e])));
                } else {
                    Sw r = (Sw) o;
                    links.append(String.format("      %6d %4d[  ] ==(%3s %19s %6s/%8s)==>  %6d %4d[  ] \"%s\" ( )%n", s.lid, p, "4X", d.speed(),
                            "Active", "LinkUp", r.lid, s.peerPort[p], r.name));
                    topo.append(String.format("[%d]\t\"S-%016x\"[%d]\t\t# \"%s\" lid %d 4x%s%n", p, r.guid, s.peerPort[p], r.name, r.lid, d.rate()));
                }
            }
        }
        for (int e = 0; e < cas; e++) {
            if (e == down) continue; // a CA whose only port is down is not discovered
            long guid = HOST_GUID0 + 2L * e;
            Sw lf = leaf.get(lay.leafOf(e));
            int lp = lay.leafPort(e);
            String hca = caName(hosts, hcas, e);
            links.append(String.format("CA: %s:%n      0x%016x %6d %4d[  ] ==(%3s %19s %6s/%8s)==>  %6d %4d[  ] \"%s\" %s%n", hca, guid,
                    lid0 + e, 1, linkWidth[e], linkSpeed[e], "Active", "LinkUp", lf.lid, lp, lf.name, couldBe(linkWidth[e])));
            topo.append(String.format("%nvendid=0x2c9%ndevid=0x%s%nsysimgguid=0x%x%ncaguid=0x%x%nCa\t1 \"H-%016x\"\t\t# \"%s\"%n"
                    + "[1](%x) \t\"S-%016x\"[%d]\t\t# lid %d lmc 0 \"%s\" lid %d %s%n", d.caDevid(), guid, guid, guid, hca, guid, lf.guid, lp, lid0 + e, lf.name,
                    lf.lid, rate(d, linkWidth[e], linkSpeed[e])));
            ports++;
        }
        if (faults) errs.append(String.format("Errors for 0x%x \"%s\"%n   GUID 0x%x port 3: [SymbolErrorCounter == 250]%n", LEAF_GUID0, leaf.get(0).name, LEAF_GUID0));
        ok(w, Cmd.IBLINKINFO, null, links.toString());
        links = null; // a large fabric's text is tens of MB: not held while the tables are written
        Routes routes = new Routes(lay, cas, down);
        if (routes.textBytes() <= MAX_FTS_BYTES) {
            java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
            try {
                routes.dumpFts(hosts, text, false);
            } catch (java.io.IOException ex) {
                throw new java.io.UncheckedIOException(ex);
            }
            ok(w, Cmd.DUMP_FTS, null, text.toString(java.nio.charset.StandardCharsets.ISO_8859_1));
        } else {
            writeCompressed(w, Cmd.DUMP_FTS, out -> routes.dumpFts(hosts, out, true));
        }
        ok(w, Cmd.IBNETDISCOVER, null, topo.toString());
        ok(w, Cmd.IBQUERYERRORS, null, errs + "\n## Summary: " + (cas - (down >= 0 ? 1 : 0) + switches.size()) + " nodes checked, "
                + (faults ? 1 : 0) + " bad nodes found\n##          " + ports + " ports checked, " + (faults ? 1 : 0) + " ports have errors beyond threshold\n");
        ok(w, Cmd.SAQUERY_SM, null, "IsSM ports\nPortInfoRecord dump:\n\t\tEndPortLid.............." + smLid + "\n\t\tPortNum.................0\n"
                + "PortInfoRecord dump:\n\t\tEndPortLid.............." + (smLid + 1) + "\n\t\tPortNum.................0\n\nIsSMdisabled ports\n");
        ok(w, Cmd.PERFQUERY, null, "# Port counters: Lid " + lid0 + " port 1 (CapMask: 0x1600)\nPortSelect:......................1\n"
                + "SymbolErrorCounter:..............0\nLinkErrorRecoveryCounter:........0\nLinkDownedCounter:...............0\nPortRcvErrors:...................0\n");
        ok(w, Cmd.SMINFO, null, String.format("sminfo: sm lid %d sm guid 0x%x, activity count 81923 priority 15 state 3 SMINFO_MASTER%n"
                + "sminfo: sm lid %d sm guid 0x%x, activity count 81920 priority 14 state 2 SMINFO_STANDBY%n", smLid, top.get(0).guid, smLid + 1, top.get(1).guid));
        double full = d.ibstatRate() * 0.98;
        for (int i = 0; i + 1 < nodes; i += 2) {
            String id = "ib_write_bw__" + hosts.get(i) + "__" + hosts.get(i + 1);
            double gbps = faults && i == gen3 - gen3 % 2 ? full / 2 + 0.7 : full + 0.3;
            w.write("perftest/" + id + ".client.meta", "name: ib_write_bw\nhost: " + hosts.get(i) + "\npeer: " + hosts.get(i + 1)
                    + "\ncommand: ib_write_bw --report_gbits " + hosts.get(i + 1) + "\nstatus: ok\nexit: 0\nduration_ms: 5200\nstarted: x\n");
            w.write("perftest/" + id + ".client.out", bw(gbps));
        }
        int spines = levels == 2 ? top.size() : mid.size(), cores = levels == 2 ? 0 : top.size();
        return new Shape(nodes, levels, leaf.size(), spines, cores, isls, hcas, d.name());
    }

    /** What writes a command's output to a stream. */
    private interface Output {
        void write(java.io.OutputStream out) throws java.io.IOException;
    }

    /**
     * A fabric-wide output stored gzip-compressed (NAME.out.gz), as collect stores the ones that grow with switches x
     * LIDs; output writes the gzip stream itself.
     */
    private static void writeCompressed(DumpWriter w, Cmd c, Output output) {
        String rel = c.path("fabric");
        Path file = w.root().resolve(rel + ".gz");
        try {
            java.nio.file.Files.createDirectories(file.getParent());
            try (java.io.OutputStream out = new java.io.BufferedOutputStream(java.nio.file.Files.newOutputStream(file), 1 << 20)) {
                output.write(out);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        w.meta(rel, new CommandResult(c.fileName(), "fabric", c.fileName(), CommandResult.OK, 0, 40, "2026-12-02T12:00:00Z", ""), Map.of());
    }

    /** ibnetdiscover's link rate label, e.g. 4xHDR. */
    private static String rate(Design d, String width, String speed) {
        return width.toLowerCase(java.util.Locale.ROOT) + (speed.equals(d.speed()) ? d.rate() : d.slowRate());
    }

    private static void ok(DumpWriter w, Cmd c, String host, String out) {
        w.command(c, host == null ? "fabric" : host, new CommandResult(c.fileName(), host == null ? "fabric" : host, c.fileName(), CommandResult.OK, 0, 40, "2026-12-02T12:00:00Z", ""), out);
    }

    static String ibstat(long guid, int lid, boolean down) {
        return ibstat(HDR, 0, guid, lid, down, HDR.topLid0());
    }

    private static String ibstat(Design d, int ca, long guid, int lid, boolean down, int smLid) {
        return "CA 'mlx5_" + ca + "'\n\tCA type: " + d.caType() + "\n\tNumber of ports: 1\n\tFirmware version: " + d.firmware() + "\n\tHardware version: 0\n"
                + String.format("\tNode GUID: 0x%016x\n\tSystem image GUID: 0x%016x\n", guid, guid)
                + "\tPort 1:\n\t\tState: " + (down ? "Down" : "Active") + "\n\t\tPhysical state: " + (down ? "Polling" : "LinkUp")
                + "\n\t\tRate: " + (down ? 10 : d.ibstatRate()) + "\n\t\tBase lid: " + (down ? 65535 : lid) + "\n\t\tLMC: 0\n\t\tSM lid: " + smLid + "\n"
                + String.format("\t\tCapability mask: 0xa651e848\n\t\tPort GUID: 0x%016x\n\t\tLink layer: InfiniBand\n", guid);
    }

    static String portinfo(int lid, String state, String width, String speed) {
        return portinfo(lid, state, width, speed, HDR.topLid0());
    }

    private static String portinfo(int lid, String state, String width, String speed, int smLid) {
        return "# Port info: DR path slid 65535; dlid 65535; 0 port 1\nLid:.............................." + lid
                + "\nSMLid:..........................." + smLid + "\nLocalPort:.......................1\nLinkWidthEnabled:................1X or 4X\n"
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
                // perftest's MsgRate is the average bandwidth over the message size (65536 bytes: 524,288 bits)
                + String.format(java.util.Locale.ROOT, " 65536      5000           %.2f             %.2f  \t\t   %.6f%n", gbps + 0.1, gbps, gbps * 1e3 / 524_288)
                + "---------------------------------------------------------------------------------------\n";
    }
}
