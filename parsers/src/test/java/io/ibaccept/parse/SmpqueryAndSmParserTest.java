package io.ibaccept.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.model.NodeInfo;
import io.ibaccept.model.PortInfo;
import io.ibaccept.model.SmInfo;
import io.ibaccept.model.SmPort;
import java.util.List;
import org.junit.jupiter.api.Test;

class SmpqueryAndSmParserTest {
    @Test
    void portInfoOfOneXPort() {
        PortInfo pi = SmpqueryParser.portInfo(Fixtures.load("sim/smpquery-portinfo-1x.out"));
        assertThat(pi.lid()).isEqualTo(12);
        assertThat(pi.smLid()).isEqualTo(1);
        assertThat(pi.linkWidthActive()).isEqualTo(LinkWidth.X1);
        assertThat(pi.linkWidthEnabled()).isEqualTo("1X");
        assertThat(pi.speed()).isEqualTo(LinkSpeed.HDR);
        assertThat(pi.linkState()).isEqualTo("Active");
        assertThat(pi.physLinkState()).isEqualTo("LinkUp");
        assertThat(pi.neighborMtu()).isEqualTo(2048);
        assertThat(pi.mtuCap()).isEqualTo(2048);
    }

    @Test
    void portInfoWithoutExtendedSpeedUsesLinkSpeedActive() {
        String s = "# Port info: Lid 5 port 1\nLid:.............................5\nLinkWidthActive:.................4X\n"
                + "LinkSpeedActive:.................10.0 Gbps\nLinkState:.......................Active\n"
                + "LinkSpeedExtActive:..............No Extended Speed\n";
        PortInfo pi = SmpqueryParser.portInfo(new Text("p", s));
        assertThat(pi.speed()).isEqualTo(LinkSpeed.QDR);
    }

    @Test
    void usableWidthIsTheWidestBothSupportedAndEnabled() {
        String head = "# Port info: Lid 5 port 1\nLid:.............................5\nLinkState:.......................Active\n";
        PortInfo hdr100 = SmpqueryParser.portInfo(new Text("p", head + "LinkWidthEnabled:................1X or 2X\n"
                + "LinkWidthSupported:..............1X or 2X or 4X\n"));
        assertThat(hdr100.supportedWidths()).containsExactlyInAnyOrder(LinkWidth.X1, LinkWidth.X2, LinkWidth.X4);
        assertThat(hdr100.maxUsableWidth()).isEqualTo(LinkWidth.X2);
        PortInfo comma = SmpqueryParser.portInfo(new Text("p", head + "LinkWidthSupported:..............1X, 4X\n"));
        assertThat(comma.maxUsableWidth()).isEqualTo(LinkWidth.X4);
        PortInfo none = SmpqueryParser.portInfo(new Text("p", head));
        assertThat(none.maxUsableWidth()).isNull();
    }

    @Test
    void portInfoBadNumberNamesLine() {
        String s = "# Port info\nLid:.............................x12\nLinkState:.......................Active\n";
        assertThatThrownBy(() -> SmpqueryParser.portInfo(new Text("nodes/n1/smpquery-portinfo.out", s)))
                .hasMessage("nodes/n1/smpquery-portinfo.out:2: expected an integer, found 'x12'");
    }

    @Test
    void pkeysAndNodeInfo() {
        assertThat(SmpqueryParser.pkeys(Fixtures.load("sim/smpquery-pkeys.out"))).containsExactly(0xffff);
        assertThat(SmpqueryParser.pkeys(new Text("p", "   0: 0xffff 0x8001 0x0000 0x0002\n"))).containsExactly(0x0002, 0x8001, 0xffff);
        assertThatThrownBy(() -> SmpqueryParser.pkeys(new Text("p", "   0: 0xffff 0x80\n")))
                .hasMessageStartingWith("p:1: expected a P_Key table row");
        NodeInfo ni = SmpqueryParser.nodeInfo(Fixtures.load("sim/smpquery-nodeinfo.out"));
        assertThat(ni.nodeType()).isEqualTo("Channel Adapter");
        assertThat(ni.guid()).isEqualTo(0x100004L);
        assertThat(ni.numPorts()).isEqualTo(1);
    }

    @Test
    void sminfoAndSaquery() {
        List<SmInfo> sms = SmParser.sminfo(Fixtures.load("sim/sminfo.out"));
        assertThat(sms).hasSize(1);
        assertThat(sms.get(0).lid()).isEqualTo(1);
        assertThat(sms.get(0).priority()).isEqualTo(14);
        assertThat(sms.get(0).isMaster()).isTrue();
        List<SmPort> ports = SmParser.saquerySm(Fixtures.load("sim/saquery-s.out"));
        assertThat(ports).hasSize(1);
        assertThat(ports.get(0).endPortLid()).isEqualTo(1);
        assertThat(ports.get(0).smDisabled()).isFalse();
        assertThatThrownBy(() -> SmParser.sminfo(new Text("fabric/sminfo.out", "sminfo: iberror: failed: query\n")))
                .hasMessage("fabric/sminfo.out:1: unrecognised sminfo line: 'sminfo: iberror: failed: query'");
    }
}
