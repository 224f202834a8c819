package io.ibaccept.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.collect.Collector;
import io.ibaccept.collect.SimFabric;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.Hostlist;
import io.ibaccept.model.Resilience;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end, 'ibaccept resilience' on dumps collected from ibsim with the real opensm: the twin is built from the
 * dump alone (topology, LIDs, the SM's opensm.conf), its tables must be the dump's, and each switch-to-switch cable
 * is taken out of the twin in turn while opensm re-routes.
 */
@ExtendWith(RequiresSimulator.class)
class ResilienceE2ETest {
    @TempDir
    Path tmp;

    /** A dump of the simulated fabric routed by opensm with these options, the SM's files collected. */
    Path dumpOf(String netfile, List<String> nodes, String name, String... smOptions) throws Exception {
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net(netfile), tmp.resolve("sim-" + name))) {
            Path conf = f.opensmConf(name + ".conf", smOptions);
            Files.writeString(conf, Files.readString(conf).replace("force_log_flush FALSE", "force_log_flush TRUE"));
            f.startSm(nodes.get(0), null, conf, null, null);
            f.awaitActive(nodes, Duration.ofSeconds(90));
            Path dump = tmp.resolve(name);
            new Collector(f.transport(), new Collector.Options("e2e-" + name, nodes.get(0), 4, false, false, null, null),
                    new PrintStream(PrintStream.nullOutputStream())).collect(nodes, dump);
            return dump;
        }
    }

    record Run(int exit, String err, String out) {}

    static Run resilience(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        String[] all = new String[args.length + 1];
        all[0] = "resilience";
        System.arraycopy(args, 0, all, 1, args.length);
        int rc = Main.run(all, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(rc, err.toString(StandardCharsets.UTF_8), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aLeafWithASingleUplinkMakesThatCableCriticalAndEveryOtherCableSurvivable() throws Exception {
        List<String> nodes = Hostlist.expand("node[01-06]");
        Path dump = dumpOf("fabric-single-uplink.net", nodes, "single-uplink", "-R", "updn");
        Path out = tmp.resolve("report");
        Run r = resilience(dump.toString(), "-o", out.toString(), "--parallel", "2");
        assertThat(r.exit()).as(r.err() + r.out()).isEqualTo(1);

        Files.copy(dump.resolve("fabric/resilience.out"), Path.of("/tmp/n1/single.out"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        ClusterData d = DumpLoader.load(dump);
        Resilience res = d.fabric().resilience();
        assertThat(res).as("fabric/resilience.out read back").isNotNull();
        assertThat(res.header().get("engine")).isEqualTo("updn");
        assertThat(res.header().get("twin")).startsWith("same forwarding tables as the dump's (5 switches");
        assertThat(res.losses()).hasSize(5);
        assertThat(res.critical()).singleElement().satisfies(l -> {
            assertThat(l.name()).isEqualTo("leaf03 port 9 <-> spine01 port 3");
            assertThat(l.unreachable()).isEqualTo(2);
            assertThat(l.fix()).startsWith("add a cable: leaf03 hangs on this cable alone");
        });
        assertThat(res.pageOneLine()).isEqualTo("survives the loss of any one ISL: no (1 critical cable)");
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).contains("survives the loss of any one ISL: no (1 critical cable)");
        assertThat(r.out()).contains("resilience.n1");
    }
}
