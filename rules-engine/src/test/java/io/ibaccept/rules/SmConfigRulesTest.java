package io.ibaccept.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * the SM configuration checks on the synthetic fat tree with SM files written as the collector stores them
 * (opensm.conf as 'opensm -c' writes it, edited; real opensm logs from ibsim). FAIL and PASS cases, and the live
 * findings listed under the configuration root.
 */
class SmConfigRulesTest {
    @TempDir
    Path tmp;

    static String res(String name) {
        try (InputStream in = SmConfigRulesTest.class.getResourceAsStream("/opensm/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** opensm.conf as opensm writes it with some lines replaced ("sm_priority 0" -> "sm_priority 15"). */
    static String conf(String... replacements) {
        String text = res("opensm-3.3.23-default.conf");
        for (int i = 0; i < replacements.length; i += 2) {
            assertThat(text).contains("\n" + replacements[i] + "\n");
            text = text.replace("\n" + replacements[i] + "\n", "\n" + replacements[i + 1] + "\n");
        }
        return text;
    }

    static final String GOOD_PARTITIONS = "# site partitions\nDefault=0x7fff, ipoib, mtu=5 : ALL=full;\ncompute=0x0001, ipoib, mtu=5 : ALL=full;\n";

    static TestDump sm(TestDump d, String host, String conf, String partitions, String log) {
        d.write("nodes/" + host + "/opensm-process.out", "pid: 1234\nconfig: /etc/opensm/opensm.conf\npartitions: /etc/opensm/partitions.conf\n"
                + "log: /var/log/opensm.log\narg: /usr/sbin/opensm\narg: -B\n");
        if (conf != null) d.write("nodes/" + host + "/opensm.conf.out", conf);
        if (partitions != null) d.write("nodes/" + host + "/partitions.conf.out", partitions);
        if (log != null) d.write("nodes/" + host + "/opensm.log.out", log);
        return d;
    }

    /** sminfo naming the hosts' own GUIDs (the synthetic dump's HCAs: node GUID = port GUID) as master and standby. */
    static TestDump sminfo(TestDump d, String master, int masterPrio, String standby, int standbyPrio) {
        return d.write("fabric/sminfo.out", String.format("sminfo: sm lid 500 sm guid %s, activity count 81923 priority %d state 3 SMINFO_MASTER\n"
                        + "sminfo: sm lid 501 sm guid %s, activity count 81920 priority %d state 2 SMINFO_STANDBY\n",
                guid(d, master), masterPrio, guid(d, standby), standbyPrio));
    }

    static String guid(TestDump d, String host) {
        String s = d.read("nodes/" + host + "/ibstat.out");
        int i = s.indexOf("Port GUID: ");
        return s.substring(i + 11, i + 29);
    }

    TestDump healthyPair() {
        TestDump d = TestDump.healthy(tmp.resolve("d"), 16);
        sm(d, "cn0001", conf("sm_priority 0", "sm_priority 15", "routing_engine (null)", "routing_engine ftree",
                "sm_key 0x0000000000000001", "sm_key 0x5eC2e7000000beef"), GOOD_PARTITIONS, res("opensm-ibsim-2s4l-standby.log")
                .replace("Entering STANDBY state", "Entering MASTER state"));
        sm(d, "cn0002", conf("sm_priority 0", "sm_priority 14", "routing_engine (null)", "routing_engine ftree",
                "sm_key 0x0000000000000001", "sm_key 0x5eC2e7000000beef"), GOOD_PARTITIONS, res("opensm-ibsim-2s4l-standby.log"));
        return sminfo(d, "cn0001", 15, "cn0002", 14);
    }

    static final List<String> CHECKS = List.of("sm.config.priority", "sm.config.standby", "sm.config.smkey", "sm.config.routing",
            "sm.config.mtu", "sm.log", "partitions.syntax", "partitions.membership", "sm.config.consistency");

    @Test
    void aWellConfiguredPairPassesEveryCheck() {
        Report r = healthyPair().analyze();
        for (String c : CHECKS) assertThat(TestDump.status(r, c)).as(c).isEqualTo(Status.PASS);
        assertThat(TestDump.of(r, "sm.config.priority")).singleElement().satisfies(f -> assertThat(f.summary()).contains("cn0001 15, cn0002 14"));
    }

    @Test
    void withoutSmFilesTheChecksSkipWithTheCollectHint() {
        Report r = TestDump.healthy(tmp.resolve("d"), 8).analyze();
        for (String c : CHECKS) assertThat(TestDump.status(r, c)).as(c).isEqualTo(Status.SKIP);
        assertThat(TestDump.of(r, "sm.config.priority")).singleElement().satisfies(f -> assertThat(f.summary()).contains("--sm-nodes"));
        assertThat(TestDump.of(r, "partitions.syntax")).singleElement().satisfies(f -> assertThat(f.summary()).contains("partitions.conf"));
    }

    @Test
    void equalPrioritiesAreOneRootWithTheLiveWarningUnderIt() {
        TestDump d = healthyPair();
        d.replace("nodes/cn0002/opensm.conf.out", "\nsm_priority 14\n", "\nsm_priority 15\n");
        sminfo(d, "cn0001", 15, "cn0002", 15);
        Report r = d.analyze();
        Finding root = TestDump.problems(r, "sm.config.priority").get(0);
        assertThat(TestDump.problems(r, "sm.config.priority")).hasSize(1);
        assertThat(root.status()).isEqualTo(Status.WARN);
        assertThat(root.objects()).containsExactly("cn0001", "cn0002");
        assertThat(root.evidence()).extracting(Evidence::where).startsWith("nodes/cn0001/opensm.conf.out:321", "nodes/cn0002/opensm.conf.out:321");
        assertThat(TestDump.problems(r, "sm.priority")).singleElement().satisfies(f -> assertThat(f.parent()).isEqualTo(root.id()));
    }

    @Test
    void theMasterIsNotTheConfiguredPrimary() {
        TestDump d = healthyPair();
        sminfo(d, "cn0002", 14, "cn0001", 15);
        Report r = d.analyze();
        assertThat(TestDump.problems(r, "sm.config.priority")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).isEqualTo("master SM is cn0002 (live priority 14) but the configured primary is cn0001 (sm_priority 15)");
            assertThat(f.fix()).contains("'systemctl status opensm'");
        });
    }

    @Test
    void aMasterOutsideTheCollectedSmNodesIsAWarnToConfirm() {
        // e.g. a switch-embedded SM or UFM holds the fabric: not one of the SM nodes whose files were collected
        TestDump d = healthyPair();
        d.write("fabric/sminfo.out", "sminfo: sm lid 900 sm guid 0x0002c90300aabbcc, activity count 81923 priority 15 state 3 SMINFO_MASTER\n"
                + String.format("sminfo: sm lid 501 sm guid %s, activity count 81920 priority 15 state 2 SMINFO_STANDBY\n", guid(d, "cn0001")));
        Report r = d.analyze();
        assertThat(TestDump.problems(r, "sm.config.priority")).filteredOn(f -> f.summary().startsWith("master SM is")).singleElement()
                .satisfies(f -> assertThat(f.status()).isEqualTo(Status.WARN));
    }

    @Test
    void commandLinePriorityOverridesTheFile() {
        TestDump d = healthyPair();
        d.write("nodes/cn0002/opensm-process.out", d.read("nodes/cn0002/opensm-process.out") + "arg: -p\narg: 15\n");
        Report r = d.analyze();
        assertThat(TestDump.problems(r, "sm.config.priority")).singleElement().satisfies(f ->
                assertThat(f.evidence()).extracting(Evidence::where).contains("nodes/cn0002/opensm-process.out:1"));
    }

    @Test
    void aSingleSmWithDefaultsWarnsForStandbyAndRouting() {
        TestDump d = TestDump.healthy(tmp.resolve("d"), 16);
        sm(d, "cn0001", conf(), GOOD_PARTITIONS, null);
        d.write("fabric/sminfo.out", String.format("sminfo: sm lid 500 sm guid %s, activity count 81923 priority 0 state 3 SMINFO_MASTER\n", guid(d, "cn0001")));
        Report r = d.analyze();
        assertThat(TestDump.problems(r, "sm.config.standby")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.summary()).startsWith("1 subnet manager(s) (cn0001), 2 wanted");
        });
        // one SM: sm_key is not needed
        assertThat(TestDump.status(r, "sm.config.smkey")).isEqualTo(Status.PASS);
        assertThat(TestDump.problems(r, "sm.config.routing")).singleElement().satisfies(f -> {
            assertThat(f.summary()).startsWith("cn0001: routing_engine not set (opensm uses minhop) on a 2-level fat tree of 3 switches");
            assertThat(f.evidence().get(0).where()).isEqualTo("nodes/cn0001/opensm.conf.out:228");
        });
    }

    @Test
    void twoSmsWithTheDefaultSmKey() {
        TestDump d = healthyPair();
        d.replace("nodes/cn0002/opensm.conf.out", "\nsm_key 0x5eC2e7000000beef\n", "\nsm_key 0x0000000000000001\n");
        assertThat(TestDump.problems(d.analyze(), "sm.config.smkey")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.objects()).containsExactly("cn0002");
        });
    }

    @Test
    void aRejectedPartitionsLineIsOneRootWithTheLogLinesUnderIt() {
        TestDump d = healthyPair();
        // the real ibsim capture: a member named by host name; opensm logged PARSE ERROR and ran the default partition
        sm(d, "cn0001", d.read("nodes/cn0001/opensm.conf.out"), res("partitions-ibsim-bad-guid.conf"), res("opensm-ibsim-2s4l-partitions-error-master.log"));
        Report r = d.analyze();
        Finding root = TestDump.problems(r, "partitions.syntax").get(0);
        assertThat(TestDump.problems(r, "partitions.syntax")).hasSize(1);
        assertThat(root.status()).isEqualTo(Status.FAIL);
        assertThat(root.summary()).contains("1 line(s) opensm rejects (opensm.log: it runs the default partition only)")
                .endsWith("first at nodes/cn0001/partitions.conf.out:2");
        assertThat(root.evidence().get(0).text()).startsWith("rejected: bad PortGUID 'node07'");
        assertThat(TestDump.problems(r, "sm.log")).hasSize(2).allSatisfy(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.parent()).isEqualTo(root.id());
        }).extracting(Finding::summary).anySatisfy(s -> assertThat(s).startsWith("cn0001 opensm.log: 5 x partitions.conf PARSE ERROR in the last 43 lines"));
        // the lint of the membership needs a file opensm accepted
        assertThat(TestDump.status(r, "partitions.membership")).isEqualTo(Status.SKIP);
    }

    @Test
    void aLineOurReadingRejectsButTheRunningOpensmAcceptedIsAWarn() {
        // the same file, but the running opensm's log (sweeps, SUBNET UP) shows no PARSE ERROR: a newer opensm may
        // accept what 3.3's parser rejects, so the finding asks for a look instead of failing the acceptance
        TestDump d = healthyPair();
        sm(d, "cn0001", d.read("nodes/cn0001/opensm.conf.out"), res("partitions-ibsim-bad-guid.conf"), res("opensm-ibsim-ft9-ffff-default-partition-master.log"));
        Finding f = TestDump.problems(d.analyze(), "partitions.syntax").get(0);
        assertThat(f.status()).isEqualTo(Status.WARN);
        assertThat(f.summary()).contains("the running opensm logged no rejection");
    }

    @Test
    void noDefaultRuleMakesEveryPortLimitedAndTheLivePkeyFailGoesUnderIt() {
        TestDump d = healthyPair();
        sm(d, "cn0001", d.read("nodes/cn0001/opensm.conf.out"), "compute=0x0001, ipoib : ALL=full;\n", null);
        for (int i = 1; i <= 16; i++)
            d.replace(String.format("nodes/cn%04d/smpquery-pkeys.out", i), "0: 0xffff 0x8001", i == 1 ? "0: 0xffff 0x8001" : "0: 0x7fff 0x8001");
        Report r = d.analyze();
        Finding root = TestDump.problems(r, "partitions.membership").get(0);
        assertThat(root.status()).isEqualTo(Status.FAIL);
        assertThat(root.summary()).contains("has no rule for the Default partition").endsWith("live: 15 host(s) hold 0x7fff only");
        assertThat(root.fix()).contains("'Default=0x7fff, ipoib : ALL=full;'");
        assertThat(TestDump.problems(r, "pkey")).filteredOn(f -> f.status() == Status.FAIL).singleElement()
                .satisfies(f -> assertThat(f.parent()).isEqualTo(root.id()));
    }

    @Test
    void limitedOnlyPartitionsStaleKeysAndKeysWrittenWithTheMembershipBit() {
        TestDump d = healthyPair();
        String g3 = guid(d, "cn0003"), g4 = guid(d, "cn0004"), g5 = guid(d, "cn0005");
        sm(d, "cn0001", d.read("nodes/cn0001/opensm.conf.out"), "Default=0x7fff, ipoib, mtu=5 : ALL=full;\n"
                + "compute=0x8001, ipoib, mtu=5 : ALL=full;\n"
                + "scratch=0x0005 : " + g3 + ", " + g4 + ";\n"
                + "storage=0x0006 : " + g5 + "=full,\n   " + g3 + ", " + g4 + ";\n", null);
        d.replace("nodes/cn0009/smpquery-pkeys.out", "0: 0xffff 0x8001 0x0000", "0: 0xffff 0x8001 0x8042");
        Report r = d.analyze();
        List<Finding> ps = TestDump.problems(r, "partitions.membership");
        assertThat(ps).extracting(Finding::summary).anySatisfy(s -> assertThat(s).startsWith("partition 'compute' is written as 0x8001"))
                .anySatisfy(s -> assertThat(s).startsWith("partition 'scratch' (0x0005) has no full member"))
                .anySatisfy(s -> assertThat(s).startsWith("partition 'storage' (0x0006): cn0003, cn0004 are LIMITED members"))
                .anySatisfy(s -> assertThat(s).startsWith("1 host(s) hold P_Key(s) 0x0042 that no partition"));
        assertThat(ps).filteredOn(f -> f.summary().startsWith("partition 'scratch'")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.evidence()).extracting(Evidence::where).containsOnly("nodes/cn0001/partitions.conf.out:3");
        });
        assertThat(ps).filteredOn(f -> f.summary().startsWith("partition 'storage'")).singleElement()
                .satisfies(f -> assertThat(f.evidence()).extracting(Evidence::where).containsOnly("nodes/cn0001/partitions.conf.out:5"));
        assertThat(ps).filteredOn(f -> f.summary().startsWith("partition 'compute'")).singleElement()
                .satisfies(f -> assertThat(f.status()).isEqualTo(Status.WARN));
    }

    @Test
    void partitionMtuBelowTheHardwareWarnsAndAboveFails() {
        TestDump d = healthyPair();
        sm(d, "cn0001", d.read("nodes/cn0001/opensm.conf.out"), "Default=0x7fff, ipoib : ALL=full;\ncompute=0x0001, ipoib, mtu=5 : ALL=full;\n", null);
        d.replace("nodes/cn0004/smpquery-portinfo.out", "MtuCap:..........................4096", "MtuCap:..........................2048");
        Report r = d.analyze();
        assertThat(TestDump.problems(r, "sm.config.mtu")).extracting(Finding::status, Finding::summary).containsExactly(
                org.assertj.core.groups.Tuple.tuple(Status.FAIL, "partition compute: mtu=5 (4096) in partitions.conf is above the MtuCap 2048 of 1 member port(s): "
                        + "they cannot join its IPoIB broadcast group"));
        d.replace("nodes/cn0004/smpquery-portinfo.out", "MtuCap:..........................2048", "MtuCap:..........................4096");
        // the hosts' ib0 run the 2044 the 2048 broadcast group allows: the same cause, listed under the partitions.conf root
        for (int i = 1; i <= 8; i++) {
            String h = String.format("cn%04d", i);
            d.write("nodes/" + h + "/ip-d-addr.out", HostConfigRulesTest.ipAddr(d, h, 2044, "datagram", true, "10.10.0." + i + "/16"));
        }
        Report below = d.analyze();
        assertThat(TestDump.problems(below, "sm.config.mtu")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.summary()).startsWith("partition Default: IPoIB broadcast MTU 2048 from partitions.conf (no mtu=, opensm default) below the MtuCap 4096");
            assertThat(f.fix()).contains("'Default=0x7fff, ipoib, mtu=5 : ALL=full;'");
            assertThat(below.consequencesOf(f)).extracting(Finding::check).contains("ipoib.config");
        });
    }

    @Test
    void logErrorsAreCountedPerKind() {
        TestDump d = healthyPair();
        String log = "Dec 02 21:41:45 599217 [B2A696C0] 0x02 -> SM port is down\n"
                + "Dec 02 21:41:46 599217 [B2A696C0] 0x01 -> osm_ucast_mgr_process: ERR 3A45: failed\n"
                + "Dec 02 21:41:47 599217 [B2A696C0] 0x01 -> osm_ucast_mgr_process: ERR 3A45: failed\n";
        sm(d, "cn0002", d.read("nodes/cn0002/opensm.conf.out"), GOOD_PARTITIONS, log);
        assertThat(TestDump.problems(d.analyze(), "sm.log")).extracting(Finding::summary).containsExactly(
                "cn0002 opensm.log: 1 x 'SM port is down' in the last 3 lines (first at nodes/cn0002/opensm.log.out:1)",
                "cn0002 opensm.log: 2 x error ERR 3A45 in the last 3 lines (first at nodes/cn0002/opensm.log.out:2)");
    }

    @Test
    void smNodesConfiguredDifferentlyAndKeysNeverShown() {
        TestDump d = healthyPair();
        d.replace("nodes/cn0002/opensm.conf.out", "\nrouting_engine ftree\n", "\nrouting_engine updn\n");
        d.replace("nodes/cn0002/opensm.conf.out", "\nsm_key 0x5eC2e7000000beef\n", "\nsm_key 0x5eC2e7000000feed\n");
        d.write("nodes/cn0002/partitions.conf.out", "# older copy\nDefault=0x7fff, ipoib, mtu=5 : ALL=full;\n");
        d.replace("nodes/cn0002/opensm.conf.out", "\ncongestion_control FALSE\n", "\ncongestion_control TRUE\n");
        Report r = d.analyze();
        List<Finding> ps = TestDump.problems(r, "sm.config.consistency");
        assertThat(ps).extracting(Finding::summary).containsExactlyInAnyOrder(
                "routing_engine differs between the SM nodes (cn0001: ftree; cn0002: updn)",
                "congestion_control differs between the SM nodes (cn0001: FALSE; cn0002: TRUE)",
                "sm_key differs between the SM nodes (cn0001: (1 value); cn0002: (1 value))",
                "partitions.conf differs between the SM nodes (cn0001 / cn0002): the partitions change when the other SM takes over");
        assertThat(ps).filteredOn(f -> f.summary().startsWith("partitions.conf")).singleElement().satisfies(f ->
                assertThat(f.evidence()).extracting(Evidence::where).contains("nodes/cn0001/partitions.conf.out:3"));
        // SM_Key values are secrets: no finding of any check shows them
        assertThat(r.findings()).allSatisfy(f -> {
            assertThat(f.summary() + f.evidence() + f.cause() + f.fix()).doesNotContainIgnoringCase("5eC2e7");
        });
    }

    /** An option one SM node's file leaves out is opensm's default, not a difference from a node that writes it out. */
    @Test
    void anOptionLeftOutIsTheDefaultValue() {
        TestDump d = healthyPair();
        d.replace("nodes/cn0002/opensm.conf.out", "\ncongestion_control FALSE\n", "\n");
        assertThat(TestDump.status(d.analyze(), "sm.config.consistency")).isEqualTo(Status.PASS);
        d.replace("nodes/cn0001/opensm.conf.out", "\ncongestion_control FALSE\n", "\ncongestion_control TRUE\n");
        assertThat(TestDump.problems(d.analyze(), "sm.config.consistency")).singleElement()
                .satisfies(f -> assertThat(f.summary()).isEqualTo("congestion_control differs between the SM nodes (cn0001: TRUE; cn0002: FALSE)"));
    }

    @Test
    void redactedKeysAsTheCollectorStoresThemAreSetAndComparable() {
        TestDump d = healthyPair();
        for (String h : List.of("cn0001", "cn0002"))
            d.replace("nodes/" + h + "/opensm.conf.out", "\nsm_key 0x5eC2e7000000beef\n", "\nsm_key <redacted sha256:6f1ed002ab55>\n");
        Report r = d.analyze();
        assertThat(TestDump.status(r, "sm.config.smkey")).isEqualTo(Status.PASS);
        assertThat(TestDump.status(r, "sm.config.consistency")).isEqualTo(Status.PASS);
        d.replace("nodes/cn0002/opensm.conf.out", "<redacted sha256:6f1ed002ab55>", "<redacted sha256:0123456789ab>");
        assertThat(TestDump.problems(d.analyze(), "sm.config.consistency")).singleElement()
                .satisfies(f -> assertThat(f.summary()).startsWith("sm_key differs between the SM nodes"));
    }
}
