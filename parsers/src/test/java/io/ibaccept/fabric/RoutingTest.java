package io.ibaccept.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.model.ForwardingTables;
import io.ibaccept.parse.IbnetdiscoverParser;
import io.ibaccept.parse.IbrouteParser;
import io.ibaccept.parse.Issues;
import io.ibaccept.parse.RealSamplesTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The forwarding tables real opensm wrote into ibsim's switches (dump_fts), walked over the fabric ibnetdiscover read
 * from the same simulator: a 2-spine/4-leaf fat tree (ibsim-2s4l) and a ring of four switches (ibsim-ring4).
 */
class RoutingTest {
    static final long SPINE01 = 0x200000L, LEAF01 = 0x200002L;

    static Routing routing(String topo, String lfts) {
        Fabric f = FabricBuilder.build(IbnetdiscoverParser.parse(RealSamplesTest.real("ibnetdiscover/" + topo), Issues.strict()), null, null);
        ForwardingTables t = IbrouteParser.fabric(RealSamplesTest.real("dump_fts/" + lfts), Issues.strict());
        return Routing.analyze(f, t);
    }

    @Test
    void ftreeOnAFatTreeReachesEveryHostWithoutLoopsAndSpreadsEvenly() {
        Routing r = routing("ibsim-2s4l.txt", "ibsim-2s4l-ftree.txt");
        assertThat(r.destinations()).isEqualTo(16);
        assertThat(r.pathsWalked()).isEqualTo(16 * 6);
        assertThat(r.maxHops()).isEqualTo(3);
        assertThat(r.channels()).isEqualTo(32);
        assertThat(r.deadEnds()).isEmpty();
        assertThat(r.loops()).isEmpty();
        assertThat(r.longPaths()).isEmpty();
        assertThat(r.creditLoops()).isEmpty();
        assertThat(r.switchesWithoutTable()).isEmpty();
        // 4 leaves: 12 remote hosts over 4 uplinks; 2 spines x 4 leaves: 4 hosts over 2 parallel cables
        assertThat(r.spreads()).filteredOn(s -> s.kind().equals("uplinks")).hasSize(4).allSatisfy(s -> assertThat(s.ports()).extracting(Routing.PortLoad::lids).containsOnly(3));
        assertThat(r.spreads()).filteredOn(s -> s.kind().equals("downlinks")).hasSize(8).allSatisfy(s -> assertThat(s.ports()).extracting(Routing.PortLoad::lids).containsOnly(2));
    }

    @Test
    void minhopAndUpdnOnThisSmallTreeAreAsEvenAsFtree() {
        for (String t : List.of("ibsim-2s4l-minhop.txt", "ibsim-2s4l-updn.txt")) {
            Routing r = routing("ibsim-2s4l.txt", t);
            assertThat(r.deadEnds()).as(t).isEmpty();
            assertThat(r.creditLoops()).as(t).isEmpty();
            assertThat(r.spreads()).as(t).allSatisfy(s -> assertThat(s.ratio()).isEqualTo(1.0));
        }
    }

    @Test
    void theFileEngineWithOneEntryRemovedAndOnePointingBackGivesADeadEndAndALoop() {
        Routing r = routing("ibsim-2s4l.txt", "ibsim-2s4l-file-deadend-loop.txt");
        // leaf01 lost its entry for node13 (LID 0x13); the other switches still route it
        assertThat(r.deadEnds()).singleElement().satisfies(e -> {
            assertThat(e.cause()).isEqualTo(Routing.Break.NO_ENTRY);
            assertThat(e.switchGuid()).isEqualTo(LEAF01);
            assertThat(e.lids()).containsExactly(0x13);
            assertThat(e.ref().line()).isEqualTo(129);
        });
        assertThat(r.unroutedLids()).isEmpty();
        // spine01 sends node05 (LID 0x0b) down to leaf01, which sends it up to spine01 port 1 again
        assertThat(r.loops()).singleElement().satisfies(l -> {
            assertThat(l.cycle()).containsExactly(new Routing.Hop(SPINE01, 1), new Routing.Hop(LEAF01, 33));
            assertThat(l.lids()).containsExactly(0x0b);
        });
        // a broken route is a forwarding fault, not a credit loop as well
        assertThat(r.creditLoops()).isEmpty();
        assertThat(r.pathsWalked()).isEqualTo(16 * 6 - 5);
    }

    @Test
    void minhopRoutesRoundARingAndMakeACreditLoopWhichUpdnWithARootAvoids() {
        Routing minhop = routing("ibsim-ring4.txt", "ibsim-ring4-minhop.txt");
        assertThat(minhop.deadEnds()).isEmpty();
        assertThat(minhop.creditLoops()).singleElement().satisfies(c -> {
            assertThat(c.channels()).isEqualTo(4);
            assertThat(c.cycle()).extracting(Routing.Hop::port).containsOnly(4);
            assertThat(c.cycle()).extracting(Routing.Hop::switchGuid).containsExactly(0x200000L, 0x200003L, 0x200002L, 0x200001L);
        });
        // not a tree: no spread judged
        assertThat(minhop.spreads()).isEmpty();
        assertThat(routing("ibsim-ring4.txt", "ibsim-ring4-updn-root-sw1.txt").creditLoops()).isEmpty();
        // lash keeps the ring's routes on VL0 cyclic (it separates them by SL/VL, which the tables do not show)
        assertThat(routing("ibsim-ring4.txt", "ibsim-ring4-lash.txt").creditLoops()).hasSize(1);
    }

    @Test
    void aDownLinkAndASwitchWithoutTableAreNamed() {
        Fabric f = FabricBuilder.build(IbnetdiscoverParser.parse(RealSamplesTest.real("ibnetdiscover/ibsim-2s4l.txt"), Issues.strict()), null, null);
        ForwardingTables all = IbrouteParser.fabric(RealSamplesTest.real("dump_fts/ibsim-2s4l-ftree.txt"), Issues.strict());
        // the tables without spine02's
        ForwardingTables some = new ForwardingTables(all.switches().stream().filter(l -> !l.switchName().equals("spine02")).toList(), all.destinations());
        Routing r = Routing.analyze(f, some);
        assertThat(r.switchesWithoutTable()).containsExactly(0x200001L);
        assertThat(r.deadEnds()).isEmpty();
        // tables of switches the fabric scan does not have (ibsim numbers both fabrics' GUIDs alike: leaf03 and leaf04 are extra)
        Fabric ring = FabricBuilder.build(IbnetdiscoverParser.parse(RealSamplesTest.real("ibnetdiscover/ibsim-ring4.txt"), Issues.strict()), null, null);
        assertThat(Routing.analyze(ring, all).tablesOfUnknownSwitches()).extracting(io.ibaccept.model.Lft::switchName).containsExactlyInAnyOrder("leaf03", "leaf04");
    }

    @Test
    void aCaLidNoTableRoutesIsOneFindingNotADeadEndAtEverySwitch() {
        Fabric f = FabricBuilder.build(IbnetdiscoverParser.parse(RealSamplesTest.real("ibnetdiscover/ibsim-2s4l.txt"), Issues.strict()), null, null);
        ForwardingTables all = IbrouteParser.fabric(RealSamplesTest.real("dump_fts/ibsim-2s4l-ftree.txt"), Issues.strict());
        // node13's LID 0x13 taken out of every table, as if the SM never routed it
        List<io.ibaccept.model.Lft> without = new java.util.ArrayList<>();
        for (io.ibaccept.model.Lft t : all.switches()) {
            io.ibaccept.model.Lft.Builder b = new io.ibaccept.model.Lft.Builder(t.switchLid(), t.switchGuid(), t.switchName(), t.ref());
            t.lids().filter(l -> l != 0x13).forEach(l -> b.put(l, t.port(l)));
            without.add(b.build());
        }
        Routing r = Routing.analyze(f, new ForwardingTables(without, all.destinations()));
        assertThat(r.unroutedLids()).containsExactly(0x13);
        assertThat(r.deadEnds()).isEmpty();
        assertThat(r.destinations()).isEqualTo(16);
    }

    @Test
    void aBrokenTableKeepsOnlyTheFirstLidsOfAFindingAndCountsThemAll() {
        Fabric f = FabricBuilder.build(IbnetdiscoverParser.parse(RealSamplesTest.real("ibnetdiscover/ibsim-2s4l.txt"), Issues.strict()), null, null);
        ForwardingTables all = IbrouteParser.fabric(RealSamplesTest.real("dump_fts/ibsim-2s4l-ftree.txt"), Issues.strict());
        // leaf01 sends every LID to port 0
        List<io.ibaccept.model.Lft> broken = new java.util.ArrayList<>();
        for (io.ibaccept.model.Lft t : all.switches()) {
            io.ibaccept.model.Lft.Builder b = new io.ibaccept.model.Lft.Builder(t.switchLid(), t.switchGuid(), t.switchName(), t.ref());
            t.lids().forEach(l -> b.put(l, t.switchGuid() == LEAF01 ? 0 : t.port(l)));
            broken.add(b.build());
        }
        Routing r = Routing.analyze(f, new ForwardingTables(broken, all.destinations()));
        assertThat(r.deadEnds()).singleElement().satisfies(e -> {
            assertThat(e.cause()).isEqualTo(Routing.Break.TO_ITSELF);
            assertThat(e.switchGuid()).isEqualTo(LEAF01);
            assertThat(e.count()).isEqualTo(16).isEqualTo(e.lids().size());
        });
        assertThat(Routing.LIDS_KEPT).isLessThan(100_000);
    }

    /** A large fabric's destinations are walked in slices on several cores: the findings are those of one pass, in order. */
    @Test
    void aWalkInSlicesFindsWhatOnePassFinds() {
        String[][] cases = {{"ibsim-2s4l.txt", "ibsim-2s4l-file-deadend-loop.txt"}, {"ibsim-2s4l.txt", "ibsim-2s4l-ftree.txt"},
                {"ibsim-ring4.txt", "ibsim-ring4-minhop.txt"}};
        for (String[] c : cases) {
            Fabric f = FabricBuilder.build(IbnetdiscoverParser.parse(RealSamplesTest.real("ibnetdiscover/" + c[0]), Issues.strict()), null, null);
            ForwardingTables t = IbrouteParser.fabric(RealSamplesTest.real("dump_fts/" + c[1]), Issues.strict());
            Routing one = Routing.analyze(f, t, 1);
            for (int slices : new int[] {2, 3, 7}) {
                Routing many = Routing.analyze(f, t, slices);
                assertThat(many.deadEnds()).as(c[1] + " " + slices).isEqualTo(one.deadEnds());
                assertThat(many.loops()).isEqualTo(one.loops());
                assertThat(many.longPaths()).isEqualTo(one.longPaths());
                assertThat(many.creditLoops()).isEqualTo(one.creditLoops());
                assertThat(many.unroutedLids()).isEqualTo(one.unroutedLids());
                assertThat(many.pathsWalked()).isEqualTo(one.pathsWalked());
                assertThat(many.maxHops()).isEqualTo(one.maxHops());
                assertThat(many.spreads()).isEqualTo(one.spreads());
            }
        }
    }
}
