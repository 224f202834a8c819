package io.ibaccept.report;

import io.ibaccept.analysis.Analysis;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.lowagie.text.pdf.PdfReader;
import com.lowagie.text.pdf.parser.PdfTextExtractor;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.RulesEngine;
import io.ibaccept.rules.Verdict;
import io.ibaccept.rules.Waivers;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CoverAndWaiversTest {
    static final CoverInfo COVER = new CoverInfo("ACME Research", "Datacenter 2, hall B", "J. Doe (Integrator GmbH)");

    @Test
    void htmlCoverHasTheHandoverFacts(@TempDir Path tmp) throws Exception {
        Path rules = tmp.resolve("site.properties");
        Files.writeString(rules, "memlock.min_kib=1048576\nperftest.bw.min_percent=95\n");
        RuleConfig cfg = RuleConfig.withOverrides(rules);
        Report r = new RulesEngine(cfg).run(DumpLoader.load(ReportRenderingTest.DEMO)).withRules(cfg);
        Document doc = Jsoup.parse(HtmlReport.render(Analysis.of(r), COVER, ReportLayout.DEFAULT));
        assertThat(field(doc, "customer")).isEqualTo("ACME Research");
        assertThat(field(doc, "cluster")).isEqualTo("demo-hdr16");
        assertThat(field(doc, "site")).isEqualTo("Datacenter 2, hall B");
        assertThat(field(doc, "operator")).isEqualTo("J. Doe (Integrator GmbH)");
        assertThat(field(doc, "dump-id")).matches("sha256:[0-9a-f]{64}");
        assertThat(field(doc, "tool-version")).isNotBlank().isNotEqualTo("unknown");
        assertThat(field(doc, "verdict")).startsWith("NOT ACCEPTED");
        assertThat(doc.select("#thresholds li")).extracting(e -> e.text()).containsExactly(
                "memlock.min_kib = 1048576 (default: unlimited)", "perftest.bw.min_percent = 95 (default: 90)");
        assertThat(doc.select("#signatures tbody th")).extracting(e -> e.text()).containsExactly("Integrator", "Customer");
        assertThat(doc.select("#signatures thead th")).extracting(e -> e.text()).contains("Name", "Date", "Signature");
        // the cover comes before the findings
        assertThat(doc.select("main > section").first().id()).isEqualTo("cover");

        Document plain = Jsoup.parse(HtmlReport.render(Analysis.of(new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(ReportRenderingTest.DEMO)))));
        assertThat(field(plain, "customer")).isEqualTo("(not given)");
        assertThat(plain.select("#thresholds li").text()).startsWith("none: all checks used the default thresholds");

        ByteArrayOutputStream pdf = new ByteArrayOutputStream();
        PdfReport.render(Analysis.of(r), COVER, ReportLayout.DEFAULT, pdf);
        try (PdfReader reader = new PdfReader(pdf.toByteArray())) {
            String first = new PdfTextExtractor(reader).getTextFromPage(1).replaceAll("\\s+", " ");
            assertThat(first).contains("ACME Research").contains("Datacenter 2, hall B").contains(field(doc, "dump-id"))
                    .contains("memlock.min_kib = 1048576 (default: unlimited)").contains("Integrator").contains("Signature");
        }
    }

    @Test
    void dumpIdIsTheDocumentedShellHash() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/sha256sum")) || Files.isExecutable(Path.of("/bin/sha256sum")));
        Report r = new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(ReportRenderingTest.DEMO));
        Process p = new ProcessBuilder("/bin/sh", "-c",
                "(cd \"$0\" && find . -type f -printf '%P\\0' | LC_ALL=C sort -z | xargs -0 sha256sum) | sha256sum",
                ReportRenderingTest.DEMO.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor()).isZero();
        assertThat(Analysis.of(r).dumpId()).isEqualTo("sha256:" + out.split("\\s+")[0]);
        assertThat(Analysis.of(new Report(Synthetic.cluster(java.util.List.of("a1"), "/nonexistent/dump"), java.util.List.of())).dumpId()).startsWith("unavailable");
    }

    @Test
    void waiversSectionAndVerdict(@TempDir Path tmp) throws Exception {
        Path w = tmp.resolve("waivers.csv");
        Files.writeString(w, "memlock,node0*,\"limits.d fix rolls out with the next image, ticket 4711\",J. Doe,2027-01-31\n"
                + "link.width,*,old cable waiver,A. Smith,2026-11-30\n");
        Report r = Waivers.load(w).apply(LargeReportTest.allFailing(50), LocalDate.of(2026, 12, 2));
        // all 50 failures waived, one warning (the expired waiver): waivers decide the verdict
        assertThat(r.verdict()).isEqualTo(Verdict.ACCEPTED_WITH_WAIVERS);
        Document doc = Jsoup.parse(HtmlReport.render(Analysis.of(r), COVER, ReportLayout.DEFAULT));
        assertThat(doc.getElementById("verdict").text()).isEqualTo("ACCEPTED WITH WAIVERS");
        assertThat(doc.getElementById("banner").hasClass("ACCEPTED_WITH_WAIVERS")).isTrue();
        assertThat(doc.select("#waiver-table tbody tr")).hasSize(2);
        assertThat(doc.selectFirst("#waiver-table tr[data-expired=true]").text()).contains("EXPIRED").contains("A. Smith");
        assertThat(doc.selectFirst("#waived-table tr.finding").attr("data-count")).isEqualTo("50");
        assertThat(doc.selectFirst("#waived-table td.waiver").text()).contains("ticket 4711").contains("J. Doe").contains("waivers.csv:1");
        // the expired waiver is a warning among the problems
        assertThat(doc.selectFirst("#problem-table tr[data-check=waiver]").text()).contains("expired on 2026-11-30");
        ByteArrayOutputStream pdf = new ByteArrayOutputStream();
        PdfReport.render(Analysis.of(r), COVER, ReportLayout.DEFAULT, pdf);
        try (PdfReader reader = new PdfReader(pdf.toByteArray())) {
            StringBuilder all = new StringBuilder();
            PdfTextExtractor ex = new PdfTextExtractor(reader);
            for (int p = 1; p <= reader.getNumberOfPages(); p++) all.append(ex.getTextFromPage(p)).append('\n');
            String text = all.toString().replaceAll("\\s+", " ");
            assertThat(text).contains("ACCEPTED WITH WAIVERS").contains("Waivers").contains("ticket 4711").contains("EXPIRED");
        }
    }

    @Test
    void tensOfThousandsOfWaiversAreListedBoundedTheOnesThatWaivedFirst(@TempDir Path tmp) throws Exception {
        StringBuilder csv = new StringBuilder();
        for (int i = 0; i < 30_000; i++) csv.append("memlock,cn").append(String.format("%05d", i)).append(",BIOS update pending,ops,2027-06-30\n");
        csv.append("memlock,node0*,ticket 4711,J. Doe,2027-01-31\n"); // the last line is the one that waives
        Path w = Files.writeString(tmp.resolve("waivers.csv"), csv);
        Report r = Waivers.load(w).apply(LargeReportTest.allFailing(50), LocalDate.of(2026, 12, 2));
        Document doc = Jsoup.parse(HtmlReport.render(Analysis.of(r), COVER, ReportLayout.DEFAULT));
        assertThat(doc.select("#waiver-table tbody tr:not(.more)")).hasSize(ReportText.MAX_WAIVER_ROWS);
        assertThat(doc.selectFirst("#waiver-table tbody tr").text()).contains("ticket 4711");
        assertThat(doc.selectFirst("#waiver-table tr.more").text())
                .isEqualTo("... and 29801 more waivers that waived nothing in this dump (all 30001 are in findings.json)");
        ByteArrayOutputStream pdf = new ByteArrayOutputStream();
        PdfReport.render(Analysis.of(r), COVER, ReportLayout.DEFAULT, pdf);
        try (PdfReader reader = new PdfReader(pdf.toByteArray())) {
            assertThat(reader.getNumberOfPages()).isLessThan(30);
        }
    }

    private static String field(Document doc, String id) {
        return doc.selectFirst("#cover-table tr[data-field=" + id + "] td").text();
    }
}
