package io.ibaccept.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FatTreeTest {
    static FatTree.Result validate(TestFabrics t) {
        return FatTree.validate(t.fabric(), FatTree.Settings.defaults());
    }

    @Test
    void healthyTreesRaiseNothing() {
        for (int[] shape : new int[][] {{2, 4, 2, 4}, {4, 8, 1, 4}, {3, 6, 2, 6}}) {
            FatTree.Result r = validate(TestFabrics.fatTree(shape[0], shape[1], shape[2], shape[3]));
            assertThat(r.tree()).as("tree %s", java.util.Arrays.toString(shape)).isEmpty();
            assertThat(r.blocking()).isEmpty();
            assertThat(r.levels()).isEqualTo(2);
            assertThat(r.tops()).hasSize(shape[0]);
        }
    }

    /**
     * Two rails (planes) side by side, each a 2-level tree of its own; every host has one HCA on each rail. A leaf
     * reaches the spines of its own plane: nothing is unreachable, and a cable lost in one plane is named there.
     */
    @Test
    void railsArePlanesOfTheirOwn() {
        TestFabrics t = new TestFabrics();
        for (String rail : new String[] {"a", "b"}) {
            for (String s : new String[] {"spine1" + rail, "spine2" + rail, "leaf1" + rail, "leaf2" + rail}) t.sw(s);
            int n = 0;
            for (String l : new String[] {"leaf1" + rail, "leaf2" + rail}) {
                for (int h = 1; h <= 2; h++) {
                    t.ca("n" + (++n) + " HCA-" + rail);
                    t.cable(l, h, "n" + n + " HCA-" + rail, 1);
                }
                t.cable(l, 17, "spine1" + rail, l.startsWith("leaf1") ? 1 : 2);
                t.cable(l, 18, "spine2" + rail, l.startsWith("leaf1") ? 1 : 2);
            }
        }
        FatTree.Result ok = validate(t);
        assertThat(ok.levels()).isEqualTo(2);
        assertThat(ok.tree()).isEmpty();
        assertThat(ok.blocking()).isEmpty();
        t.unplug("leaf2b", 18);
        FatTree.Result r = validate(t);
        assertThat(r.tree()).noneMatch(i -> i.kind().equals("unreachable_top") && !i.objects().contains("leaf2b"));
        assertThat(r.blocking()).filteredOn(i -> i.kind().equals("uplinks_lost")).singleElement()
                .satisfies(i -> assertThat(i.summary()).startsWith("leaf2b has 1 active uplinks, its peers 2").contains("1 to spine2b"));
    }

    /** A leaf cut off from every spine is compared with the other leaves, its ports named, not a unit of its own. */
    @Test
    void aLeafThatLostEveryUplinkNamesItsPorts() {
        TestFabrics t = TestFabrics.fatTree(2, 4, 2, 4);
        for (int p = 17; p <= 20; p++) t.unplug("leaf03", p);
        FatTree.Result r = validate(t);
        assertThat(r.blocking()).filteredOn(i -> i.kind().equals("uplinks_lost")).singleElement().satisfies(i -> {
            assertThat(i.severe()).isTrue();
            assertThat(i.summary()).startsWith("leaf03 has 0 active uplinks, its peers 4").contains("leaf03 port 17", "leaf03 port 20");
        });
        assertThat(r.blocking()).noneMatch(i -> i.kind().equals("ratio_design"));
    }

    /** With a ratio declared, a leaf over it is a fault, not a design to declare. */
    @Test
    void aDeclaredRatioTurnsTheDesignWarningIntoAFault() {
        Fabric f = FabricRolesTest.topology("clustervision-trinityx-edr-6sw-96ca.txt");
        assertThat(FatTree.validate(f, FatTree.Settings.defaults()).blocking()).anyMatch(i -> i.kind().equals("ratio_design"));
        FatTree.Result declared = FatTree.validate(f, new FatTree.Settings(0, 1.5, FatTree.Settings.defaults().hostTolerance(), null));
        assertThat(declared.blocking()).noneMatch(i -> i.kind().equals("ratio_design")).anyMatch(i -> i.kind().equals("ratio") && i.severe());
        assertThat(FatTree.validate(f, new FatTree.Settings(0, 2, FatTree.Settings.defaults().hostTolerance(), null)).blocking())
                .noneMatch(i -> i.kind().equals("ratio_design")).noneMatch(i -> i.kind().equals("ratio") && i.vars().get("ratio").equals("2:1"));
    }

    @Test
    void lostUplinkNamesTheLeafPortAndTheSpine() {
        TestFabrics t = TestFabrics.fatTree(2, 4, 2, 4);
        t.unplug("leaf03", 20); // leaf03 port 20 <-> spine02 port 6
        FatTree.Result r = validate(t);
        assertThat(r.tree()).isEmpty();
        assertThat(r.blocking()).singleElement().satisfies(i -> {
            assertThat(i.kind()).isEqualTo("uplinks_lost");
            assertThat(i.severe()).isTrue();
            assertThat(i.objects()).containsExactly("leaf03", "leaf03 port 20");
            assertThat(i.summary()).isEqualTo("leaf03 has 3 active uplinks, its peers 4: missing leaf03 port 20 (Down/Polling); "
                    + "uplinks missing 1 to spine02 (spine02 port 6 Down/Polling is down); blocking 1.33:1, allowed 1:1");
            assertThat(i.facts()).anySatisfy(fact -> assertThat(fact.ref().toString()).startsWith("fabric/iblinkinfo.out:"));
        });
    }

    @Test
    void deadSpineIsOneFindingForAllLeaves() {
        TestFabrics t = TestFabrics.fatTree(2, 4, 2, 4);
        t.cables.removeIf(c -> c.b.equals("spine02"));
        t.switches.remove("spine02");
        FatTree.Result r = FatTree.validate(t.fabric(), new FatTree.Settings(6, 1.0, 1));
        assertThat(r.tree()).singleElement().satisfies(i -> {
            assertThat(i.kind()).isEqualTo("switch_count");
            assertThat(i.summary()).isEqualTo("5 switches in the fabric, expected 6 (per level: 4 leaf, 1 spine)");
        });
        assertThat(r.blocking()).singleElement().satisfies(i -> {
            assertThat(i.kind()).isEqualTo("ratio");
            assertThat(i.objects()).containsExactly("leaf01", "leaf02", "leaf03", "leaf04");
            // what the uplinks still reach and the ports the spine's cables left down on every leaf
            assertThat(i.summary()).isEqualTo("4 leaves (leaf01, leaf02, leaf03, leaf04): 4 downlinks (800 Gb/s) over 2 uplinks (400 Gb/s), blocking 2:1, "
                    + "allowed 1:1; every leaf's uplinks reach only spine01; ports 19, 20 down on every leaf");
            assertThat(i.vars()).containsEntry("needed", "2");
        });
    }

    @Test
    void hostOnASpine() {
        TestFabrics t = TestFabrics.fatTree(2, 4, 2, 4);
        t.ca("stray HCA-1");
        t.cable("spine02", 20, "stray HCA-1", 1);
        FatTree.Result r = validate(t);
        assertThat(r.tree()).singleElement().satisfies(i -> {
            assertThat(i.kind()).isEqualTo("host_on_spine");
            assertThat(i.summary()).isEqualTo("stray HCA-1 is cabled to spine02 port 20, a level-2 switch (spine)");
        });
        assertThat(r.blocking()).isEmpty();
        assertThat(t.fabric().atLevel(2)).extracting(Fabric.Node::name).containsExactlyInAnyOrder("spine01", "spine02");
    }

    @Test
    void aLeafWithMoreUplinksThanTheOthersIsNoFault() {
        // leaf03 is cabled with two uplinks more (a bigger or storage leaf): no other leaf lacks any, so nothing moved
        TestFabrics t = TestFabrics.fatTree(2, 4, 1, 2);
        t.cable("leaf03", 30, "spine01", 30);
        t.cable("leaf03", 31, "spine02", 30);
        FatTree.Result r = validate(t);
        assertThat(r.tree()).isEmpty();
        assertThat(r.blocking()).isEmpty();
    }

    @Test
    void unevenUplinks3122() {
        // 4 leaves, 2 hosts each, 2 spines; uplinks 3/1/2/2 instead of 2/2/2/2
        TestFabrics t = TestFabrics.fatTree(2, 4, 1, 2);
        t.cable("leaf01", 30, "spine01", 30);
        t.unplug("leaf02", 18);
        FatTree.Result r = validate(t);
        // 2 + 1 over two spines is as even as 3 uplinks get: only the count is reported
        assertThat(r.tree()).singleElement().satisfies(i -> {
            assertThat(i.kind()).isEqualTo("uplinks_count");
            assertThat(i.severe()).as("more uplinks are worth a look, not a fault").isFalse();
            assertThat(i.summary()).isEqualTo("leaf01 has 3 uplinks, the other leaves usually 2 (3/1/2/2)");
        });
        assertThat(r.blocking()).singleElement().satisfies(i -> {
            assertThat(i.kind()).isEqualTo("uplinks_lost");
            assertThat(i.objects()).containsExactly("leaf02", "leaf02 port 18");
            assertThat(i.summary()).contains("blocking 2:1");
        });
    }

    @Test
    void bothUplinksOfALeafOnOneSpine() {
        TestFabrics t = TestFabrics.fatTree(2, 4, 1, 2);
        t.unplug("leaf03", 18);
        t.cable("leaf03", 18, "spine01", 30);
        FatTree.Result r = validate(t);
        assertThat(r.tree()).singleElement().satisfies(i -> {
            assertThat(i.kind()).isEqualTo("uplinks_spread");
            assertThat(i.summary()).isEqualTo("leaf03 spreads its 2 uplinks unevenly: 2 to spine01, 0 to spine02");
        });
        assertThat(r.blocking()).isEmpty();
    }

    @Test
    void oversubscribedLeafAndConfiguredRatio() {
        TestFabrics t = TestFabrics.fatTree(2, 4, 2, 4);
        for (int h = 5; h <= 8; h++) {
            t.ca("extra" + h + " HCA-1");
            t.cable("leaf02", h, "extra" + h + " HCA-1", 1);
        }
        FatTree.Result r = validate(t);
        assertThat(r.blocking()).singleElement().satisfies(i -> {
            assertThat(i.kind()).isEqualTo("ratio");
            assertThat(i.summary()).isEqualTo("leaf02: 8 downlinks (1600 Gb/s) over 4 uplinks (800 Gb/s), blocking 2:1, allowed 1:1");
            assertThat(i.vars()).containsEntry("needed", "4");
        });
        // hosts per leaf: 8 against the usual 4
        assertThat(r.tree()).singleElement().satisfies(i -> assertThat(i.kind()).isEqualTo("hosts_balance"));
        assertThat(FatTree.validate(t.fabric(), new FatTree.Settings(0, FatTree.parseRatio("2:1"), 4)).blocking()).isEmpty();
    }

    @Test
    void linkBetweenTwoSpines() {
        TestFabrics t = TestFabrics.fatTree(2, 4, 2, 4);
        t.cable("spine01", 30, "spine02", 30);
        assertThat(validate(t).tree()).singleElement().satisfies(i -> {
            assertThat(i.kind()).isEqualTo("intralevel");
            assertThat(i.summary()).isEqualTo("spine01 port 30 <-> spine02 port 30 connects two level-2 switches (spines)");
        });
    }

    /** 2 pods of 2 leaves ("l11".."l22", 2 hosts each) + 2 spines each, 2 cores; every spine has one uplink to each core. */
    private static TestFabrics twoPods() {
        TestFabrics t = new TestFabrics();
        for (String s : new String[] {"core1", "core2", "s11", "s12", "s21", "s22", "l11", "l12", "l21", "l22"}) t.sw(s);
        int n = 0;
        for (String pod : new String[] {"1", "2"}) {
            for (String l : new String[] {"l" + pod + "1", "l" + pod + "2"}) {
                for (int h = 1; h <= 2; h++) {
                    t.ca("n" + (++n) + " HCA-1");
                    t.cable(l, h, "n" + n + " HCA-1", 1);
                }
                t.cable(l, 17, "s" + pod + "1", l.endsWith("1") ? 1 : 2);
                t.cable(l, 18, "s" + pod + "2", l.endsWith("1") ? 1 : 2);
            }
            for (String s : new String[] {"s" + pod + "1", "s" + pod + "2"}) {
                t.cable(s, 17, "core1", Integer.parseInt(pod) * 10 + (s.endsWith("1") ? 1 : 2));
                t.cable(s, 18, "core2", Integer.parseInt(pod) * 10 + (s.endsWith("1") ? 1 : 2));
            }
        }
        return t;
    }

    @Test
    void aUnitWithoutHostsCabledBelowTheCoresSitsBelowThem() {
        // a third pod's spine and leaf are cabled (spine to both cores), its hosts not yet: counted from the hosts, the
        // spine would be a fourth level above the cores and its leaf a fifth
        TestFabrics t = twoPods();
        t.sw("s31");
        t.sw("l31");
        t.cable("s31", 17, "core1", 31);
        t.cable("s31", 18, "core2", 31);
        t.cable("l31", 17, "s31", 1);
        Fabric f = t.fabric();
        assertThat(f.byName("s31")).singleElement().satisfies(n -> assertThat(n.level()).isEqualTo(2));
        assertThat(f.byName("l31")).singleElement().satisfies(n -> assertThat(n.level()).isEqualTo(1));
        FatTree.Result r = validate(t);
        assertThat(r.levels()).isEqualTo(3);
        assertThat(r.tops()).extracting(Fabric.Node::name).containsExactlyInAnyOrder("core1", "core2");
        assertThat(r.tree()).extracting(Issue::kind).doesNotContain("unleveled", "unreachable_top", "intralevel");
    }

    @Test
    void managementLeavesOnSparePortsAreNotComputeLeavesThatLostCables() {
        // two management leaves ("mg1", "mg2"), 3 hosts on one cable each to spare ports of one spine: not compute
        // leaves that lost uplinks, and the spine carries them with every uplink its peers have
        TestFabrics t = twoPods();
        for (String pod : new String[] {"1", "2"}) {
            String mg = "mg" + pod;
            t.sw(mg);
            for (int h = 1; h <= 3; h++) {
                t.ca(mg + "n" + h + " HCA-1");
                t.cable(mg, h, mg + "n" + h + " HCA-1", 1);
            }
            t.cable(mg, 17, "s11", 2 + Integer.parseInt(pod));
        }
        // ibnetdiscover only, as in a real capture of such a fabric: with iblinkinfo, the free ports above the hosts
        // would be down ports where uplinks could have been, and the ratio a fault to look at
        FatTree.Result r = FatTree.validate(FabricBuilder.build(t.topology(), null, null), FatTree.Settings.defaults());
        assertThat(r.blocking()).extracting(Issue::kind).doesNotContain("uplinks_lost", "ratio");
        assertThat(r.blocking()).filteredOn(i -> i.kind().equals("ratio_design")).singleElement()
                .satisfies(i -> assertThat(i.objects()).containsExactlyInAnyOrder("mg1", "mg2"));
        assertThat(r.blocking()).filteredOn(i -> i.kind().equals("downlinks_extra")).singleElement().satisfies(i -> {
            assertThat(i.severe()).isFalse();
            assertThat(i.objects()).containsExactly("s11");
            assertThat(i.summary()).isEqualTo("s11: 4 downlinks over 2 uplinks, blocking 2:1 (allowed 1:1): 2 downlink(s) more than their peers (to mg1, mg2), with every uplink their peers have");
        });
        assertThat(r.tree()).as("hosts per leaf are compared among leaves named alike").isEmpty();
    }

    @Test
    void threeLevelTreeAndALeafCutFromACore() {
        TestFabrics t = twoPods();
        FatTree.Result ok = validate(t);
        assertThat(ok.levels()).isEqualTo(3);
        assertThat(ok.tops()).extracting(Fabric.Node::name).containsExactlyInAnyOrder("core1", "core2");
        assertThat(ok.tree()).isEmpty();
        assertThat(ok.blocking()).isEmpty();
        t.unplug("s21", 17);
        t.unplug("s22", 17);
        FatTree.Result cut = validate(t);
        // the leaves cut off the same core are one issue, listed under the spines that lost the cables
        assertThat(cut.tree()).singleElement().satisfies(i -> {
            assertThat(i.summary()).isEqualTo("2 leaves (l21, l22) have no up-path to core1 (each reaches 1 of 2 cores): s21, s22 on the way up lost uplinks");
            assertThat(i.vars()).containsEntry("lost_above", "s21");
        });
        // two cables lost, one per spine: each spine named with the port its peers use and it lacks (the core they
        // went to is reached by only half of the spines now, so it is not named)
        assertThat(cut.blocking()).extracting(Issue::kind).containsOnly("uplinks_lost");
        assertThat(cut.blocking()).extracting(Issue::summary).containsExactlyInAnyOrder(
                "s21 has 1 active uplinks, its peers 2: missing s21 port 17 (Down/Polling); blocking 2:1, allowed 1:1",
                "s22 has 1 active uplinks, its peers 2: missing s22 port 17 (Down/Polling); blocking 2:1, allowed 1:1");
    }

    @Test
    void noSubnetManagerEveryPortInInitIsStillAValidTree() {
        TestFabrics t = TestFabrics.fatTree(2, 4, 2, 4);
        for (TestFabrics.Cable c : t.cables) c.state = "Initialize";
        Fabric f = t.fabric();
        assertThat(f.links()).allSatisfy(l -> assertThat(l.isActive()).isFalse());
        assertThat(f.atLevel(2)).hasSize(2);
        FatTree.Result r = FatTree.validate(f, FatTree.Settings.defaults());
        assertThat(r.tree()).isEmpty();
        assertThat(r.blocking()).isEmpty();
    }

    @Test
    void twoLeavesBackToBackAreNotABrokenTree() {
        TestFabrics t = new TestFabrics();
        t.sw("left");
        t.sw("right");
        for (int h = 1; h <= 4; h++) {
            t.ca("a" + h + " HCA-1");
            t.cable("left", h, "a" + h + " HCA-1", 1);
            t.ca("b" + h + " HCA-1");
            t.cable("right", h, "b" + h + " HCA-1", 1);
        }
        for (int p = 33; p <= 36; p++) t.cable("left", p, "right", p);
        FatTree.Result r = validate(t);
        assertThat(r.levels()).isEqualTo(1);
        assertThat(r.tree()).isEmpty();
        assertThat(r.blocking()).isEmpty();
    }

    /** Leaves numbered as given, each with 4 hosts and 2 uplinks to each of 2 spines. */
    private static TestFabrics leavesNumbered(int... numbers) {
        TestFabrics t = new TestFabrics();
        t.sw("spine01");
        t.sw("spine02");
        int node = 1, i = 0;
        for (int n : numbers) {
            String leaf = String.format("leaf%02d", n);
            t.sw(leaf);
            for (int h = 1; h <= 4; h++) {
                String ca = String.format("node%02d HCA-1", node++);
                t.ca(ca);
                t.cable(leaf, h, ca, 1);
            }
            for (int s = 1; s <= 2; s++)
                for (int k = 0; k < 2; k++) t.cable(leaf, 17 + (s - 1) * 2 + k, String.format("spine%02d", s), i * 2 + k + 1);
            i++;
        }
        return t;
    }

    /** leaf03 missing between leaf02 and leaf04 below the same spines is named; a jump in the numbering is no gap. */
    @Test
    void aLeafMissingFromARunOfNamesIsAbsent() {
        assertThat(validate(leavesNumbered(1, 2, 4, 5)).tree()).singleElement().satisfies(i -> {
            assertThat(i.kind()).isEqualTo("leaf_absent");
            assertThat(i.objects()).containsExactly("leaf03");
        });
        assertThat(validate(leavesNumbered(1, 2, 3, 4, 10)).tree()).isEmpty();
        // with a cabling plan, the plan names absent switches: no guess from names
        TestFabrics t = leavesNumbered(1, 2, 4, 5);
        assertThat(FatTree.validate(t.fabric(), new FatTree.Settings(0, 1.0, 1, new CablingPlan("plan.csv", java.util.List.of(), java.util.List.of()))).tree()).isEmpty();
    }
}
