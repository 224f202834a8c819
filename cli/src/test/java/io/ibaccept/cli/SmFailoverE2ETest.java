package io.ibaccept.cli;

import static io.ibaccept.cli.DiagnosisE2ETest.problems;
import static io.ibaccept.cli.DiagnosisE2ETest.roots;
import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.collect.Collector;
import io.ibaccept.collect.SmFailoverDrill;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.collect.SimFabric;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.Hostlist;
import io.ibaccept.model.InputProblem;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.RulesEngine;
import io.ibaccept.rules.Status;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end, the SM pair under failure: the master opensm stopped and the standby taking over (opensm's own polling,
 * tuned to 2 s x 2 retries as a site may), and an opensm started on a compute node with its package defaults (another
 * sm_key, no partitions.conf) beside the pair. Collected with the SM nodes named, judged from their files and logs.
 */
@ExtendWith(RequiresSimulator.class)
class SmFailoverE2ETest {
    static final List<String> NODES = Hostlist.expand("node[01-09]");
    static final String KEY = "0x00000000d3a0c0de";

    @TempDir
    Path tmp;

    /** An SM node's opensm.conf as 'opensm -c' writes it, with the master polled every 2 s and given up after 2 misses. */
    static Path conf(SimFabric f, String name, String... options) throws Exception {
        Path c = f.opensmConf(name, options);
        String text = Files.readString(c);
        assertThat(text).contains("\nsminfo_polling_timeout 10000\n", "\npolling_retry_number 4\n");
        Files.writeString(c, text.replace("\nsminfo_polling_timeout 10000\n", "\nsminfo_polling_timeout 2000\n")
                .replace("\npolling_retry_number 4\n", "\npolling_retry_number 2\n"));
        return c;
    }

    Report collect(SimFabric f, String rules) throws Exception {
        Path dump = tmp.resolve("dump");
        new Collector(f.transport(), new Collector.Options("e2e-failover", "node03", 4, false, false, null, null),
                new PrintStream(PrintStream.nullOutputStream())).withSmNodes(List.of("node01", "node02")).collect(NODES, dump);
        ClusterData d = DumpLoader.load(dump);
        assertThat(d.problems()).filteredOn(p -> p.kind() == InputProblem.Kind.PARSE_ERROR).isEmpty();
        assertThat(d.manifest().smNodes()).containsExactly("node01", "node02");
        Path cfg = tmp.resolve("site.properties");
        Files.writeString(cfg, "memlock.min_kib=0\n" + rules);
        return new RulesEngine(RuleConfig.withOverrides(cfg)).run(d);
    }

    @Test
    void theStandbyTakingOverFromAStoppedMasterIsNamedWithItsTime() throws Exception {
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net("ft9-hdr.net"), tmp.resolve("sim"))) {
            f.startSm("node01", null, conf(f, "sm1.conf", "-p", "15", "-R", "ftree", "-k", KEY), null, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            f.startSm("node02", null, conf(f, "sm2.conf", "-p", "14", "-R", "ftree", "-k", KEY), null, null);
            f.settle(Duration.ofSeconds(2));
            f.stopSm("node01");
            f.awaitMaster("node05", 14, Duration.ofSeconds(120));
            Report r = collect(f, "");
            Finding root = problems(r, "sm.failover").stream().findFirst().orElseThrow(() -> new AssertionError(roots(r)));
            assertThat(problems(r, "sm.failover")).as(roots(r)).hasSize(1);
            assertThat(root.status()).isEqualTo(Status.FAIL);
            assertThat(root.summary()).startsWith("opensm is not running on node01, a designated SM node (named with collect --sm-nodes); "
                    + "node02 took over as master at ").contains("after its first unanswered SMInfo poll of the master")
                    .endsWith("; now node02 is master and no standby SM runs");
            assertThat(root.evidence()).extracting(e -> e.where()).anySatisfy(w -> assertThat(w).startsWith("nodes/node02/opensm.log.out:"));
            assertThat(problems(r, "sm.count")).as(roots(r)).isEmpty();
            // the primary not being master, the lost standby and the standby's polling errors are that one fault
            assertThat(r.roots()).as(roots(r)).filteredOn(x -> x.check().startsWith("sm.") && (x.status() == Status.FAIL || x.status() == Status.WARN))
                    .containsExactly(root);
        }
    }

    @Test
    void anOpensmWithPackageDefaultsOnAComputeNodeIsTheSplitBrainsCauseWithTheHostsThatLosePartitions() throws Exception {
        // the rogue opensm reads opensm's default files: this machine must not have them (a Debian opensm package has none)
        assertThat(Path.of("/etc/opensm/opensm.conf")).as("this test needs a machine without /etc/opensm/opensm.conf").doesNotExist();
        assertThat(Path.of("/etc/opensm/partitions.conf")).as("this test needs a machine without /etc/opensm/partitions.conf").doesNotExist();
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net("ft9-hdr.net"), tmp.resolve("sim"))) {
            Path parts = tmp.resolve("partitions.conf");
            Files.writeString(parts, "Default=0x7fff, ipoib : ALL=full;\nstorage=0x0002, ipoib : " + SimCapture.portGuid(f, "node07") + "=full, "
                    + SimCapture.portGuid(f, "node08") + "=full;\n");
            f.startSm("node01", null, conf(f, "sm1.conf", "-p", "15", "-R", "ftree", "-k", KEY, "-P", parts.toString()), null, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            f.startSm("node02", null, conf(f, "sm2.conf", "-p", "14", "-R", "ftree", "-k", KEY, "-P", parts.toString()), null, null);
            // someone starts opensm on a compute node as the package installs it: no option file, sm_key 0x1
            f.startSm("node06", null, null, null, null);
            // polled, not a fixed pause: on a loaded machine the rogue SM takes more than a few seconds to be MASTER
            f.awaitMaster("node06", 0, Duration.ofSeconds(120));
            Report r = collect(f, "");
            Finding split = problems(r, "sm.count").stream().findFirst().orElseThrow(() -> new AssertionError(roots(r)));
            assertThat(split.status()).isEqualTo(Status.FAIL);
            assertThat(split.summary()).as(roots(r)).startsWith("2 SMs in MASTER state (split brain): ")
                    .contains("node01", "node06", ": they ignore each other, their sm_key differs (ERR 2F18 in the opensm.log of ")
                    .endsWith("; not a designated SM node: node06");
            assertThat(split.fix()).startsWith("Stop the SM that is not meant to run (node06)").doesNotContain("distinct priorities");
            assertThat(problems(r, "sm.config.consistency")).as(roots(r)).filteredOn(x -> "defaults".equals(x.variant())).singleElement()
                    .satisfies(x -> {
                        assertThat(x.status()).isEqualTo(Status.FAIL);
                        assertThat(x.summary()).isEqualTo("opensm on node06 runs without a partitions.conf, so it serves the default partition"
                                + " only: it is master now and these hosts have lost their partitions (storage 0x0002: node[07-08])");
                    });
        }
    }

    /**
     * The pair on the site's files (opensm's default sm_key, as many sites keep it), then someone starts opensm on a
     * compute node with no option file but a higher priority: it wins the election, the pair hands over and stands by.
     * Collected without naming the SM nodes: the SM nodes by design are those whose opensm has an opensm.conf.
     */
    @Test
    void aHigherPriorityOpensmOnPackageDefaultsIsNamedWithoutDeclaredSmNodesAndThePartitionItDrops() throws Exception {
        assertThat(Path.of("/etc/opensm/opensm.conf")).as("this test needs a machine without /etc/opensm/opensm.conf").doesNotExist();
        assertThat(Path.of("/etc/opensm/partitions.conf")).as("this test needs a machine without /etc/opensm/partitions.conf").doesNotExist();
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net("ft9-hdr.net"), tmp.resolve("sim"))) {
            Path parts = tmp.resolve("partitions.conf");
            Files.writeString(parts, "Default=0x7fff, ipoib : ALL=full;\nstorage=0x0002, ipoib : " + SimCapture.portGuid(f, "node07") + "=full, "
                    + SimCapture.portGuid(f, "node08") + "=full;\n");
            f.startSm("node01", null, conf(f, "sm1.conf", "-p", "14", "-R", "ftree", "-P", parts.toString()), null, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            f.startSm("node02", null, conf(f, "sm2.conf", "-p", "13", "-R", "ftree", "-P", parts.toString()), null, null);
            f.startSm("node06", 15, null, null, null);
            f.awaitMaster("node05", 15, Duration.ofSeconds(120));
            Path dump = tmp.resolve("dump");
            new Collector(f.transport(), new Collector.Options("e2e-rogue", "node03", 4, false, false, null, null),
                    new PrintStream(PrintStream.nullOutputStream())).collect(NODES, dump);
            ClusterData d = DumpLoader.load(dump);
            assertThat(d.manifest().smNodes()).isEmpty();
            assertThat(d.fabric().smConfigs()).containsKeys("node01", "node02", "node06");
            Path cfg = tmp.resolve("site.properties");
            Files.writeString(cfg, "memlock.min_kib=0\n");
            Report r = new RulesEngine(RuleConfig.withOverrides(cfg)).run(d);
            Finding rogue = problems(r, "sm.count").stream().findFirst().orElseThrow(() -> new AssertionError(roots(r)));
            assertThat(rogue.status()).isEqualTo(Status.FAIL);
            assertThat(rogue.summary()).as(roots(r)).startsWith("master SM is on node06, a compute node")
                    .contains("; it took over from node01 (its opensm.log: MASTER, then 'Entering STANDBY state')")
                    .contains("; its opensm runs without an opensm.conf (package defaults); designated SM nodes: node01, node02 (inferred");
            Finding lost = problems(r, "partitions.membership").stream().filter(x -> x.variant().equals("lost")).findFirst()
                    .orElseThrow(() -> new AssertionError(roots(r)));
            assertThat(lost.status()).isEqualTo(Status.FAIL);
            assertThat(lost.summary()).isEqualTo("partition 'storage' (0x0002) is not served: the master SM node06 runs without a partitions.conf"
                    + " (opensm's default partition only), so node[07-08] lost it; node01's " + parts + " defines it (line 2)");
            assertThat(lost.parent()).isEqualTo(rogue.id());
        }
    }

    /** Starts the pair: node01 master (priority 15), node02 standby (14), polling tuned to 2 s x 2. */
    static void pair(SimFabric f) throws Exception {
        f.startSm("node01", null, conf(f, "sm1.conf", "-p", "15", "-R", "ftree", "-k", KEY), null, null);
        f.awaitActive(NODES, Duration.ofSeconds(60));
        f.startSm("node02", null, conf(f, "sm2.conf", "-p", "14", "-R", "ftree", "-k", KEY), null, null);
        f.settle(Duration.ofSeconds(2));
    }

    static SmFailoverDrill.Options drill(Duration timeout) {
        return new SmFailoverDrill.Options(List.of("node01", "node02"), NODES, "node03", timeout, Duration.ofSeconds(1), null);
    }

    /**
     * The sim transport with a directory first on PATH: ibsim cannot run perftest, so ib_write_bw there prints the
     * server or client side of a real run (parsers/src/test/resources/real/perftest/cx6-hdr-ib-write-bw-a-mbsec-*).
     */
    static final class SimWithFakePerftest extends io.ibaccept.collect.Transports.Sim {
        private final Path bin;

        SimWithFakePerftest(SimFabric f, Path bin) {
            super("H-{host}", null, f.sockName());
            this.bin = bin;
        }

        @Override
        protected List<String> argv(String host, String script) {
            return super.argv(host, "PATH=" + io.ibaccept.safety.Shell.quote(bin.toString()) + ":$PATH; " + script);
        }
    }

    static Path fakePerftest(Path dir) throws Exception {
        Path real = Path.of("..", "parsers", "src", "test", "resources", "real", "perftest");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.copy(real.resolve("cx6-hdr-ib-write-bw-a-mbsec-client.txt"), bin.resolve("client.txt"));
        Files.copy(real.resolve("cx6-hdr-ib-write-bw-a-mbsec-server.txt"), bin.resolve("server.txt"));
        Path tool = bin.resolve("ib_write_bw");
        Files.writeString(tool, "#!/bin/sh\n# the client's last word is the server's host name\nfor a; do last=$a; done\n"
                + "case \"$last\" in node*) cat \"$(dirname \"$0\")/client.txt\";; *) cat \"$(dirname \"$0\")/server.txt\";; esac\n");
        tool.toFile().setExecutable(true);
        return bin;
    }

    @Test
    void theFailoverDrillTimesTheTakeoverKeepsThePortsAndGivesThePrimaryItsRoleBack() throws Exception {
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net("ft9-hdr.net"), tmp.resolve("sim"))) {
            pair(f);
            collect(f, "");
            Path dump = tmp.resolve("dump");
            SimWithFakePerftest t = new SimWithFakePerftest(f, fakePerftest(tmp));
            DrillCommand.PairOptions pairs = new DrillCommand.PairOptions();
            pairs.pair = "node04,node08";
            pairs.test = "ib_write_bw";
            pairs.port = 18515;
            SmFailoverDrill.Options o = drill(Duration.ofSeconds(120));
            SmFailoverDrill.Result res = new SmFailoverDrill(t, new SmFailoverDrill.Options(o.smNodes(), o.checkNodes(), o.fabricNode(),
                    o.takeoverTimeout(), o.poll(), pairs.check(t)), new PrintStream(PrintStream.nullOutputStream())).run(new DumpWriter(dump));
            String record = Files.readString(dump.resolve("fabric/sm-failover-drill.out"));
            assertThat(res.takeoverSeconds()).as(record).isNotNull();
            assertThat(res.restored()).as(record).isTrue();
            assertThat(res.portsUnchanged()).as(record).isTrue();
            assertThat(record).containsPattern("(?m)^\\S+ stop: node01: kill \\d+$").containsPattern("(?m)^\\S+ restart: node01: ok$");
            ClusterData d = DumpLoader.load(dump);
            assertThat(d.problems()).filteredOn(p -> p.file() != null && p.file().contains("drill")).isEmpty();
            Report r = new RulesEngine(RuleConfig.defaults()).run(d);
            String common = "node02 took over from node01 in \\d+\\.\\d s \\(limit 90 s\\); 9 port\\(s\\), 9 Active stayed Active with their LIDs"
                    + " and P_Keys; ";
            String pair = "during the takeover node04 -> node08 ib_write_bw: ok, \\d+\\.\\d Gb/s";
            // whether the standby hands mastership back to the restarted primary (priority 15) is opensm's own doing: on
            // a loaded machine it did not always within the drill's time, and then the drill says so (a WARN, not a PASS)
            if (res.backSeconds() != null)
                assertThat(r.findings()).filteredOn(x -> x.check().equals("sm.drill")).singleElement().satisfies(x -> {
                    assertThat(x.status()).isEqualTo(Status.PASS);
                    assertThat(x.summary()).matches(common + "node01 MASTER after \\d+\\.\\d s as configured; " + pair);
                });
            else
                assertThat(r.findings()).filteredOn(x -> x.check().equals("sm.drill")).singleElement().satisfies(x -> {
                    assertThat(x.status()).isEqualTo(Status.WARN);
                    assertThat(x.summary()).startsWith("node01 runs opensm again but did not get its configured role back: node01 not MASTER within");
                });
            // the primary's opensm runs again, started by the drill as it was started before
            assertThat(f.transport().run("node01", io.ibaccept.dump.sources.OpensmScripts.FIND + "echo \"pid=$SMPID\"", Duration.ofSeconds(20)).stdout())
                    .matches("(?s)pid=\\d+\\s*");
        }
    }

    @Test
    void aDrillWithoutAStandbyIsRefusedAndStopsNothing() throws Exception {
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net("ft9-hdr.net"), tmp.resolve("sim"))) {
            f.startSm("node01", 15, null, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            Path dump = tmp.resolve("dump");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> new SmFailoverDrill(f.transport(), drill(Duration.ofSeconds(30)),
                            new PrintStream(PrintStream.nullOutputStream())).run(new DumpWriter(dump)))
                    .isInstanceOf(io.ibaccept.collect.DrillRefused.class).hasMessageContaining("needs a master and a standby SM");
            assertThat(Files.readString(dump.resolve("fabric/sm-failover-drill.out"))).contains(" refused: ").doesNotContain(" stop: ");
            f.awaitMaster("node05", 15, Duration.ofSeconds(10));
        }
    }

    /** ibaccept drill in a JVM of its own, stopped with SIGTERM right after it stopped the master: the SM is started again. */
    @Test
    void aDrillStoppedMidwayStartsTheStoppedSmAgain() throws Exception {
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net("ft9-hdr.net"), tmp.resolve("sim"))) {
            pair(f);
            Path dump = tmp.resolve("dump"), log = tmp.resolve("drill.log");
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:-UsePerfData",
                    "-cp", System.getProperty("java.class.path"), Main.class.getName(), "drill", "sm-failover", "--sm-nodes", "node01,node02",
                    "--nodes", "node[01-09]", "--fabric-node", "node03", "-o", dump.toString(), "--timeout", "5m", "--transport", "sim", "--yes");
            pb.environment().put("IBSIM_SOCKNAME", f.sockName());
            Process p = pb.redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                Path record = dump.resolve("fabric/sm-failover-drill.out");
                long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                while (System.nanoTime() < end && !(Files.exists(record) && Files.readString(record).contains(" stop: node01: kill")))
                    Thread.sleep(200);
                assertThat(record).as(Files.exists(log) ? Files.readString(log) : "no log").exists();
                p.destroy(); // SIGTERM to the drill, by its pid
                assertThat(p.waitFor(90, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            } finally {
                if (p.isAlive()) p.destroyForcibly();
            }
            assertThat(Files.readString(dump.resolve("fabric/sm-failover-drill.out"))).as(Files.readString(log))
                    .containsPattern("(?m)^\\S+ restart: node01: ok$");
            // an SM answers on node01 again (master again or standby, as opensm decides after the restart)
            assertThat(f.transport().run("node01", io.ibaccept.dump.sources.OpensmScripts.FIND + "echo \"pid=$SMPID\"", Duration.ofSeconds(20)).stdout())
                    .matches("(?s)pid=\\d+\\s*");
        }
    }
}
