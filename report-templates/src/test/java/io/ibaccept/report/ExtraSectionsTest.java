package io.ibaccept.report;

import io.ibaccept.analysis.Analysis;
import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.Status;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Work order section and workorder.csv from 'analyze --expect'; nothing extra without a plan or counter samples. */
class ExtraSectionsTest {
    static Report report() {
        return new Report(Synthetic.cluster(List.of("node01", "node02"), ""), List.of(new Finding("fabric.plan", "Cabling plan", Status.FAIL,
                List.of("leaf001 port 41", "spine01 port 1"), List.of(Evidence.of("x", "plan.csv:3")), "miswired", "c", "f")));
    }

    /**
     * The demo fabric's plan (each leaf ports 17,18 to spine01, 19,20 to spine02) with leaf01's two spine01 cables
     * written the other way round (a swap to make, cable id starting with '=') and one cable the fabric lacks.
     */
    static io.ibaccept.fabric.CablingPlan plan() {
        StringBuilder sb = new StringBuilder("switch,port,peer,peer_port,cable_id\n");
        for (int l = 1; l <= 4; l++) {
            sb.append(String.format("leaf%02d,17,spine01,%d,%s%n", l, l == 1 ? 2 : 2 * l - 1, l == 1 ? "=C17" : "A" + l));
            sb.append(String.format("leaf%02d,18,spine01,%d,B%d%n", l, l == 1 ? 1 : 2 * l, l));
            sb.append(String.format("leaf%02d,19,spine02,%d,C%d%n", l, 2 * l - 1, l));
            sb.append(String.format("leaf%02d,20,spine02,%d,D%d%n", l, 2 * l, l));
        }
        sb.append("leaf04,21,spine02,21,E4\n");
        return io.ibaccept.fabric.CablingPlan.parse(new io.ibaccept.parse.Text("plan.csv", sb.toString()));
    }

    @Test
    void workOrderIsASectionAndACsvWithSafeCells(@TempDir Path tmp) throws Exception {
        Analysis a = Analysis.of(io.ibaccept.dump.DumpLoader.load(ReportRenderingTest.DEMO), Analysis.Options.defaults().withPlan(plan()));
        ReportWriter.Written w = ReportWriter.writeAll(a, tmp, CoverInfo.NONE, ReportLayout.DEFAULT);
        assertThat(w.errors()).isEmpty();
        Document doc = Jsoup.parse(tmp.resolve("report.html").toFile(), "UTF-8");
        assertThat(doc.select("#work-order-table tbody tr")).hasSize(a.planDiff().workOrder().size()).hasSizeGreaterThanOrEqualTo(2);
        assertThat(doc.selectFirst("#work-order-table tr[data-action=swap]").text()).contains("leaf01").contains("17").contains("spine01");
        assertThat(doc.select("#work-order-table tr[data-action=connect]").text()).contains("leaf04").contains("21");
        assertThat(doc.getElementById("work-order").text()).contains("17 planned cables");
        String csv = Files.readString(tmp.resolve("workorder.csv"));
        assertThat(csv).startsWith("step,action,device,port,peer_device,peer_port,cable_id,reason,done")
                .contains("'=C17").doesNotContain(",=C17");
        String pdf = PdfText.of(tmp.resolve("report.pdf"));
        assertThat(pdf).contains("Cabling work order").contains("leaf04");
    }

    @Test
    void noPlanNoWindowNoExtraFiles(@TempDir Path tmp) throws Exception {
        ReportWriter.Written w = ReportWriter.write(Analysis.of(report()), tmp);
        assertThat(w.errors()).isEmpty();
        assertThat(tmp.resolve("workorder.csv")).doesNotExist();
        assertThat(tmp.resolve("linkwindow.csv")).doesNotExist();
        Document doc = Jsoup.parse(tmp.resolve("report.html").toFile(), "UTF-8");
        assertThat(doc.getElementById("work-order")).isNull();
        assertThat(doc.getElementById("link-window")).isNull();
    }

    static final class PdfText {
        static String of(Path pdf) throws Exception {
            try (com.lowagie.text.pdf.PdfReader reader = new com.lowagie.text.pdf.PdfReader(pdf.toString())) {
                StringBuilder all = new StringBuilder();
                var ex = new com.lowagie.text.pdf.parser.PdfTextExtractor(reader);
                for (int p = 1; p <= reader.getNumberOfPages(); p++) all.append(ex.getTextFromPage(p)).append('\n');
                return all.toString().replaceAll("\\s+", " ");
            }
        }
    }

    @Test
    void oneCounterSampleGivesALinkTableMarkedSnapshot(@TempDir Path tmp) throws Exception {
        io.ibaccept.model.ClusterData base = io.ibaccept.dump.DumpLoader.load(ReportRenderingTest.DEMO);
        var ref = new io.ibaccept.parse.SourceRef("fabric/counters-start.out", 12);
        // one sample of every port iblinkinfo lists; node05's HCA port has symbol errors since the last clear
        List<io.ibaccept.model.CounterSample.Port> ports = new java.util.ArrayList<>();
        for (io.ibaccept.model.LinkInfo l : base.fabric().links())
            ports.add(new io.ibaccept.model.CounterSample.Port(l.lid(), l.port(), java.util.Map.of("SymbolErrorCounter",
                    !l.switchNode() && l.nodeName().startsWith("node05") ? 1234L : 0L, "PortRcvData", 1_000_000L), java.util.Set.of("PortRcvData"), ref));
        var f = base.fabric();
        var fabric = new io.ibaccept.model.FabricData(f.topology(), f.links(), f.sms(), f.smPorts(), f.perfCounters(), f.errorCounters(),
                f.diagLog(), f.diagDb(), f.diagPm(), f.diagTopology(), new io.ibaccept.model.CounterSample(ports), null);
        var data = new io.ibaccept.model.ClusterData(base.source(), base.manifest(), base.hosts(), fabric, base.perftests(), base.commands(),
                base.problems());
        ReportWriter.Written w = ReportWriter.write(Analysis.of(new Report(data, List.of())), tmp);
        assertThat(w.errors()).isEmpty();
        String csv = Files.readString(tmp.resolve("linkwindow.csv"));
        assertThat(csv.lines().skip(1)).hasSizeGreaterThan(10).allSatisfy(l -> assertThat(l).contains(",snapshot,"));
        assertThat(csv.lines().skip(1).findFirst().orElseThrow()).startsWith("WARN,").contains("node05").contains("1234");
        Document doc = Jsoup.parse(tmp.resolve("report.html").toFile(), "UTF-8");
        assertThat(doc.select("#link-window-table tbody tr")).hasSize((int) csv.lines().skip(1).count())
                .allSatisfy(tr -> assertThat(tr.hasClass("snapshot")).isTrue());
        assertThat(doc.selectFirst("#link-window-table tbody tr").attr("data-status")).isEqualTo("WARN");
        assertThat(doc.selectFirst("#link-window-table tbody tr").text()).contains("node05");
        assertThat(doc.getElementById("link-window").text()).contains("judged on a single snapshot");
        assertThat(PdfText.of(tmp.resolve("report.pdf"))).contains("Error counters per link");
    }
}
