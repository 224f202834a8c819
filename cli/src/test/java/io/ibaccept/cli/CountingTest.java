package io.ibaccept.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.lowagie.text.pdf.PdfReader;
import com.lowagie.text.pdf.parser.PdfTextExtractor;
import io.ibaccept.rules.Verdict;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The counts of the demo as every output states them: the console line of analyze, the HTML banner and check table,
 * the PDF cover, findings.json, junit.xml and findings.csv agree, each saying which count it is.
 */
class CountingTest {
    private static final Pattern CHECKS = Pattern.compile(
            "checks: (\\d+) failed, (\\d+) input errors, (\\d+) warned, (?:(\\d+) waived, )?(\\d+) passed, (\\d+) skipped, (\\d+) with consequences only \\((\\d+) checks\\)");
    private static final Pattern ROOTS = Pattern.compile(
            "root findings: (\\d+) FAIL, (\\d+) ERROR, (\\d+) WARN, (?:(\\d+) WAIVED, )?(\\d+) PASS, (\\d+) SKIP; (\\d+) consequences? listed under them");

    @Test
    void consoleHtmlPdfJsonJunitAndCsvCountAlike(@TempDir Path out) throws Exception {
        MainTest.Run r = MainTest.run("analyze", MainTest.DEMO.toString(), "-o", out.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(Main.NOT_ACCEPTED);
        String console = r.out();
        assertThat(console).startsWith("NOT ACCEPTED - one or more checks failed\n");
        Map<String, Long> checks = checks(console), roots = roots(console);
        long consequences = roots.remove("consequences");
        long total = checks.remove("total");
        // the demo: nine faults, each one root finding in its own check; what follows from them is counted once, there
        assertThat(checks).containsEntry("FAIL", 9L).containsEntry("ERROR", 0L).containsEntry("WARN", 3L);
        assertThat(roots).containsEntry("FAIL", 9L).containsEntry("WARN", 4L);
        assertThat(consequences).isEqualTo(15);
        assertThat(checks.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(total);
        // the root failures listed, one line each, bounded as on page 1
        assertThat(console.lines().filter(l -> l.startsWith("  FAIL "))).hasSize(9);

        // HTML: the banner states both lines; the check table has one badge per check, by the check's own status
        Document html = Jsoup.parse(out.resolve("report.html").toFile(), "UTF-8");
        String banner = html.getElementById("banner-counts").text();
        assertThat(checks(banner)).containsAllEntriesOf(checks);
        assertThat(roots(banner)).containsAllEntriesOf(roots).containsEntry("consequences", consequences);
        for (Map.Entry<String, Long> e : checks.entrySet())
            assertThat(html.select("#check-table tbody tr[data-status=" + e.getKey() + "]")).as(e.getKey()).hasSize(e.getValue().intValue());
        assertThat(html.select("#check-table tbody tr")).hasSize((int) total);
        assertThat(html.select("#root-failures li")).hasSize(9);
        assertThat(html.getElementById("consequence-count").attr("data-count")).isEqualTo(String.valueOf(consequences));

        // PDF: the cover states the same two lines
        try (PdfReader reader = new PdfReader(out.resolve("report.pdf").toString())) {
            String first = new PdfTextExtractor(reader).getTextFromPage(1).replaceAll("\\s+", " ");
            assertThat(checks(first)).containsAllEntriesOf(checks);
            assertThat(roots(first)).containsAllEntriesOf(roots);
        }

        // findings.json: counts (root findings), consequences, checkCounts (checks)
        JsonNode json = new ObjectMapper().readTree(out.resolve("findings.json").toFile());
        for (Map.Entry<String, Long> e : roots.entrySet()) assertThat(json.get("counts").get(e.getKey()).asLong()).as(e.getKey()).isEqualTo(e.getValue());
        for (Map.Entry<String, Long> e : checks.entrySet())
            assertThat(json.get("checkCounts").get(e.getKey()).asLong()).as(e.getKey()).isEqualTo(e.getValue());
        assertThat(json.get("consequences").asLong()).isEqualTo(consequences);
        assertThat(json.get("checks").size()).isEqualTo((int) total);

        // junit.xml: one testcase per check; failures, errors and skipped are checks
        org.w3c.dom.Element suites = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(out.resolve("junit.xml").toFile())
                .getDocumentElement();
        assertThat(suites.getAttribute("tests")).isEqualTo(String.valueOf(total));
        assertThat(suites.getAttribute("failures")).isEqualTo(String.valueOf(checks.get("FAIL")));
        assertThat(suites.getAttribute("errors")).isEqualTo(String.valueOf(checks.get("ERROR")));
        assertThat(suites.getAttribute("skipped")).isEqualTo(String.valueOf(checks.get("SKIP") + checks.getOrDefault("WAIVED", 0L)));
        assertThat(suites.getElementsByTagName("testcase").getLength()).isEqualTo((int) total);
        assertThat(suites.getElementsByTagName("failure").getLength()).isEqualTo(checks.get("FAIL").intValue());

        // findings.csv lists every finding: the rows without a parent are the root findings, the others the consequences
        try (Reader in = Files.newBufferedReader(out.resolve("findings.csv"))) {
            List<CSVRecord> rows = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in).getRecords();
            Map<String, Long> csvRoots = new LinkedHashMap<>();
            rows.stream().filter(x -> x.get("parent").isEmpty()).forEach(x -> csvRoots.merge(x.get("status"), 1L, Long::sum));
            for (Map.Entry<String, Long> e : roots.entrySet()) assertThat(csvRoots.getOrDefault(e.getKey(), 0L)).as(e.getKey()).isEqualTo(e.getValue());
            assertThat(rows.stream().filter(x -> !x.get("parent").isEmpty()).count()).isEqualTo(consequences);
        }
    }

    @Test
    void exitCodeIsTheVerdict() {
        assertThat(AnalyzeCommand.exitCode(Verdict.ACCEPTED)).isZero();
        assertThat(AnalyzeCommand.exitCode(Verdict.ACCEPTED_WITH_WARNINGS)).isZero();
        assertThat(AnalyzeCommand.exitCode(Verdict.ACCEPTED_WITH_WAIVERS)).isZero();
        assertThat(AnalyzeCommand.exitCode(Verdict.REJECTED)).isEqualTo(1);
        assertThat(AnalyzeCommand.exitCode(Verdict.INCOMPLETE)).isEqualTo(4);
        assertThat(List.of(Main.ACCEPTED, Main.NOT_ACCEPTED, Main.USAGE, Main.INTERNAL, Main.INCOMPLETE)).containsExactly(0, 1, 2, 3, 4);
        String help = MainTest.run("analyze", "--help").out().replaceAll("\\s+", " ");
        assertThat(help).contains("Exit codes: 0 accepted (with or without warnings, waivers or limited coverage) 1 not accepted: a check failed ")
                .contains(" 4 incomplete: no check failed").doesNotContain("diff:").doesNotContain("not accepted or incomplete");
        // diff is not a verdict: its codes say whether something changed
        String diff = MainTest.run("diff", "--help").out().replaceAll("\\s+", " ");
        assertThat(diff).contains("Exit codes: 0 nothing changed 1 something changed 2 ").doesNotContain("incomplete").doesNotContain("not accepted");
        // the top level: done, bad usage, internal error, and where each command's own codes are
        String top = MainTest.run("--help").out().replaceAll("\\s+", " ");
        assertThat(top).contains("Exit codes: 0 done (each command's help lists its own codes) 2 bad usage or unusable input 3 internal error")
                .doesNotContain("analyze:").doesNotContain("incomplete");
    }

    private static Map<String, Long> checks(String text) {
        Matcher m = CHECKS.matcher(text);
        assertThat(m.find()).as("a checks line in: " + text).isTrue();
        Map<String, Long> c = new LinkedHashMap<>();
        c.put("FAIL", Long.parseLong(m.group(1)));
        c.put("ERROR", Long.parseLong(m.group(2)));
        c.put("WARN", Long.parseLong(m.group(3)));
        c.put("WAIVED", m.group(4) == null ? 0L : Long.parseLong(m.group(4)));
        c.put("PASS", Long.parseLong(m.group(5)));
        c.put("SKIP", Long.parseLong(m.group(6)));
        c.put("CONSEQUENCE", Long.parseLong(m.group(7)));
        c.put("total", Long.parseLong(m.group(8)));
        return c;
    }

    private static Map<String, Long> roots(String text) {
        Matcher m = ROOTS.matcher(text);
        assertThat(m.find()).as("a root findings line in: " + text).isTrue();
        Map<String, Long> c = new LinkedHashMap<>();
        c.put("FAIL", Long.parseLong(m.group(1)));
        c.put("ERROR", Long.parseLong(m.group(2)));
        c.put("WARN", Long.parseLong(m.group(3)));
        c.put("WAIVED", m.group(4) == null ? 0L : Long.parseLong(m.group(4)));
        c.put("PASS", Long.parseLong(m.group(5)));
        c.put("SKIP", Long.parseLong(m.group(6)));
        c.put("consequences", Long.parseLong(m.group(7)));
        return c;
    }
}
