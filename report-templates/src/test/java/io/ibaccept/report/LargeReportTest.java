package io.ibaccept.report;

import io.ibaccept.analysis.Analysis;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.lowagie.text.pdf.PdfReader;
import com.lowagie.text.pdf.parser.PdfTextExtractor;
import io.ibaccept.model.ClusterData;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.Status;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One cluster-wide misconfiguration on 4,000 nodes must give a small, readable report; CSV/JSON keep every host. */
class LargeReportTest {
    static final int N = 4000;

    static Report allFailing(int n) {
        List<String> hosts = IntStream.rangeClosed(1, n).mapToObj(i -> String.format("node%04d", i)).toList();
        ClusterData data = Synthetic.cluster(hosts, "");
        List<Finding> fs = new ArrayList<>();
        for (String h : hosts) {
            fs.add(new Finding("memlock", "Locked memory limit (ulimit -l)", Status.FAIL, List.of(h),
                    List.of(Evidence.of("64", "nodes/" + h + "/ulimit-l.out:1")), h + ": memlock limit 64 KiB (required: unlimited)",
                    "The locked-memory limit of " + h + " is too low for RDMA: slurmd or the login limits set 64 KiB.",
                    "On " + h + ": set 'LimitMEMLOCK=infinity' for slurmd and '* - memlock unlimited' in /etc/security/limits.d."));
            fs.add(new Finding("mtu", "MTU consistency", Status.PASS, List.of(h), List.of(), h + ": MTU 4096", "", ""));
        }
        return new Report(data, fs);
    }

    @Test
    void fourThousandFailingNodesGiveASmallReportAndCompleteCsvJson(@TempDir Path tmp) throws Exception {
        Report r = allFailing(N);
        ReportWriter.Written w = ReportWriter.writeAll(Analysis.of(r), tmp, new CoverInfo("ACME", "Hall 2", "tester"), ReportLayout.DEFAULT);
        assertThat(w.errors()).isEmpty();

        long html = Files.size(tmp.resolve("report.html"));
        assertThat(html).isLessThan(1_000_000);
        Document doc = Jsoup.parse(tmp.resolve("report.html").toFile(), "UTF-8");
        assertThat(doc.select("#problem-table tr.finding")).hasSize(1);
        assertThat(doc.selectFirst("#problem-table tr.finding").attr("data-count")).isEqualTo(String.valueOf(N));
        assertThat(doc.selectFirst("#problem-table tr.finding").text())
                .contains("node[0001-4000]: memlock limit 64 KiB").contains("affects: node[0001-4000]")
                .contains("On node[0001-4000]: set 'LimitMEMLOCK=infinity'").contains("3992 more lines in findings.csv");
        // above the threshold: aggregates per check and per leaf instead of 4,000 node rows
        assertThat(doc.getElementById("node-table")).isNull();
        assertThat(doc.selectFirst("#check-aggregate tr[data-check=memlock]").text()).contains("4000").contains("node[0001-4000]");
        assertThat(doc.select("#leaf-aggregate tbody tr")).hasSize(100);
        assertThat(doc.selectFirst("#leaf-aggregate tr[data-leaf=leaf002]").text()).contains("node[0041-0080]");
        // passing results: one line per check
        assertThat(doc.select("#pass-table tr.finding")).hasSize(1);
        assertThat(doc.selectFirst("#pass-table tr.finding").text()).contains("4000 results on node[0001-4000]");

        try (PdfReader reader = new PdfReader(tmp.resolve("report.pdf").toString())) {
            assertThat(reader.getNumberOfPages()).isLessThan(30);
            StringBuilder all = new StringBuilder();
            PdfTextExtractor ex = new PdfTextExtractor(reader);
            for (int p = 1; p <= reader.getNumberOfPages(); p++) all.append(ex.getTextFromPage(p));
            assertThat(all.toString().replaceAll("\\s+", " ")).contains("node[0001-4000]");
        }
        assertThat(Files.size(tmp.resolve("report.pdf"))).isLessThan(1_000_000);

        Set<String> csvHosts = new HashSet<>();
        try (Reader in = Files.newBufferedReader(tmp.resolve("findings.csv"))) {
            for (CSVRecord row : CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in))
                if (row.get("status").equals("FAIL")) csvHosts.add(row.get("objects"));
        }
        assertThat(csvHosts).hasSize(N).contains("node0001", "node4000");
        JsonNode json = new ObjectMapper().readTree(tmp.resolve("findings.json").toFile());
        Set<String> jsonHosts = new HashSet<>();
        json.get("findings").forEach(f -> { if (f.get("status").asText().equals("FAIL")) jsonHosts.add(f.get("objects").get(0).asText()); });
        assertThat(jsonHosts).isEqualTo(csvHosts);
    }

    @Test
    void healthyEightThousandNodesFitOnAFewPages() throws Exception {
        List<String> hosts = IntStream.rangeClosed(1, 8000).mapToObj(i -> String.format("cn%05d", i)).toList();
        List<Finding> fs = new ArrayList<>();
        for (String h : hosts)
            for (String c : List.of("memlock", "pcie", "port.state"))
                fs.add(new Finding(c, c + " title", Status.PASS, List.of(h), List.of(), h + ": ok", "", ""));
        Report r = new Report(Synthetic.cluster(hosts, ""), fs);
        java.io.ByteArrayOutputStream pdf = new java.io.ByteArrayOutputStream();
        PdfReport.render(Analysis.of(r), CoverInfo.NONE, ReportLayout.DEFAULT, pdf);
        try (PdfReader reader = new PdfReader(pdf.toByteArray())) {
            assertThat(reader.getNumberOfPages()).isLessThanOrEqualTo(6);
        }
        String html = HtmlReport.render(Analysis.of(r));
        assertThat(html.length()).isLessThan(200_000);
        assertThat(Jsoup.parse(html).select("#pass-table tr.finding")).hasSize(3);
    }

    @Test
    void hugeEvidenceLinesAreClippedInHtmlAndKeptInCsv(@TempDir Path tmp) throws Exception {
        String huge = "x".repeat(3_000_000);
        Report r = new Report(Synthetic.cluster(List.of("node01"), ""), List.of(new Finding("ibdiagnet", "t", Status.FAIL,
                List.of("node01"), List.of(Evidence.of(huge, "fabric/ibdiagnet2.log.out:7")), "s " + huge, "c", "f")));
        assertThat(ReportWriter.write(Analysis.of(r), tmp).errors()).isEmpty();
        assertThat(Files.size(tmp.resolve("report.html"))).isLessThan(100_000);
        assertThat(Files.size(tmp.resolve("report.pdf"))).isLessThan(200_000);
        assertThat(Files.size(tmp.resolve("findings.csv"))).isGreaterThan(6_000_000);
    }

    @Test
    void sizeGrowsLinearly(@TempDir Path tmp) throws Exception {
        // distinct causes cannot be grouped: rows grow with the findings, but per row, not per row squared
        long small = htmlSize(distinctFailures(500), tmp.resolve("a"));
        long large = htmlSize(distinctFailures(2000), tmp.resolve("b"));
        assertThat((double) large / small).isLessThan(4.6);
    }

    static long htmlSize(Report r, Path dir) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("r.html"), HtmlReport.render(Analysis.of(r)));
        return Files.size(dir.resolve("r.html"));
    }

    static Report distinctFailures(int n) {
        List<String> hosts = IntStream.rangeClosed(1, n).mapToObj(i -> String.format("cn%05d", i)).toList();
        List<Finding> fs = new ArrayList<>();
        for (int i = 0; i < n; i++)
            fs.add(new Finding("link.errors", "Link error counters", Status.FAIL, List.of(hosts.get(i) + " HCA-1 port 1"),
                    List.of(Evidence.of("SymbolErrorCounter=" + (1000 + i), "fabric/ibqueryerrors.out:" + (i + 1))),
                    "SymbolErrorCounter=" + (1000 + i), "cause " + i, "fix " + i));
        return new Report(Synthetic.cluster(hosts, ""), fs);
    }

    /**
     * One WARN naming the ports of a switch one by one (a counter snapshot's history): the HTML and the PDF say them as
     * ranges, findings.csv names each port; the real-captures dump (ibdiagnet2 counters of an NDR fabric) stays within 40 pages.
     */
    @Test
    void portsOfOneSwitchAreRangesAndTheRealNdrSnapshotStaysWithinFortyPages(@TempDir Path tmp) throws Exception {
        List<String> ports = new ArrayList<>();
        for (int p = 1; p <= 64; p++) if (p != 33 && p != 40) ports.add("Quantum-2 Mellanox Technologies (0xb0cf0e0300e5b940) port " + p);
        assertThat(ReportText.compressObjects(ports, ReportLayout.DEFAULT.maxObjectsText()))
                .isEqualTo("Quantum-2 Mellanox Technologies (0xb0cf0e0300e5b940) ports 1-32, 34-39, 41-64 (62 ports)");
        // one port of a device stays as it is; hosts with one port each are still a hostlist
        assertThat(ReportText.compressObjects(List.of("leaf01 port 3", "node01 HCA-1 port 1", "node02 HCA-1 port 1"), 600))
                .isEqualTo("leaf01 port 3, node[01-02] HCA-1 port 1");
        ClusterData data = Synthetic.cluster(List.of("node01"), "");
        Report r = new Report(data, List.of(new Finding("link.errors", "Link error counters", Status.WARN, ports,
                ports.stream().map(p -> Evidence.of(p + ": LinkDownedCounter=3", "fabric/ibdiagnet2.db_csv.out:4027")).toList(),
                "62 cable(s) with link-down counts", "history", "collect a window")));
        ReportWriter.Written w = ReportWriter.writeAll(Analysis.of(r), tmp.resolve("one-warn"), CoverInfo.NONE, ReportLayout.DEFAULT);
        assertThat(w.errors()).isEmpty();
        try (PdfReader reader = new PdfReader(Files.readAllBytes(tmp.resolve("one-warn/report.pdf")))) {
            String all = "";
            for (int p = 2; p <= reader.getNumberOfPages(); p++) all += new PdfTextExtractor(reader).getTextFromPage(p);
            assertThat(all.replaceAll("\\s+", "")).contains("ports1-32,34-39,41-64(62ports)").contains("...54morelinesinfindings.csv");
        }
        assertThat(Files.readString(tmp.resolve("one-warn/findings.csv"))).contains("(0xb0cf0e0300e5b940) port 64");

        Path out = tmp.resolve("real");
        ReportWriter.write(Analysis.of(io.ibaccept.dump.DumpLoader.load(Path.of("..", "sample-dumps", "dumps", "real-captures"))), out);
        try (PdfReader reader = new PdfReader(Files.readAllBytes(out.resolve("report.pdf")))) {
            assertThat(reader.getNumberOfPages()).isLessThanOrEqualTo(40);
        }
    }
}
