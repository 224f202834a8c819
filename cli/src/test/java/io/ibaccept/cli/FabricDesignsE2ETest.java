package io.ibaccept.cli;

import static io.ibaccept.cli.FabricSimE2ETest.analyse;
import static io.ibaccept.cli.FabricSimE2ETest.only;
import static io.ibaccept.cli.FabricSimE2ETest.problems;
import static io.ibaccept.cli.FabricSimE2ETest.start;
import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.analysis.Analysis;
import io.ibaccept.collect.SimFabric;
import io.ibaccept.fabric.CablingPlan;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.Status;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fabric designs other than the uniform fat tree, simulated on ibsim with OpenSM and collected with the real tools
 * (netfiles in src/test/resources/sim): a chassis switch with a degraded backplane link, leaves of different sizes and
 * an empty leaf, a cable looped on a switch, two hosts back to back, one switch alone, a plan naming managed switches by their short names,
 * a rail-optimised fabric with two HCA cables swapped at one host, a 3-level tree losing an aggregation-core cable, a
 * spine lost with all its cables.
 */
@ExtendWith(RequiresSimulator.class)
class FabricDesignsE2ETest {
    static List<String> fabricFindings(Report r) {
        return r.findings().stream().filter(f -> f.check().startsWith("fabric.") && (f.status() == Status.FAIL || f.status() == Status.WARN))
                .map(f -> f.status() + " " + f.check() + ": " + f.summary()).toList();
    }

    @Test
    void chassisWithADegradedBackplaneLinkIsOneBackplaneFaultAndNoFalseTreeFinding(@TempDir Path tmp) throws Exception {
        try (SimFabric f = start("fabric-chassis.net", tmp, List.of("node01", "node08"))) {
            Analysis a = analyse(f, tmp.resolve("dump"), null, RuleConfig.defaults());
            Report r = a.report();
            // the four ASICs are one chassis in the model
            assertThat(a.fabric().switches()).filteredOn(n -> n.inChassis()).hasSize(4).extracting(n -> n.system()).containsOnly(0x0002c90300c0ffeeL);
            List<Finding> width = problems(r, "link.width");
            assertThat(width).filteredOn(x -> x.parent() == null).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.FAIL);
                assertThat(x.summary()).contains("(chassis backplane)").contains("runs at 1X");
                assertThat(x.fix()).startsWith("No cable to reseat").contains("RMA");
            });
            // the leaves' uplinks to the line ASICs are as designed: no tree or leaf finding from the backplane
            assertThat(problems(r, "fabric.tree")).as(String.join("\n", fabricFindings(r))).isEmpty();
            // the capacity the slow backplane link takes from its line ASIC is listed under it, not beside it
            String root = width.stream().filter(x -> x.parent() == null).findFirst().orElseThrow().id();
            assertThat(problems(r, "fabric.blocking")).isNotEmpty().allSatisfy(x -> assertThat(x.parent()).isEqualTo(root));
        }
    }

    @Test
    void leavesOfDifferentSizesAndAnEmptyLeafAreHealthy(@TempDir Path tmp) throws Exception {
        try (SimFabric f = start("fabric-uneven.net", tmp, List.of("node01", "node14"))) {
            Analysis a = analyse(f, tmp.resolve("dump"), null, RuleConfig.defaults());
            Report r = a.report();
            assertThat(r.findings()).filteredOn(x -> x.check().startsWith("fabric.") && x.status() == Status.FAIL)
                    .as(String.join("\n", fabricFindings(r))).isEmpty();
            assertThat(only(r, "fabric.blocking").status()).as(only(r, "fabric.blocking").summary()).isEqualTo(Status.PASS);
            assertThat(problems(r, "link.width")).isEmpty();
            // the empty leaf is a leaf (level 1), not a core above the spines
            assertThat(a.fabric().byName("leaf04")).singleElement().satisfies(n -> assertThat(n.level()).isEqualTo(1));
        }
    }

    @Test
    void aCableLoopedOnASwitchIsNamedWithItsPorts(@TempDir Path tmp) throws Exception {
        try (SimFabric f = start("fabric-2s4l-loop.net", tmp, List.of("node01", "node16"))) {
            Report r = analyse(f, tmp.resolve("dump"), null, RuleConfig.defaults()).report();
            assertThat(problems(r, "fabric.tree")).singleElement().satisfies(x -> {
                assertThat(x.summary()).contains("leaf01").contains("5").contains("6");
                assertThat(x.fix()).startsWith("Remove the looped cable at leaf01");
            });
            assertThat(only(r, "fabric.blocking").status()).isEqualTo(Status.PASS);
        }
    }

    @Test
    void twoHostsBackToBackAreAFabricNotAnInputError(@TempDir Path tmp) throws Exception {
        try (SimFabric f = start("b2b.net", tmp, List.of("node01", "node02"))) {
            Report r = analyse(f, tmp.resolve("dump"), null, RuleConfig.defaults()).report();
            assertThat(r.findings()).filteredOn(x -> x.status() == Status.ERROR).as("input errors").isEmpty();
            assertThat(r.findings()).filteredOn(x -> x.check().startsWith("fabric.") && x.status() == Status.FAIL)
                    .as(String.join("\n", fabricFindings(r))).isEmpty();
            assertThat(problems(r, "port.state")).isEmpty();
        }
    }

    /**
     * One switch and its hosts: no port joins two switches, so the SL-to-VL collect rightly prints nothing; that is no
     * input error and leaves the verdict complete as far as the fabric goes.
     */
    @Test
    void aFabricOfOneSwitchHasNoSwitchToSwitchTableToMiss(@TempDir Path tmp) throws Exception {
        try (SimFabric f = start("one-switch.net", tmp, List.of("node01", "node04"))) {
            Report r = analyse(f, tmp.resolve("dump"), null, RuleConfig.defaults()).report();
            assertThat(r.findings()).filteredOn(x -> x.status() == Status.ERROR).as("input errors")
                    .extracting(Finding::summary).noneMatch(s -> s.contains("sl2vl"));
            assertThat(r.findings()).filteredOn(x -> x.status() == Status.ERROR).as("input errors").isEmpty();
            assertThat(r.findings()).filteredOn(x -> x.check().startsWith("fabric.") && x.status() == Status.FAIL)
                    .as(String.join("\n", fabricFindings(r))).isEmpty();
            assertThat(r.verdict()).isNotEqualTo(io.ibaccept.rules.Verdict.INCOMPLETE);
        }
    }

    @Test
    void aPlanNamingManagedSwitchesByTheirShortNamesFindsTheSwap(@TempDir Path tmp) throws Exception {
        CablingPlan plan = CablingPlan.load(FabricSimE2ETest.SIM.resolve("fabric-2s4l-short-names.plan.csv"));
        try (SimFabric f = start("fabric-2s4l-managed-swapped.net", tmp, List.of("node01", "node16"))) {
            Report r = analyse(f, tmp.resolve("dump"), plan, RuleConfig.defaults()).report();
            Finding x = only(r, "fabric.plan");
            assertThat(x.status()).isEqualTo(Status.FAIL);
            assertThat(x.summary()).doesNotContain("not in the fabric").contains("port 33 goes to").contains("port 35 goes to");
            assertThat(x.fix()).startsWith("swap the cables at");
        }
    }

    @Test
    void twoHcaCablesSwappedAtOneHostOfARailOptimisedFabricAreOneSwapToMake(@TempDir Path tmp) throws Exception {
        try (SimFabric f = start("fabric-rails-swapped.net", tmp, List.of("node01", "node24"))) {
            // 24 hosts over 12 uplinks per leaf: 2:1 as designed
            Report r = analyse(f, tmp.resolve("dump"), null, FabricSimE2ETest.rules(tmp, "fabric.blocking.ratio=2\n")).report();
            assertThat(problems(r, "fabric.rails")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.FAIL);
                assertThat(x.variant()).isEqualTo("swap");
                assertThat(x.summary()).contains("node03");
                assertThat(x.fix()).startsWith("Swap the named cables back at the host");
            });
            assertThat(r.findings()).filteredOn(x -> x.check().startsWith("fabric.") && !x.check().equals("fabric.rails") && x.status() == Status.FAIL)
                    .as(String.join("\n", fabricFindings(r))).isEmpty();
        }
    }

    @Test
    void threeLevelsHealthyThenAnAggregationCoreCableLost(@TempDir Path tmp) throws Exception {
        try (SimFabric f = start("fabric-3level.net", tmp, List.of("node01", "node08"))) {
            Report ok = analyse(f, tmp.resolve("dump-ok"), null, RuleConfig.defaults()).report();
            assertThat(ok.findings()).filteredOn(x -> x.check().startsWith("fabric.") && x.status() == Status.FAIL)
                    .as(String.join("\n", fabricFindings(ok))).isEmpty();
            assertThat(only(ok, "fabric.tree").summary()).startsWith("3-level fat tree");

            f.console("Unlink \"S-spine21\"[34]");
            f.settle(java.time.Duration.ofSeconds(12));
            Report cut = analyse(f, tmp.resolve("dump-cut"), null, RuleConfig.defaults()).report();
            // the lost cable is named by its port at the spine, with the cable fix; not "add uplinks"
            assertThat(problems(cut, "fabric.blocking")).filteredOn(x -> x.parent() == null).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.FAIL);
                assertThat(x.objects()).contains("spine21");
                assertThat(x.summary()).contains("spine21 port 34");
                assertThat(x.fix()).startsWith("Reseat or replace the cable(s) at spine21 port 34");
            });
        }
    }

    @Test
    void aSpineLostIsOneRootNamingItsCablesNotADesign(@TempDir Path tmp) throws Exception {
        try (SimFabric f = start("fabric-2s4l.net", tmp, List.of("node01", "node16"))) {
            // every cable of spine02 pulled: the SM no longer reaches it, the leaves keep half their uplinks
            for (int p = 1; p <= 8; p++) f.console("Unlink \"S-spine02\"[" + p + "]");
            f.settle(java.time.Duration.ofSeconds(12));
            Report r = analyse(f, tmp.resolve("dump"), null, RuleConfig.defaults()).report();
            // no contract or plan says a spine is missing: one FAIL for all leaves, naming what their uplinks still
            // reach and the ports that went down, and saying to look for the lost spine before adding uplinks
            assertThat(r.findings()).filteredOn(x -> x.check().startsWith("fabric.") && x.status() == Status.FAIL)
                    .as(String.join("\n", fabricFindings(r))).singleElement().satisfies(x -> {
                        assertThat(x.check()).isEqualTo("fabric.blocking");
                        assertThat(x.objects()).containsExactlyInAnyOrder("leaf01", "leaf02", "leaf03", "leaf04");
                        assertThat(x.summary()).contains("blocking 2:1").endsWith("every leaf's uplinks reach only spine01; ports 35, 36 down on every leaf");
                        assertThat(x.fix()).startsWith("Every leaf is short alike: if the fabric was built with more uplinks, a spine or all of its cables are gone");
                    });
            assertThat(problems(r, "fabric.blocking")).filteredOn(x -> x.variant().equals("ratio_design")).as("not a design").isEmpty();
        }
    }
}
