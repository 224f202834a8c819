package io.ibaccept.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ibaccept.collect.Collector;
import io.ibaccept.collect.Hostlist;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #10 end to end: two opensm on ibsim, each started with its own opensm.conf (written by 'opensm -c', then edited
 * as a site would: equal sm_priority 5, routing_engine minhop, sm_key left at its default) and a partitions.conf with
 * the 0xffff mistake ('Default=0xffff, ipoib : ALL;': every port a limited member). The collector finds each SM's files
 * from its own opensm process (both run on this machine), and the rules judge them with the live fabric.
 */
class SmConfigE2ETest {
    static final List<String> NODES = Hostlist.expand("node[01-09]");

    @TempDir
    Path tmp;

    @BeforeAll
    static void simulatorPresent() {
        if (!SimFabric.available()) {
            if ("1".equals(System.getenv("IBACCEPT_REQUIRE_SIM")))
                fail("IBACCEPT_REQUIRE_SIM=1 but ibsim/opensm/libumad2sim/infiniband-diags are not installed");
            assumeTrue(false, "simulated fabric not installed (apt-get install ibsim-utils libumad2sim0 opensm infiniband-diags)");
        }
    }

    /** An opensm.conf as opensm writes it, with the given lines replaced ("sm_priority 0" -> "sm_priority 5"). */
    Path opensmConf(String name, String... replacements) throws Exception {
        Path conf = tmp.resolve(name);
        Process p = new ProcessBuilder("opensm", "-c", conf.toString()).redirectErrorStream(true)
                .redirectOutput(tmp.resolve(name + ".out").toFile()).start();
        assertThat(p.waitFor()).isZero();
        String text = Files.readString(conf);
        for (int i = 0; i < replacements.length; i += 2) {
            assertThat(text).contains("\n" + replacements[i] + "\n");
            text = text.replace("\n" + replacements[i] + "\n", "\n" + replacements[i + 1] + "\n");
        }
        Files.writeString(conf, text);
        return conf;
    }

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
            Path conf1 = opensmConf("sm1.conf", "sm_priority 0", "sm_priority 5", "routing_engine (null)", "routing_engine minhop",
                    "partition_config_file /etc/opensm/partitions.conf", "partition_config_file " + parts);
            Path conf2 = opensmConf("sm2.conf", "sm_priority 0", "sm_priority 5", "routing_engine (null)", "routing_engine minhop",
                    "partition_config_file /etc/opensm/partitions.conf", "partition_config_file " + parts);
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
            r.findings().stream().filter(x -> x.status() != Status.PASS && x.status() != Status.SKIP)
                    .forEach(x -> System.out.println(x.id() + " " + x.status() + " parent=" + x.parent() + " " + x.summary()));
        }
    }
}
