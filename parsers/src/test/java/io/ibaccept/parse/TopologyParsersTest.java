package io.ibaccept.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.model.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyParsersTest {
    @Test
    void ibnetdiscoverFatTree() {
        Topology topo = IbnetdiscoverParser.parse(Fixtures.load("sim/ibnetdiscover.out"));
        assertThat(topo.nodes()).filteredOn(n -> n.type() == Topology.NodeType.SWITCH).hasSize(6);
        // node16 was unlinked before the capture, so 15 CAs remain reachable
        assertThat(topo.nodes()).filteredOn(n -> n.type() == Topology.NodeType.CA).hasSize(15);
        Topology.Node leaf04 = topo.nodes().stream().filter(n -> n.description().equals("leaf04")).findFirst().orElseThrow();
        assertThat(leaf04.guid()).isEqualTo(0x200005L);
        assertThat(leaf04.lid()).isEqualTo(9);
        Topology.Port p1 = leaf04.ports().get(0);
        assertThat(p1.remoteDescription()).isEqualTo("node13 HCA-1");
        assertThat(p1.width()).isEqualTo(LinkWidth.X4);
        assertThat(p1.speed()).isEqualTo(LinkSpeed.HDR);
        Topology.Node ca = topo.nodes().stream().filter(n -> n.description().equals("node06 HCA-1")).findFirst().orElseThrow();
        Topology.Port cp = ca.ports().get(0);
        assertThat(cp.lid()).isEqualTo(12);
        assertThat(cp.portGuid()).isEqualTo(0x10000bL);
        assertThat(cp.remoteDescription()).isEqualTo("leaf02");
        assertThat(cp.remoteLid()).isEqualTo(6);
        assertThat(cp.width()).isEqualTo(LinkWidth.X1);
    }

    @Test
    void ibnetdiscoverDescriptionWithEqualsSign() {
        String s = "vendid=0x2c9\nswitchguid=0x200005(200005)\nSwitch\t36 \"S-0000000000200005\"\t\t# \"rack=3 leaf\" base port 0 lid 9 lmc 0\n"
                + "[1]\t\"H-0000000000100018\"[1](100019) \t\t# \"node13 HCA-1\" lid 19 4xHDR\n"
                + "\nCa\t1 \"H-0000000000100018\"\t\t# \"node13 HCA-1\"\n"
                + "[1](100019) \t\"S-0000000000200005\"[1]\t\t# lid 19 lmc 0 \"rack=3 leaf\" lid 9 4xHDR\n";
        Topology t = IbnetdiscoverParser.parse(new Text("t", s));
        assertThat(t.nodes()).hasSize(2).first().satisfies(n -> {
            assertThat(n.description()).isEqualTo("rack=3 leaf");
            assertThat(n.ref().line()).isEqualTo(3);
        });
    }

    @Test
    void anIbnetdiscoverOutputCutBeforeItsCaRecordsIsOneIssueAtItsEnd() {
        String s = "Switch\t36 \"S-0000000000200005\"\t\t# \"leaf04\" base port 0 lid 9 lmc 0\n"
                + "[1]\t\"H-0000000000100018\"[1](100019) \t\t# \"node13 HCA-1\" lid 19 4xHDR\n"
                + "[2]\t\"H-000000000010001a\"[1](10001b) \t\t# \"node14 HCA-1\" lid 20 4xHDR\n\nvendid=0x2c9\n";
        Issues issues = Issues.collecting();
        Topology t = IbnetdiscoverParser.parse(new Text("fabric/ibnetdiscover.out", s), issues);
        assertThat(t.nodes()).hasSize(1); // the switch is kept
        assertThat(issues.list()).singleElement().satisfies(e -> assertThat(e.getMessage())
                .isEqualTo("fabric/ibnetdiscover.out:5: the output stops before the records of 2 node(s) it names as port peers"
                        + " (e.g. \"node13 HCA-1\"): it was cut (collection interrupted, disk full or file truncated), and those nodes"
                        + " are missing from the file, not from the fabric"));
    }

    @Test
    void ibnetdiscoverGarbageLine() {
        String s = "Switch\t36 \"S-0000000000200005\"\t\t# \"leaf04\" base port 0 lid 9 lmc 0\n[1]\t\"H-0000000000100018\"[1](100019) \t\t# \"node13 HCA-1\" lid 19 4xHDR\n[2] garbage\n";
        assertThatThrownBy(() -> IbnetdiscoverParser.parse(new Text("fabric/ibnetdiscover.out", s)))
                .hasMessage("fabric/ibnetdiscover.out:3: unrecognised ibnetdiscover line (expected the remote node id in quotes): '[2] garbage'");
    }

    @Test
    void ibnetdiscoverUnknownRate() {
        String s = "Switch\t36 \"S-0000000000200005\"\t\t# \"leaf04\" base port 0 lid 9 lmc 0\n[1]\t\"H-0000000000100018\"[1](100019) \t\t# \"node13 HCA-1\" lid 19 4xZDR\n";
        assertThatThrownBy(() -> IbnetdiscoverParser.parse(new Text("t", s))).hasMessage("t:2: unknown link rate '4xZDR'");
    }

    @Test
    void iblinkinfoStatesWidthsAndDownPorts() {
        List<LinkInfo> links = IblinkinfoParser.parse(Fixtures.load("sim/iblinkinfo.out"));
        LinkInfo oneX = links.stream().filter(l -> l.switchNode() && l.remoteName().equals("node06 HCA-1")).findFirst().orElseThrow();
        assertThat(oneX.width()).isEqualTo(LinkWidth.X1);
        assertThat(oneX.speed()).isEqualTo(LinkSpeed.HDR);
        assertThat(oneX.nodeName()).isEqualTo("leaf02");
        assertThat(oneX.lid()).isEqualTo(6);
        assertThat(oneX.port()).isEqualTo(2);
        assertThat(oneX.remoteLid()).isEqualTo(12);
        LinkInfo down = links.stream().filter(l -> l.nodeName().equals("leaf04") && l.port() == 4).findFirst().orElseThrow();
        assertThat(down.state()).isEqualTo("Down");
        assertThat(down.physState()).isEqualTo("Polling");
        assertThat(down.width()).isNull();
        assertThat(down.isConnected()).isFalse();
        LinkInfo caSide = links.stream().filter(l -> !l.switchNode() && l.nodeName().equals("node06 HCA-1")).findFirst().orElseThrow();
        assertThat(caSide.nodeGuid()).isEqualTo(0x10000bL);
        assertThat(caSide.remoteName()).isEqualTo("leaf02");
    }

    /**
     * Ports in Init, as iblinkinfo printed them on ibsim before any SM ran (the first two lines, verbatim); the third is
     * the same port when PortInfo gives no active width nor speed: libibmad's mad_dump_linkwidth prints "undefined (0)"
     * and mad_dump_linkspeed "Extended speed", in iblinkinfo's "(%3s %18s %6s/%8s)". Read, with no width or speed, never
     * an unreadable line.
     */
    @Test
    void iblinkinfoPortsInInitWithAndWithoutAWidth() {
        String s = "Switch: 0x0000000000200000 switch01:\n"
                + "           0    1[  ] ==( 4X        53.125 Gbps Initialize/  LinkUp)==>       0    1[  ] \"node01 HCA-1\" (Could be 12X )\n"
                + "           0    5[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )\n"
                + "           0    2[  ] ==(undefined (0)     Extended speed Initialize/  LinkUp)==>       0    1[  ] \"node02 HCA-1\" ( )\n";
        Issues issues = Issues.collecting();
        List<LinkInfo> l = IblinkinfoParser.parse(new Text("fabric/iblinkinfo.out", s), issues);
        assertThat(issues.list()).isEmpty();
        assertThat(l).hasSize(3);
        assertThat(l.get(0).width()).isEqualTo(LinkWidth.X4);
        assertThat(l.get(0).state()).isEqualTo("Initialize");
        assertThat(l.get(2).width()).isNull();
        assertThat(l.get(2).speed()).isNull();
        assertThat(l.get(2).state()).isEqualTo("Initialize");
        assertThat(l.get(2).remoteName()).isEqualTo("node02 HCA-1");
    }

    @Test
    void iblinkinfoFdr10AndPortNotAvailable() {
        String s = "Switch: 0x0002c903004a1b20 sx6036-leaf1:\n"
                + "           3    1[  ] ==( 4X   10.0 Gbps (FDR10) Active/  LinkUp)==>      11    1[  ] \"cn01 HCA-1\" ( )\n"
                + "           3    2[  ] ==( 4X        10.0 Gbps Active/  LinkUp)==>      12    1[  ] \"cn02 HCA-1\" ( Could be FDR10 (Found link at QDR but expected speed is FDR10))\n"
                + "           3    3[  ] ==( 4X      14.0625 Gbps   Init/  LinkUp)==>    \"Port not available\"\n";
        List<LinkInfo> l = IblinkinfoParser.parse(new Text("fabric/iblinkinfo.out", s));
        assertThat(l.get(0).speed()).isEqualTo(LinkSpeed.FDR10);
        assertThat(l.get(1).speed()).isEqualTo(LinkSpeed.QDR);
        assertThat(l.get(1).couldBe()).startsWith("Could be FDR10");
        assertThat(l.get(2).state()).isEqualTo("Init");
        assertThat(l.get(2).speed()).isEqualTo(LinkSpeed.FDR);
        assertThat(l.get(2).isConnected()).isFalse();
        assertThat(l.get(2).remoteName()).isEmpty();
    }

    @Test
    void iblinkinfoTruncatedMidLine() {
        String s = "Switch: 0x0000000000200005 leaf04:\n           9    1[  ] ==( 4X        53.125 Gbps Act";
        assertThatThrownBy(() -> IblinkinfoParser.parse(new Text("fabric/iblinkinfo.out", s)))
                .hasMessageStartingWith("fabric/iblinkinfo.out:2: unrecognised iblinkinfo line");
    }
}
