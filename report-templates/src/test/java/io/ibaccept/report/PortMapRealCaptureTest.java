package io.ibaccept.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.analysis.Analysis;
import io.ibaccept.dump.DumpLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The switch port map of a real 272-node NDR fabric (ibdiagnet 2.10's ibnetdiscover and db_csv of 9 Quantum-2
 * switches, parsers/src/test/resources/real, sources in its SOURCES.md): one row per switch, told apart although they
 * share their description, the ports with error-counter history in the warning colour, bounded in size.
 */
class PortMapRealCaptureTest {
    @Test
    void everySwitchOfTheNdrFabricIsOneRowWithItsWarnedPorts(@TempDir Path tmp) throws Exception {
        Path d = tmp.resolve("dump");
        Files.createDirectories(d.resolve("fabric"));
        Path real = Path.of("..", "parsers", "src", "test", "resources", "real");
        Files.copy(real.resolve("ibnetdiscover/gary-minghuili-ndr-quantum2-ibdiagnet2-ibnetdiscover.txt"), d.resolve("fabric/ibnetdiscover.out"));
        Files.copy(real.resolve("ibdiagnet2.db_csv/gary-minghuili-ndr-quantum2-full.txt"), d.resolve("fabric/ibdiagnet2.db_csv.out"));
        Files.writeString(d.resolve("manifest.txt"), "format: 1\ncluster: ndr\nfabric_node: fab\nnodes: fab\n");
        Document doc = Jsoup.parse(HtmlReport.render(Analysis.of(DumpLoader.load(d))));
        var map = doc.selectFirst("#port-map svg.port-map");
        assertThat(map).isNotNull();
        assertThat(map.selectFirst("text").text()).isEqualTo("Switch ports: what is cabled and what the checks found (9 switches)");
        List<String> legend = List.of("host", "switch-to-switch", "other", "empty", "WARN", "FAIL");
        List<String> labels = map.select("text[font-size=10]").eachText().stream().filter(t -> !legend.contains(t)).toList();
        // eight of them are "Quantum-2 Mellanox Technologies": the end of the GUID tells them apart
        assertThat(labels).hasSize(9).doesNotHaveDuplicates().filteredOn(t -> t.contains(" ..")).hasSize(8);
        List<String> cells = map.select("rect title").eachText();
        // the counter snapshot's history is a WARN per switch, naming its ports: they are drawn as warned, none as failed
        assertThat(cells).filteredOn(t -> t.endsWith(", WARN")).isNotEmpty();
        assertThat(cells).noneMatch(t -> t.endsWith(", FAIL"));
        assertThat(cells).allMatch(t -> t.endsWith(": empty") || t.endsWith(" cables") || t.contains(" NDR, WARN"));
        assertThat(map.outerHtml().length()).isLessThan(60_000);
    }

    /**
     * An NDR SuperPOD (topograph's capture: 40 managed Quantum-2 switches described "MF0;A09-P1-IBLEAF-04-04:MQM9701/U1")
     * and NVIDIA's Selene (666 switches): each switch by the name people use, the whole legend and the whole title
     * inside the picture (text widths estimated generously at 7 px a character of the 12 px title, 6.2 of the 10 px labels).
     */
    @ParameterizedTest
    @ValueSource(strings = {"ndr-superpod", "selene"})
    void switchesByTheirShortNamesWholeLegendAndTitleInsideThePicture(String name, @TempDir Path tmp) throws Exception {
        Analysis a = Analysis.of(DumpLoader.load(FirstPageTest.dump(name, tmp)));
        Document doc = Jsoup.parse(PortMapSection.html(a));
        var map = doc.selectFirst("svg.port-map");
        int width = Integer.parseInt(map.attr("width"));
        var title = map.selectFirst("text");
        assertThat(title.text()).startsWith("Switch ports: ");
        assertThat(4 + title.text().length() * 7).isLessThanOrEqualTo(width);
        List<String> legend = List.of("host", "switch-to-switch", "other", "empty", "WARN", "FAIL");
        var texts = map.select("text[font-size=10]");
        for (String l : legend) {
            var t = texts.stream().filter(e -> e.text().equals(l)).findFirst().orElseThrow(() -> new AssertionError("legend " + l + " missing"));
            assertThat(Double.parseDouble(t.attr("x")) + l.length() * PortMapSection.CHAR_W).as(l).isLessThanOrEqualTo(width);
        }
        List<String> labels = texts.stream().map(org.jsoup.nodes.Element::text)
                .filter(t -> !legend.contains(t) && !t.contains("more switches not drawn")).toList();
        assertThat(labels).isNotEmpty().doesNotHaveDuplicates()
                .allSatisfy(l -> assertThat(l).doesNotContain("MF0;").doesNotContain(":MQM").doesNotEndWith("~"));
        if (name.equals("ndr-superpod")) assertThat(labels).contains("A09-P1-IBLEAF-04-04");
        else assertThat(labels).anyMatch(l -> l.matches("(LG|CSPINE)[0-9-]+"));
    }
}
