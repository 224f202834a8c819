package io.ibaccept.report;

import io.ibaccept.analysis.Analysis;
import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.DumpLoader;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.RulesEngine;
import io.ibaccept.samples.SyntheticDump;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embeddable performance section on a synthetic HDR dump whose pairs carry a real perftest -a sweep. */
class PerfSectionTest {
    @TempDir
    Path tmp;

    static String sweep() throws Exception {
        try (InputStream in = PerfSectionTest.class.getResourceAsStream("/real/cx6-hdr-ib-write-bw-a-mbsec-client.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void heatMapSweepWithLineRateAndCommandLines() throws Exception {
        SyntheticDump.generate(tmp, 4, false);
        try (Stream<Path> s = Files.walk(tmp.resolve("perftest"))) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        Files.createDirectories(tmp.resolve("perftest"));
        String out = sweep();
        List<String> hosts = List.of("cn0001", "cn0002", "cn0003", "cn0004");
        int port = 18515;
        for (int i = 0; i < 4; i++)
            for (int j = i + 1; j < 4; j++, port++) {
                String a = hosts.get(i), b = hosts.get(j), id = "ib_write_bw__" + a + "__" + b;
                Files.writeString(tmp.resolve("perftest/" + id + ".client.out"), out);
                Files.writeString(tmp.resolve("perftest/" + id + ".client.meta"), "name: ib_write_bw\nhost: " + a + "\npeer: " + b
                        + "\ncommand: ib_write_bw -d mlx5_0 -p " + port + " --report_gbits -a " + b + "\nstatus: ok\nexit: 0\n");
                Files.writeString(tmp.resolve("perftest/" + id + ".server.meta"), "name: ib_write_bw\nhost: " + b + "\npeer: " + a
                        + "\ncommand: ib_write_bw -d mlx5_0 -p " + port + " --report_gbits -a\nstatus: ok\nexit: 0\n");
                Files.writeString(tmp.resolve("perftest/" + id + ".server.out"), "");
            }
        RuleConfig cfg = RuleConfig.defaults();
        Report r = new RulesEngine(cfg).run(DumpLoader.load(tmp));
        List<PerfSection.Figure> figs = PerfSection.figures(Analysis.of(r));
        assertThat(figs).extracting(PerfSection.Figure::name).containsExactly("heatmap-ib_write_bw", "sweep-ib_write_bw");
        assertThat(figs.get(1).svg()).contains("class=\"expected\"").contains("expected 200 Gb/s").contains(">8M<");
        String html = PerfSection.html(Analysis.of(r));
        assertThat(html).startsWith("<section id=\"rdma-performance\">")
                .contains("cn0001 -&gt; cn0002: on cn0002 (server, first): ib_write_bw -d mlx5_0 -p 18515 --report_gbits -a")
                .contains("cn0001 -&gt; cn0002: on cn0001: ib_write_bw -d mlx5_0 -p 18515 --report_gbits -a cn0002")
                .contains("perftest/ib_write_bw__CLIENT__SERVER[.retestN].{client,server}.meta");
        org.jsoup.nodes.Document d = org.jsoup.Jsoup.parse(html);
        assertThat(d.select("figure svg")).hasSize(2);
    }

    /**
     * The demo's node06 link trained at 1X (50 Gb/s) where host links are built for 4X HDR (200 Gb/s): its pair reaches
     * 98 % of what the link trained at, but the heat map holds it against the design, red, with the trained rate beside.
     */
    @Test
    void heatMapHoldsPairsAgainstTheDesignRateAndSaysTheTrainedRate() {
        Analysis a = Analysis.of(DumpLoader.load(ReportRenderingTest.DEMO));
        assertThat(a.lineGbps("node06")).contains(50.0);
        assertThat(a.designRate("node06")).hasValueSatisfying(d -> assertThat(d.dataGbps()).isEqualTo(200.0));
        PerfSection.Figure map = PerfSection.figures(a).stream().filter(f -> f.name().equals("heatmap-ib_write_bw")).findFirst().orElseThrow();
        org.jsoup.nodes.Document d = org.jsoup.Jsoup.parse(map.svg());
        assertThat(map.svg()).contains("% of design rate");
        // listed as a bad pair in a red bin, at its share of the design, the trained rate beside it
        assertThat(d.select("text.bad-pair").eachText()).contains("node05 \u2013 node06: 48.9 Gb/s = 24 % of 200 (trained 50.0)");
        int i = d.select("text.bad-pair").eachText().indexOf("node05 \u2013 node06: 48.9 Gb/s = 24 % of 200 (trained 50.0)");
        assertThat(d.select("rect.bad-pair").get(i).attr("fill")).isIn(PerfSvg.BINS[5], PerfSvg.BINS[6]);
        // a pair whose links trained at the design rate says nothing more
        assertThat(d.select("text.bad-pair").eachText()).anySatisfy(t -> assertThat(t).startsWith("node07 \u2013 node08: ").endsWith("% of 200"));
    }
}
