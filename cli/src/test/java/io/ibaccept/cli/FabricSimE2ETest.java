package io.ibaccept.cli;

import io.ibaccept.analysis.Analysis;
import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.collect.Collector;
import io.ibaccept.collect.SimFabric;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.fabric.CablingPlan;
import io.ibaccept.fabric.FabricOptions;
import io.ibaccept.fabric.PlanDiff;
import io.ibaccept.model.ClusterData;
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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The fabric checks on simulated fat trees of our own design (src/test/resources/sim/fabric-*.net): ibsim + OpenSM,
 * the real ibnetdiscover/iblinkinfo collected through the sim transport, analysed with and without the cabling plan.
 */
@ExtendWith(RequiresSimulator.class)
class FabricSimE2ETest {
    static final Path SIM = Path.of("src", "test", "resources", "sim");
    static final Path PLAN = SIM.resolve("fabric-2s4l.plan.csv");


    static SimFabric start(String netfile, Path tmp, List<String> hosts) throws Exception {
        SimFabric f = SimFabric.start(Files.readString(SIM.resolve(netfile)), tmp.resolve("sim"));
        try {
            f.startSm("node01", 15, null, null);
            f.awaitActive(hosts, Duration.ofSeconds(60));
        } catch (RuntimeException e) {
            f.close();
            throw e;
        }
        return f;
    }

    /** Collects node01 (the fabric node: ibnetdiscover, iblinkinfo, ...) and analyses with the plan and rules given. */
    static Report collect(SimFabric f, Path dump, CablingPlan plan, RuleConfig cfg) {
        return analyse(f, dump, plan, cfg).report();
    }

    static Analysis analyse(SimFabric f, Path dump, CablingPlan plan, RuleConfig cfg) {
        new Collector(f.transport(), new Collector.Options("fabric-e2e", "node01", 4, false, false, null, null),
                new PrintStream(PrintStream.nullOutputStream())).collect(List.of("node01"), dump);
        ClusterData d = DumpLoader.load(dump);
        assertThat(d.problems()).filteredOn(p -> p.kind() == InputProblem.Kind.PARSE_ERROR).isEmpty();
        return Analysis.of(d, Analysis.Options.of(cfg).withPlan(plan));
    }

    static List<Finding> problems(Report r, String check) {
        return r.findings().stream().filter(x -> x.check().equals(check) && (x.status() == Status.FAIL || x.status() == Status.WARN)).toList();
    }

    static Finding only(Report r, String check) {
        List<Finding> fs = r.findings().stream().filter(x -> x.check().equals(check)).toList();
        assertThat(fs).as(check).hasSize(1);
        return fs.get(0);
    }

    static RuleConfig rules(Path tmp, String text) throws Exception {
        Path p = tmp.resolve("site-rules.properties");
        Files.writeString(p, text);
        return RuleConfig.withOverrides(p);
    }

    @Test
    void healthyTreeAsPlannedThenAnIslUnlinked(@TempDir Path tmp) throws Exception {
        CablingPlan plan = CablingPlan.load(PLAN);
        try (SimFabric f = start("fabric-2s4l.net", tmp, List.of("node01", "node16"))) {
            Report ok = collect(f, tmp.resolve("dump-ok"), plan, rules(tmp, "fabric.tree.switches_expected=6\n"));
            for (String check : List.of("fabric.tree", "fabric.blocking", "fabric.plan"))
                assertThat(only(ok, check).status()).as(check + ": " + only(ok, check).summary()).isEqualTo(Status.PASS);
            assertThat(only(ok, "fabric.tree").summary()).isEqualTo("2-level fat tree: 2 spines, 4 leaves, 16 hosts; theoretical bisection bandwidth 1600 Gb/s");
            assertThat(only(ok, "fabric.plan").summary()).isEqualTo("all 16 planned cables are where fabric-2s4l.plan.csv says");

            f.console("Unlink \"S-leaf03\"[36]");
            f.settle(Duration.ofSeconds(12));
            Report cut = collect(f, tmp.resolve("dump-cut"), plan, RuleConfig.defaults());
            Finding lost = only(cut, "fabric.blocking");
            assertThat(lost.status()).isEqualTo(Status.FAIL);
            assertThat(lost.objects()).containsExactly("leaf03", "leaf03 port 36");
            assertThat(lost.summary()).startsWith("leaf03 has 3 active uplinks, its peers 4: missing leaf03 port 36 (Down/")
                    .contains("uplinks missing 1 to spine02 (spine02 port 6 ").contains("blocking 1.33:1, allowed 1:1");
            assertThat(lost.fix()).startsWith("Reseat or replace the cable(s) at leaf03 port 36");
            Finding missing = only(cut, "fabric.plan");
            assertThat(missing.status()).isEqualTo(Status.FAIL);
            assertThat(missing.summary()).startsWith("leaf03 port 36 <-> spine02 port 6 (cable L3-S2-b) is not connected");
            assertThat(missing.fix()).contains("Connect (or reseat/replace) the cable L3-S2-b between leaf03 port 36 and spine02 port 6");
            // one fault, one root: the lost uplink is listed under the cable to connect
            assertThat(lost.parent()).isEqualTo(missing.id());
            assertThat(missing.parent()).isNull();
            // the tree itself is still consistent
            assertThat(only(cut, "fabric.tree").status()).isEqualTo(Status.PASS);
        }
    }

    @Test
    void oversubscribedLeaf(@TempDir Path tmp) throws Exception {
        try (SimFabric f = start("fabric-2s4l-2to1.net", tmp, List.of("node01", "node20"))) {
            Report r = collect(f, tmp.resolve("dump"), null, RuleConfig.defaults());
            assertThat(problems(r, "fabric.blocking")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.FAIL);
                assertThat(x.objects()).containsExactly("leaf02");
                assertThat(x.summary()).isEqualTo("leaf02: 8 downlinks (1600 Gb/s) over 4 uplinks (800 Gb/s), blocking 2:1, allowed 1:1");
                assertThat(x.fix()).startsWith("Add 4 uplink(s) per switch");
            });
            assertThat(problems(r, "fabric.tree")).singleElement().satisfies(x -> assertThat(x.summary()).isEqualTo("leaf02 has 8 hosts, the other leaves usually 4"));
            // contracted 2:1: no blocking finding
            Report contracted = new RulesEngine(rules(tmp, "fabric.blocking.ratio=2\nfabric.tree.hosts_tolerance=4\n")).run(r.data());
            assertThat(only(contracted, "fabric.blocking").status()).isEqualTo(Status.PASS);
            assertThat(only(contracted, "fabric.tree").status()).isEqualTo(Status.PASS);
        }
    }

    @Test
    void degradedIslsNamedWithBothEnds(@TempDir Path tmp) throws Exception {
        try (SimFabric f = start("fabric-2s4l-degraded-isl.net", tmp, List.of("node01", "node16"))) {
            Report r = collect(f, tmp.resolve("dump"), null, RuleConfig.defaults());
            assertThat(problems(r, "link.width")).singleElement().satisfies(x -> {
                assertThat(x.objects()).containsExactlyInAnyOrder("leaf02 port 33", "spine01 port 3");
                assertThat(x.summary()).contains("1X, expected 4X");
            });
            assertThat(problems(r, "link.speed")).singleElement().satisfies(x -> {
                assertThat(x.objects()).containsExactlyInAnyOrder("leaf04 port 35", "spine02 port 7");
                assertThat(x.summary()).contains("EDR, expected HDR");
            });
            // a 1X ISL moves leaf02's uplink rate down: 800 Gb/s of hosts over 650 Gb/s of uplinks, a consequence of that
            // link, listed under its link.width finding (one fault, one root)
            String slowIsl = problems(r, "link.width").get(0).id();
            assertThat(problems(r, "fabric.blocking")).filteredOn(x -> x.summary().startsWith("leaf02: 4 downlinks (800 Gb/s) over 4 uplinks (650 Gb/s)"))
                    .singleElement().satisfies(x -> assertThat(x.parent()).isEqualTo(slowIsl));
        }
    }

    @Test
    void twoSwappedCablesAgainstThePlan(@TempDir Path tmp) throws Exception {
        CablingPlan plan = CablingPlan.load(PLAN);
        try (SimFabric f = start("fabric-2s4l-swapped.net", tmp, List.of("node01", "node16"))) {
            Analysis a = analyse(f, tmp.resolve("dump"), plan, RuleConfig.defaults());
            Report r = a.report();
            Finding x = only(r, "fabric.plan");
            assertThat(x.status()).isEqualTo(Status.FAIL);
            assertThat(x.summary()).contains("leaf03 port 33 goes to spine02 port 5, plan says spine01 port 5")
                    .contains("leaf03 port 35 goes to spine01 port 5, plan says spine02 port 5");
            assertThat(x.fix()).startsWith("swap the cables at leaf03 port 33 and leaf03 port 35 (cable L3-S1-a L3-S2-a)");
            // the structure is still a valid tree: only the plan sees it
            assertThat(only(r, "fabric.tree").status()).isEqualTo(Status.PASS);
            assertThat(only(r, "fabric.blocking").status()).isEqualTo(Status.PASS);
            assertThat(io.ibaccept.report.ReportWriter.write(a, tmp.resolve("out")).errors()).isEmpty();
            assertThat(java.nio.file.Files.readString(tmp.resolve("out").resolve(io.ibaccept.report.ReportWriter.WORK_ORDER)))
                    .contains("1,swap,leaf03,33,leaf03,35,L3-S1-a L3-S2-a");
        }
    }

    @Test
    void missingLeaf(@TempDir Path tmp) throws Exception {
        CablingPlan plan = CablingPlan.load(PLAN);
        try (SimFabric f = start("fabric-2s4l-noleaf4.net", tmp, List.of("node01", "node12"))) {
            Report r = collect(f, tmp.resolve("dump"), plan, rules(tmp, "fabric.tree.switches_expected=6\n"));
            assertThat(problems(r, "fabric.plan")).singleElement().satisfies(x -> {
                assertThat(x.summary()).startsWith("leaf04 is in the cabling plan but not in the fabric: its 4 planned cable(s) are absent");
                assertThat(x.fix()).startsWith("Power on and cable leaf04 as planned");
            });
            String root = problems(r, "fabric.plan").get(0).id();
            assertThat(problems(r, "fabric.tree")).singleElement().satisfies(x -> {
                assertThat(x.summary()).isEqualTo("5 switches in the fabric, expected 6 (per level: 3 leaf, 2 spine)");
                assertThat(x.parent()).isEqualTo(root);
            });
            assertThat(only(r, "fabric.blocking").status()).isEqualTo(Status.PASS);
        }
    }
}
