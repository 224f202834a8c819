package io.ibaccept.cli;

import io.ibaccept.analysis.Analysis;
import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.collect.Collector;
import io.ibaccept.model.Hostlist;
import io.ibaccept.collect.SimFabric;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.InputProblem;
import io.ibaccept.report.ReportWriter;
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
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * End to end on a simulated fabric: ibsim + OpenSM + the real infiniband-diags, collected with the sim transport,
 * analysed by the rules. Faults are placed differently from the demo dump.
 */
@ExtendWith(RequiresSimulator.class)
class SimFabricE2ETest {
    static final Path NETFILE = Path.of("..", "sample-dumps", "sim", "fattree-16.net");
    static final List<String> NODES = Hostlist.expand("node[01-16]");


    /** Runs this build's 'ibaccept probe' on each simulated node (the JVM gets libumad2sim preloaded like every tool). */
    static final String PROBE = Path.of(System.getProperty("java.home"), "bin", "java")
            // as the launcher runs it: the probe's stdout is data, so the JVM's own warnings go to stderr, and no perf-data file
            + " -XX:-UsePerfData -Xlog:disable -Xlog:all=warning:stderr -cp '" + System.getProperty("java.class.path")
            + "' io.ibaccept.cli.Main probe";

    static Report collectAndAnalyze(SimFabric f, Path dump) {
        new Collector(f.transport(), new Collector.Options("e2e", "node01", 8, false, false, null, PROBE),
                new PrintStream(PrintStream.nullOutputStream())).collect(NODES, dump);
        ClusterData d = DumpLoader.load(dump);
        // everything the real tools printed must parse
        assertThat(d.problems()).filteredOn(p -> p.kind() == InputProblem.Kind.PARSE_ERROR).isEmpty();
        return new RulesEngine(RuleConfig.defaults()).run(d);
    }

    static List<Finding> problems(Report r, String check) {
        return r.findings().stream().filter(x -> x.check().equals(check) && (x.status() == Status.FAIL || x.status() == Status.WARN)).toList();
    }

    @Test
    void degradedLinksUnpluggedNodeErrorsAndSmPriorities(@TempDir Path tmp) throws Exception {
        String net = SimFabric.degrade(Files.readString(NETFILE), List.of("node10"), List.of("node04"));
        try (SimFabric f = SimFabric.start(net, tmp.resolve("sim"))) {
            f.startSm("node01", 10, null, null);
            f.startSm("node08", 10, null, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            f.unlink("node13");
            f.setCounter("leaf01", 2, "SymbolErrorCounter", 500);
            f.setCounter("leaf02", 1, "LinkErrorRecoveryCounter", 4);
            // a lossy port: ibsim drops every packet entering leaf04 port 2 and counts it as PortRcvErrors
            f.console("Error \"S-leaf04\"[2] 100");
            for (int i = 0; i < 3; i++) f.transport().run("node14", "smpquery -t 200 -D nodeinfo 0,1", Duration.ofSeconds(20));
            f.console("Error \"S-leaf04\"[2] 0");
            f.settle(Duration.ofSeconds(12));
            Report r = collectAndAnalyze(f, tmp.resolve("dump"));

            assertThat(problems(r, "link.width")).singleElement().satisfies(x -> {
                assertThat(x.summary()).contains("node10 HCA-1").contains("1X, expected 4X");
                assertThat(x.fix()).contains("Reseat, clean or replace the cable");
            });
            assertThat(problems(r, "link.speed")).singleElement().satisfies(x -> assertThat(x.summary()).contains("node04 HCA-1").contains("EDR, expected HDR"));
            assertThat(problems(r, "port.state")).singleElement().satisfies(x -> {
                assertThat(x.objects()).singleElement().satisfies(o -> assertThat(o).startsWith("node13/"));
                assertThat(x.summary()).contains("down (physical state Polling)");
                assertThat(x.fix()).contains("Reseat/replace the cable on node13");
            });
            // counts read once, with no counter window: history, one WARN per switch naming the cable, never a FAIL
            assertThat(problems(r, "link.errors")).hasSize(3).allSatisfy(x -> {
                assertThat(x.status()).isEqualTo(Status.WARN);
                assertThat(x.variant()).isEqualTo("history");
                assertThat(x.fix()).contains("--window 10m");
            });
            assertThat(problems(r, "link.errors")).extracting(Finding::summary)
                    .anySatisfy(x -> assertThat(x).startsWith("leaf01: 1 cable(s)").endsWith("cable node02 HCA-1 port 1 <-> leaf01 port 2: port 2: SymbolErrorCounter=500"))
                    .anySatisfy(x -> assertThat(x).startsWith("leaf02: 1 cable(s)").endsWith("cable node05 HCA-1 port 1 <-> leaf02 port 1: port 1: LinkErrorRecoveryCounter=4"))
                    .anySatisfy(x -> assertThat(x).startsWith("leaf04: 1 cable(s)").containsPattern("cable node14 HCA-1 port 1 <-> leaf04 port 2: port 2: PortRcvErrors=\\d+$"));
            assertThat(r.checkStatus().get("sm.count")).isEqualTo(Status.PASS);
            assertThat(problems(r, "sm.priority")).singleElement().satisfies(x -> assertThat(x.summary()).isEqualTo("2 SMs share priority 10"));
            // the JNA probe read the simulated HCA through libibumad on every node
            var h1 = r.data().hosts().get("node01");
            assertThat(h1.nativeProbe()).containsEntry("umad", "ok").containsEntry("umad_cas", "ibsim0")
                    .containsEntry("umad.ibsim0.1.state", "Active").containsEntry("umad.ibsim0.1.phys_state", "LinkUp")
                    .containsEntry("umad.ibsim0.1.base_lid", String.valueOf(h1.ibstat().get(0).ports().get(0).baseLid()))
                    .containsEntry("umad.ibsim0.1.port_guid", String.format("0x%016x", h1.ibstat().get(0).ports().get(0).portGuid()))
                    .containsKey("memlock_soft_kib");
            assertThat(r.data().hosts().get("node13").nativeProbe()).containsEntry("umad.ibsim0.1.state", "Down");
            assertThat(r.checkStatus().get("lid.duplicate")).isEqualTo(Status.PASS);
            assertThat(r.checkStatus().get("guid.duplicate")).isEqualTo(Status.PASS);
            assertThat(r.checkStatus().get("pkey")).isEqualTo(Status.PASS);
            // and the report a ticket engineer opens says so
            ReportWriter.write(Analysis.of(r), tmp.resolve("report"));
            Document html = Jsoup.parse(tmp.resolve("report/report.html").toFile(), "UTF-8");
            assertThat(html.getElementById("verdict").text()).isEqualTo("NOT ACCEPTED");
            assertThat(html.select("#problem-table tr.finding[data-check=link.width]").text()).contains("node10 HCA-1").contains("Reseat");
            assertThat(html.select("#problem-table tr.finding[data-check=port.state]").text()).contains("node13").contains("Reseat/replace the cable");
            assertThat(html.selectFirst("#node-table tr[data-node=node13]").attr("data-status")).isEqualTo("FAIL");
        }
    }

    @Test
    void pkeyOnHcaButNotOnItsSwitchPort(@TempDir Path tmp) throws Exception {
        try (SimFabric f = SimFabric.start(Files.readString(NETFILE), tmp.resolve("sim"))) {
            Path parts = tmp.resolve("partitions.conf");
            Files.writeString(parts, "Default=0x7fff, ipoib : ALL=full;\nstorage=0x0002 : " + SimCapture.portGuid(f, "node12") + "=full;\n");
            f.startSm("node01", 15, parts, "off");
            f.awaitActive(NODES, Duration.ofSeconds(60));
            Report r = collectAndAnalyze(f, tmp.resolve("dump"));
            // opensm with part_enforce off programs no switch port: node12's partition is not enforced at leaf03 port 4,
            // its own finding (nothing dropped, nothing isolated); a partition of one host by design is no fault
            assertThat(problems(r, "pkey")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.WARN);
                assertThat(x.objects()).containsExactly("leaf03 port 4");
                assertThat(x.summary()).contains("partition enforcement is off there");
                assertThat(x.fix()).contains("part_enforce both");
            });
            assertThat(r.checkStatus().get("sm.priority")).isEqualTo(Status.PASS);
        }
    }

    @Test
    void noSubnetManager(@TempDir Path tmp) throws Exception {
        try (SimFabric f = SimFabric.start(Files.readString(NETFILE), tmp.resolve("sim"))) {
            // through the command line this time: ibaccept collect --transport sim, then ibaccept analyze
            Path dump = tmp.resolve("dump");
            var sim = new io.ibaccept.dump.sources.CollectOptions(false, false, null, null, false, true);
            MainTest.Run collect = MainTest.run("collect", "--nodes", "node[01-16]", "--transport", "sim", "--fabric-node", "node01",
                    "--parallel", "8", "--cluster", "nosm", "-o", dump.toString());
            assertThat(collect.code()).isZero();
            assertThat(collect.err()).contains("node16").contains("sminfo")
                    // 16 nodes x the per-node commands that describe a simulated node (not this machine's OS) + the fabric commands
                    .contains("collected " + (16 * io.ibaccept.collect.CommandSet.perNode(sim).size() + io.ibaccept.collect.CommandSet.fabric(sim).size())
                            + " command outputs");
            MainTest.Run analyze = MainTest.run("analyze", dump.toString(), "-o", tmp.resolve("report").toString());
            assertThat(analyze.code()).isEqualTo(1);
            assertThat(analyze.out()).startsWith("NOT ACCEPTED").contains("FAIL sm.count: no subnet manager answers");
            assertThat(tmp.resolve("report/report.pdf")).exists();
            Report r = new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(dump));
            assertThat(r.data().manifest().cluster()).isEqualTo("nosm");
            assertThat(r.data().problems()).filteredOn(p -> p.kind() == InputProblem.Kind.PARSE_ERROR).isEmpty();
            assertThat(problems(r, "sm.count")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.FAIL);
                assertThat(x.fix()).contains("systemctl enable --now opensm");
            });
            assertThat(r.data().problemsFor(null, "ibqueryerrors")).singleElement().satisfies(p -> {
                assertThat(p.kind()).isEqualTo(InputProblem.Kind.EMPTY);
                assertThat(p.message()).contains("is a subnet manager running?");
            });
            // every HCA has link but no SM: Init, and the fix points at the SM
            assertThat(problems(r, "port.state")).filteredOn(x -> x.objects().get(0).startsWith("node")).hasSize(16).allSatisfy(x -> {
                assertThat(x.summary()).contains("with the physical link up");
                assertThat(x.cause()).contains("no master SM");
            });
            // and every switch has its cabled ports in Initialize
            assertThat(problems(r, "port.state")).filteredOn(x -> !x.objects().get(0).startsWith("node")).hasSize(6)
                    .anySatisfy(x -> assertThat(x.summary()).isEqualTo("leaf01: 8 port(s) with the physical link up but Initialize (ports 1,2,3,4,17,18,19,20)"));
        }
    }
}
