package io.ibaccept.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.parse.IblinkinfoParser;
import io.ibaccept.parse.IbnetdiscoverParser;
import io.ibaccept.parse.Text;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class FabricTest {
    static final Path DEMO = Path.of("..", "sample-dumps", "dumps", "demo-hdr16", "fabric");

    static Text text(Path p, String name) throws IOException {
        return new Text(name, Files.readString(p));
    }

    static Fabric demo(NodeNameMap map) throws IOException {
        return FabricBuilder.build(IbnetdiscoverParser.parse(text(DEMO.resolve("ibnetdiscover.out"), "fabric/ibnetdiscover.out")),
                IblinkinfoParser.parse(text(DEMO.resolve("iblinkinfo.out"), "fabric/iblinkinfo.out")), map);
    }

    @Test
    void theHostOfADescriptionIsItsFirstWordWhateverTheBlanksAroundIt() {
        assertThat(Fabric.hostPart("node07 HCA-1")).isEqualTo("node07");
        assertThat(Fabric.hostPart("  node07\tmlx5_0")).isEqualTo("node07");
        assertThat(Fabric.hostPart("node07")).isEqualTo("node07");
        assertThat(Fabric.hostPart("   ")).isEmpty();
        assertThat(Fabric.hostPart(null)).isEmpty();
    }

    @Test
    void demoDumpLevelsLinksAndNames() throws IOException {
        Fabric f = demo(null);
        assertThat(f.switches()).hasSize(6);
        assertThat(f.cas()).hasSize(15); // node16 was unplugged when the dump was captured
        assertThat(f.atLevel(1)).extracting(Fabric.Node::name).containsExactlyInAnyOrder("leaf01", "leaf02", "leaf03", "leaf04");
        assertThat(f.atLevel(2)).extracting(Fabric.Node::name).containsExactlyInAnyOrder("spine01", "spine02");
        assertThat(f.maxLevel()).isEqualTo(2);
        // 15 host cables + 4 leaves x 4 uplinks, each seen once although both tools print both ends
        assertThat(f.links()).hasSize(31);
        assertThat(f.links()).filteredOn(f::isSwitchToSwitch).hasSize(16).allSatisfy(l -> {
            assertThat(l.state()).isEqualTo("Active");
            assertThat(l.refs()).hasSize(4); // both ends in ibnetdiscover and in iblinkinfo
        });
        Fabric.Link node06 = f.linksOf(0x10000aL).get(0);
        assertThat(node06.width()).isEqualTo(LinkWidth.X1);
        assertThat(f.name(node06)).isEqualTo("node06 HCA-1 port 1 <-> leaf02 port 2");
        Fabric.Link node11 = f.linksOf(0x100014L).get(0);
        assertThat(node11.speed()).isEqualTo(LinkSpeed.EDR);
        assertThat(f.downPortsOf(0x200005L)).extracting(p -> p.end().port()).contains(4).doesNotContain(1, 17);
        assertThat(f.notes()).isEmpty();

        FatTree.Result r = FatTree.validate(f, FatTree.Settings.defaults());
        assertThat(r.tree()).isEmpty();
        assertThat(r.blocking()).isEmpty();
        // the smallest level is the hosts (13 x 200 + 1 x 50 (1X) + 1 x 100 (EDR)) = 2750 Gb/s; half of it
        assertThat(r.bisectionGbps()).isEqualTo(1375.0);
    }

    @Test
    void nodeNameMapRenamesSwitchesByGuid() throws IOException {
        NodeNameMap map = NodeNameMap.parse(new Text("node-name-map", """
                # generated from the cabling database
                0x0000000000200004 "rack3-leaf03"
                0x200000   "rack9-spine01"   # comment after the name
                0xZZZ "broken"
                """));
        assertThat(map.problems()).singleElement().satisfies(p -> assertThat(p.ref().toString()).isEqualTo("node-name-map:4"));
        Fabric f = demo(map);
        assertThat(f.name(new Fabric.End(0x200004L, 17))).isEqualTo("rack3-leaf03 port 17");
        assertThat(f.byName("rack9-spine01")).singleElement().satisfies(n -> assertThat(n.description()).isEqualTo("spine01"));
        assertThat(f.byName("spine01")).hasSize(1);
    }

    @Test
    void realIblinkinfoAloneSingleSwitchWithFourHosts() throws IOException {
        Path p = Path.of("src/test/resources/fabric/iblinkinfo-real-qdr-infiniscale-iv.out");
        Fabric f = FabricBuilder.build(null, IblinkinfoParser.parse(text(p, "fabric/iblinkinfo.out")), null);
        assertThat(f.switches()).singleElement().satisfies(s -> {
            assertThat(s.name()).isEqualTo("Infiniscale-IV Mellanox Technologies");
            assertThat(s.level()).isEqualTo(1);
        });
        assertThat(f.cas()).extracting(Fabric.Node::name).containsExactlyInAnyOrder("centos-data-200 HCA-1", "centos-data-201 HCA-1",
                "centos-data-202 HCA-1", "kube-node-100 HCA-1");
        assertThat(f.links()).hasSize(4).allSatisfy(l -> assertThat(l.speed()).isEqualTo(LinkSpeed.QDR));
        assertThat(f.downPorts()).hasSize(32);
        assertThat(f.notes()).isEmpty();
        FatTree.Result r = FatTree.validate(f, FatTree.Settings.defaults());
        assertThat(r.tree()).isEmpty();
        assertThat(r.blocking()).isEmpty();
    }

    @Test
    void ibnetdiscoverAloneHasLinksWithoutState() throws IOException {
        Fabric f = FabricBuilder.build(IbnetdiscoverParser.parse(text(DEMO.resolve("ibnetdiscover.out"), "fabric/ibnetdiscover.out")), null, null);
        assertThat(f.links()).hasSize(31).allSatisfy(l -> assertThat(l.isActive()).isTrue());
        assertThat(f.downPorts()).isEmpty();
        assertThat(f.atLevel(2)).hasSize(2);
    }
}
