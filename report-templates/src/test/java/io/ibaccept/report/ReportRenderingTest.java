package io.ibaccept.report;

import io.ibaccept.analysis.Analysis;
import static org.assertj.core.api.Assertions.assertThat;

import com.lowagie.text.pdf.PdfReader;
import com.lowagie.text.pdf.parser.PdfTextExtractor;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.RulesEngine;
import io.ibaccept.rules.Status;
import io.ibaccept.samples.SyntheticDump;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Renders the demo dump's report and checks its contents by parsing the produced HTML, PDF and CSV. */
class ReportRenderingTest {
    static final Path DEMO = Path.of("..", "sample-dumps", "dumps", "demo-hdr16");
    static Report report;
    static Path out;

    @BeforeAll
    static void render(@TempDir Path tmp) {
        report = new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(DEMO));
        out = tmp;
        ReportWriter.Written w = ReportWriter.write(Analysis.of(report), tmp);
        assertThat(w.errors()).isEmpty();
        assertThat(w.files()).extracting(p -> p.getFileName().toString()).containsExactly("report.html", "report.pdf", "findings.csv",
                "findings.json", "junit.xml", "ibaccept.prom", "inventory.csv", "topology.conf", "topology.yaml", "node-name-map", "nhc.conf",
                "drain.sh");
    }

    @Test
    void htmlShowsVerdictFirstAndEveryProblemWithItsFix() throws Exception {
        Document doc = Jsoup.parse(out.resolve("report.html").toFile(), "UTF-8");
        assertThat(doc.getElementById("verdict").text()).isEqualTo("NOT ACCEPTED");
        assertThat(doc.getElementById("banner").hasClass("REJECTED")).isTrue();
        assertThat(doc.getElementById("verdict-meaning").text()).isEqualTo("one or more checks failed");
        assertThat(doc.getElementById("banner-counts").text()).startsWith("checks: 9 failed, 0 input errors, 3 warned, ")
                .contains(" | root findings: " + report.counts().get(Status.FAIL) + " FAIL, 0 ERROR, " + report.counts().get(Status.WARN) + " WARN, ");
        // counts are root findings: one per fault (a cable's two ends, a host down and its inventory gap count once):
        // node16 down, node06 at 1X, the node11 <-> leaf03 cable, node07's PCIe slot, node09's memlock, node13's OFED,
        // node05's UCX without ud, node05's ib0 down, node12's clock unsynchronised
        assertThat(report.counts().get(Status.FAIL)).isEqualTo(9);
        // per-check table: one row per check, its own status (the worst of its root findings), and its worst status with the
        // consequences listed under other checks' roots as the engine has it
        ReportCounts counts = ReportCounts.of(report);
        for (Element tr : doc.select("#check-table tbody tr")) {
            assertThat(tr.attr("data-worst")).isEqualTo(report.checkStatus().get(tr.attr("data-check")).name());
            Status own = report.roots().stream().filter(f -> f.check().equals(tr.attr("data-check"))).map(Finding::status)
                    .min(java.util.Comparator.naturalOrder()).orElse(null);
            assertThat(tr.attr("data-status")).isEqualTo(own == null ? ReportCounts.CONSEQUENCE : own.name());
        }
        assertThat(doc.select("#check-table tbody tr[data-status=FAIL]")).hasSize((int) counts.checks("FAIL")).hasSize(9);
        // perftest.bw failed only because of node07's PCIe slot: a consequence, not a tenth failure
        assertThat(doc.selectFirst("#check-table tr[data-check=perftest.bw]").attr("data-status")).isEqualTo(ReportCounts.CONSEQUENCE);
        assertThat(doc.select("#check-table tbody tr")).hasSize(report.checkStatus().size());
        // every FAIL/WARN finding is a row with its evidence and fix
        List<Finding> problems = report.findings().stream().filter(f -> f.status() == Status.FAIL || f.status() == Status.WARN).toList();
        // grouped rows: together they hold every FAIL/WARN finding
        assertThat(doc.select("#problem-table tr.finding").stream()
                .filter(tr -> !tr.attr("data-status").equals("ERROR")).mapToInt(tr -> Integer.parseInt(tr.attr("data-count"))).sum())
                .isEqualTo(problems.size());
        Element width = doc.selectFirst("#problem-table tr.finding[data-check=link.width]");
        assertThat(width.text()).contains("node06 HCA-1 port 1").contains("fabric/iblinkinfo.out:").contains("Reseat, clean or replace the cable");
        assertThat(width.selectFirst(".fix code").text()).contains("mlxlink");
        // first problem row is a FAIL: worst first
        assertThat(doc.selectFirst("#problem-table tr.finding").attr("data-status")).isEqualTo("FAIL");
        // per node: rows only for nodes with findings, node16 marked FAIL; clean nodes as one hostlist
        assertThat(doc.selectFirst("#node-table tr[data-node=node16]").attr("data-status")).isEqualTo("FAIL");
        assertThat(doc.selectFirst("#node-table tr[data-node=node04]")).isNull();
        assertThat(doc.select("#node-table tbody tr")).hasSizeLessThan(16)
                .allSatisfy(tr -> assertThat(tr.attr("data-status")).isNotEqualTo("PASS"));
        // the clean hostlist is every host no FAIL/WARN/ERROR/WAIVED finding names (which ones depends on the rules)
        java.util.Set<String> named = new java.util.HashSet<>();
        report.findings().stream().filter(f -> f.status() != Status.PASS && f.status() != Status.SKIP).forEach(f -> named.addAll(f.hosts()));
        List<String> clean = report.data().hosts().keySet().stream().filter(h -> !named.contains(h)).toList();
        // (node01 and node02 are named by sm.config.priority: their opensm.conf give both SMs priority 14)
        assertThat(clean).contains("node03", "node04").doesNotContain("node07", "node16");
        assertThat(doc.getElementById("node-summary").text())
                .endsWith(clean.size() + " without findings: " + io.ibaccept.rules.Hostlists.compress(clean));
    }

    @Test
    void pdfHasVerdictChecksAndFixes() throws Exception {
        try (PdfReader reader = new PdfReader(out.resolve("report.pdf").toString())) {
            PdfTextExtractor ex = new PdfTextExtractor(reader);
            StringBuilder all = new StringBuilder();
            for (int p = 1; p <= reader.getNumberOfPages(); p++) all.append(ex.getTextFromPage(p)).append('\n');
            String first = ex.getTextFromPage(1);
            assertThat(first).contains("NOT ACCEPTED").contains("Cluster demo-hdr16").contains("Acceptance record").contains("Signatures");
            assertThat(ex.getTextFromPage(2)).contains("Link width (link.width)");
            String text = all.toString().replaceAll("\\s+", " ");
            assertThat(text).contains("node09: memlock limit 65536 KiB").contains("LimitMEMLOCK=infinity")
                    .contains("node07: HCA PCIe at Gen3 x8").contains("Per node").contains("node16");
        }
    }

    @Test
    void csvHasOneRowPerFinding() throws Exception {
        try (Reader r = Files.newBufferedReader(out.resolve("findings.csv"))) {
            List<CSVRecord> rows = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(r).getRecords();
            assertThat(rows).hasSize(report.findings().size());
            assertThat(rows.get(0).get("status")).isEqualTo("FAIL");
            assertThat(rows).anySatisfy(row -> {
                assertThat(row.get("check")).isEqualTo("pkey");
                assertThat(row.get("objects")).isEqualTo("leaf01 port 3");
                assertThat(row.get("evidence")).contains("nodes/node03/smpquery-pkeys-peer.out");
            });
        }
    }

    @Test
    void thePortMapColoursTheSwitchPortsTheFindingsNameAndTheRoutingSectionJudgesTheDemosTables() throws Exception {
        Document doc = Jsoup.parse(out.resolve("report.html").toFile(), "UTF-8");
        // 6 switches, the three with a port named by a finding first; ports alike drawn as one run, a port a finding names alone
        List<String> titles = doc.select("#port-map svg.port-map rect title").eachText();
        assertThat(titles).filteredOn(t -> t.endsWith(", FAIL")).containsExactlyInAnyOrder("leaf02 port 2: node06 HCA-1 port 1 1X HDR, FAIL",
                "leaf03 port 3: node11 HCA-1 port 1 4X EDR, FAIL");
        assertThat(titles).filteredOn(t -> t.endsWith(", WARN")).containsExactly("leaf01 port 3: node03 HCA-1 port 1 4X HDR, WARN");
        assertThat(titles).contains("spine01 ports 1-8: switch-to-switch cables", "leaf04 ports 1-3: host cables", "leaf04 ports 4-16: empty",
                "leaf02 port 1: host cables", "leaf02 ports 3-4: host cables");
        assertThat(doc.select("#port-map svg.port-map rect[fill=" + PortMapSection.FAIL + "]:has(title)")).hasSize(2);
        // the demo has no counter window: no worst-links chart
        assertThat(doc.select("#port-map svg.worst-links")).isEmpty();
        // routed by ftree on the simulator: every path works, no credit loop, even
        assertThat(doc.select("#routing .routing-lines li").eachText()).hasSize(3).allMatch(l -> l.startsWith("PASS routing."));
        assertThat(doc.select("#routing-spread rect")).isNotEmpty();
    }

    @Test
    void aTableOfContentsLinksEverySectionAndEvidenceLinksIntoADumpNextToTheReport(@TempDir Path tmp) throws Exception {
        Document doc = Jsoup.parse(out.resolve("report.html").toFile(), "UTF-8");
        List<String> toc = doc.select("nav#toc a").eachAttr("href");
        assertThat(toc).startsWith("#cover", "#summary", "#problems").contains("#routing", "#port-map", "#fabric");
        for (String a : toc) assertThat(doc.getElementById(a.substring(1))).as(a).isNotNull();
        // the demo dump is far from this temporary output directory: evidence is plain text, not a link that leads nowhere
        assertThat(doc.select("a.where")).isEmpty();
        assertThat(doc.select("span.where")).isNotEmpty();
        // the report written next to a copy of the dump links each evidence line to its file
        Path dump = tmp.resolve("dump");
        try (var files = java.nio.file.Files.walk(DEMO)) {
            for (Path p : files.toList()) {
                Path to = dump.resolve(DEMO.relativize(p).toString());
                if (java.nio.file.Files.isDirectory(p)) java.nio.file.Files.createDirectories(to);
                else java.nio.file.Files.copy(p, to);
            }
        }
        ReportWriter.write(Analysis.of(new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(dump))), tmp.resolve("report"));
        Document near = Jsoup.parse(tmp.resolve("report/report.html").toFile(), "UTF-8");
        assertThat(near.select("a.where")).isNotEmpty().allSatisfy(a -> {
            assertThat(a.attr("href")).startsWith("../dump/");
            assertThat(tmp.resolve("report").resolve(a.attr("href"))).isRegularFile();
        });
    }

    @Test
    void thePdfInventoryHasTheSerialColumnAndWholeGuids() throws Exception {
        try (com.lowagie.text.pdf.PdfReader reader = new com.lowagie.text.pdf.PdfReader(out.resolve("report.pdf").toString())) {
            com.lowagie.text.pdf.parser.PdfTextExtractor x = new com.lowagie.text.pdf.parser.PdfTextExtractor(reader);
            String inventory = null;
            for (int p = 1; p <= reader.getNumberOfPages() && inventory == null; p++) {
                String t = x.getTextFromPage(p);
                if (t.contains("Part number") && t.contains("Serial")) inventory = t;
            }
            assertThat(inventory).as("a page with the inventory table").isNotNull();
            // every GUID of the inventory on one line of text: none cut in two
            List<String> guids = new ArrayList<>();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("0x[0-9a-f]{8,}").matcher(inventory);
            while (m.find()) guids.add(m.group());
            assertThat(guids).isNotEmpty().allMatch(g -> g.length() == 18);
        }
    }

    @Test
    void acceptedClusterGetsGreenBannerAndNoProblems(@TempDir Path tmp) throws Exception {
        SyntheticDump.generate(tmp.resolve("d"), 6, false);
        Report ok = new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(tmp.resolve("d")));
        Document doc = Jsoup.parse(HtmlReport.render(Analysis.of(ok)));
        assertThat(doc.getElementById("verdict").text()).isEqualTo("ACCEPTED");
        assertThat(doc.getElementById("banner").hasClass("ACCEPTED")).isTrue();
        assertThat(doc.select("#problem-table tbody").text()).isEqualTo("No failures or warnings.");
        // its forwarding tables: the routing section says every path works, no deadlock, and shows the even spread
        assertThat(doc.select("#routing .routing-lines li")).extracting(Element::text).hasSize(3)
                .anySatisfy(l -> assertThat(l).startsWith("PASS routing.reachability: every switch reaches all 6 CA LID(s)"))
                .anySatisfy(l -> assertThat(l).startsWith("PASS routing.credit_loops: no credit loop"))
                .anySatisfy(l -> assertThat(l).startsWith("PASS routing.balance: routes spread evenly"));
        // one leaf with the 6 hosts: its uplinks carry none of them, the spines' bundles of 10 cables down to it carry all
        assertThat(doc.select("#routing-spread svg")).hasSize(1);
    }

    @Test
    void aggregateThresholdIsConfigurable() {
        Document doc = Jsoup.parse(HtmlReport.render(Analysis.of(report), CoverInfo.NONE, new ReportLayout(3, 8, 1500)));
        assertThat(doc.getElementById("node-table")).isNull();
        assertThat(doc.getElementById("node-summary").text()).contains("more than 3: shown per check and per leaf");
        assertThat(doc.selectFirst("#check-aggregate tr[data-check=perftest.bw]").text()).contains("node[05-08]");
        // the four leaves of ibnetdiscover.out; node16 is on none (its port is down)
        assertThat(doc.select("#leaf-aggregate tbody tr")).extracting(e -> e.attr("data-leaf")).containsExactly("leaf01", "leaf02", "leaf03", "leaf04");
        assertThat(doc.selectFirst("#leaf-aggregate tr[data-leaf=leaf03]").text()).isEqualTo("leaf03 4 3 node[09,11-12]");
        Document inv = Jsoup.parse(HtmlReport.render(Analysis.of(report), CoverInfo.NONE, new ReportLayout(10, 8, 1500)));
        assertThat(inv.getElementById("inventory-table")).isNull();
        assertThat(inv.select("#inventory-groups li").text()).contains("hca | simulator 1: 16 (node[01-16])")
                .contains("cable | Passive copper cable, 2 m Mellanox MCP1650-H002E26");
    }

    @Test
    void inventoryCsvListsHcasCablesAndSwitches() throws Exception {
        try (Reader r = Files.newBufferedReader(out.resolve("inventory.csv"))) {
            List<CSVRecord> rows = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(r).getRecords();
            assertThat(rows).filteredOn(x -> x.get("kind").equals("hca")).hasSize(16).anySatisfy(x -> {
                assertThat(x.get("host")).isEqualTo("node01");
                assertThat(x.get("device")).isEqualTo("ibsim0");
                assertThat(x.get("type")).isEqualTo("simulator");
                assertThat(x.get("guid")).isEqualTo("0x0000000000100000");
                assertThat(x.get("device_id")).isEqualTo("0x0000");
                assertThat(x.get("source")).isEqualTo("nodes/node01/ibstat.out:1");
            });
            assertThat(rows).filteredOn(x -> x.get("kind").equals("cable")).anySatisfy(x -> {
                assertThat(x.get("host")).isEqualTo("node06");
                assertThat(x.get("description")).isEqualTo("node06 HCA-1 port 1 <-> leaf02 port 2");
                assertThat(x.get("vendor")).isEqualTo("Mellanox");
                assertThat(x.get("part_number")).isEqualTo("MCP1650-H002E26");
            });
            assertThat(rows).filteredOn(x -> x.get("kind").equals("switch")).hasSize(6).anySatisfy(x -> {
                assertThat(x.get("device")).isEqualTo("spine01");
                assertThat(x.get("guid")).isEqualTo("0x0000000000200000");
                assertThat(x.get("ports")).isEqualTo("36");
                assertThat(x.get("source")).startsWith("fabric/ibnetdiscover.out:");
            });
        }
        Document doc = Jsoup.parse(out.resolve("report.html").toFile(), "UTF-8");
        assertThat(doc.select("#inventory-table tbody tr")).hasSizeGreaterThan(16 + 6);
    }

    @Test
    void consequencesAreRenderedUnderTheirRootAndCountedOnce() {
        var data = Synthetic.cluster(List.of("node01", "node02", "node03"), "");
        Finding leaf = new Finding("fabric.switch", "Switch", Status.FAIL, List.of("leaf001"), List.of(), "leaf001 is dead", "power", "replace",
                "", "fabric.switch#1", null);
        Finding other = new Finding("memlock", "memlock", Status.FAIL, List.of("node03"), List.of(), "node03: memlock", "c", "f", "", "memlock#1", null);
        List<Finding> fs = List.of(other, leaf,
                new Finding("port.state", "Port", Status.FAIL, List.of("node01 HCA-1 port 1"), List.of(), "node01 port down", "c", "f", "down", "port.state#1", "fabric.switch#1"),
                new Finding("port.state", "Port", Status.FAIL, List.of("node02 HCA-1 port 1"), List.of(), "node02 port down", "c", "f", "down", "port.state#2", "fabric.switch#1"));
        Report rep = new Report(data, fs);
        assertThat(rep.counts().get(Status.FAIL)).isEqualTo(2);
        Document doc = Jsoup.parse(HtmlReport.render(Analysis.of(rep)));
        List<Element> rows = doc.select("#problem-table tr.finding");
        assertThat(rows).extracting(tr -> tr.attr("data-check")).containsExactly("memlock", "fabric.switch", "port.state");
        Element c = rows.get(2);
        assertThat(c.hasClass("consequence")).isTrue();
        assertThat(c.attr("data-root")).isEqualTo("fabric.switch");
        assertThat(c.attr("data-count")).isEqualTo("2");
        assertThat(c.selectFirst(".summary").text()).startsWith("-> consequence of the fabric.switch finding above");
        assertThat(rows.get(1).hasClass("consequence")).isFalse();
        assertThat(doc.getElementById("verdict-meaning").text()).isEqualTo("one or more checks failed");
        // two root failures in two checks; port.state has only the consequences: counted at the root, not again
        assertThat(doc.getElementById("banner-counts").text()).contains("checks: 2 failed").contains("1 with consequences only (3 checks)")
                .contains("root findings: 2 FAIL").contains("2 consequences listed under them");
        assertThat(doc.selectFirst("#check-table tr[data-check=port.state]").attr("data-status")).isEqualTo(ReportCounts.CONSEQUENCE);
        assertThat(doc.selectFirst("#check-table tr[data-check=port.state]").attr("data-worst")).isEqualTo("FAIL");
        assertThat(doc.selectFirst("#check-table tr[data-check=port.state]").text()).endsWith("2 (worst FAIL) under fabric.switch");
        assertThat(doc.selectFirst("#check-table tr[data-check=fabric.switch]").attr("data-status")).isEqualTo("FAIL");
    }
}
