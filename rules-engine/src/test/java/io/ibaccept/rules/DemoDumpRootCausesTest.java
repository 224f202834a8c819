package io.ibaccept.rules;

import static io.ibaccept.rules.TestDump.problems;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The demo dump (faults listed in sample-dumps/README.md): one root finding per injected fault, each with its
 * consequences under it, and every finding still in the report.
 */
class DemoDumpRootCausesTest {
    static Report r;

    @BeforeAll
    static void analyze() {
        r = new RulesEngine(RuleConfig.defaults()).run(io.ibaccept.dump.DumpLoader.load(TestDump.DEMO));
    }

    static List<Finding> problemRoots() {
        return r.roots().stream().filter(f -> f.status() == Status.FAIL || f.status() == Status.WARN || f.status() == Status.ERROR).toList();
    }

    static Finding root(String check, String object) {
        return problemRoots().stream().filter(f -> f.check().equals(check) && f.objects().contains(object)).findFirst()
                .orElseThrow(() -> new AssertionError("no root " + check + " on " + object + " among " + problemRoots().stream().map(Finding::id).toList()));
    }

    static List<String> under(Finding root) {
        return r.consequencesOf(root).stream().map(Finding::check).toList();
    }

    @Test
    void oneRootPerInjectedFault() {
        // node16 unplugged, node06 at 1X, the node11 <-> leaf03 port 3 cable (EDR now; its error counts are history
        // under it, read once with no window), node07's PCIe slot,
        // node09's memlock, node13's OFED, node05's UCX without ud, node05's ib0 down, node12's clock unsynchronised;
        // warnings: partition enforcement off, two SMs at priority 14 (their opensm.conf is the root, the live sm.priority
        // warning under it), node09's IPoIB in connected mode (mode and MTU)
        assertThat(problemRoots()).filteredOn(f -> f.status() == Status.FAIL).extracting(Finding::check)
                .containsExactlyInAnyOrder("port.state", "link.width", "link.speed", "pcie", "memlock", "ofed", "ucx.transports",
                        "ipoib.state", "time.sync");
        assertThat(problemRoots()).filteredOn(f -> f.status() == Status.WARN).extracting(Finding::check)
                .containsExactlyInAnyOrder("sm.config.priority", "pkey", "ipoib.config", "ipoib.config");
        assertThat(problemRoots()).noneMatch(f -> f.status() == Status.ERROR);
        assertThat(r.verdict()).isEqualTo(Verdict.REJECTED);
    }

    @Test
    void theUnpluggedNodeExplainsItsInventoryGapAndItsFailedQueries() {
        Finding down = root("port.state", "node16/ibsim0 port 1");
        assertThat(under(down)).contains("fabric.inventory", "input");
        assertThat(r.consequencesOf(down)).allSatisfy(f -> assertThat(f.objects()).containsExactly("node16"));
        assertThat(down.evidence().get(down.evidence().size() - 1).text()).startsWith(r.consequencesOf(down).size() + " consequence");
    }

    @Test
    void theNode11CableIsOneRootNamingBothEnds() {
        // the link trained at EDR is what the cable shows now; its counts since an unknown time are history under it
        Finding cable = root("link.speed", "node11 HCA-1 port 1");
        assertThat(cable.objects()).contains("leaf03 port 3", "node11 HCA-1 port 1");
        assertThat(under(cable)).contains("link.errors", "mlxlink", "perftest.lat", "ibdiagnet");
        assertThat(r.consequencesOf(cable)).filteredOn(f -> f.check().equals("link.errors")).singleElement()
                .satisfies(f -> assertThat(f.variant()).isEqualTo("history"));
        assertThat(r.consequencesOf(cable)).filteredOn(f -> f.check().equals("mlxlink")).hasSize(2);
        // ibdiagnet's counter error on leaf03/U1/P3 and its "Unexpected actual link speed" on leaf03/U1/P3<-->node11/U1/P1
        assertThat(r.consequencesOf(cable)).filteredOn(f -> f.check().equals("ibdiagnet")).extracting(Finding::summary)
                .anySatisfy(s -> assertThat(s).contains("leaf03/U1/P3").contains("symbol_error_counter"))
                .anySatisfy(s -> assertThat(s).contains("leaf03/U1/P3<-->node11/U1/P1"));
        assertThat(cable.evidence().get(cable.evidence().size() - 1).text()).contains("consequences listed under this finding")
                .contains("link.errors").contains("perftest.lat");
    }

    @Test
    void theSlowPairsGoUnderTheHostFaults() {
        Finding pcie = root("pcie", "node07");
        assertThat(r.consequencesOf(pcie)).anySatisfy(f -> {
            assertThat(f.check()).isEqualTo("perftest.bw");
            assertThat(f.objects()).containsExactly("node07", "node08");
        });
        assertThat(r.consequencesOf(pcie)).anySatisfy(f -> assertThat(f.check()).isEqualTo("perftest.localisation"));
        Finding oneX = root("link.width", "node06 HCA-1 port 1");
        assertThat(r.consequencesOf(oneX)).anySatisfy(f -> assertThat(f.check()).isEqualTo("perftest.localisation"));
        // the outlier finding spans node05-node06 (1X) and node07-node08 (PCIe): under one root, naming the other
        assertThat(problems(r, "perftest.outlier")).singleElement().satisfies(f -> {
            assertThat(f.parent()).isIn(pcie.id(), oneX.id());
            assertThat(f.evidence()).anySatisfy(e -> assertThat(e.text()).startsWith("also explained by "));
        });
    }

    @Test
    void nothingIsHidden() {
        assertThat(r.worstFirst()).hasSameSizeAs(r.findings());
        for (Finding f : r.findings())
            if (f.isConsequence()) assertThat(r.findings()).anySatisfy(p -> {
                assertThat(p.id()).isEqualTo(f.parent());
                assertThat(p.isConsequence()).isFalse();
                assertThat(f.status().worseThan(p.status())).isFalse();
            });
    }
}
