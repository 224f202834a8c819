package io.ibaccept.cli;

import static io.ibaccept.cli.FabricDesignsE2ETest.fabricFindings;
import static io.ibaccept.cli.FabricSimE2ETest.analyse;
import static io.ibaccept.cli.FabricSimE2ETest.problems;
import static io.ibaccept.cli.FabricSimE2ETest.start;
import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.analysis.Analysis;
import io.ibaccept.collect.SimFabric;
import io.ibaccept.fabric.CablingPlan;
import io.ibaccept.fabric.Fabric;
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
 * Designs judged as designs, simulated on ibsim with OpenSM and collected with the real tools (netfiles in
 * src/test/resources/sim): a tree built 2:1 on every leaf with no ratio declared, the same with a UFM appliance on a
 * leaf and with a host moved to another leaf, rails whose HCAs are named "HCA-N" with two of them swapped at a host (with
 * and without a cabling plan that names hosts only), and two directors of other models with degraded backplane links.
 */
@ExtendWith(RequiresSimulator.class)
class FabricJudgedDesignsE2ETest {
    static List<Finding> fabricFails(Report r) {
        return r.findings().stream().filter(x -> x.check().startsWith("fabric.") && x.status() == Status.FAIL).toList();
    }

    @Test
    void aTreeBuiltTwoToOneOnEveryLeafIsOneWarningNamingTheRatioNotAFail(@TempDir Path tmp) throws Exception {
        try (SimFabric f = start("fabric-2to1-uniform.net", tmp, List.of("node01", "node64"))) {
            Report r = analyse(f, tmp.resolve("dump"), null, RuleConfig.defaults()).report();
            assertThat(fabricFails(r)).as(String.join("\n", fabricFindings(r))).isEmpty();
            assertThat(problems(r, "fabric.blocking")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.WARN);
                assertThat(x.variant()).isEqualTo("ratio_design");
                assertThat(x.summary()).contains("4 leaves").contains("16 downlinks").contains("8 uplinks").contains("built 2:1, a ratio not declared");
                assertThat(x.fix()).contains("fabric.blocking.ratio=2");
            });
            assertThat(problems(r, "fabric.tree")).isEmpty();
            // declared, the same fabric passes
            Report declared = analyse(f, tmp.resolve("dump2"), null, FabricSimE2ETest.rules(tmp, "fabric.blocking.ratio=2\n")).report();
            assertThat(problems(declared, "fabric.blocking")).isEmpty();
        }
    }

    @Test
    void aUfmApplianceOnALeafIsNamedAndIsNoComputeDownlink(@TempDir Path tmp) throws Exception {
        try (SimFabric f = start("fabric-2to1-appliance.net", tmp, List.of("node01", "node64"))) {
            Analysis a = analyse(f, tmp.resolve("dump"), null, FabricSimE2ETest.rules(tmp, "fabric.blocking.ratio=2\n"));
            Report r = a.report();
            assertThat(a.fabric().appliances()).extracting(Fabric.Node::name).containsExactly("ufm01 HCA-1");
            assertThat(a.fabric().hosts()).hasSize(64);
            // leaf02 carries 16 hosts and the appliance over 8 uplinks: 2:1 as declared, no leaf singled out
            assertThat(fabricFindings(r)).isEmpty();
            assertThat(r.findings()).filteredOn(x -> x.check().equals("fabric.blocking") && x.summary().contains("appliance"))
                    .singleElement().satisfies(x -> assertThat(x.summary()).isEqualTo(
                            "1 management appliance cable(s), not counted as compute downlinks (nor held to the hosts' link rate): ufm01 HCA-1 on leaf02 port 17"));
        }
    }

    @Test
    void aHostMovedToAnotherLeafIsNamedAsMovedAndItsRatioIsAConsequence(@TempDir Path tmp) throws Exception {
        try (SimFabric f = start("fabric-2to1-moved.net", tmp, List.of("node01", "node64"))) {
            for (String rules : List.of("", "fabric.blocking.ratio=2\n")) {
                Report r = analyse(f, tmp.resolve("dump" + rules.length()), null, FabricSimE2ETest.rules(tmp, rules)).report();
                List<Finding> roots = fabricFails(r).stream().filter(x -> x.parent() == null).toList();
                assertThat(roots).as(rules + String.join("\n", fabricFindings(r))).singleElement().satisfies(x -> {
                    assertThat(x.check()).isEqualTo("fabric.tree");
                    assertThat(x.variant()).isEqualTo("hosts_moved");
                    assertThat(x.summary()).startsWith("leaf02 has 15 hosts, leaf03 has 17 hosts, the other leaves 16: one host seems moved from leaf02 to leaf03")
                            .contains("node32 HCA-1 on leaf03 port 17").contains("leaf02 port 16 Down/Polling");
                    assertThat(x.fix()).startsWith("Move node32 HCA-1 on leaf03 port 17 back to the free host port of leaf02");
                });
                String root = roots.get(0).id();
                // leaf03 above the ratio its peers are built with: listed under the move, never "add an uplink" on its own
                assertThat(problems(r, "fabric.blocking")).filteredOn(x -> x.objects().contains("leaf03")).singleElement().satisfies(x -> {
                    assertThat(x.status()).isEqualTo(Status.FAIL);
                    assertThat(x.parent()).isEqualTo(root);
                    assertThat(x.summary()).startsWith("leaf03: 17 downlinks");
                });
            }
        }
    }

    @Test
    void railsNamedHcaNWithTwoHcasSwappedAreAFailWithOrWithoutAPlanNamingHosts(@TempDir Path tmp) throws Exception {
        CablingPlan plan = CablingPlan.load(FabricSimE2ETest.SIM.resolve("fabric-rails-hca.plan.csv"));
        try (SimFabric f = start("fabric-rails-hca-swapped.net", tmp, List.of("node01", "node08"))) {
            for (CablingPlan p : java.util.Arrays.asList(null, plan)) {
                Report r = analyse(f, tmp.resolve(p == null ? "dump" : "dump-plan"), p, RuleConfig.defaults()).report();
                assertThat(problems(r, "fabric.rails")).as(String.join("\n", fabricFindings(r))).singleElement().satisfies(x -> {
                    assertThat(x.status()).isEqualTo(Status.FAIL);
                    assertThat(x.variant()).isEqualTo("swap");
                    assertThat(x.summary()).isEqualTo("2 host cable(s) on a leaf of another rail: "
                            + "node05 HCA-3 <-> su1-leaf-R2 port 5 (the leaf's rail is HCA-2); node05 HCA-2 <-> su1-leaf-R3 port 5 (the leaf's rail is HCA-3)");
                    assertThat(x.objects()).containsExactly("node05 HCA-3", "node05 HCA-2");
                });
            }
        }
    }

    @Test
    void directorsOfOtherModelsAreChassisByTheirSystemImageGuidAndGetTheBackplaneFix(@TempDir Path tmp) throws Exception {
        try (SimFabric f = start("fabric-directors.net", tmp, List.of("node01", "node08"))) {
            Analysis a = analyse(f, tmp.resolve("dump"), null, RuleConfig.defaults());
            Report r = a.report();
            // the CS8500 and the director with custom names and no model string: each one chassis of four ASICs
            assertThat(a.fabric().chassis()).hasSize(2).allSatisfy((sys, asics) -> assertThat(asics).hasSize(4));
            assertThat(a.fabric().chassis().get(0x0002c90300c85000L)).extracting(Fabric.Node::name).allMatch(n -> n.contains("CS8500"));
            assertThat(a.fabric().chassis().get(0xb83fd20300a1d200L)).extracting(Fabric.Node::name).allMatch(n -> n.startsWith("ib-dir02 "));
            List<Finding> degraded = r.findings().stream().filter(x -> (x.check().equals("link.width") || x.check().equals("link.speed"))
                    && x.status() == Status.FAIL && x.parent() == null).toList();
            assertThat(degraded).as(String.join("\n", fabricFindings(r))).hasSize(2).allSatisfy(x -> {
                assertThat(x.variant()).isEqualTo("backplane");
                assertThat(x.summary()).contains("(chassis backplane)");
                assertThat(x.fix()).startsWith("No cable to").contains("RMA").doesNotContain("eseat the cable");
            });
            assertThat(degraded).anySatisfy(x -> assertThat(x.summary()).contains("CS8500/L01/U1 port 21").contains("1X"));
            assertThat(degraded).anySatisfy(x -> assertThat(x.summary()).contains("ib-dir02 line card 2 port 35"));
            assertThat(problems(r, "fabric.tree")).as(String.join("\n", fabricFindings(r))).isEmpty();
        }
    }
}
