package io.ibaccept.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.fabric.Fabric.LinkClass;
import io.ibaccept.fabric.Fabric.Role;
import io.ibaccept.model.Topology;
import io.ibaccept.parse.IblinkinfoParser;
import io.ibaccept.parse.IbnetdiscoverParser;
import io.ibaccept.parse.Issues;
import io.ibaccept.parse.RealSamplesTest;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The role of every node and the class of every cable, read once by the fabric model from real whole-fabric captures
 * (sources in src/test/resources/real/SOURCES.md).
 */
class FabricRolesTest {
    static Fabric topology(String file) {
        Topology t = IbnetdiscoverParser.parse(RealSamplesTest.real("ibnetdiscover/" + file), Issues.collecting());
        return FabricBuilder.build(t, null, null);
    }

    /**
     * An NDR SuperPOD: every Quantum-2 switch carries its SHARP aggregation node on port 65. They are no hosts and
     * make no switch a leaf: the tree is 2 levels with every switch placed.
     */
    @Test
    void sharpAggregationNodesBelongToTheirSwitchesAndMakeNoLeaf() {
        Fabric f = topology("topograph-ndr-superpod-40sw-582ca.txt");
        List<Fabric.Node> ans = f.aggregationNodes();
        assertThat(ans).hasSize(f.switches().size()).allSatisfy(an -> {
            assertThat(an.isHost()).isFalse();
            assertThat(f.linksOf(an.guid())).singleElement().satisfies(l -> {
                assertThat(f.linkClass(l)).isEqualTo(LinkClass.AGGREGATION);
                assertThat(l.endAt(an.guid() == l.a().guid() ? l.b().guid() : l.a().guid()).port()).isEqualTo(65);
            });
        });
        // the UFM appliance's two CAs ("B11-P1-CUFM-02 mlx5_0", "... mlx5_1") are no hosts either
        assertThat(f.appliances()).extracting(Fabric.Node::name).containsExactlyInAnyOrder("B11-P1-CUFM-02 mlx5_0", "B11-P1-CUFM-02 mlx5_1");
        assertThat(f.hosts()).hasSize(f.cas().size() - ans.size() - 2).allSatisfy(h -> assertThat(h.role()).isEqualTo(Role.HOST));
        assertThat(f.switches()).allSatisfy(s -> assertThat(s.level()).as(s.name()).isBetween(1, 2));
        Map<Integer, Long> perLevel = f.switches().stream().collect(Collectors.groupingBy(Fabric.Node::level, Collectors.counting()));
        assertThat(perLevel.get(2)).isEqualTo(9); // the spines
        assertThat(FatTree.validate(f, FatTree.Settings.defaults()).tree()).noneMatch(i -> i.kind().equals("unleveled") || i.kind().equals("host_on_spine"));
    }

    /** The standalone SwitchIB switches of an EDR cluster print their own sysimgguid: no switch is part of a chassis. */
    @Test
    void standaloneSwitchesAreTheirOwnSystems() {
        Topology t = IbnetdiscoverParser.parse(RealSamplesTest.real("ibnetdiscover/clustervision-trinityx-edr-6sw-96ca.txt"));
        assertThat(t.switches()).allSatisfy(s -> assertThat(s.sysImageGuid()).isNotZero());
        Fabric f = FabricBuilder.build(t, null, null);
        assertThat(f.switches()).hasSize(6).noneMatch(Fabric.Node::inChassis);
        assertThat(f.links()).allSatisfy(l -> assertThat(f.linkClass(l)).isIn(LinkClass.HOST, LinkClass.SWITCH_TO_SWITCH));
        assertThat(f.hosts()).hasSize(96);
    }

    /** A cable from a switch back to itself is a loopback, not a link of the tree. */
    @Test
    void loopedCablesAreLoopbacks() {
        Fabric f = topology("nvidia-kb-ibdiagpath-switchib-sx6012-loopback-cables.txt");
        List<Fabric.Link> loops = f.links().stream().filter(l -> f.linkClass(l) == LinkClass.LOOPBACK).toList();
        assertThat(loops).isNotEmpty().allSatisfy(l -> assertThat(l.a().guid()).isEqualTo(l.b().guid()));
        assertThat(loops).noneMatch(f::isSwitchToSwitch);
    }

    /** iblinkinfo of a single HDR switch: its aggregation node on port 41 is no host. */
    @Test
    void aggregationNodeInIblinkinfoIsNoHost() {
        Fabric f = FabricBuilder.build(null, IblinkinfoParser.parse(RealSamplesTest.real("iblinkinfo/cn-sharp-notes-hdr-quantum-21hosts.txt"),
                Issues.collecting()), null);
        assertThat(f.aggregationNodes()).singleElement().satisfies(an -> assertThat(f.linksOf(an.guid())).singleElement()
                .satisfies(l -> assertThat(f.linkClass(l)).isEqualTo(LinkClass.AGGREGATION)));
        assertThat(f.hosts()).hasSize(21);
        assertThat(f.switches()).singleElement().satisfies(s -> assertThat(s.level()).isEqualTo(1));
    }

    /** Two ASICs printing one system image GUID are one chassis: the cable between them is its backplane. */
    @Test
    void asicsSharingASystemImageAreOneChassis() {
        String text = String.join("\n",
                "sysimgguid=0x0002c90200400000",
                "switchguid=0x0002c90200400001(2c90200400001)",
                "Switch\t36 \"S-0002c90200400001\"\t\t# \"MF0;core01:CS7500/L01/U1\" enhanced port 0 lid 2 lmc 0",
                "[1]\t\"S-0002c90200400002\"[1]\t\t# \"MF0;core01:CS7500/S01/U1\" lid 3 4xEDR",
                "[2]\t\"S-0002c90200400009\"[1]\t\t# \"leaf01\" lid 9 4xEDR",
                "",
                "sysimgguid=0x0002c90200400000",
                "switchguid=0x0002c90200400002(2c90200400002)",
                "Switch\t36 \"S-0002c90200400002\"\t\t# \"MF0;core01:CS7500/S01/U1\" enhanced port 0 lid 3 lmc 0",
                "[1]\t\"S-0002c90200400001\"[1]\t\t# \"MF0;core01:CS7500/L01/U1\" lid 2 4xEDR",
                "",
                "sysimgguid=0x0002c90200400009",
                "switchguid=0x0002c90200400009(2c90200400009)",
                "Switch\t36 \"S-0002c90200400009\"\t\t# \"leaf01\" enhanced port 0 lid 9 lmc 0",
                "[1]\t\"S-0002c90200400001\"[2]\t\t# \"MF0;core01:CS7500/L01/U1\" lid 2 4xEDR",
                "");
        Fabric f = FabricBuilder.build(IbnetdiscoverParser.parse(new io.ibaccept.parse.Text("fabric/ibnetdiscover.out", text)), null, null);
        assertThat(f.switches()).filteredOn(Fabric.Node::inChassis).extracting(Fabric.Node::system).containsOnly(0x0002c90200400000L).hasSize(2);
        assertThat(f.node(0x0002c90200400009L).inChassis()).isFalse();
        assertThat(f.links()).extracting(f::linkClass).containsExactlyInAnyOrder(LinkClass.CHASSIS_INTERNAL, LinkClass.SWITCH_TO_SWITCH);
        // where a picture has little room a cable names its switches as people do, in the same order
        Fabric.Link up = f.links().stream().filter(l -> f.linkClass(l) == LinkClass.SWITCH_TO_SWITCH).findFirst().orElseThrow();
        assertThat(f.name(up)).isEqualTo("MF0;core01:CS7500/L01/U1 port 2 <-> leaf01 port 1");
        assertThat(f.shortName(up)).isEqualTo("core01 port 2 <-> leaf01 port 1");
    }

    /**
     * Selene's storage fabric: 3 levels (leaves SLG, spines SSPINE, cores SCORE). Below the cores the switches fall into
     * scalable units (the leaves and the spines they share); the cores form one group of their own.
     */
    @Test
    void scalableUnitsAreGroupsBelowTheTopLevel() {
        Fabric f = topology("ufm-sdk-selene-storage-hdr-160sw-1247ca.txt");
        assertThat(f.maxLevel()).isEqualTo(3);
        Map<Integer, List<Fabric.Node>> byGroup = f.switches().stream().filter(s -> s.level() >= 1)
                .collect(Collectors.groupingBy(Fabric.Node::group));
        List<Fabric.Node> cores = f.atLevel(3);
        assertThat(cores).extracting(Fabric.Node::group).containsOnly(cores.get(0).group());
        assertThat(byGroup.get(cores.get(0).group())).allSatisfy(s -> assertThat(s.level()).isEqualTo(3));
        long units = byGroup.keySet().stream().filter(g -> g != cores.get(0).group()).count();
        assertThat(units).isGreaterThan(1);
        // every leaf reaches spines of its own unit only
        for (Fabric.Node leaf : f.atLevel(1))
            for (Fabric.Link l : f.linksOf(leaf.guid()))
                if (f.linkClass(l) == LinkClass.SWITCH_TO_SWITCH)
                    assertThat(f.node(l.other(l.endAt(leaf.guid())).guid()).group()).as(leaf.name()).isEqualTo(leaf.group());
    }

    /** Two hosts cabled back to back without a switch: one host-to-host cable, no switch, no level. */
    @Test
    void backToBackHostsAreOneHostToHostCable() {
        Fabric f = FabricBuilder.build(null, IblinkinfoParser.parse(RealSamplesTest.real("iblinkinfo/cn-toolnotes-edr-back-to-back.txt"),
                Issues.strict()), null);
        assertThat(f.switches()).isEmpty();
        assertThat(f.hosts()).hasSize(2);
        assertThat(f.links()).singleElement().satisfies(l -> {
            assertThat(f.linkClass(l)).isEqualTo(LinkClass.HOST_TO_HOST);
            assertThat(l.isActive()).isTrue();
        });
    }

    /**
     * ibnetdiscover of two hosts back to back: each CA's port line carries its own port GUID and, after a space, the
     * remote CA's (the layout of out_ca_port in rdma-core's ibnetdiscover.c: "[%d](%PRIx64) \t%s[%d] (%PRIx64) \t\t# lid
     * %d lmc %d ..."). Read without a problem, as one host-to-host cable.
     */
    @Test
    void backToBackHostsInIbnetdiscover() {
        String text = String.join("\n",
                "vendid=0x2c9", "devid=0x1013", "sysimgguid=0x2c90300212110", "caguid=0x2c90300212110",
                "Ca\t1 \"H-0002c90300212110\"\t\t# \"m02 HCA-1\"",
                "[1](2c90300212111) \t\"H-0000000000000120\"[1] (123) \t\t# lid 1 lmc 0 \"m01 HCA-3\" lid 2 4xEDR",
                "",
                "vendid=0x2c9", "devid=0x1013", "sysimgguid=0x120", "caguid=0x120",
                "Ca\t1 \"H-0000000000000120\"\t\t# \"m01 HCA-3\"",
                "[1](123) \t\"H-0002c90300212110\"[1] (2c90300212111) \t\t# lid 2 lmc 0 \"m02 HCA-1\" lid 1 4xEDR", "");
        Topology t = IbnetdiscoverParser.parse(new io.ibaccept.parse.Text("fabric/ibnetdiscover.out", text));
        assertThat(t.nodes()).hasSize(2).allSatisfy(n -> assertThat(n.ports()).singleElement()
                .satisfies(p -> assertThat(p.remoteGuid()).isIn(0x120L, 0x2c90300212110L)));
        Fabric f = FabricBuilder.build(t, null, null);
        assertThat(f.links()).singleElement().satisfies(l -> assertThat(f.linkClass(l)).isEqualTo(LinkClass.HOST_TO_HOST));
    }
}
