package io.ibaccept.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.PortInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one speed parser every tool's spelling goes through. */
class SpeedParsingTest {
    @Test
    void everySpellingTheToolsPrint() {
        assertThat(LinkSpeed.parse("40 (FDR10)")).contains(LinkSpeed.FDR10);          // ibstat
        assertThat(LinkSpeed.parse("10.0 Gbps (FDR10)")).contains(LinkSpeed.FDR10);   // iblinkinfo
        assertThat(LinkSpeed.parse("56 Gb/sec (4X FDR)")).contains(LinkSpeed.FDR);    // ibstatus
        assertThat(LinkSpeed.parse("100 Gb/sec (2X HDR)")).contains(LinkSpeed.HDR);
        assertThat(LinkSpeed.parse("IB-HDR")).contains(LinkSpeed.HDR);                // mlxlink
        assertThat(LinkSpeed.parse("HDR100")).contains(LinkSpeed.HDR);                // HDR on 2X
        assertThat(LinkSpeed.parse("53.125 Gbps")).contains(LinkSpeed.HDR);           // PortInfo / iblinkinfo
        assertThat(LinkSpeed.parse("14.0625 Gbps")).contains(LinkSpeed.FDR);
        assertThat(LinkSpeed.parse("10.0 Gbps")).contains(LinkSpeed.QDR);             // standard PortInfo, FDR10 included
        assertThat(LinkSpeed.parse("NDR")).contains(LinkSpeed.NDR);                   // ibnetdiscover "4xNDR"
        assertThat(LinkSpeed.parse("Extended speed")).isEmpty();
        assertThat(LinkSpeed.parse("100G")).isEmpty();                                // Ethernet
        assertThat(LinkSpeed.parse("1e999 Gbps")).isEmpty();
        assertThat(LinkSpeed.parse("(((")).isEmpty();
    }

    @Test
    void fdr10FromIbstatWinsOverAmbiguousPortInfo() {
        PortInfo pi = SmpqueryParser.portInfo(new Text("p", "# Port info: Lid 7 port 1\nLinkState:.......................Active\n"
                + "LinkWidthActive:.................4X\nLinkSpeedActive:.................10.0 Gbps\n"));
        assertThat(pi.speed()).isEqualTo(LinkSpeed.QDR);
        assertThat(pi.speedAmbiguous()).isTrue();
        List<Ibstat.Ca> cas = IbstatParser.parse(new Text("i", "CA 'mlx4_0'\n\tCA type: MT4099\n\tNumber of ports: 1\n\tPort 1:\n"
                + "\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: 40 (FDR10)\n\t\tLink layer: InfiniBand\n"));
        HostData h = new HostData("h", cas, pi, null, null, null, null, null, null, null, null, null, null, null);
        assertThat(h.activeSpeed()).contains(LinkSpeed.FDR10);
        HostData qdr = new HostData("h", List.of(), pi, null, null, null, null, null, null, null, null, null, null, null);
        assertThat(qdr.activeSpeed()).contains(LinkSpeed.QDR);
    }

    @Test
    void ibstatRateForms() {
        List<Ibstat.Ca> cas = IbstatParser.parse(new Text("i", "CA 'mlx4_0'\n\tPort 1:\n\t\tState: Active\n\t\tRate: 2.5\n"));
        assertThat(cas.get(0).ports().get(0).rate()).isEqualTo(2);
        Parsed<List<Ibstat.Ca>> bad = Parsing.run(new Text("i", "CA 'mlx4_0'\n\tPort 1:\n\t\tState: Active\n\t\tRate: fast\n"
                + "CA 'mlx4_1'\n\tPort 1:\n\t\tState: Active\n\t\tRate: 56\n"), IbstatParser::parse);
        // one bad field: one problem at its line, both CAs kept
        assertThat(bad.issues()).singleElement().satisfies(e -> assertThat(e.where().line()).isEqualTo(4));
        assertThat(bad.value()).hasSize(2);
        assertThat(bad.value().get(1).ports().get(0).rate()).isEqualTo(56);
    }
}
