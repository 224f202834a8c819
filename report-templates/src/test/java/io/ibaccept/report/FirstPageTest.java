package io.ibaccept.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.lowagie.text.pdf.PdfReader;
import com.lowagie.text.pdf.parser.PdfTextExtractor;
import io.ibaccept.analysis.Analysis;
import io.ibaccept.contract.Contract;
import io.ibaccept.contract.ContractFile;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.model.ClusterData;
import io.ibaccept.rules.Coverage;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.RulesEngine;
import io.ibaccept.rules.Waivers;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Page 1, the page that is signed, in the HTML and the PDF; the PDF's footer on every page; times in whole seconds. */
class FirstPageTest {
    static ClusterData demo;
    static Report waived;

    @BeforeAll
    static void load(@TempDir Path tmp) throws Exception {
        demo = DumpLoader.load(ReportRenderingTest.DEMO);
        Path w = tmp.resolve("waivers.csv");
        Files.writeString(w, "memlock,node09,image fix scheduled,J. Doe,2099-01-01\nlink.width,node06,old cable,ops,2000-01-01\n");
        waived = Waivers.load(w).apply(new RulesEngine(RuleConfig.defaults()).run(demo), LocalDate.of(2026, 12, 2));
    }

    /** Twelve required checks not run: the page lists ten and says how many more. */
    static Coverage twelveGaps() {
        List<Coverage.Required> req = new ArrayList<>();
        for (int i = 1; i <= 12; i++)
            req.add(new Coverage.Required("gap.check" + i, "Gap " + i, 16, i % 3 == 0 ? 0 : 8, "ran on " + (i % 3 == 0 ? 0 : 8) + " of 16 hosts",
                    "ibaccept collect --only x" + i));
        req.add(new Coverage.Required("port.state", "Port state", 16, 16, "", ""));
        return new Coverage(false, req);
    }

    @Test
    void htmlFirstScreenHoldsVerdictRootFailuresCoverageWaiversAndTheNoContractSentence() {
        Report r = waived.withCoverage(twelveGaps());
        Document doc = Jsoup.parse(HtmlReport.render(Analysis.of(r), CoverInfo.NONE, ReportLayout.DEFAULT));
        assertThat(doc.getElementById("verdict").text()).isEqualTo(r.verdictLine()).isEqualTo("NOT ACCEPTED");
        assertThat(doc.getElementById("verdict-meaning").text()).isEqualTo(r.meaning());
        Element cover = doc.getElementById("cover");
        assertThat(doc.select("main > section").first()).isSameAs(cover);
        // the root failures, one line each exactly as the console prints them (memlock is waived: not a failure)
        List<String> lines = ReportCounts.rootFailureLines(r, ReportCounts.MAX_ROOT_LINES);
        assertThat(lines).hasSize(8).allSatisfy(l -> assertThat(l).startsWith("FAIL "))
                .contains("FAIL port.state: node16/ibsim0 port 1 is down (physical state Polling) [+2 consequence(s)]");
        assertThat(cover.select("#root-failures li")).extracting(Element::wholeText).containsExactlyElementsOf(lines);
        assertThat(cover.text()).doesNotContain("FAIL memlock");
        // coverage: the summary, ten gaps, then how many more
        assertThat(cover.select("#coverage li")).extracting(Element::text).hasSize(12)
                .startsWith("coverage 1 of 13 required checks (default set)", "gap.check1: ran on 8 of 16 hosts (ibaccept collect --only x1)")
                .endsWith("gap.check10: ran on 8 of 16 hosts (ibaccept collect --only x10)", "and 2 more" + FirstPage.SEE_PASSED);
        // the waiver in force with its owner and expiry; the expired one is not in force
        assertThat(cover.select("#waivers-in-force tbody tr")).singleElement().extracting(Element::text)
                .isEqualTo("memlock node09 image fix scheduled J. Doe 2099-01-01");
        assertThat(cover.select("#contract li")).extracting(Element::text).containsExactly(FirstPage.NO_CONTRACT);
        // a version every host shares is no finding, but page 1 states it, so a reader can see it is the wrong one
        assertThat(cover.select("#facts li")).extracting(Element::text)
                .anySatisfy(l -> assertThat(l).startsWith("firmware: all 16 host(s) with ").contains(" run firmware "));
        assertThat(cover.select("#remarks h3").text()).isEqualTo("Remarks / conditions");
        assertThat(cover.select("#remarks .remarks-box")).hasSize(1);
        assertThat(cover.select("#signatures tbody th")).extracting(Element::text).containsExactly("Integrator", "Customer");
        // no coverage required: no coverage block
        Document plain = Jsoup.parse(HtmlReport.render(Analysis.of(waived)));
        assertThat(plain.getElementById("coverage-block")).isNull();
    }

    @Test
    void pdfCoverHoldsTheSameOnPageOneAndFitsOnIt() throws Exception {
        Report r = waived.withCoverage(twelveGaps());
        ByteArrayOutputStream pdf = new ByteArrayOutputStream();
        PdfReport.render(Analysis.of(r), CoverAndWaiversTest.COVER, ReportLayout.DEFAULT, pdf);
        try (PdfReader reader = new PdfReader(pdf.toByteArray())) {
            PdfTextExtractor ex = new PdfTextExtractor(reader);
            String first = squash(ex.getTextFromPage(1));
            for (String l : ReportCounts.rootFailureLines(r, ReportCounts.MAX_ROOT_LINES)) assertThat(first).contains(squash(l));
            for (String l : ReportCounts.coverageLines(r.coverage())) assertThat(first).contains(squash(l));
            assertThat(first).contains(squash("gap.check10: ran on 8 of 16 hosts")).doesNotContain(squash("gap.check11:"))
                    .contains(squash(FirstPage.NO_CONTRACT)).contains(squash("Waivers in force")).contains(squash("image fix scheduled"))
                    .contains("J.Doe").contains("2099-01-01").contains(squash(r.verdictLine())).contains(squash(r.meaning()))
                    .contains(squash(ReportCounts.of(r).checksLine())).contains(squash(ReportCounts.of(r).findingsLine()))
                    // the whole signed page on one page: signatures and the remarks box are still on page 1
                    .contains("Signatures").contains(squash("Remarks / conditions")).contains("Customer");
            assertThat(squash(ex.getTextFromPage(2))).startsWith("Checks");
        }
    }

    /** A dump as the tests build them from the real captures (see BrowserCheckTest), or generated. */
    static Path dump(String name, Path tmp) throws Exception {
        Path d = tmp.resolve(name);
        switch (name) {
            case "demo" -> {
                return ReportRenderingTest.DEMO;
            }
            case "real-captures" -> {
                return Path.of("..", "sample-dumps", "dumps", "real-captures");
            }
            case "synthetic-2000-every-node-failing" -> io.ibaccept.samples.SyntheticDump.generate(d, 2000, true, true);
            case "selene" -> BrowserCheckTest.seleneCompute(d);
            case "ndr-superpod" -> {
                Files.createDirectories(d.resolve("fabric"));
                Files.copy(Path.of("..", "parsers", "src", "test", "resources", "real", "ibnetdiscover", "topograph-ndr-superpod-40sw-582ca.txt"),
                        d.resolve("fabric/ibnetdiscover.out"));
                Files.writeString(d.resolve("manifest.txt"), "format: 1\ncluster: superpod\nfabric_node: fab\nnodes: fab\n");
            }
            default -> throw new IllegalArgumentException(name);
        }
        return d;
    }

    /**
     * The signed page whole on page 1 of real and large dumps: the verdict, the failures (bounded, the rest by
     * reference) and below them the signatures and the remarks box; the checks start on page 2.
     */
    @ParameterizedTest
    @ValueSource(strings = {"demo", "real-captures", "synthetic-2000-every-node-failing", "ndr-superpod", "selene"})
    void pageOneHoldsVerdictFailuresAndSignaturesOnEveryDump(String name, @TempDir Path tmp) throws Exception {
        Analysis a = Analysis.of(DumpLoader.load(dump(name, tmp)));
        Report r = a.report();
        ByteArrayOutputStream pdf = new ByteArrayOutputStream();
        PdfReport.render(a, CoverInfo.NONE, ReportLayout.DEFAULT, pdf);
        try (PdfReader reader = new PdfReader(pdf.toByteArray())) {
            PdfTextExtractor ex = new PdfTextExtractor(reader);
            String first = squash(ex.getTextFromPage(1));
            assertThat(first).contains(squash(r.verdictLine())).contains("Acceptancerecord").contains(squash("Failures (root findings"))
                    .contains(squash("Waivers in force")).contains("Signatures").contains("Integrator").contains("Customer")
                    .contains(squash("Remarks / conditions")).contains("page1of");
            // the first failure is on it; when they do not all fit, how many more and where they are
            List<String> all = ReportCounts.rootFailureLines(r, Integer.MAX_VALUE);
            if (!all.isEmpty()) assertThat(first).contains(squash(all.get(0).substring(0, Math.min(60, all.get(0).length()))));
            String last = all.isEmpty() ? "" : squash(all.get(all.size() - 1));
            if (!first.contains(last.substring(0, Math.min(60, last.length()))))
                assertThat(first).containsPattern("and\\d+more" + java.util.regex.Pattern.quote(squash(FirstPage.SEE_FAILURES)));
            assertThat(squash(ex.getTextFromPage(2))).startsWith("Checks");
        }
    }

    @Test
    void pdfFooterOnEveryPageSaysPageXOfYClusterAndDumpId() throws Exception {
        Analysis a = Analysis.of(waived);
        ByteArrayOutputStream pdf = new ByteArrayOutputStream();
        PdfReport.render(a, pdf);
        try (PdfReader reader = new PdfReader(pdf.toByteArray())) {
            int pages = reader.getNumberOfPages();
            assertThat(pages).isGreaterThan(2);
            PdfTextExtractor ex = new PdfTextExtractor(reader);
            for (int p = 1; p <= pages; p++)
                assertThat(ex.getTextFromPage(p).replaceAll("\\s+", " ")).as("page " + p)
                        .contains("page " + p + " of " + pages).contains("cluster demo-hdr16").contains("dump " + a.dumpId());
        }
    }

    @Test
    void contractSummaryWithFileNameAndId() throws Exception {
        byte[] yaml = ("cluster: demo-hdr16\nhosts: node[01-16]\nfabric:\n  levels: 2\nlinks:\n  host: HDR 4X\n  mtu: 4096\n")
                .getBytes(StandardCharsets.UTF_8);
        Contract c = ContractFile.parse("/site/contracts/acme-contract.yaml", yaml);
        Analysis a = Analysis.of(demo, Analysis.Options.defaults().withContract(c));
        Document doc = Jsoup.parse(HtmlReport.render(a));
        List<String> expected = new ArrayList<>();
        expected.add("contract acme-contract.yaml (" + c.id() + ")");
        expected.addAll(c.summaryLines());
        assertThat(c.id()).startsWith("sha256:");
        assertThat(c.summaryLines()).isNotEmpty();
        assertThat(doc.select("#contract li")).extracting(Element::text).containsExactlyElementsOf(expected);
        assertThat(doc.getElementById("cover").text()).doesNotContain(FirstPage.NO_CONTRACT);
        ByteArrayOutputStream pdf = new ByteArrayOutputStream();
        PdfReport.render(a, pdf);
        try (PdfReader reader = new PdfReader(pdf.toByteArray())) {
            String first = squash(new PdfTextExtractor(reader).getTextFromPage(1));
            for (String l : expected) assertThat(first).contains(squash(l));
        }
    }

    @Test
    void rootFailuresAreBoundedAsOnTheConsole() {
        Report r = LargeReportTest.allFailing(40);
        List<String> lines = ReportCounts.rootFailureLines(r, ReportCounts.MAX_ROOT_LINES);
        assertThat(lines).hasSize(16).last().isEqualTo("and " + (ReportCounts.of(r).findings(io.ibaccept.rules.Status.FAIL) - 15) + " more");
        Document doc = Jsoup.parse(HtmlReport.render(Analysis.of(r)));
        // page 1 says where the rest is
        List<String> shown = new ArrayList<>(lines);
        shown.set(15, lines.get(15) + FirstPage.SEE_FAILURES);
        assertThat(doc.select("#root-failures li")).extracting(Element::wholeText).containsExactlyElementsOf(shown);
    }

    @Test
    void timesAreWholeSecondsWithTheZone() {
        assertThat(ReportText.time("2026-12-03T21:43:17.199091437Z")).isEqualTo("2026-12-03 21:43:17 UTC");
        assertThat(ReportText.time("2026-12-03T22:43:17.5+01:00")).isEqualTo("2026-12-03 22:43:17 +01:00");
        assertThat(ReportText.time("2026-12-03T21:43:17Z[UTC]")).isEqualTo("2026-12-03 21:43:17 UTC");
        assertThat(ReportText.time("last tuesday")).isEqualTo("last tuesday");
        assertThat(ReportText.time(java.time.Instant.parse("2026-12-03T21:43:17.999Z"))).isEqualTo("2026-12-03 21:43:17 UTC");
        // the demo's manifest says 2026-12-02T14:04:08.199091437Z
        Document doc = Jsoup.parse(HtmlReport.render(Analysis.of(waived)));
        assertThat(doc.selectFirst("#cover-table tr[data-field=collected] td").text()).startsWith("2026-12-02 14:04:08 UTC");
        assertThat(doc.selectFirst("#cover-table tr[data-field=generated] td").text()).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC");
        assertThat(doc.getElementById("meta").text()).contains("collected 2026-12-02 14:04:08 UTC");
        assertThat(doc.outerHtml()).doesNotContain("14:04:08.199");
    }

    /** Text as the PDF extractor gives it, without the line breaks and spaces that wrapping moves around. */
    static String squash(String s) {
        return s.replaceAll("\\s+", "");
    }
}
