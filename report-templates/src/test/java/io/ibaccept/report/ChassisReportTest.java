package io.ibaccept.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.analysis.Analysis;
import io.ibaccept.dump.DumpLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two ASICs printing one system image GUID are one chassis switch in the report: a "chassis" inventory row that its
 * ASICs name, one box in the fabric picture with its backplane problem on it, no backplane line drawn as a cable.
 */
class ChassisReportTest {
    @Test
    void aChassisIsOneSystemInTheInventoryAndOneBoxInThePicture(@TempDir Path tmp) throws Exception {
        Path dump = PdfFontsTest.renamedCopy(ReportRenderingTest.DEMO, tmp.resolve("dump"), "no-such-name", "-");
        Path ibnet = dump.resolve("fabric/ibnetdiscover.out"), links = dump.resolve("fabric/iblinkinfo.out");
        String nd = Files.readString(ibnet);
        assertThat(nd).contains("sysimgguid=0x200002\nswitchguid=0x200002(200002)");
        Files.writeString(ibnet, nd.replace("sysimgguid=0x200002\nswitchguid=0x200002(200002)", "sysimgguid=0x200000\nswitchguid=0x200002(200002)"));
        String ll = Files.readString(links);
        String a = "           2    1[  ] ==( 4X ", b = "           4   17[  ] ==( 4X ";
        assertThat(ll).contains(a).contains(b);
        Files.writeString(links, ll.replace(a, "           2    1[  ] ==( 1X ").replace(b, "           4   17[  ] ==( 1X "));
        ReportFacts facts = new ReportFacts(Analysis.of(DumpLoader.load(dump)));

        List<Inventory.Item> items = Inventory.items(facts);
        assertThat(items).filteredOn(i -> i.kind().equals("chassis")).singleElement().satisfies(c -> {
            assertThat(c.guid()).isEqualTo("0x0000000000200000");
            assertThat(c.description()).startsWith("chassis switch of 2 ASICs");
        });
        String chassis = items.stream().filter(i -> i.kind().equals("chassis")).findFirst().orElseThrow().device();
        assertThat(items).filteredOn(i -> i.kind().equals("switch") && i.host().equals(chassis)).extracting(Inventory.Item::device)
                .containsExactlyInAnyOrder("spine01", "leaf01");

        FabricSvg.Picture pic = FabricSvg.layout(FabricSvg.inputs(facts));
        String svg = FabricSvg.svg(pic);
        // one box for the two ASICs, named after the chassis (the host part of a managed switch's description; here the first ASIC's)
        assertThat(svg).contains(">chassis, 2 ASICs<").doesNotContain(">leaf01<");
        assertThat(pic.labels).filteredOn(l -> "name".equals(l.cls())).extracting(FabricSvg.Label::text).containsExactlyInAnyOrder(chassis, "spine02", "leaf02", "leaf03", "leaf04");
        assertThat(pic.title).contains("(1 chassis)");
        // the degraded backplane link is a problem on the chassis box (the link.width FAIL names its ports), not a line
        assertThat(pic.labels).anyMatch(l -> l.text().startsWith("backplane ") && l.color().equals(FabricSvg.FAIL));
        assertThat(pic.lines).noneMatch(l -> l.tooltip().contains("spine01 port 1 <-> leaf01 port 17"));
    }
}
