package io.ibaccept.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fat-tree analysis of whole fabrics captured on real clusters (src/test/resources/real/SOURCES.md says what each
 * fabric is and which real faults it has): the real faults named, with the cable to look at, and nothing false.
 */
class RealFabricsTest {
    static FatTree.Result validate(Fabric f) {
        return FatTree.validate(f, FatTree.Settings.defaults());
    }

    static List<Issue> severe(FatTree.Result r) {
        return java.util.stream.Stream.concat(r.tree().stream(), r.blocking().stream()).filter(Issue::severe).toList();
    }

    /**
     * An NDR SuperPOD: leaves short of uplinks to some spines are named with the spines they lack; the aggregation
     * node on every switch raises nothing.
     */
    @Test
    void superPodNamesTheLeavesMissingSpines() {
        Fabric f = FabricRolesTest.topology("topograph-ndr-superpod-40sw-582ca.txt");
        FatTree.Result r = validate(f);
        assertThat(r.levels()).isEqualTo(2);
        assertThat(r.tree()).noneMatch(i -> i.kind().equals("unleveled") || i.kind().equals("host_on_spine") || i.kind().equals("missing_top"));
        assertThat(r.blocking()).filteredOn(i -> i.kind().equals("uplinks_lost")).anySatisfy(i -> assertThat(i.summary())
                .startsWith("MF0;A09-P1-IBLEAF-01-02:MQM9701/U1 has 14 active uplinks, its peers 18")
                .contains("2 to MF0;A10-P1-IBSPINE-04:MQM9701/U1", "2 to MF0;A10-P1-IBSPINE-01:MQM9701/U1"));
        assertThat(r.blocking()).filteredOn(i -> i.kind().equals("uplinks_lost")).anySatisfy(i -> assertThat(i.summary())
                .startsWith("MF0;A09-P1-IBLEAF-04-04:MQM9701/U1 has 16 active uplinks").contains("2 to MF0;A10-P1-IBSPINE-01:MQM9701/U1"));
    }

    /**
     * Selene's compute fabric: an empty management leaf below a spine of its own, cabled only to some cores, would sit
     * two levels above the cores if levels were counted from the hosts: it is a leaf, its spine a spine, and the units
     * (pod and rail) are the groups leaves are compared in.
     */
    @Test
    void seleneComputeLevelsAndUnits() {
        Fabric f = FabricRolesTest.topology("ufm-sdk-selene-compute-hdr-666sw-4341ca.txt.gz");
        assertThat(f.maxLevel()).isEqualTo(3);
        assertThat(f.atLevel(1)).hasSize(204).allSatisfy(n -> assertThat(n.shortName()).matches("M?LG\\d\\d-\\d\\d"));
        assertThat(f.atLevel(2)).hasSize(322).allSatisfy(n -> assertThat(n.shortName()).matches("[CM]SPINE\\d-\\d\\d"));
        assertThat(f.atLevel(3)).hasSize(140).allSatisfy(n -> assertThat(n.shortName()).startsWith("CCORE"));
        // rail 7 of pod 2: seven leaves and the ten spines they share
        Fabric.Node leaf = f.byName("MF0;LG13-07:MQM8700/U1").get(0);
        assertThat(f.switches()).filteredOn(n -> n.group() == leaf.group()).extracting(Fabric.Node::shortName)
                .hasSize(17).contains("LG08-07", "LG14-07", "CSPINE2-61", "CSPINE2-70");
    }

    /**
     * Selene's storage fabric: three levels in scalable units, four leaves with no host yet, 1.5:1 by design, one leaf
     * without its two links to SSPINE1-05 and SSPINE1-13. Empty leaves are leaves, a leaf's peers are the leaves of its
     * unit, and the design ratio is a warning to declare, not cables to add.
     */
    @Test
    void seleneStorageScalableUnitsEmptyLeavesAndADesignRatio() {
        Fabric f = FabricRolesTest.topology("ufm-sdk-selene-storage-hdr-160sw-1247ca.txt");
        FatTree.Result r = validate(f);
        assertThat(r.levels()).isEqualTo(3);
        assertThat(f.atLevel(1)).extracting(Fabric.Node::name).contains("MF0;SLG03-09:MQM8700/U1", "MF0;SLG03-12:MQM8700/U1").hasSize(64);
        assertThat(f.atLevel(3)).allSatisfy(c -> assertThat(c.name()).contains("SCORE"));
        assertThat(r.tree()).noneMatch(Issue::severe);
        assertThat(r.blocking()).filteredOn(i -> i.kind().equals("uplinks_lost") && i.summary().startsWith("MF0;SLG01-10:"))
                .singleElement().satisfies(i -> assertThat(i.summary())
                        .contains("uplinks missing 1 to MF0;SSPINE1-05:MQM8700/U1, 1 to MF0;SSPINE1-13:MQM8700/U1;").doesNotContain("SSPINE2"));
        assertThat(r.blocking()).filteredOn(i -> i.kind().equals("ratio_design")).singleElement().satisfies(i -> {
            assertThat(i.severe()).isFalse();
            assertThat(i.vars().get("design")).isEqualTo("1.50");
        });
        assertThat(severe(r)).noneMatch(i -> i.kind().equals("ratio") && i.objects().stream().anyMatch(o -> o.contains("SLG")));
    }

    /** An EDR cluster built 2:1 on every leaf: one design warning; the leaf behind a slower ISL is the one that stands out. */
    @Test
    void twoToOneByDesignIsOneWarning() {
        Fabric f = FabricRolesTest.topology("clustervision-trinityx-edr-6sw-96ca.txt");
        FatTree.Result r = validate(f);
        assertThat(r.blocking()).filteredOn(i -> i.kind().equals("ratio_design")).singleElement()
                .satisfies(i -> assertThat(i.vars().get("design")).isEqualTo("2"));
    }

    /**
     * Names are judged as runs: the SuperPOD's A09-P1-IBLEAF-03-01 is absent (pods 01, 02 and 04 have their -01, pod 03
     * starts at -02); Selene storage's "SLG3-02" is SLG03-02 typed short, not a gap; Selene compute's MLG01-03 between
     * MLG01-02 and -04 is no gap, as those leaves hang below different spines (no one run).
     */
    @Test
    void aLeafAbsentFromARegularRunOfNamesIsNamedAndNothingElse() {
        assertThat(validate(FabricRolesTest.topology("topograph-ndr-superpod-40sw-582ca.txt")).tree()).filteredOn(i -> i.kind().equals("leaf_absent"))
                .singleElement().satisfies(i -> {
                    assertThat(i.severe()).isTrue();
                    assertThat(i.objects()).containsExactly("A09-P1-IBLEAF-03-01");
                    assertThat(i.summary()).startsWith("leaf A09-P1-IBLEAF-03-01 is absent from the fabric");
                });
        for (String capture : List.of("ufm-sdk-selene-storage-hdr-160sw-1247ca.txt", "ufm-sdk-selene-compute-hdr-666sw-4341ca.txt.gz",
                "clustervision-trinityx-edr-6sw-96ca.txt", "gary-minghuili-ndr-quantum2-ibdiagnet2-ibnetdiscover.txt"))
            assertThat(validate(FabricRolesTest.topology(capture)).tree()).as(capture)
                    .noneMatch(i -> i.kind().equals("leaf_absent") || i.kind().equals("hosts_moved"));
    }

    /** The UFM appliances of three real fabrics are appliances, not hosts; a lab whose every server is named "r-ufmNN" has none. */
    @Test
    void ufmAppliancesAreNamedAsAppliances() {
        assertThat(FabricRolesTest.topology("topograph-ndr-superpod-40sw-582ca.txt").appliances()).extracting(Fabric.Node::name)
                .containsExactlyInAnyOrder("B11-P1-CUFM-02 mlx5_0", "B11-P1-CUFM-02 mlx5_1");
        assertThat(FabricRolesTest.topology("ufm-sdk-selene-storage-hdr-160sw-1247ca.txt").appliances()).extracting(Fabric.Node::name)
                .containsExactlyInAnyOrder("selene-ufm-s-01 HCA-2", "selene-ufm-s-02 mlx5_1");
        Fabric compute = FabricRolesTest.topology("ufm-sdk-selene-compute-hdr-666sw-4341ca.txt.gz");
        assertThat(compute.appliances()).extracting(Fabric.Node::name).containsExactlyInAnyOrder("selene-ufm-c-01 HCA-2", "selene-ufm-c-02 HCA-2");
        assertThat(compute.links()).filteredOn(l -> compute.linkClass(l) == Fabric.LinkClass.APPLIANCE).hasSize(2);
        Fabric lab = FabricRolesTest.topology("nvidia-kb-ibdiagpath-switchib-sx6012-loopback-cables.txt");
        assertThat(lab.appliances()).isEmpty();
        assertThat(lab.hosts()).isNotEmpty();
    }
}
