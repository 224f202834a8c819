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
 * Generates a dump of an N-node HDR fat tree in the tools' real output formats (20 hosts per leaf, 20 uplinks per
 * leaf spread over the spines), with a few faults: a down HCA port, a 1X link, an EDR link, low memlock, a Gen3 HCA,
 * symbol errors. Used by the benchmark and scale tests; not a substitute for the captured sample dump.
 */
public final class SyntheticDump {
    private SyntheticDump() {}

    static final int HOSTS_PER_LEAF = 20;

    public static void generate(Path dir, int nodes) {
        generate(dir, nodes, true);
    }

    /** faults=false gives a fabric on which every check passes (the baseline rule tests mutate). */
    public static void generate(Path dir, int nodes, boolean faults) {
        DumpWriter w = new DumpWriter(dir);
        List<String> hosts = new ArrayList<>();
        for (int i = 1; i <= nodes; i++) hosts.add(String.format("cn%04d", i));
        int leaves = (nodes + HOSTS_PER_LEAF - 1) / HOSTS_PER_LEAF;
        int spines = Math.max(2, Math.min(20, leaves / 2));
        w.manifest(new Manifest(Manifest.FORMAT, "synthetic-" + nodes, "2026-12-02T12:00:00Z", "ibaccept synthetic", hosts.get(0), hosts,
                Map.of("infiniband-diags", "44.0")));
        int down = nodes / 3, oneX = nodes / 2, edr = nodes / 2 + 1, lowMem = nodes / 4, gen3 = nodes / 5;
        if (!faults) down = oneX = edr = lowMem = gen3 = -1;
        int hostLid0 = 1000;
        StringBuilder links = new StringBuilder(), topo = new StringBuilder(), errs = new StringBuilder();
        for (int i = 0; i < nodes; i++) {
            String h = hosts.get(i);
            long guid = 0x0c42a10300100000L + 2L * i;
            int lid = hostLid0 + i;
            boolean isDown = i == down;
            String width = i == oneX ? "1X" : "4X";
            String speed = i == edr ? "25.78125 Gbps" : "53.125 Gbps";
            int leaf = i / HOSTS_PER_LEAF, leafLid = 2 + leaf, leafPort = i % HOSTS_PER_LEAF + 1;
            ok(w, Cmd.IBSTAT, h, ibstat(guid, lid, isDown));
            ok(w, Cmd.PORTINFO, h, portinfo(lid, isDown ? "Down" : "Active", width, speed));
            ok(w, Cmd.PKEYS, h, pkeys());
            ok(w, Cmd.PEER_PKEYS, h, pkeys());
            ok(w, Cmd.ULIMIT, h, i == lowMem ? "64\n" : "unlimited\n");
            ok(w, Cmd.NODEINFO, h, String.format("# Node info: DR path slid 65535; dlid 65535; 0\nNodeType:........................Channel Adapter\n"
                    + "NumPorts:........................1\nGuid:............................0x%016x\nPortGuid:........................0x%016x\n", guid, guid));
            ok(w, Cmd.OFED_INFO, h, "MLNX_OFED_LINUX-5.8-1.0.1.1:\n");
            ok(w, Cmd.MLXLINK_PCIE, h, "\nPCIe Operational (Enabled) Info\n-------------------------------\n"
                    + "Link Speed Active (Enabled)        : " + (i == gen3 ? "8G-Gen 3" : "16G-Gen 4") + " (16G-Gen 4)\n"
                    + "Link Width Active (Enabled)        : 16X (16X)\n");
            String desc = h + " HCA-1";
            if (isDown) {
                links.append(String.format("CA: %s:%n      0x%016x  %5d    1[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )%n", desc, guid, lid));
            } else {
                links.append(String.format("CA: %s:%n      0x%016x  %5d    1[  ] ==( %s        %s Active/  LinkUp)==>  %5d   %2d[  ] \"leaf%03d\" ( )%n",
                        desc, guid, lid, width, speed, leafLid, leafPort, leaf + 1));
                topo.append(String.format("Ca\t1 \"H-%016x\"\t\t# \"%s\"%n[1](%x) \t\"S-%016x\"[%d]\t\t# lid %d lmc 0 \"leaf%03d\" lid %d 4xHDR%n%n",
                        guid, desc, guid, 0x0c42a10300a00000L + leaf, leafPort, lid, leaf + 1, leafLid));
            }
        }
        for (int l = 0; l < leaves; l++) {
            int leafLid = 2 + l;
            links.append(String.format("Switch: 0x%016x leaf%03d:%n", 0x0c42a10300a00000L + l, l + 1));
            for (int p = 1; p <= HOSTS_PER_LEAF; p++) {
                int i = l * HOSTS_PER_LEAF + p - 1;
                if (i >= nodes || i == down) {
                    links.append(String.format("        %5d   %2d[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )%n", leafLid, p));
                    continue;
                }
                String width = i == oneX ? "1X" : "4X", speed = i == edr ? "25.78125 Gbps" : "53.125 Gbps";
                links.append(String.format("        %5d   %2d[  ] ==( %s        %s Active/  LinkUp)==>  %5d    1[  ] \"%s HCA-1\" ( )%n",
                        leafLid, p, width, speed, hostLid0 + i, hosts.get(i)));
            }
            for (int u = 0; u < HOSTS_PER_LEAF; u++) {
                int s = u % spines, spineLid = 500 + s, spinePort = l * (HOSTS_PER_LEAF / spines + 1) + u / spines + 1;
                links.append(String.format("        %5d   %2d[  ] ==( 4X        53.125 Gbps Active/  LinkUp)==>  %5d  %3d[  ] \"spine%02d\" ( )%n",
                        leafLid, HOSTS_PER_LEAF + u + 1, spineLid, spinePort, s + 1));
            }
            if (l == 0 && faults) errs.append(String.format("Errors for 0x%x \"leaf001\"%n   GUID 0x%x port 3: [SymbolErrorCounter == 250]%n", 0x0c42a10300a00000L, 0x0c42a10300a00000L));
        }
        ok(w, Cmd.IBLINKINFO, null, links.toString());
        ok(w, Cmd.IBNETDISCOVER, null, "#\n# Topology file: generated synthetically\n#\n\n" + topo);
        ok(w, Cmd.IBQUERYERRORS, null, errs + "\n## Summary: " + (nodes + leaves + spines) + " nodes checked, 1 bad nodes found\n##          "
                + (nodes + leaves * 40) + " ports checked, 1 ports have errors beyond threshold\n");
        ok(w, Cmd.SAQUERY_SM, null, "IsSM ports\nPortInfoRecord dump:\n\t\tEndPortLid..............500\n\t\tPortNum.................0\n"
                + "PortInfoRecord dump:\n\t\tEndPortLid..............501\n\t\tPortNum.................0\n\nIsSMdisabled ports\n");
        ok(w, Cmd.PERFQUERY, null, "# Port counters: Lid " + hostLid0 + " port 1 (CapMask: 0x1600)\nPortSelect:......................1\n"
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
