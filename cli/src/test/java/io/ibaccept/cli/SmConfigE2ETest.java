package io.ibaccept.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.collect.Collector;
import io.ibaccept.model.Hostlist;
import io.ibaccept.collect.SimFabric;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.InputProblem;
import io.ibaccept.model.SmConfig;
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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * End to end, the SM configuration: two opensm on ibsim, each started with its own opensm.conf (written by 'opensm -c' with the
 * site's options: equal sm_priority 5, routing_engine minhop, sm_key left at its default) and a partitions.conf with
 * the 0xffff mistake ('Default=0xffff, ipoib : ALL;': every port a limited member). The collector finds each SM's files
 * from its own opensm process (both run on this machine), and the rules judge them with the live fabric.
 */
@ExtendWith(RequiresSimulator.class)
class SmConfigE2ETest {
    static final List<String> NODES = Hostlist.expand("node[01-09]");

    @TempDir
    Path tmp;


    static List<Finding> problems(Report r, String check) {
        return r.findings().stream().filter(x -> x.check().equals(check) && (x.status() == Status.FAIL || x.status() == Status.WARN)).toList();
    }

    @Test
    void twoSmsEqualPrioritiesAndTheFfffMistakeAreJudgedFromTheirFiles() throws Exception {
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net("ft9-hdr.net"), tmp.resolve("sim"))) {
            Path parts = tmp.resolve("partitions.conf");
            Files.writeString(parts, "# site partitions\n"
                    + "Default=0xffff, ipoib : ALL;\n"
                    + "storage=0x0002, ipoib, mtu=5 : " + SimCapture.portGuid(f, "node07") + "=full, "
                    + SimCapture.portGuid(f, "node08") + "=full;\n");
            // each SM node's own file, written by opensm itself with the site's (mistaken) choices
            Path conf1 = f.opensmConf("sm1.conf", "-p", "5", "-R", "minhop", "-P", parts.toString());
            Path conf2 = f.opensmConf("sm2.conf", "-p", "5", "-R", "minhop", "-P", parts.toString());
            f.startSm("node01", null, conf1, null, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            f.startSm("node02", null, conf2, null, null);
            f.settle(Duration.ofSeconds(2));

            Path dump = tmp.resolve("dump");
            new Collector(f.transport(), new Collector.Options("e2e-smconf", "node01", 4, false, false, null, null),
                    new PrintStream(PrintStream.nullOutputStream())).collect(NODES, dump);
            ClusterData d = DumpLoader.load(dump);
            assertThat(d.problems()).filteredOn(p -> p.kind() == InputProblem.Kind.PARSE_ERROR).isEmpty();
            // each SM's files, attributed to its own host; no SM files on the other seven nodes
            assertThat(d.fabric().smConfigs()).containsOnlyKeys("node01", "node02");
            SmConfig sm1 = d.fabric().smConfigs().get("node01"), sm2 = d.fabric().smConfigs().get("node02");
            assertThat(sm1.process().configFile()).isEqualTo(conf1.toString());
            assertThat(sm2.process().configFile()).isEqualTo(conf2.toString());
            assertThat(sm1.process().logFile()).isEqualTo(tmp.resolve("sim/sm-node01/opensm.log").toString());
            assertThat(sm1.option("sm_priority").get().value()).isEqualTo("5");
            assertThat(sm1.option("sm_priority").get().ref().file()).isEqualTo("nodes/node01/opensm.conf.out");
            assertThat(sm1.partitions().partitions()).hasSize(2);
            assertThat(sm1.log().events()).anyMatch(e -> e.kind().equals("master"));
            assertThat(sm2.log().events()).anyMatch(e -> e.kind().equals("standby"));

            Path cfgFile = tmp.resolve("site.properties");
            Files.writeString(cfgFile, "memlock.min_kib=0\n");
            Report r = new RulesEngine(RuleConfig.withOverrides(cfgFile)).run(d);
            // equal priorities: the configuration is the finding (with every port a limited member the SA shows the fabric
            // node only the master, so sminfo alone cannot see the second SM)
            assertThat(problems(r, "sm.config.priority")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.WARN);
                assertThat(x.objects()).containsExactly("node01", "node02");
                assertThat(x.summary()).contains("sm_priority 5");
                assertThat(x.evidence()).extracting(e -> e.where()).containsExactly("nodes/node01/opensm.conf.out:321", "nodes/node02/opensm.conf.out:321");
                assertThat(x.fix()).contains("sm_priority 15");
            });
            assertThat(problems(r, "sm.priority")).allSatisfy(x -> assertThat(x.parent()).startsWith("sm.config.priority#"));
            assertThat(problems(r, "sm.config.smkey")).singleElement().satisfies(x -> assertThat(x.objects()).containsExactly("node01", "node02"));
            assertThat(problems(r, "sm.config.standby")).isEmpty();
            // minhop on the 2-spine/3-leaf tree: one finding for both SM nodes, with what opensm logged as configured
            assertThat(problems(r, "sm.config.routing")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.WARN);
                assertThat(x.summary()).startsWith("node01, node02: routing_engine minhop on a 2-level fat tree");
                assertThat(x.evidence()).anyMatch(e -> e.text().contains("minhop tables configured on all switches")
                        && e.where().startsWith("nodes/node01/opensm.log.out:"));
            });
            // mtu=5 (4096) on ibsim ports with MtuCap 2048
            assertThat(problems(r, "sm.config.mtu")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.FAIL);
                assertThat(x.objects()).containsExactly("node07", "node08");
                assertThat(x.evidence().get(0).where()).isEqualTo("nodes/node01/partitions.conf.out:3");
                assertThat(x.fix()).contains("mtu=4");
            });
            // the 0xffff mistake: one root with file:line, the live P_Key FAIL, the SM ports and the SA's ERR 1F1B under it
            Finding root = problems(r, "partitions.membership").stream().filter(x -> x.parent() == null).collect(onlyOne());
            assertThat(root.status()).isEqualTo(Status.FAIL);
            assertThat(root.summary()).contains("as 0xffff (line 2)").contains("8 of 9 hosts are not full members (0x7fff)").contains("live: 9 host(s) hold 0x7fff only");
            assertThat(root.evidence().get(0)).satisfies(e -> {
                assertThat(e.text()).isEqualTo("Default=0xffff, ipoib : ALL");
                assertThat(e.where()).isEqualTo("nodes/node01/partitions.conf.out:2");
            });
            assertThat(root.cause()).contains("clears the membership bit").contains("never to each other");
            assertThat(root.fix()).contains("'Default=0x7fff, ipoib : ALL=full;'");
            assertThat(problems(r, "pkey")).filteredOn(x -> x.status() == Status.FAIL).singleElement()
                    .satisfies(x -> assertThat(x.parent()).isEqualTo(root.id()));
            assertThat(problems(r, "partitions.membership")).filteredOn(x -> x.parent() != null)
                    .allSatisfy(x -> assertThat(x.parent()).isEqualTo(root.id()))
                    .extracting(Finding::objects).contains(List.of("node01"), List.of("node02"));
            assertThat(problems(r, "sm.log")).allSatisfy(x -> {
                assertThat(x.summary()).contains("ERR 1F1B");
                assertThat(x.parent()).isEqualTo(root.id());
            });
            assertThat(problems(r, "partitions.syntax")).isEmpty();
        }
    }

    /**
     * One SM named with --sm-nodes, its partitions.conf with a member written as a host name: opensm rejects the line and
     * runs the default partition only (its log says so); one root with the file:line, the log lines under it.
     */
    @Test
    void aRejectedPartitionsLineOnANamedSmNode() throws Exception {
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net("ft9-hdr.net"), tmp.resolve("sim"))) {
            Path parts = tmp.resolve("partitions.conf");
            Files.writeString(parts, "Default=0x7fff, ipoib : ALL=full;\nstorage=0x0002, ipoib : node07=full, node08=full;\n");
            f.startSm("node01", 15, f.opensmConf("opensm.conf", "-R", "ftree", "-P", parts.toString()), null, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            f.settle(Duration.ofSeconds(1));
            Path dump = tmp.resolve("dump");
            new Collector(f.transport(), new Collector.Options("e2e-smconf", "node01", 4, false, false, null, null),
                    new PrintStream(PrintStream.nullOutputStream())).withSmNodes(List.of("node01")).collect(NODES, dump);
            ClusterData d = DumpLoader.load(dump);
            assertThat(d.fabric().smConfigs()).containsOnlyKeys("node01");
            Path cfgFile = tmp.resolve("site.properties");
            Files.writeString(cfgFile, "memlock.min_kib=0\n");
            Report r = new RulesEngine(RuleConfig.withOverrides(cfgFile)).run(d);
            Finding root = problems(r, "partitions.syntax").stream().collect(onlyOne());
            assertThat(root.status()).isEqualTo(Status.FAIL);
            assertThat(root.summary()).startsWith("node01: " + parts + " has 1 line(s) opensm rejects (opensm.log: it runs the default partition only)")
                    .endsWith("first at nodes/node01/partitions.conf.out:2");
            assertThat(root.evidence().get(0).text()).startsWith("rejected: bad PortGUID 'node07'");
            assertThat(problems(r, "sm.log")).isNotEmpty().allSatisfy(x -> {
                assertThat(x.status()).isEqualTo(Status.FAIL);
                assertThat(x.parent()).isEqualTo(root.id());
            });
            // what opensm fell back to is what the ports hold: every host a full member of the default partition only
            assertThat(d.hosts().values()).allSatisfy(h -> assertThat(h.pkeys()).contains(0xffff).doesNotContain(0x8002, 0x0002));
            assertThat(problems(r, "sm.config.standby")).singleElement().satisfies(x -> assertThat(x.status()).isEqualTo(Status.WARN));
            assertThat(problems(r, "sm.config.routing")).isEmpty();
            assertThat(problems(r, "sm.config.smkey")).isEmpty();
        }
    }

    static <T> java.util.stream.Collector<T, ?, T> onlyOne() {
        return java.util.stream.Collectors.collectingAndThen(java.util.stream.Collectors.toList(), l -> {
            assertThat(l).hasSize(1);
            return l.get(0);
        });
    }
}
