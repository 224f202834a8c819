package io.ibaccept.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.lowagie.text.pdf.PdfReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 'ibaccept analyze' of the real-captures dump, which holds the real ibdiagnet2.cables, net_dump and net_dump_ext of a
 * 272-node NDR fabric: the report names the modules that latched flags with file:line, the inventory lists every
 * module ibdiagnet read, and the report stays bounded.
 */
class IbdiagnetPhysicalAnalyzeTest {
    static final Path DUMP = MainTest.DEMO.resolveSibling("real-captures");

    @Test
    void modulesAndFecOfTheRealNdrFabricReachTheReport(@TempDir Path out) throws Exception {
        MainTest.Run r = MainTest.run("analyze", DUMP.toString(), "-o", out.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(1);

        List<String> findings = Files.readAllLines(out.resolve("findings.csv"));
        List<String> module = findings.stream().filter(l -> l.startsWith("cable.module,")).toList();
        assertThat(module).hasSize(4).allSatisfy(l -> assertThat(l).contains(",WARN,").contains("Rx loss of lock on lanes 1-4")
                .containsPattern("fabric/ibdiagnet2\\.cables\\.out:\\d+"));
        assertThat(findings).filteredOn(l -> l.startsWith("link.fec,")).singleElement()
                .satisfies(l -> assertThat(l).contains(",PASS,").contains("host links on copper: MLNX_RS_271_257_PLR"));

        // the inventory: every module of ibdiagnet2.cables, switch and HCA ends, with PN, SN, vendor, type and length, FW
        List<String> cables = Files.readAllLines(out.resolve("inventory.csv")).stream()
                .filter(l -> l.startsWith("cable,") && l.contains("fabric/ibdiagnet2.cables.out:")).toList();
        assertThat(cables).hasSize(510);
        assertThat(cables).filteredOn(l -> l.contains(",OSFP-SR8-800G,")).hasSize(164)
                .allSatisfy(l -> assertThat(l).contains(",850 nm VCSEL,1.8.0,").contains(",FS,"));
        assertThat(cables).filteredOn(l -> l.contains("Copper cable- unequalized, 2 m")).hasSize(198);
        assertThat(cables).anySatisfy(l -> assertThat(l).contains("port 1,850 nm VCSEL,1.8.0,,A1,").contains(",G2430283435,"));

        // a large fabric's inventory is grouped: one line per module kind, the switches it sits in as one list
        String groups = Jsoup.parse(out.resolve("report.html").toFile(), "UTF-8").getElementById("inventory-groups").text();
        assertThat(groups).contains("cable | 850 nm VCSEL 1.8.0 FS OSFP-SR8-800G: 164 (");
        try (PdfReader pdf = new PdfReader(out.resolve("report.pdf").toString())) {
            assertThat(pdf.getNumberOfPages()).isLessThan(40);
        }
    }
}
