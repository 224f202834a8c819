package io.ibaccept.rules;

import static io.ibaccept.rules.SmConfigRulesTest.conf;
import static io.ibaccept.rules.SmConfigRulesTest.guid;
import static io.ibaccept.rules.SmConfigRulesTest.res;
import static io.ibaccept.rules.SmConfigRulesTest.sm;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sm.failover and the split-brain causes of sm.count, on the synthetic fabric with SM node files as the collector
 * stores them and opensm logs captured on ibsim: a master stopped and its standby taking over 50 s later, an opensm
 * with another sm_key, ignore_other_sm, and which nodes are meant to run the SM; and the records of the two drills
 * (sm.drill, fabric.isl_drill), real ones from ibsim and the same with one step failed.
 */
class SmFailoverRulesTest {
    @TempDir
    Path tmp;

    static final String SM_KEY = "sm_key 0x5eC2e7000000beef";

    /** What the collector records on a node named with --sm-nodes where no opensm runs. */
    static final String NO_OPENSM = "pid: \nconfig: \npartitions: /etc/opensm/partitions.conf\nlog: /var/log/opensm.log\n";

    static String head(String text, int lines) {
        return text.lines().limit(lines).collect(Collectors.joining("\n", "", "\n"));
    }

    static String sminfo(TestDump d, String host, int lid, int prio, int state, String name) {
        return String.format("sminfo: sm lid %d sm guid %s, activity count 735 priority %d state %d %s\n", lid, guid(d, host), prio, state, name);
    }

    /** cn0001 (priority 15) and cn0002 (14) with the same sm_key; SM nodes named with collect --sm-nodes. */
    TestDump pair() {
        TestDump d = TestDump.healthy(tmp.resolve("d"), 16);
        d.write("manifest.txt", d.read("manifest.txt") + "sm_nodes: cn0001 cn0002\n");
        sm(d, "cn0001", conf("sm_priority 0", "sm_priority 15", "sm_key 0x0000000000000001", SM_KEY, "routing_engine (null)", "routing_engine ftree"), null,
                res("opensm-ibsim-ft9-master-stopped.log"));
        // the standby's log up to its takeover and first sweep as master (before the third SM appeared)
        sm(d, "cn0002", conf("sm_priority 0", "sm_priority 14", "sm_key 0x0000000000000001", SM_KEY, "routing_engine (null)", "routing_engine ftree"), null,
                head(res("opensm-ibsim-ft9-standby-takeover-then-smkey-mismatch.log"), 39));
        return d;
    }

    @Test
    void aStoppedPrimaryIsOneRootNamingTheTakeoverWithItsTime() {
        TestDump d = pair();
        d.write("nodes/cn0001/opensm-process.out", NO_OPENSM);
        d.write("fabric/sminfo.out", sminfo(d, "cn0002", 5, 14, 3, "SMINFO_MASTER"));
        DiagnosisRulesTest.pointPortsAt(d, 16, 5);
        Report r = d.analyze();
        Finding root = TestDump.problems(r, "sm.failover").stream().findFirst().orElseThrow(() -> new AssertionError(TestDump.problems(r, "sm.failover")));
        assertThat(TestDump.problems(r, "sm.failover")).hasSize(1);
        assertThat(root.status()).isEqualTo(Status.FAIL);
        assertThat(root.objects()).containsExactly("cn0001");
        assertThat(root.summary()).isEqualTo("opensm is not running on cn0001, a designated SM node (named with collect --sm-nodes);"
                + " cn0002 took over as master at Dec 04 05:18:05, 50 s after its first unanswered SMInfo poll of the master"
                + " (Dec 04 05:17:15; 5 unanswered); now cn0002 is master and no standby SM runs");
        assertThat(root.evidence()).extracting(Evidence::where).contains("nodes/cn0001/opensm-process.out:1", "nodes/cn0002/opensm.log.out:37");
        assertThat(root.fix()).contains("'systemctl enable --now opensm'");
        // what the standby logged while its master was silent, the primary not being master and the lost standby are
        // consequences, not roots of their own
        assertThat(TestDump.problems(r, "sm.log")).isNotEmpty().allSatisfy(f -> assertThat(f.parent()).isEqualTo(root.id()));
        assertThat(TestDump.problems(r, "sm.config.priority")).singleElement().satisfies(f -> assertThat(f.parent()).isEqualTo(root.id()));
        assertThat(TestDump.problems(r, "sm.config.standby")).singleElement().satisfies(f -> assertThat(f.parent()).isEqualTo(root.id()));
        // (sm.config.routing stays a root of its own: the captured logs say minhop ran, not the configured ftree)
        assertThat(r.roots()).filteredOn(f -> f.check().startsWith("sm.") && !f.check().equals("sm.config.routing")
                && f.status() != Status.PASS && f.status() != Status.SKIP).containsExactly(root);
        // no parse warning about the empty pid
        assertThat(r.findings()).filteredOn(f -> f.check().equals("input")).noneMatch(f -> f.summary().contains("pid"));
    }

    @Test
    void aTakeoverWhoseFormerMasterRunsAgainIsAWarnWithTheStatesNow() {
        TestDump d = pair();
        d.write("nodes/cn0001/opensm.log.out", res("opensm-ibsim-2s4l-standby.log"));
        d.write("fabric/sminfo.out", sminfo(d, "cn0002", 5, 14, 3, "SMINFO_MASTER") + sminfo(d, "cn0001", 1, 15, 2, "SMINFO_STANDBY"));
        Report r = d.analyze();
        Finding root = TestDump.problems(r, "sm.failover").get(0);
        assertThat(TestDump.problems(r, "sm.failover")).hasSize(1);
        assertThat(root.status()).isEqualTo(Status.WARN);
        assertThat(root.summary()).isEqualTo("cn0002 took over as master from cn0001 at Dec 04 05:18:05, 50 s after its first unanswered SMInfo poll of the"
                + " master (Dec 04 05:17:15; 5 unanswered); now cn0002 MASTER, cn0001 STANDBY");
        // the configured primary not being master is that takeover
        assertThat(TestDump.problems(r, "sm.config.priority")).singleElement().satisfies(f -> assertThat(f.parent()).isEqualTo(root.id()));
    }

    @Test
    void aHealthyPairSaysWhoIsMasterAndWhatWasChecked() {
        TestDump d = pair();
        d.write("nodes/cn0001/opensm.log.out", res("opensm-ibsim-ft9-ffff-default-partition-master.log"));
        d.write("nodes/cn0002/opensm.log.out", res("opensm-ibsim-2s4l-standby.log"));
        d.write("fabric/sminfo.out", sminfo(d, "cn0001", 1, 15, 3, "SMINFO_MASTER") + sminfo(d, "cn0002", 5, 14, 2, "SMINFO_STANDBY"));
        Report r = d.analyze();
        assertThat(TestDump.of(r, "sm.failover")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).isEqualTo("cn0001 MASTER (priority 15), cn0002 STANDBY (priority 14); designated SM nodes cn0001, cn0002"
                    + " (named with collect --sm-nodes) all run opensm; no takeover in 2 opensm.log tail(s)");
        });
    }

    @Test
    void twoMastersWithAnotherSmKeyAreOneRootWhoseFixAlignsTheKey() {
        TestDump d = pair();
        d.write("nodes/cn0002/opensm.log.out", res("opensm-ibsim-ft9-standby-takeover-then-smkey-mismatch.log"));
        // a compute node runs opensm with its package defaults: no opensm.conf, another sm_key
        d.write("nodes/cn0008/opensm-process.out", "pid: 4242\nconfig: \npartitions: /etc/opensm/partitions.conf\nlog: /var/log/opensm.log\n"
                + "arg: /usr/sbin/opensm\narg: -k\narg: 0x99\n");
        d.write("nodes/cn0008/opensm.log.out", res("opensm-ibsim-ft9-rogue-other-smkey-master.log"));
        d.write("nodes/cn0001/opensm-process.out", NO_OPENSM);
        d.write("fabric/sminfo.out", sminfo(d, "cn0002", 5, 14, 3, "SMINFO_MASTER") + sminfo(d, "cn0008", 13, 0, 3, "SMINFO_MASTER"));
        Report r = d.analyze();
        Finding split = TestDump.problems(r, "sm.count").get(0);
        assertThat(split.status()).isEqualTo(Status.FAIL);
        assertThat(split.summary()).isEqualTo("2 SMs in MASTER state (split brain): cn0002, cn0008: they ignore each other, their sm_key"
                + " differs (ERR 2F18 in the opensm.log of cn0002, cn0008); not a designated SM node: cn0008");
        assertThat(split.fix()).startsWith("Stop the SM that is not meant to run (cn0008)").contains("the same 'sm_key'");
        assertThat(split.fix()).doesNotContain("distinct priorities");
        // the logs' sm_key lines are that split brain
        assertThat(TestDump.problems(r, "sm.failover")).filteredOn(f -> f.variant().equals("smkey")).hasSize(2)
                .allSatisfy(f -> assertThat(f.parent()).isEqualTo(split.id()));
    }

    @Test
    void ignoreOtherSmBesideAStandbyIsNamed() {
        TestDump d = pair();
        d.replace("nodes/cn0001/opensm.conf.out", "\nignore_other_sm FALSE\n", "\nignore_other_sm TRUE\n");
        d.write("nodes/cn0002/opensm.log.out", res("opensm-ibsim-2s4l-standby.log"));
        d.write("fabric/sminfo.out", sminfo(d, "cn0001", 1, 15, 3, "SMINFO_MASTER") + sminfo(d, "cn0002", 5, 14, 2, "SMINFO_STANDBY"));
        Report r = d.analyze();
        assertThat(TestDump.problems(r, "sm.failover")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.summary()).startsWith("opensm on cn0001 is configured with ignore_other_sm TRUE beside other SMs");
            assertThat(f.evidence()).extracting(Evidence::where).singleElement().asString().startsWith("nodes/cn0001/opensm.conf.out:");
        });
    }

    @Test
    void theSmNodesAreTheNamedOnesElseThoseWithAnOpensmConfAndAGuessIsOnlyAWarn() throws Exception {
        TestDump d = pair();
        d.write("nodes/cn0002/opensm.log.out", res("opensm-ibsim-2s4l-standby.log"));
        d.write("nodes/cn0008/opensm-process.out", "pid: 4242\nconfig: \npartitions: /etc/opensm/partitions.conf\nlog: /var/log/opensm.log\n"
                + "arg: /usr/sbin/opensm\narg: -p\narg: 15\n");
        d.write("fabric/sminfo.out", sminfo(d, "cn0008", 13, 15, 3, "SMINFO_MASTER") + sminfo(d, "cn0001", 1, 15, 2, "SMINFO_STANDBY")
                + sminfo(d, "cn0002", 5, 14, 2, "SMINFO_STANDBY"));
        Report named = d.analyze();
        assertThat(TestDump.problems(named, "sm.count")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).startsWith("master SM is on cn0008, a compute node").endsWith("designated SM nodes: cn0001, cn0002 (named with collect --sm-nodes)");
        });
        // without --sm-nodes: the nodes with an opensm.conf are taken as the SM nodes; cn0008's opensm has none (it runs
        // on the package defaults), which no site sets up by design: still a FAIL
        d.write("manifest.txt", d.read("manifest.txt").replace("sm_nodes: cn0001 cn0002\n", ""));
        Report onDefaults = d.analyze();
        assertThat(TestDump.problems(onDefaults, "sm.count")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).contains("; its opensm runs without an opensm.conf (package defaults); designated SM nodes: cn0001, cn0002 (inferred");
            assertThat(f.evidence()).extracting(Evidence::where).contains("nodes/cn0008/opensm-process.out:1");
        });
        // no record of cn0008's opensm: which SM nodes are meant is a guess, a WARN to confirm
        java.nio.file.Files.delete(d.dir.resolve("nodes/cn0008/opensm-process.out"));
        Report inferred = d.analyze();
        assertThat(TestDump.problems(inferred, "sm.count")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.summary()).endsWith("(inferred: the collected SM nodes with an opensm.conf)");
            assertThat(f.fix()).startsWith("Confirm which nodes are meant to run the SM and declare them");
        });
        // declared in the rules: that wins
        Report declared = d.analyze(TestDump.config(tmp, "sm.count.designated=cn0008,cn0001\n"));
        assertThat(TestDump.problems(declared, "sm.count")).isEmpty();
    }

    @Test
    void anOpensmWithoutItsFilesIsJudgedWithOpensmsDefaults() {
        TestDump d = pair();
        String site = "Default=0x7fff, ipoib : ALL=full;\nstorage=0x0002, ipoib : " + guid(d, "cn0007") + "=full, " + guid(d, "cn0008") + "=full;\n";
        d.write("nodes/cn0001/partitions.conf.out", site);
        d.write("nodes/cn0002/partitions.conf.out", site);
        d.write("nodes/cn0002/opensm.log.out", res("opensm-ibsim-2s4l-standby.log"));
        // opensm started by hand on a compute node: no opensm.conf, no partitions.conf
        d.write("nodes/cn0012/opensm-process.out", "pid: 4242\nconfig: \npartitions: /etc/opensm/partitions.conf\nlog: /var/log/opensm.log\n"
                + "arg: /usr/sbin/opensm\n");
        d.write("fabric/sminfo.out", sminfo(d, "cn0001", 1, 15, 3, "SMINFO_MASTER") + sminfo(d, "cn0002", 5, 14, 2, "SMINFO_STANDBY")
                + sminfo(d, "cn0012", 13, 0, 3, "SMINFO_MASTER"));
        Report r = d.analyze();
        assertThat(TestDump.problems(r, "sm.config.consistency")).filteredOn(f -> "defaults".equals(f.variant())).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).isEqualTo("opensm on cn0012 runs without a partitions.conf, so it serves the default partition only: it is"
                    + " master now and these hosts have lost their partitions (storage 0x0002: cn[0007-0008])");
            assertThat(f.fix()).startsWith("If cn0012 is not meant to run the SM: 'ssh cn0012 systemctl disable --now opensm'");
        });
        // its sm_key is opensm's default, not the site's: compared, not skipped as unknown
        assertThat(TestDump.problems(r, "sm.config.consistency")).anySatisfy(f -> assertThat(f.summary()).startsWith("sm_key differs between the SM nodes"));
        // not master: a warning of what happens when it is
        d.write("fabric/sminfo.out", sminfo(d, "cn0001", 1, 15, 3, "SMINFO_MASTER") + sminfo(d, "cn0002", 5, 14, 2, "SMINFO_STANDBY")
                + sminfo(d, "cn0012", 13, 0, 2, "SMINFO_STANDBY"));
        assertThat(TestDump.problems(d.analyze(), "sm.config.consistency")).filteredOn(f -> "defaults".equals(f.variant())).singleElement()
                .satisfies(f -> assertThat(f.status()).isEqualTo(Status.WARN));
    }

    static final String DRILL = "fabric/sm-failover-drill.out";

    @Test
    void aDrillThatTookOverInTimeKeptThePortsAndGaveThePrimaryItsRoleBackPasses() {
        TestDump d = TestDump.healthy(tmp.resolve("d"), 8);
        d.write(DRILL, res("sm-drill-ibsim-ft9-pair-takeover-8s.txt"));
        assertThat(TestDump.of(d.analyze(), "sm.drill")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).isEqualTo("node02 took over from node01 in 8.1 s (limit 90 s); 9 port(s), 9 Active stayed Active with"
                    + " their LIDs and P_Keys; node01 MASTER after 2.3 s as configured; no RDMA pair ran during it (--pair)");
            assertThat(f.evidence()).extracting(Evidence::where).contains("fabric/sm-failover-drill.out:9");
        });
        // without a drill the check says how to run one
        assertThat(TestDump.of(TestDump.healthy(tmp.resolve("e"), 8).analyze(), "sm.drill")).singleElement()
                .satisfies(f -> assertThat(f.summary()).contains("ibaccept drill sm-failover"));
    }

    @Test
    void aDrillThatFailedIsJudgedByWhatFailed() {
        TestDump d = TestDump.healthy(tmp.resolve("d"), 8);
        String real = res("sm-drill-ibsim-ft9-pair-takeover-8s.txt");
        d.write(DRILL, real.replace("takeover: node02 after 8.1 s", "takeover: none within 120 s"));
        assertThat(TestDump.problems(d.analyze(), "sm.drill")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).isEqualTo("no standby took over after the master SM on node01 was stopped: none within 120 s");
            assertThat(f.fix()).contains("the same sm_key");
        });
        d.write(DRILL, real.replace("takeover: node02 after 8.1 s", "takeover: node02 after 131.5 s"));
        assertThat(TestDump.problems(d.analyze(), "sm.drill")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.summary()).isEqualTo("node02 took over from node01 in 131.5 s, more than 90 s");
            assertThat(f.fix()).contains("sminfo_polling_timeout");
        });
        d.write(DRILL, real.replace("lid changed: none", "lid changed: node05 ibsim0/1 9 -> 12"));
        assertThat(TestDump.problems(d.analyze(), "sm.drill")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).isEqualTo("ports changed across the SM takeover: lid changed: node05 ibsim0/1 9 -> 12");
        });
        d.write(DRILL, real.replace("restart: node01: ok", "restart: node01: failed (failed, exit 1)")
                .replaceAll("(?m)^.* back: .*\\n", "").replace("restored: yes", "restored: no: opensm on node01 did not start again; start it by hand"));
        assertThat(TestDump.problems(d.analyze(), "sm.drill")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).isEqualTo("the SM failover drill stopped opensm on node01 and could not start it again");
            assertThat(f.fix()).startsWith("Start it by hand: 'ssh node01 systemctl start opensm'");
        });
        // a pair run during the takeover (the line 'ibaccept drill --pair' writes) that failed
        d.write(DRILL, real.replace("\n2026-12-04T05:45:44.889839355Z restart:", "\n2026-12-04T05:45:43.100000000Z pair: node03 -> node07 ib_write_bw: failed"
                + " (failed, exit 1: Couldn't connect to node07:18515)\n2026-12-04T05:45:44.889839355Z restart:"));
        assertThat(TestDump.problems(d.analyze(), "sm.drill")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).isEqualTo("RDMA traffic failed while node02 was master: node03 -> node07 ib_write_bw: failed (failed, exit 1:"
                    + " Couldn't connect to node07:18515)");
        });
        d.write(DRILL, real.replace("back: node01 MASTER after 2.3 s", "back: node01 not MASTER within 120 s"));
        assertThat(TestDump.problems(d.analyze(), "sm.drill")).singleElement().satisfies(f -> assertThat(f.status()).isEqualTo(Status.WARN));
    }

    static final String ISL = "fabric/isl-drill.out";

    @Test
    void anIslDrillIsJudgedByTheReRouteAndTheLinkComingBackAsItWas() {
        TestDump d = TestDump.healthy(tmp.resolve("d"), 8);
        String real = res("isl-drill-ibsim-ft9-leaf01-17-ftree.txt");
        d.write(ISL, real);
        assertThat(TestDump.of(d.analyze(), "fabric.isl_drill")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).isEqualTo("leaf01 (lid 4) port 17 <-> spine01 (lid 2) port 1 disabled: no LID routed over it 0.4 s later"
                    + " (limit 60 s); enabled again, back after 0.4 s, Active, 4X 53.125 Gbps; no RDMA pair ran while it was down (--pair)");
        });
        d.write(ISL, real.replace("rerouted: after 0.4 s (no LID routed out of either end, every LID still routed)",
                "rerouted: not within 120 s (3 LID(s) routed out of leaf01/17 (14 routed), 2 LID(s) routed out of spine01/1 (13 routed))"));
        assertThat(TestDump.problems(d.analyze(), "fabric.isl_drill")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).startsWith("the subnet manager did not route around the disabled link leaf01 (lid 4) port 17 <-> spine01 (lid 2) port 1");
        });
        d.write(ISL, real.replace("back: after 0.4 s, Active, 4X 53.125 Gbps", "back: after 3.0 s, Active, 1X 53.125 Gbps, below Active, 4X 53.125 Gbps before"));
        assertThat(TestDump.problems(d.analyze(), "fabric.isl_drill")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).contains("came back degraded");
            assertThat(f.fix()).contains("mlxlink");
        });
        d.write(ISL, real.replace("\n2026-12-04T06:22:51.096048296Z enable:", "\n2026-12-04T06:22:50.900000000Z pair: node01 -> node09 ib_write_bw:"
                + " ok, 96.3 Gb/s\n2026-12-04T06:22:51.096048296Z enable:"));
        assertThat(TestDump.of(d.analyze(), "fabric.isl_drill")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).endsWith("; while it was down node01 -> node09 ib_write_bw: ok, 96.3 Gb/s");
        });
        d.write(ISL, real.replace("\n2026-12-04T06:22:51.096048296Z enable:", "\n2026-12-04T06:22:50.900000000Z pair: node01 -> node09 ib_write_bw:"
                + " failed (timeout, exit -1: timed out after 120 s)\n2026-12-04T06:22:51.096048296Z enable:"));
        assertThat(TestDump.problems(d.analyze(), "fabric.isl_drill")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).startsWith("RDMA traffic failed while leaf01 (lid 4) port 17 <-> spine01 (lid 2) port 1 was down");
        });
        d.write(ISL, real.replace("enable: leaf01 (lid 4) port 17: ok", "enable: leaf01 (lid 4) port 17: failed (timeout, exit -1)")
                .replaceAll("(?m)^.* back: .*\\n", "").replace("restored: yes", "restored: no: leaf01 (lid 4) port 17 is still disabled; enable it: ibportstate 4 17 enable"));
        assertThat(TestDump.problems(d.analyze(), "fabric.isl_drill")).singleElement().satisfies(f -> assertThat(f.status()).isEqualTo(Status.FAIL));
    }

    @Test
    void aNamedSmNodeWithoutAnyRecordAndNoSmAnsweringIsNamedNotPassed() {
        // collect --sm-nodes named cn0002, but opensm is not installed there (its SM commands left nothing)
        TestDump d = pair();
        d.delete("nodes/cn0002/opensm-process.out").delete("nodes/cn0002/opensm.conf.out").delete("nodes/cn0002/opensm.log.out");
        d.write("nodes/cn0001/opensm.log.out", res("opensm-ibsim-ft9-ffff-default-partition-master.log"));
        d.write("fabric/sminfo.out", sminfo(d, "cn0001", 1, 15, 3, "SMINFO_MASTER"));
        assertThat(TestDump.problems(d.analyze(), "sm.failover")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).startsWith("no SM answers on cn0002, a designated SM node (named with collect --sm-nodes)");
        });
    }

    /** The pair without --sm-nodes, an opensm on its package defaults on cn0012 master over both, the ports still at cn0001's LID. */
    TestDump rogueOverThePair() {
        TestDump d = pair();
        d.write("manifest.txt", d.read("manifest.txt").replace("sm_nodes: cn0001 cn0002\n", ""));
        String site = "Default=0x7fff, ipoib : ALL=full;\nstorage=0x0002, ipoib : " + guid(d, "cn0007") + "=full, " + guid(d, "cn0008") + "=full;\n";
        d.write("nodes/cn0001/partitions.conf.out", site);
        d.write("nodes/cn0002/partitions.conf.out", site);
        d.write("nodes/cn0002/opensm.log.out", res("opensm-ibsim-2s4l-standby.log"));
        d.write("nodes/cn0012/opensm-process.out", "pid: 4242\nconfig: \npartitions: /etc/opensm/partitions.conf\nlog: /var/log/opensm.log\n"
                + "arg: /usr/sbin/opensm\n");
        d.write("fabric/sminfo.out", sminfo(d, "cn0012", 13, 15, 3, "SMINFO_MASTER") + sminfo(d, "cn0001", 1, 15, 2, "SMINFO_STANDBY")
                + sminfo(d, "cn0002", 5, 14, 2, "SMINFO_STANDBY"));
        DiagnosisRulesTest.pointPortsAt(d, 16, 1);
        return d;
    }

    @Test
    void aRogueMasterOnPackageDefaultsIsNamedWithoutDeclaredSmNodesWithThePartitionItDropsUnderIt() {
        Report r = rogueOverThePair().analyze();
        Finding rogue = TestDump.problems(r, "sm.count").stream().findFirst().orElseThrow(() -> new AssertionError(r.roots()));
        assertThat(rogue.status()).isEqualTo(Status.FAIL);
        // the former master from its own log: MASTER, then 'Exiting SM' (it was stopped; the site restarted it as standby)
        assertThat(rogue.summary()).startsWith("master SM is on cn0012, a compute node (lid 13)")
                .contains("; it took over from cn0001 (its opensm.log: MASTER, then 'Exiting SM')")
                .contains("; its opensm runs without an opensm.conf (package defaults); designated SM nodes: cn0001, cn0002 (inferred");
        assertThat(rogue.parent()).isNull();
        Finding lost = TestDump.problems(r, "partitions.membership").stream().filter(f -> f.variant().equals("lost")).findFirst()
                .orElseThrow(() -> new AssertionError(TestDump.problems(r, "partitions.membership")));
        assertThat(lost.status()).isEqualTo(Status.FAIL);
        assertThat(lost.summary()).isEqualTo("partition 'storage' (0x0002) is not served: the master SM cn0012 runs without a partitions.conf"
                + " (opensm's default partition only), so cn[0007-0008] lost it; cn0001's /etc/opensm/partitions.conf defines it (line 2)");
        assertThat(lost.evidence()).extracting(Evidence::where).contains("nodes/cn0012/opensm-process.out:1", "nodes/cn0001/partitions.conf.out:2");
        // one fault: the rogue SM; its defaults (sm.config.consistency) and the partition it drops lie under it
        Finding defaults = TestDump.problems(r, "sm.config.consistency").stream().filter(f -> "defaults".equals(f.variant())).findFirst().orElseThrow();
        assertThat(defaults.parent()).isEqualTo(rogue.id());
        assertThat(lost.parent()).isEqualTo(rogue.id());
    }

    @Test
    void withoutAnySmNodeFilesAMasterThatMovedToAComputeNodeIsAWarnNamingTheFormerMaster() throws Exception {
        TestDump d = rogueOverThePair();
        for (String h : List.of("cn0001", "cn0002", "cn0012"))
            for (String f : List.of("opensm-process", "opensm.conf", "partitions.conf", "opensm.log"))
                for (String ext : List.of(".out", ".meta")) java.nio.file.Files.deleteIfExists(d.dir.resolve("nodes/" + h + "/" + f + ext));
        Report r = d.analyze();
        assertThat(TestDump.problems(r, "sm.count")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.variant()).isEqualTo("moved");
            assertThat(f.summary()).startsWith("master SM is on cn0012, a compute node (lid 13)")
                    .contains("; it took over from cn0001 (16 of 16 host ports still carry SM lid 1)")
                    .endsWith("; no SM nodes declared (contract sm:, collect --sm-nodes or sm.count.designated)");
            assertThat(f.evidence()).extracting(Evidence::where).contains("nodes/cn0001/ibstat.out:8");
        });
        // the ports rewritten by the new master: no change of master is recorded, nothing to say without declared SM nodes
        for (int i = 1; i <= 16; i++) d.replace(String.format("nodes/cn%04d/ibstat.out", i), "SM lid: 1\n", "SM lid: 13\n");
        assertThat(TestDump.problems(d.analyze(), "sm.count")).isEmpty();
    }

    /**
     * An opensm that could not bind its port: the start of the real ibsim capture (banner, DISCOVERING, the first bind),
     * then the error lines opensm prints when umad_register fails, exactly as in its source (libvendor/osm_vendor_ibumad.c
     * ERR 5426, opensm/osm_sm_mad_ctrl.c ERR 3118, opensm/osm_sm.c ERR 2E10; ibsim lets a second opensm register on a
     * bound port, so it cannot produce them), and 'Exiting SM' as opensm 3.3.23 logged it on ibsim (osm_sm.c, osm_sm_destroy).
     */
    static String bindFailedLog() {
        return head(res("opensm-ibsim-ft9-master-stopped.log"), 5)
                + "Dec 04 05:16:46 983901 [6D87A740] 0x01 -> osm_vendor_bind: ERR 5426: Unable to register class 129 version 1\n"
                + "Dec 04 05:16:46 983912 [6D87A740] 0x01 -> osm_sm_mad_ctrl_bind: ERR 3118: Vendor specific bind failed\n"
                + "Dec 04 05:16:46 983920 [6D87A740] 0x01 -> osm_sm_bind: ERR 2E10: SM MAD Controller bind failed (IB_ERROR)\n"
                + "Dec 04 05:16:46 990214 [6D87A740] 0x80 -> Exiting SM\n";
    }

    @Test
    void aLogThatEndsInExitingSmAfterABindErrorSaysTheSmExited() {
        TestDump d = pair();
        d.write("nodes/cn0002/opensm.log.out", bindFailedLog());
        d.write("nodes/cn0002/opensm-process.out", NO_OPENSM);
        d.write("fabric/sminfo.out", sminfo(d, "cn0001", 1, 15, 3, "SMINFO_MASTER"));
        Report r = d.analyze();
        Finding exited = TestDump.problems(r, "sm.log").stream().filter(f -> f.variant().equals("exited")).findFirst()
                .orElseThrow(() -> new AssertionError(TestDump.problems(r, "sm.log")));
        assertThat(exited.status()).isEqualTo(Status.FAIL);
        assertThat(exited.summary()).isEqualTo("opensm on cn0002 exited: its log ends in 'Exiting SM' (nodes/cn0002/opensm.log.out:9) after"
                + " 'osm_vendor_bind: ERR 5426: Unable to register class 129 version 1' (nodes/cn0002/opensm.log.out:6); no SM runs from it");
        // the designated standby being down is the root; its exit and the bind errors that made it exit lie under it
        Finding down = TestDump.problems(r, "sm.failover").stream().filter(f -> f.variant().equals("down")).findFirst().orElseThrow();
        assertThat(exited.parent()).isEqualTo(down.id());
        assertThat(TestDump.problems(r, "sm.log")).filteredOn(f -> f.variant().equals("error")).isNotEmpty()
                .allSatisfy(f -> assertThat(f.parent()).isEqualTo(down.id()));

        // an opensm still runs there: the one that exited was a second start beside it
        d.write("nodes/cn0002/opensm-process.out", "pid: 777\nconfig: /etc/opensm/opensm.conf\npartitions: /etc/opensm/partitions.conf\n"
                + "log: /var/log/opensm.log\narg: /usr/sbin/opensm\n");
        d.write("fabric/sminfo.out", sminfo(d, "cn0001", 1, 15, 3, "SMINFO_MASTER") + sminfo(d, "cn0002", 5, 14, 2, "SMINFO_STANDBY"));
        assertThat(TestDump.problems(d.analyze(), "sm.log")).filteredOn(f -> f.variant().startsWith("exited")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.summary()).startsWith("an opensm started on cn0002 exited after 'osm_vendor_bind: ERR 5426");
        });
        // a log whose last run was stopped cleanly, with opensm running: an older tail, nothing exited now
        d.write("nodes/cn0002/opensm.log.out", res("opensm-ibsim-ft9-master-stopped.log"));
        assertThat(TestDump.problems(d.analyze(), "sm.log")).filteredOn(f -> f.variant().startsWith("exited")).isEmpty();
    }

    @Test
    void aTakeoverAmongThreeSmNodesNamesTheFormerMasterFromIbdiagnet2Sm() {
        TestDump d = pair();
        sm(d, "cn0003", conf("sm_priority 0", "sm_priority 13", "sm_key 0x0000000000000001", SM_KEY), null, res("opensm-ibsim-2s4l-standby.log"));
        d.write("nodes/cn0001/opensm.log.out", res("opensm-ibsim-2s4l-standby.log"));
        d.write("fabric/sminfo.out", sminfo(d, "cn0002", 5, 14, 3, "SMINFO_MASTER") + sminfo(d, "cn0001", 1, 15, 2, "SMINFO_STANDBY")
                + sminfo(d, "cn0003", 7, 13, 2, "SMINFO_STANDBY"));
        // without a record of who was master, three SM nodes leave the former master unnamed
        Finding unnamed = TestDump.problems(d.analyze(), "sm.failover").stream().filter(f -> f.variant().equals("takeover")).findFirst().orElseThrow();
        assertThat(unnamed.summary()).startsWith("cn0002 took over as master at ");
        // ibdiagnet's run before the takeover: the real NDR report with cn0003's port as its master
        d.write("fabric/ibdiagnet2.sm.out", real("ibdiagnet2.sm/gary-minghuili-ndr-quantum2-full.txt")
                .replace("Port=0 lid=0x00b4 guid=0xb0cf0e0300d33fc0 dev=54002 priority:12", "Port=1 lid=0x0007 guid=" + guid(d, "cn0003") + " dev=4123 priority:13"));
        Finding named = TestDump.problems(d.analyze(), "sm.failover").stream().filter(f -> f.variant().equals("takeover")).findFirst().orElseThrow();
        assertThat(named.summary()).startsWith("cn0002 took over as master from cn0003 (ibdiagnet2.sm names it master) at ");
        assertThat(named.evidence()).extracting(Evidence::where).contains("fabric/ibdiagnet2.sm.out:11");
    }

    static String real(String path) {
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(Path.of("..", "parsers", "src", "test", "resources", "real", path))) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
