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
}
