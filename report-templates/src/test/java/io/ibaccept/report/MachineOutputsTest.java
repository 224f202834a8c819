package io.ibaccept.report;

import io.ibaccept.analysis.Analysis;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.RulesEngine;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.Waivers;
import java.io.ByteArrayOutputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** findings.json round trip and schema documentation; junit.xml parsed with a DOM parser. */
class MachineOutputsTest {
    static Report report;

    @BeforeAll
    static void load(@TempDir Path tmp) throws Exception {
        Path w = tmp.resolve("waivers.csv");
        Files.writeString(w, "memlock,node09,image fix scheduled,ops,2099-01-01\nlink.width,node06,old,ops,2000-01-01\n");
        Report r = new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(ReportRenderingTest.DEMO));
        report = Waivers.load(w).apply(r, LocalDate.of(2026, 12, 2));
    }

    @Test
    void jsonRoundTripsEveryFindingWithVerdictCountsAndWaivers() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonReport.render(Analysis.of(report), out);
        JsonReport.Doc back = new ObjectMapper().readValue(out.toByteArray(), JsonReport.Doc.class);
        assertThat(back).isEqualTo(JsonReport.toDoc(Analysis.of(report)));
        assertThat(back.schemaVersion()).isEqualTo(JsonReport.SCHEMA_VERSION);
        assertThat(back.verdict().code()).isEqualTo("REJECTED");
        assertThat(back.counts().get("WAIVED")).isEqualTo(1L);
        assertThat(back.dump().id()).startsWith("sha256:");
        assertThat(back.toolVersion()).isNotBlank();
        // the findings come back as the engine made them
        List<Finding> rebuilt = new ArrayList<>();
        for (JsonReport.FindingJson f : back.findings())
            rebuilt.add(new Finding(f.check(), f.title(), Status.valueOf(f.status()), f.objects(),
                    f.evidence().stream().map(e -> new Evidence(e.text(), e.where())).toList(), f.summary(), f.cause(), f.fix(),
                    f.variant(), f.id(), f.parent(), f.refs().stream().map(JsonReport.RefJson::toRef).toList()));
        assertThat(rebuilt).containsExactlyElementsOf(report.worstFirst());
        JsonReport.FindingJson waived = back.findings().stream().filter(f -> f.status().equals("WAIVED")).findFirst().orElseThrow();
        assertThat(waived.waiver().reason()).isEqualTo("image fix scheduled");
        assertThat(waived.waiver().where()).isEqualTo("waivers.csv:1");
        assertThat(back.waivers()).extracting(JsonReport.WaiverJson::expired).containsExactly(false, true);
        JsonReport.EvidenceJson ev = back.findings().stream().filter(f -> f.check().equals("link.width")).findFirst().orElseThrow().evidence().get(0);
        assertThat(ev.file()).isEqualTo("fabric/iblinkinfo.out");
        assertThat(ev.line()).isPositive();
        assertThat(back.inputProblems()).isNotEmpty().allSatisfy(p -> assertThat(p.file()).isNotBlank());
    }

    @Test
    void schemaDocumentsEveryField() throws Exception {
        Set<String> names = new TreeSet<>();
        // with coverage and with a contract, so that their fields are written too
        io.ibaccept.contract.Contract contract = io.ibaccept.contract.ContractFile.parse("contract.yaml",
                "cluster: demo-hdr16\nhosts: node[01-16]\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        for (Analysis a : List.of(Analysis.of(report.withCoverage(FirstPageTest.twelveGaps())),
                Analysis.of(report.data(), Analysis.Options.defaults().withContract(contract)))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            JsonReport.render(a, out);
            collect(new ObjectMapper().readTree(out.toByteArray()), names);
        }
        assertThat(names).contains("contract", "required", "expected", "line", "checkCounts");
        String schema = Files.readString(Path.of("SCHEMA.md"));
        for (String n : names) assertThat(schema).as("SCHEMA.md documents " + n).contains("`" + n + "`");
        assertThat(schema).contains("schemaVersion` | " + JsonReport.SCHEMA_VERSION);
    }

    private static void collect(JsonNode n, Set<String> names) {
        if (n.isObject()) for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            names.add(f);
            // the keys of counts and checkCounts are the statuses, documented as such
            if (!f.equals("counts") && !f.equals("checkCounts")) collect(n.get(f), names);
        }
        if (n.isArray()) n.forEach(c -> collect(c, names));
    }

    @Test
    void junitXmlHasOneCasePerCheckFailedByItsOwnRootFindings() throws Exception {
        StringWriter w = new StringWriter();
        JunitReport.render(report, w);
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new java.io.ByteArrayInputStream(w.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        Element root = doc.getDocumentElement();
        assertThat(root.getTagName()).isEqualTo("testsuites");
        ReportCounts counts = ReportCounts.of(report);
        NodeList cases = root.getElementsByTagName("testcase");
        assertThat(cases.getLength()).isEqualTo(report.checkStatus().size()).isEqualTo(counts.checks().size());
        assertThat(root.getAttribute("tests")).isEqualTo(String.valueOf(cases.getLength()));
        // failures are the checks whose own (root) status is FAIL: as many as the FAIL badges of the check table
        assertThat(root.getAttribute("failures")).isEqualTo(String.valueOf(counts.checks("FAIL")))
                .isEqualTo(String.valueOf(root.getElementsByTagName("failure").getLength()));
        assertThat(root.getAttribute("errors")).isEqualTo(String.valueOf(counts.checks("ERROR")));
        assertThat(root.getAttribute("skipped")).isEqualTo(String.valueOf(counts.checks("SKIP") + counts.checks("WAIVED")))
                .isEqualTo(String.valueOf(root.getElementsByTagName("skipped").getLength()));
        // memlock is waived, link.width's waiver expired: 8 checks fail (the demo's 9 less memlock)
        assertThat(counts.checks("FAIL")).isEqualTo(8);
        Element width = testcase(doc, "ibaccept.link.width", "link.width");
        Element failure = (Element) width.getElementsByTagName("failure").item(0);
        assertThat(failure.getAttribute("message")).contains("runs at 1X");
        assertThat(failure.getTextContent()).contains("Cause: ").contains("Fix: ").contains("fabric/iblinkinfo.out:").contains("consequence");
        // node11's cable: its EDR link is the root (a failure); its error counts, read once, are history under it: the
        // link.errors case does not fail and says where it is counted
        Element speed = testcase(doc, "ibaccept.link.speed", "link.speed");
        assertThat(((Element) speed.getElementsByTagName("failure").item(0)).getAttribute("message")).contains("runs at EDR");
        Element errors = testcase(doc, "ibaccept.link.errors", "link.errors");
        assertThat(errors.getElementsByTagName("failure").getLength()).isZero();
        assertThat(errors.getElementsByTagName("system-out").item(0).getTextContent()).contains("consequence").contains("since an unknown time");
        Element memlock = testcase(doc, "ibaccept.memlock", "memlock");
        assertThat(((Element) memlock.getElementsByTagName("skipped").item(0)).getAttribute("message")).contains("WAIVED").contains("image fix scheduled");
    }

    @Test
    void junitXmlSurvivesControlCharacters() throws Exception {
        Report r = new Report(report.data(), List.of(new Finding("memlock", "t", Status.FAIL, List.of("node\u0001x"),
                List.of(Evidence.of("bad \u0000 byte \ud800", "f:1")), "s\u001b[31m", "c", "f")));
        StringWriter w = new StringWriter();
        JunitReport.render(r, w);
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new java.io.ByteArrayInputStream(w.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertThat(doc.getElementsByTagName("failure").getLength()).isEqualTo(1);
    }

    private static Element testcase(Document doc, String classname, String name) {
        NodeList all = doc.getElementsByTagName("testcase");
        for (int i = 0; i < all.getLength(); i++) {
            Element e = (Element) all.item(i);
            if (e.getAttribute("classname").equals(classname) && e.getAttribute("name").equals(name)) return e;
        }
        throw new AssertionError("no testcase " + classname + " " + name);
    }
}
