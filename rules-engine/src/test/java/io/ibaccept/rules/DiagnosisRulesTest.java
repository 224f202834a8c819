package io.ibaccept.rules;

import static io.ibaccept.rules.TestDump.of;
import static io.ibaccept.rules.TestDump.problems;
import static io.ibaccept.rules.TestDump.status;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The right root cause, once, with the fix that applies. Small synthetic fabrics, one fault each. */
class DiagnosisRulesTest {
    @TempDir
    Path tmp;

    static String host(int i) {
        return String.format("cn%04d", i);
    }

    static String guid(int i) {
        return String.format("0x%016x", 0x0c42a10300100000L + 2L * (i - 1));
    }

    TestDump healthy(int n) {
        return TestDump.healthy(tmp.resolve("d"), n);
    }

    /** Every host's ibstat 'SM lid' set to smLid. */
    static void pointPortsAt(TestDump d, int n, int smLid) {
        for (int i = 1; i <= n; i++) d.replace("nodes/" + host(i) + "/ibstat.out", "SM lid: 500", "SM lid: " + smLid);
    }

    static String sminfo(int lid, String guid, int prio, int state, String name) {
        return "sminfo: sm lid " + lid + " sm guid " + guid + ", activity count 100 priority " + prio + " state " + state + " " + name + "\n";
    }

    // ---- 1. subnet manager diagnosis

    @Test
    void rogueMasterOnAComputeNodeIsNamedByHost() {
        TestDump d = healthy(8);
        d.write("fabric/sminfo.out", sminfo(1005, guid(6), 15, 3, "SMINFO_MASTER") + sminfo(1000, guid(1), 14, 2, "SMINFO_STANDBY")
                + sminfo(1001, guid(2), 13, 2, "SMINFO_STANDBY") + sminfo(1005, guid(6), 15, 3, "SMINFO_MASTER"));
        pointPortsAt(d, 8, 1005);
        Report r = d.analyze(TestDump.config(tmp, "sm.count.designated=cn0001,cn0002\n"));
        assertThat(problems(r, "sm.count")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).isEqualTo("master SM is on cn0006, a compute node (lid 1005), priority 15 above the designated SMs"
                    + " (cn0001 14, cn0002 13); designated SM nodes: cn0001, cn0002 (declared)");
            assertThat(f.fix()).startsWith("Disable opensm there: 'ssh cn0006 systemctl disable --now opensm'");
        });
        // the same master on a designated node is fine, and the SM is still named by host
        Report ok = d.analyze(TestDump.config(tmp, "sm.count.designated=cn0006,cn0001\n"));
        assertThat(of(ok, "sm.count")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).startsWith("exactly one master SM: cn0006 (SM lid 1005");
        });
    }

    @Test
    void theSameSmSeenByPlainSminfoAndThroughTheSaIsOneSm() {
        TestDump d = healthy(8);
        d.write("fabric/sminfo.out", sminfo(500, "0xc42a10300a10000", 15, 3, "SMINFO_MASTER") + sminfo(500, "0xc42a10300a10000", 15, 3, "SMINFO_MASTER"));
        Report r = d.analyze();
        assertThat(status(r, "sm.count")).isEqualTo(Status.PASS);
        assertThat(of(r, "sm.priority")).singleElement().satisfies(f -> assertThat(f.summary()).startsWith("single SM (priority 15)"));
    }

    @Test
    void deadSmThatEveryPortPointsTo() {
        TestDump d = healthy(8);
        d.write("fabric/sminfo.meta", "name: sminfo\nhost: cn0001\ncommand: sminfo\nstatus: failed\nexit: 255\n");
        d.write("fabric/sminfo.out", ""); // a failed sminfo prints nothing on stdout
        d.write("fabric/sminfo.err", "ibwarn: [1234] _do_madrpc: recv failed: Connection timed out\nsminfo: iberror: failed: query\n");
        pointPortsAt(d, 8, 1003);
        Report r = d.analyze();
        assertThat(problems(r, "sm.count")).singleElement().satisfies(f -> {
            assertThat(f.summary()).isEqualTo("no SM answers at SM lid 1003 (cn0004) that every port points to: the SM died; no standby configured");
            assertThat(f.fix()).contains("Restart opensm on cn0004");
        });
        // not a re-collect input ERROR: the failed sminfo is a consequence of the dead SM
        assertThat(of(r, "input")).filteredOn(f -> f.summary().startsWith("sminfo")).singleElement()
                .satisfies(f -> assertThat(f.isConsequence()).isTrue());
        assertThat(r.counts().get(Status.ERROR)).isZero();
    }

    @Test
    void standbyThatDidNotTakeOver() {
        TestDump d = healthy(8);
        d.write("fabric/sminfo.out", sminfo(501, "0xc42a10300a10001", 14, 2, "SMINFO_STANDBY"));
        Report r = d.analyze();
        assertThat(problems(r, "sm.count")).singleElement().satisfies(f ->
                assertThat(f.summary()).isEqualTo("no SM answers at SM lid 500 (spine01) that every port points to: the SM died;"
                        + " standby SM(s) spine02 (priority 14) did not take over"));
    }

    @Test
    void anUnreadableSminfoLineIsDamageNotADeadSm() {
        TestDump d = healthy(8);
        // the master's line garbled, the standby's readable: the ports still point at the master
        d.write("fabric/sminfo.out", sminfo(500, "0xc42a10300a10000", 15, 3, "SMINFO_MASTER").replace("0xc42a", "0x@@2a")
                + sminfo(501, "0xc42a10300a10001", 14, 2, "SMINFO_STANDBY"));
        Report r = d.analyze();
        assertThat(problems(r, "sm.count")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.ERROR);
            assertThat(f.summary()).startsWith("cannot tell whether a master SM runs: 1 line(s) of sminfo could not be read (fabric/sminfo.out:1:")
                    .doesNotContain("died");
        });
        assertThat(of(r, "input")).filteredOn(f -> f.summary().startsWith("sminfo")).singleElement()
                .satisfies(f -> assertThat(f.isConsequence()).isFalse());
        assertThat(r.counts().get(Status.FAIL)).isZero();
    }

    @Test
    void anUnreadableProbeValueIsDamageOfThatHostNotACrash() {
        TestDump d = healthy(4);
        d.delete("nodes/cn0002/ulimit-l.out").delete("nodes/cn0002/ulimit-l.meta");
        d.write("nodes/cn0002/native-probe.out", "memlock_soft_kib: 64 KiB\n");
        Report r = d.analyze();
        assertThat(problems(r, "memlock")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.ERROR);
            assertThat(f.summary()).isEqualTo("cn0002: the probe's memlock_soft_kib '64 KiB' is not a number of KiB or 'unlimited'");
        });
        assertThat(r.verdict()).isEqualTo(Verdict.INCOMPLETE);
    }

    @Test
    void smStuckInDiscovering() {
        TestDump d = healthy(8);
        d.write("fabric/sminfo.out", sminfo(1002, guid(3), 15, 1, "SMINFO_DISCOVERING"));
        pointPortsAt(d, 8, 0);
        Report r = d.analyze();
        assertThat(problems(r, "sm.count")).singleElement().satisfies(f -> {
            assertThat(f.summary()).isEqualTo("no master SM: the SM on cn0003 (lid 1002, priority 15) is stuck in DISCOVERING");
            assertThat(f.fix()).contains("/var/log/opensm.log").contains("duplicate").doesNotContain("systemctl enable");
        });
    }

    // ---- 3. root causes: one finding per fault, consequences under it

    @Test
    void noSmIsOneRootWithPortsInInitAndEmptyQueriesAsConsequences() {
        int n = 8;
        TestDump d = healthy(n);
        for (int i = 1; i <= n; i++)
            d.replace("nodes/" + host(i) + "/ibstat.out", "State: Active", "State: Initializing")
                    .replace("nodes/" + host(i) + "/ibstat.out", "SM lid: 500", "SM lid: 0");
        d.write("fabric/sminfo.meta", "name: sminfo\nhost: cn0001\ncommand: sminfo\nstatus: failed\nexit: 255\n");
        d.write("fabric/sminfo.out", ""); // a failed sminfo prints nothing on stdout
        d.write("fabric/sminfo.err", "sminfo: iberror: failed: query\n");
        d.write("fabric/ibqueryerrors.out", "");
        d.write("fabric/perfquery.out", "");
        d.write("fabric/saquery-s.out", "");
        Report r = d.analyze();
        Finding root = problems(r, "sm.count").get(0);
        assertThat(root.summary()).isEqualTo("no subnet manager answers (sminfo failed, ports report SM lid 0)");
        assertThat(root.isConsequence()).isFalse();
        List<Finding> under = r.consequencesOf(root);
        assertThat(under).filteredOn(f -> f.check().equals("port.state")).hasSize(n);
        assertThat(under).filteredOn(f -> f.check().equals("input")).extracting(f -> f.summary().split(":")[0])
                .contains("sminfo", "ibqueryerrors", "perfquery", "saquery-s");
        // and the check that could not run for lack of counters is listed under the SM too, not as its own problem
        assertThat(under).filteredOn(f -> f.check().equals("link.errors")).singleElement()
                .satisfies(f -> assertThat(f.status()).isEqualTo(Status.SKIP));
        // the verdict counts the root once
        assertThat(r.verdict()).isEqualTo(Verdict.REJECTED);
        assertThat(r.counts().get(Status.FAIL)).isEqualTo(1);
        assertThat(r.counts().get(Status.ERROR)).isZero();
        assertThat(r.worstFirst().get(0)).isEqualTo(root);
        assertThat(r.worstFirst().subList(1, 1 + under.size())).containsExactlyElementsOf(under);
    }

    /** Kills leaf002 of a 40-host, 2-leaf synthetic fabric: its 20 hosts down, the switch gone from iblinkinfo/ibnetdiscover. */
    static void killLeaf2(TestDump d) {
        for (int i = 21; i <= 40; i++) {
            String h = host(i);
            d.replace("nodes/" + h + "/ibstat.out", "State: Active", "State: Down").replace("nodes/" + h + "/ibstat.out", "Physical state: LinkUp", "Physical state: Polling");
            for (String cmd : List.of("smpquery-portinfo", "smpquery-pkeys", "smpquery-pkeys-peer", "smpquery-nodeinfo")) {
                d.write("nodes/" + h + "/" + cmd + ".out", "");
                d.write("nodes/" + h + "/" + cmd + ".meta", "name: " + cmd + "\nhost: " + h + "\ncommand: smpquery\nstatus: failed\nexit: 255\n");
                d.write("nodes/" + h + "/" + cmd + ".err", "ibwarn: [99] mad_rpc_open_port: can't open UMAD port ((null):0)\n");
            }
        }
        // the perftest pair between two of them could not run
        d.write("perftest/ib_write_bw__cn0021__cn0022.client.meta", "name: ib_write_bw\nhost: cn0021\npeer: cn0022\ncommand: ib_write_bw\n"
                + "status: failed\nexit: 1\n");
        d.write("perftest/ib_write_bw__cn0021__cn0022.client.err", "Couldn't connect to cn0022:18515\n");
        List<String> kept = new ArrayList<>();
        boolean skip = false;
        for (String line : d.read("fabric/iblinkinfo.out").split("\n")) {
            if (line.startsWith("CA: ") || line.startsWith("Switch: ")) {
                skip = line.contains("leaf002");
                for (int i = 21; i <= 40 && !skip; i++) skip = line.startsWith("CA: " + host(i) + " ");
            }
            if (!skip) kept.add(line);
        }
        d.write("fabric/iblinkinfo.out", String.join("\n", kept) + "\n");
        StringBuilder topo = new StringBuilder();
        for (String block : d.read("fabric/ibnetdiscover.out").split("\n\n")) {
            boolean dead = false;
            for (int i = 21; i <= 40; i++) dead |= block.contains("\"" + host(i) + " HCA-1\"");
            if (dead) continue;
            // a dead leaf's cables are down: no spine port names it as its peer any more
            for (String line : block.split("\n")) if (!line.contains("\"leaf002\"")) topo.append(line).append('\n');
            topo.append('\n');
        }
        d.write("fabric/ibnetdiscover.out", topo.toString());
    }

    @Test
    void deadLeafIsOneFindingWithTheHostsBehindItAsConsequences() {
        TestDump d = healthy(40);
        killLeaf2(d);
        Report r = d.analyze();
        assertThat(problems(r, "fabric.switches")).singleElement().satisfies(root -> {
            assertThat(root.status()).isEqualTo(Status.FAIL);
            assertThat(root.isConsequence()).isFalse();
            assertThat(root.summary()).startsWith("a leaf switch is missing: 20 hosts behind it are down together (cn0021, cn0022,")
                    .endsWith("and no switch sees them, while each of the 1 answering leaves has all its 20 hosts up");
            assertThat(root.fix()).contains("power");
            List<Finding> under = r.consequencesOf(root);
            assertThat(under).filteredOn(f -> f.check().equals("port.state")).hasSize(20);
            assertThat(under).filteredOn(f -> f.check().equals("fabric.inventory")).hasSize(1);
            assertThat(under).filteredOn(f -> f.check().equals("input")).isNotEmpty()
                    .anySatisfy(f -> assertThat(f.summary()).startsWith("perftest: perftest/ib_write_bw__cn0021__cn0022.client.out"));
        });
        assertThat(r.roots()).filteredOn(f -> f.status() == Status.FAIL).singleElement()
                .satisfies(f -> assertThat(f.check()).isEqualTo("fabric.switches"));
        assertThat(r.roots()).filteredOn(f -> f.check().equals("input") && f.status() != Status.PASS).isEmpty();
    }

    @Test
    void oneUnpluggedHostIsItsOwnRootNotALostSwitch() {
        TestDump d = healthy(40);
        d.replace("nodes/cn0007/ibstat.out", "State: Active", "State: Down").replace("nodes/cn0007/ibstat.out", "Physical state: LinkUp", "Physical state: Polling");
        Report r = d.analyze();
        assertThat(status(r, "fabric.switches")).isEqualTo(Status.PASS);
        assertThat(problems(r, "port.state")).singleElement().satisfies(f -> assertThat(f.isConsequence()).isFalse());
    }

    // ---- 5. sentinels

    @Test
    void lidZeroOnSwitchesIsUnassignedNotDuplicate() {
        TestDump d = healthy(40);
        String links = d.read("fabric/iblinkinfo.out").replaceAll("(?m)^ +\\d+( +\\d+\\[)", "        0$1");
        d.write("fabric/iblinkinfo.out", links);
        assertThat(d.read("fabric/iblinkinfo.out")).contains("        0    1[  ]");
        Report r = d.analyze();
        assertThat(status(r, "lid.duplicate")).isEqualTo(Status.PASS);
    }

    // ---- 4. causes that match the counter, one finding per cable

    static String qe(String body) {
        return body + "\n## Summary: 13 nodes checked, 1 bad nodes found\n##          168 ports checked, 1 ports have errors beyond threshold\n";
    }

    @Test
    void countersPointAtTheirOwnCause() {
        TestDump d = healthy(8);
        d.write("fabric/ibqueryerrors.out", qe("Errors for 0xc42a10300a00000 \"leaf001\"\n"
                + "   GUID 0xc42a10300a00000 port 3: [PortXmitDiscards == 57] [PortXmitWait == 4000000]\n"
                + "   GUID 0xc42a10300a00000 port 5: [PortRcvRemotePhysicalErrors == 12]\n"
                + "   GUID 0xc42a10300a00000 port 6: [PortRcvConstraintErrors == 3]\n"));
        Report r = d.analyze();
        List<Finding> p = problems(r, "link.errors");
        // read once, with no known start: congestion is judged as a rate only, the rest is history per switch and cause
        assertThat(p).noneSatisfy(f -> assertThat(f.summary()).contains("PortXmitWait"));
        assertThat(p).filteredOn(f -> f.variant().equals("history_upstream")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.objects()).containsExactly("leaf001 port 5");
            assertThat(f.summary()).startsWith("leaf001: 1 port(s) receiving packets marked bad upstream since an unknown time");
            assertThat(f.cause()).contains("upstream").doesNotContain("marginal cable");
            assertThat(f.fix()).contains("--window 10m");
        });
        assertThat(p).filteredOn(f -> f.variant().equals("history_constraint")).singleElement()
                .satisfies(f -> assertThat(f.cause()).contains("partition mismatch"));
        assertThat(p).hasSize(2);
    }

    @Test
    void symbolErrorsOnBothEndsAreOneCable() {
        TestDump d = healthy(8);
        d.write("fabric/ibqueryerrors.out", qe("Errors for 0xc42a10300a00000 \"leaf001\"\n"
                + "   GUID 0xc42a10300a00000 port 4: [SymbolErrorCounter == 500] [LinkDownedCounter == 2]\n"
                + "Errors for " + guid(4) + " \"cn0004 HCA-1\"\n"
                + "   GUID " + guid(4) + " port 1: [SymbolErrorCounter == 90] [PortRcvErrors == 4]\n"));
        Report r = d.analyze();
        assertThat(problems(r, "link.errors")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.variant()).isEqualTo("history");
            assertThat(f.objects()).containsExactlyInAnyOrder("leaf001 port 4", "cn0004 HCA-1 port 1");
            assertThat(f.summary()).contains("leaf001: 1 cable(s) with").contains("cable cn0004 HCA-1 port 1 <-> leaf001 port 4: ")
                    .contains("port 4: LinkDownedCounter=2 SymbolErrorCounter=500").contains("cn0004 HCA-1 port 1: SymbolErrorCounter=90 PortRcvErrors=4");
            assertThat(f.cause()).contains("since an unknown time");
        });
    }

    // ---- 6. expected width and speed per link class, and what the ports support

    /** Host links (CA lines and the leaf ports facing hosts) at the given width. */
    static void hostLinksAt(TestDump d, String width) {
        StringBuilder out = new StringBuilder();
        boolean ca = false;
        for (String line : d.read("fabric/iblinkinfo.out").split("\n")) {
            if (line.startsWith("CA: ")) ca = true;
            else if (line.startsWith("Switch: ")) ca = false;
            out.append(ca || line.contains("HCA-1\"") ? line.replace("==( 4X ", "==( " + width + " ") : line).append("\n");
        }
        d.write("fabric/iblinkinfo.out", out.toString());
    }

    /**
     * Sets one host link's width/rate (and iblinkinfo's "Could be" note) on both of its iblinkinfo lines, the CA's and
     * the leaf port's, as iblinkinfo prints a link from each end.
     */
    static void hostLink(TestDump d, int host, String width, String gbps, String couldBe) {
        String caLine = "      " + guid(host) + " ";
        String leafLine = "\"" + host(host) + " HCA-1\"";
        StringBuilder out = new StringBuilder();
        for (String line : d.read("fabric/iblinkinfo.out").split("\n")) {
            if (line.startsWith(caLine) || line.contains(leafLine)) {
                int a = line.indexOf("==( "), b = line.indexOf(" Gbps", a);
                line = line.substring(0, a) + "==( " + width + "  " + gbps + line.substring(b);
                if (couldBe != null) line = line.substring(0, line.lastIndexOf('(')) + "(" + couldBe + ")";
            }
            out.append(line).append("\n");
        }
        d.write("fabric/iblinkinfo.out", out.toString());
    }

    @Test
    void hdr100HostsByDesignWithFullWidthIslsAreAccepted() {
        TestDump d = healthy(40);
        hostLinksAt(d, "2X");
        Report r = d.analyze();
        assertThat(of(r, "link.width")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).isEqualTo("all 40 active host links run at 2X (most common among host links); "
                    + "all 40 active switch-to-switch links run at 4X (most common among switch-to-switch links)");
        });
        // a host link at 1X among 2X hosts is still a lane problem
        hostLink(d, 5, "1X", "53.125", null);
        assertThat(problems(d.analyze(), "link.width")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).startsWith("cn0005 HCA-1 port 1 <-> leaf001 port 5 runs at 1X, expected 2X (most common among host links)");
        });
        // and a configured class expectation wins over the majority
        Report conf = d.analyze(TestDump.config(tmp, "link.width.expected.host=4X\nlink.width.expected.isl=4X\n"));
        assertThat(problems(conf, "link.width")).hasSize(40).allSatisfy(f -> assertThat(f.summary()).contains("(configured for host links)"));
    }

    /**
     * Every host link at EDR though both ends could run HDR (iblinkinfo's "Could be"): the majority proves nothing, so
     * one WARN to declare the speed; half of them at EDR while the others run HDR: each EDR link is a FAIL.
     */
    @Test
    void linksBelowWhatBothEndsCouldRunAreNeverHiddenByTheMajority() {
        TestDump d = healthy(40);
        for (int i = 1; i <= 40; i++) hostLink(d, i, "4X", "25.78125", "Could be 53.125 Gbps");
        assertThat(problems(d.analyze(), "link.speed")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.variant()).isEqualTo("below_capable");
            assertThat(f.summary()).startsWith("40 host link(s) run at EDR though both ends could run HDR");
        });
        for (int i = 21; i <= 40; i++) hostLink(d, i, "4X", "53.125", null);
        assertThat(problems(d.analyze(), "link.speed")).hasSize(20).allSatisfy(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).contains("runs at EDR, expected HDR (no majority among host links (20 at EDR, 20 at HDR): the better value expected)");
        });
        for (int i = 21; i <= 39; i++) hostLink(d, i, "4X", "25.78125", "Could be 53.125 Gbps");
        assertThat(problems(d.analyze(), "link.speed")).hasSize(39).allSatisfy(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).contains("expected HDR (other host links run at HDR and this one could; most common among host links)");
        });
    }

    @Test
    void hcaThatOnlySupportsANarrowerWidthIsACapabilityWarningNotACableFault() {
        TestDump d = healthy(40);
        hostLink(d, 5, "2X", "53.125", null);
        d.replace("nodes/cn0005/smpquery-portinfo.out", "LinkWidthSupported:..............1X or 4X", "LinkWidthSupported:..............1X or 2X");
        assertThat(problems(d.analyze(), "link.width")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.summary()).isEqualTo("cn0005 HCA-1 port 1 <-> leaf001 port 5 runs at 2X because the HCA of cn0005 supports only 2X"
                    + " (expected 4X, most common among host links)");
            assertThat(f.cause()).contains("not a cable fault");
            assertThat(f.evidence()).anySatisfy(e -> assertThat(e.where()).isEqualTo("nodes/cn0005/smpquery-portinfo.out:1"));
        });
    }

    @Test
    void speedBelowWhatBothEndsCouldDoFailsWhileAQdrOnlyHcaWarns() {
        TestDump d = healthy(40);
        d.write("fabric/iblinkinfo.out", d.read("fabric/iblinkinfo.out").replace("( )", "(Could be 12X )"));
        // cn0005: QDR, and iblinkinfo says nothing better is possible -> the hardware's limit
        hostLink(d, 5, "4X", "10.0", "Could be 12X ");
        // cn0006: EDR, but both ends could run HDR -> cable/signal
        hostLink(d, 6, "4X", "25.78125", "Could be 12X Could be 53.125 Gbps");
        List<Finding> p = problems(d.analyze(), "link.speed");
        assertThat(p).filteredOn(f -> f.summary().startsWith("cn0005")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.summary()).contains("runs at QDR because the ports of this link support only QDR");
        });
        assertThat(p).filteredOn(f -> f.summary().startsWith("cn0006")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).endsWith("expected HDR (most common among host links); both ends could run HDR");
        });
    }

    // ---- 2. partitions: membership types, both link ends, enforcement

    static String pkeys(String keys) {
        return "   0: " + keys + "\n16 pkeys capacity for this port\n";
    }

    @Test
    void defaultPartitionWithLimitedMembersIsTheClassicPitfall() {
        TestDump d = healthy(8);
        for (int i = 1; i <= 8; i++) {
            String k = i == 1 ? "0xffff" : "0x7fff";
            d.write("nodes/" + host(i) + "/smpquery-pkeys.out", pkeys(k)).write("nodes/" + host(i) + "/smpquery-pkeys-peer.out", pkeys(k));
        }
        Report r = d.analyze();
        assertThat(problems(r, "pkey")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            // the one correct host (the SM's, full member) is not blamed
            assertThat(f.objects()).containsExactly("cn0002", "cn0003", "cn0004", "cn0005", "cn0006", "cn0007", "cn0008");
            assertThat(f.summary()).isEqualTo("7 host(s) are only LIMITED members (0x7fff) of the default partition; full members: cn0001:"
                    + " limited members cannot talk to each other (IPoIB, MPI between them fails)");
            assertThat(f.fix()).contains("ALL=full");
        });
    }

    @Test
    void fullAndLimitedAreOnePartitionAndALimitedMemberAmongFullOnesIsNamed() {
        TestDump d = healthy(8);
        for (int i = 1; i <= 8; i++) {
            String k = "0xffff " + (i == 4 ? "0x0002" : "0x8002");
            d.write("nodes/" + host(i) + "/smpquery-pkeys.out", pkeys(k)).write("nodes/" + host(i) + "/smpquery-pkeys-peer.out", pkeys(k));
        }
        Report r = d.analyze();
        assertThat(problems(r, "pkey")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.objects()).containsExactly("cn0004");
            assertThat(f.summary()).isEqualTo("cn0004 is a LIMITED member of partition 0x0002 where 7 host(s) are full members: reaches full members only");
            assertThat(f.fix()).contains("0x8002");
        });
    }

    @Test
    void hcaKeyMissingOnAProgrammedSwitchPortFails() {
        TestDump d = healthy(8);
        // the SM programs switch ports (others carry 0x8001); cn0003's switch port lacks it
        d.write("nodes/cn0003/smpquery-pkeys-peer.out", pkeys("0xffff"));
        assertThat(problems(d.analyze(), "pkey")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.cause()).contains("P_Key 0x8001 is in the table of cn0003 HCA but not of leaf001 port 3");
        });
    }

    // ---- 7. duplicate node descriptions

    @Test
    void duplicateNodeDescriptionsAreReportedAndLaterFindingsSayTheNameIsAmbiguous() {
        TestDump d = healthy(8);
        d.replace("fabric/ibnetdiscover.out", "# \"cn0002 HCA-1\"", "# \"cn0001 HCA-1\"");
        d.write("fabric/iblinkinfo.out", d.read("fabric/iblinkinfo.out").replace("CA: cn0002 HCA-1:", "CA: cn0001 HCA-1:")
                .replace("\"cn0002 HCA-1\"", "\"cn0001 HCA-1\"")
                .replace("0x0c42a10300100002   1001    1[  ] ==( 4X ", "0x0c42a10300100002   1001    1[  ] ==( 1X ")
                .replace("==( 4X         53.125 Gbps Active/  LinkUp)==>    1001    1[  ]", "==( 1X         53.125 Gbps Active/  LinkUp)==>    1001    1[  ]"));
        Report r = d.analyze();
        assertThat(problems(r, "node.names")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.summary()).isEqualTo("2 nodes share the description \"cn0001 HCA-1\" (GUIDs 0x0c42a10300100000, 0x0c42a10300100002)");
        });
        assertThat(problems(r, "link.width")).singleElement().satisfies(f -> assertThat(f.summary())
                .startsWith("cn0001 HCA-1 port 1 <-> leaf001 port 2 runs at 1X")
                .endsWith("[\"cn0001 HCA-1\" is ambiguous: 2 nodes carry it (GUIDs 0x0c42a10300100000, 0x0c42a10300100002)]"));
    }

    // ---- 8. MTU expected

    @Test
    void wholeFabricAtMtu2048IsAWarningWithTheOpensmFix() {
        TestDump d = healthy(8);
        for (int i = 1; i <= 8; i++)
            d.replace("nodes/" + host(i) + "/smpquery-portinfo.out", "NeighborMTU:.....................4096", "NeighborMTU:.....................2048");
        Report r = d.analyze();
        assertThat(problems(r, "mtu")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.summary()).isEqualTo("all 8 host(s) use MTU 2048, expected 4096");
            assertThat(f.fix()).contains("mtu=5").contains("max_mtu");
        });
        assertThat(status(d.analyze(TestDump.config(tmp, "mtu.expected=2048\n")), "mtu")).isEqualTo(Status.PASS);
        // ports that cannot do more (MtuCap 2048) are not asked to
        for (int i = 1; i <= 8; i++)
            d.replace("nodes/" + host(i) + "/smpquery-portinfo.out", "MtuCap:..........................4096", "MtuCap:..........................2048");
        assertThat(status(d.analyze(), "mtu")).isEqualTo(Status.PASS);
    }
}
