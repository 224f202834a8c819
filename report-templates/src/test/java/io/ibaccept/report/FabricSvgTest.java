package io.ibaccept.report;

import io.ibaccept.analysis.Analysis;
import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.fabric.CablingPlan;
import io.ibaccept.fabric.Fabric;
import io.ibaccept.fabric.FabricBuilder;
import io.ibaccept.fabric.PlanDiff;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.model.Topology;
import io.ibaccept.parse.IblinkinfoParser;
import io.ibaccept.parse.IbnetdiscoverParser;
import io.ibaccept.parse.SourceRef;
import io.ibaccept.parse.Text;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

class FabricSvgTest {
    static Document xml(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    static Fabric demo() throws Exception {
        Path d = Path.of("..", "sample-dumps", "dumps", "demo-hdr16", "fabric");
        return FabricBuilder.build(IbnetdiscoverParser.parse(new Text("fabric/ibnetdiscover.out", Files.readString(d.resolve("ibnetdiscover.out")))),
                IblinkinfoParser.parse(new Text("fabric/iblinkinfo.out", Files.readString(d.resolve("iblinkinfo.out")))), null);
    }

    @Test
    void demoFabricSpinesOnTopEveryHostListedUnderItsLeafWithItsState() throws Exception {
        Analysis an = Analysis.of(io.ibaccept.dump.DumpLoader.load(Path.of("..", "sample-dumps", "dumps", "demo-hdr16")), Analysis.Options.defaults());
        FabricSvg.Picture pic = FabricSvg.layout(FabricSvg.inputs(new ReportFacts(an)));
        String svg = FabricSvg.svg(pic);
        Document doc = xml(svg);
        assertThat(doc.getDocumentElement().getLocalName()).isEqualTo("svg");
        assertThat(svg).contains(">spine01<", ">spine02<", ">leaf01<", ">leaf04<");
        // 8 leaf-spine bundles, all as expected
        assertThat(doc.getElementsByTagName("line").getLength()).isEqualTo(8 + 4); // + 4 legend lines
        assertThat(svg.split(">\u00d72<", -1).length - 1).as("each line of 2 parallel cables says so").isEqualTo(8);
        // few hosts: each one under its leaf, in the colour of the worst finding naming its port or cable: node06 trained at
        // 1X and node11 at EDR (link.width, link.speed FAIL), node03's switch port with only the default P_Key (pkey WARN)
        assertThat(svg).contains("<text class=\"host down\" x=\"").contains(">node06 1X<").contains(">node11 EDR<").contains(">node03 pkey<")
                .contains(">node04<").contains(">node15<");
        assertThat(svg.split("class=\"host ok\"", -1).length - 1).isEqualTo(2 * 10); // a dot and a name per host (node01, node02: the SMs)
        // the two SMs on their hosts, in the colour of sm.priority's WARN (both configured with priority 14)
        assertThat(svg).contains("fill=\"#e07800\" font-size=\"10\">node01 (SM master)<").contains("fill=\"#e07800\" font-size=\"10\">node02 (SM standby)<").contains("<text class=\"host degraded\" x=\"");
        // node16 is in the dump, not in the fabric
        assertThat(svg).contains(">1 host(s) of the dump not in the fabric: node16<");
        int spineY = svg.indexOf(">spine01<"), leafY = svg.indexOf(">leaf01<");
        assertThat(spineY).isLessThan(leafY);
        assertThat(FabricSvg.MAX_WIDTH).isLessThanOrEqualTo(786 * 10 / 8); // 10-unit labels are 8 pt on a landscape A4 page
    }

    @Test
    void missingCableVsPlanIsDashedRed() throws Exception {
        Fabric f = demo();
        PlanDiff.Result plan = PlanDiff.compare(f, CablingPlan.parse(new Text("plan.csv", "leaf01,21,spine02,21,X1\nleaf01,17,spine01,1,A1\n")));
        String svg = FabricSvg.render(f, plan);
        xml(svg);
        assertThat(svg).contains("missing vs plan: leaf01 port 21 &lt;-&gt; spine02 port 21").contains("class=\"down\"");
    }

    @Test
    void twoThousandHostsStayAReadableBoundedPicture() throws Exception {
        // 100 leaves x 20 hosts, 10 spines, 2 uplinks from every leaf to every spine; one hostile node description
        List<Topology.Node> nodes = new ArrayList<>();
        Map<Long, List<Topology.Port>> ports = new HashMap<>();
        SourceRef ref = new SourceRef("fabric/ibnetdiscover.out", 1);
        long spine0 = 0x300000L, leaf0 = 0x200000L, host0 = 0x100000L;
        for (int l = 0; l < 100; l++) {
            for (int h = 0; h < 20; h++) {
                long host = host0 + 2L * (l * 20 + h);
                cable(ports, leaf0 + l, h + 1, "S-", host, 1, "H-", ref);
            }
            for (int s = 0; s < 10; s++)
                for (int k = 0; k < 2; k++) cable(ports, leaf0 + l, 21 + 2 * s + k, "S-", spine0 + s, 2 * l + k + 1, "S-", ref);
        }
        for (int s = 0; s < 10; s++) nodes.add(node(Topology.NodeType.SWITCH, spine0 + s, String.format("spine%02d", s + 1), ports, ref));
        for (int l = 0; l < 100; l++) nodes.add(node(Topology.NodeType.SWITCH, leaf0 + l, l == 7 ? "<leaf&\"008\">" : String.format("leaf%03d", l + 1), ports, ref));
        for (int i = 0; i < 2000; i++) nodes.add(node(Topology.NodeType.CA, host0 + 2L * i, String.format("n%04d HCA-1", i + 1), ports, ref));
        Fabric f = FabricBuilder.build(new Topology(nodes), null, null);
        assertThat(f.cas()).hasSize(2000);
        // one host's port is named by a FAIL finding: its leaf is drawn on its own, the host named in the problem colour
        Map<String, io.ibaccept.analysis.Analysis.PartProblem> problems = Map.of("port:n0412:1", new io.ibaccept.analysis.Analysis.PartProblem(io.ibaccept.rules.Status.FAIL, "port.state"));
        FabricSvg.Picture pic = FabricSvg.layout(new FabricSvg.Inputs(f, null, problems, n -> io.ibaccept.fabric.Fabric.hostPart(n.description()), List.of(), Map.of()));
        String svg = FabricSvg.svg(pic);
        Document doc = xml(svg);
        assertThat(svg.length()).isLessThan(100_000);
        assertThat(pic.width).isLessThanOrEqualTo(FabricSvg.MAX_WIDTH);
        assertThat(svg).contains(">spine01<").contains(">spine03\u201304<").contains(">leaf021<").contains(">1 with problems:<");
        assertThat(svg).contains("class=\"host down\"").contains(">n0412 port.state<");
        assertThat(svg).contains("&lt;leaf&amp;&quot;008&quot;&gt;").doesNotContain("n0001"); // hosts folded, never one line each
        int hosts = 0;
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(">(\\d+) hosts").matcher(svg);
        while (m.find()) hosts += Integer.parseInt(m.group(1));
        assertThat(hosts).isEqualTo(2000);
        assertThat(doc.getElementsByTagName("rect").getLength()).isLessThanOrEqualTo(2 * FabricSvg.MAX_PER_ROW);
        assertThat(pic.caption).contains("folded");
    }

    /** 20,000 hosts on 1,000 leaves under 20 spines, one cable down: the same bounded picture, the fault still named. */
    @Test
    void twentyThousandHostsStayTheSameBoundedPicture() throws Exception {
        Map<Long, List<Topology.Port>> ports = new HashMap<>();
        List<Topology.Node> nodes = new ArrayList<>();
        SourceRef ref = new SourceRef("fabric/ibnetdiscover.out", 1);
        long spine0 = 0x3000000L, leaf0 = 0x2000000L, host0 = 0x1000000L;
        for (int l = 0; l < 1000; l++) {
            for (int h = 0; h < 20; h++) cable(ports, leaf0 + l, h + 1, "S-", host0 + 2L * (l * 20 + h), 1, "H-", ref);
            for (int sp = 0; sp < 20; sp++) cable(ports, leaf0 + l, 21 + sp, "S-", spine0 + sp, l + 1, "S-", ref);
        }
        for (int sp = 0; sp < 20; sp++) nodes.add(node(Topology.NodeType.SWITCH, spine0 + sp, String.format("spine%02d", sp + 1), ports, ref));
        for (int l = 0; l < 1000; l++) nodes.add(node(Topology.NodeType.SWITCH, leaf0 + l, String.format("leaf%04d", l + 1), ports, ref));
        for (int i = 0; i < 20000; i++) nodes.add(node(Topology.NodeType.CA, host0 + 2L * i, String.format("n%05d HCA-1", i + 1), ports, ref));
        Fabric f = FabricBuilder.build(new Topology(nodes), null, null);
        Map<String, io.ibaccept.analysis.Analysis.PartProblem> problems = Map.of("port:leaf0500:23", new io.ibaccept.analysis.Analysis.PartProblem(io.ibaccept.rules.Status.FAIL, "fabric.blocking"));
        FabricSvg.Picture pic = FabricSvg.layout(new FabricSvg.Inputs(f, null, problems, n -> io.ibaccept.fabric.Fabric.hostPart(n.description()), List.of(), Map.of()));
        String svg = FabricSvg.svg(pic);
        xml(svg);
        assertThat(pic.width).isLessThanOrEqualTo(FabricSvg.MAX_WIDTH);
        assertThat(svg.length()).isLessThan(100_000);
        assertThat(pic.rects).filteredOn(r -> r.w() > 10).hasSizeLessThanOrEqualTo(2 * FabricSvg.MAX_PER_ROW);
        // the switch whose port a FAIL names is a box of its own, in the problem colour
        assertThat(pic.labels).filteredOn(l -> "name".equals(l.cls())).extracting(FabricSvg.Label::text).contains("leaf0500");
        assertThat(pic.rects).anyMatch(r -> r.stroke().equals(FabricSvg.FAIL) && r.tooltip().startsWith("leaf0500"));
        int hosts = 0;
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(">([\\d,]+) hosts<").matcher(svg); // "1,000 hosts"
        while (m.find()) hosts += Integer.parseInt(m.group(1).replace(",", ""));
        assertThat(hosts).isEqualTo(20000);
    }

    /**
     * NVIDIA's Selene compute fabric: its management leaves (MLG01-01..05) sit among 140 compute leaves (LG..) and two
     * management spines among the compute spines. A folded box holds one name family, so its label is a run of one.
     */
    @Test
    void aFoldedBoxHoldsOneNameFamily(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path d = tmp.resolve("dump");
        Files.createDirectories(d.resolve("fabric"));
        Path real = Path.of("..", "parsers", "src", "test", "resources", "real", "ibnetdiscover", "ufm-sdk-selene-compute-hdr-666sw-4341ca.txt.gz");
        try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(real))) {
            Files.copy(in, d.resolve("fabric/ibnetdiscover.out"));
        }
        Files.writeString(d.resolve("manifest.txt"), "format: 1\ncluster: selene-compute\nfabric_node: fab\nnodes: fab\n");
        String svg = FabricSvg.svg(FabricSvg.layout(FabricSvg.inputs(new ReportFacts(Analysis.of(io.ibaccept.dump.DumpLoader.load(d))))));
        List<String> labels = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(">([A-Z][A-Z0-9-]*\u2013[A-Z0-9-]+)<").matcher(svg);
        while (m.find()) labels.add(m.group(1));
        assertThat(labels).isNotEmpty().anyMatch(l -> l.startsWith("MLG")).anyMatch(l -> l.startsWith("LG"));
        // a run starting in one family ends in it: "LG22-02\u2013MLG01-05" would say two kinds of switch are one
        assertThat(labels).noneMatch(l -> l.substring(l.indexOf('\u2013') + 1).matches("[A-Z]+.*") && !l.substring(l.indexOf('\u2013') + 1)
                .startsWith(l.replaceAll("[0-9].*", "")));
        // 467 hosts, the DGX with eight HCAs each (and the management hosts; the two UFM appliances are no hosts): hosts and
        // HCAs counted apart, a leaf's count is of HCAs
        assertThat(svg).contains("467 hosts, 3,673 HCAs").doesNotContain("3673 hosts").doesNotContain("3,673 hosts").containsPattern(">[\\d,]+ HCAs<");
    }

    @Test
    void foldedBoxesAreSharedOutByFamilySize() {
        assertThat(FabricSvg.shares(new int[] {140, 5}, 7)).containsExactly(6, 1);
        assertThat(FabricSvg.shares(new int[] {2, 2, 2}, 3)).containsExactly(1, 1, 1);
        // never more boxes than switches
        assertThat(FabricSvg.shares(new int[] {1, 100}, 7)).containsExactly(1, 6);
    }

    @Test
    void runsOfNamesSayTheirCommonPrefixOnce() {
        assertThat(FabricSvg.range("spine0001", "spine0020")).isEqualTo("spine0001\u20130020");
        assertThat(FabricSvg.range("leaf1", "leaf9")).isEqualTo("leaf1\u20139");
        assertThat(FabricSvg.range("a-sw", "b-sw")).isEqualTo("a-sw\u2013b-sw");
    }

    private static void cable(Map<Long, List<Topology.Port>> ports, long a, int pa, String ta, long b, int pb, String tb, SourceRef ref) {
        ports.computeIfAbsent(a, k -> new ArrayList<>()).add(new Topology.Port(pa, 0, 0, tb + String.format("%016x", b), b, pb, "", 0, LinkWidth.X4, LinkSpeed.HDR, ref));
        ports.computeIfAbsent(b, k -> new ArrayList<>()).add(new Topology.Port(pb, 0, 0, ta + String.format("%016x", a), a, pa, "", 0, LinkWidth.X4, LinkSpeed.HDR, ref));
    }

    private static Topology.Node node(Topology.NodeType t, long guid, String desc, Map<Long, List<Topology.Port>> ports, SourceRef ref) {
        return new Topology.Node(t, guid, (t == Topology.NodeType.CA ? "H-" : "S-") + String.format("%016x", guid), desc, 36, 0,
                ports.getOrDefault(guid, List.of()), ref);
    }

    /**
     * The report draws the cable the plan misses from the same comparison fabric.plan judged, so it stays in the
     * picture when a node-name-map renames the switches the plan names (it used to vanish: the picture matched the
     * finding's text against a graph without the names).
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void missingPlannedCableIsDashedInTheReportWithAndWithoutANodeNameMap(boolean renamed) throws Exception {
        String leaf = renamed ? "rack1-leaf01" : "leaf01";
        Analysis.Options o = Analysis.Options.defaults()
                .withPlan(CablingPlan.parse(new Text("plan.csv", leaf + ",21,spine02,21,X1\n" + leaf + ",17,spine01,1,A1\n")));
        if (renamed) o = o.withNames(io.ibaccept.fabric.NodeNameMap.parse(new Text("nnm", "0x0000000000200002 \"rack1-leaf01\"\n")));
        Analysis a = Analysis.of(io.ibaccept.dump.DumpLoader.load(Path.of("..", "sample-dumps", "dumps", "demo-hdr16")), o);
        assertThat(a.report().findings()).filteredOn(f -> f.check().equals("fabric.plan") && f.summary().contains(leaf + " port 21")).isNotEmpty();
        org.jsoup.nodes.Document html = org.jsoup.Jsoup.parse(HtmlReport.render(a));
        org.jsoup.select.Elements dashed = html.select("#fabric svg line[stroke-dasharray]");
        assertThat(dashed.stream().filter(l -> l.text().contains("missing vs plan: " + leaf + " port 21"))).hasSize(1);
        assertThat(html.select("#fabric svg text").text()).contains(leaf);
    }

    @Test
    void htmlReportHasTheFabricSectionBeforeTheNodes() throws Exception {
        io.ibaccept.rules.Report r = new io.ibaccept.rules.RulesEngine(io.ibaccept.rules.RuleConfig.defaults())
                .run(io.ibaccept.dump.DumpLoader.load(Path.of("..", "sample-dumps", "dumps", "demo-hdr16")));
        org.jsoup.nodes.Document html = org.jsoup.Jsoup.parse(HtmlReport.render(Analysis.of(r)));
        assertThat(html.select("#fabric svg.fabric")).hasSize(1);
        assertThat(html.select("#fabric svg text").text()).contains("spine01", "leaf04");
        assertThat(html.getElementById("fabric").nextElementSibling().id()).isEqualTo("nodes");
    }

    @Test
    void pdfReportDrawsTheFabric() throws Exception {
        io.ibaccept.rules.Report r = new io.ibaccept.rules.RulesEngine(io.ibaccept.rules.RuleConfig.defaults())
                .run(io.ibaccept.dump.DumpLoader.load(Path.of("..", "sample-dumps", "dumps", "demo-hdr16")));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        PdfReport.render(Analysis.of(r), out);
        com.lowagie.text.pdf.PdfReader reader = new com.lowagie.text.pdf.PdfReader(out.toByteArray());
        StringBuilder text = new StringBuilder();
        com.lowagie.text.pdf.parser.PdfTextExtractor ex = new com.lowagie.text.pdf.parser.PdfTextExtractor(reader);
        for (int p = 1; p <= reader.getNumberOfPages(); p++) text.append(ex.getTextFromPage(p)).append('\n');
        assertThat(text.toString()).contains("Fabric").contains("6 switches, 15 hosts, 15 HCAs, 31 cables");
        // the drawing is a form XObject holding the switch names, in the embedded font (glyph ids, read back through its ToUnicode map)
        StringBuilder drawn = new StringBuilder();
        for (int i = 1; i < reader.getXrefSize(); i++) {
            com.lowagie.text.pdf.PdfObject o = reader.getPdfObject(i);
            if (o instanceof com.lowagie.text.pdf.PRStream s && com.lowagie.text.pdf.PdfName.FORM.equals(s.getAsName(com.lowagie.text.pdf.PdfName.SUBTYPE)))
                drawn.append(formText(s)).append('\n');
        }
        assertThat(drawn.toString()).contains("spine01").contains("leaf04");
    }

    /** The strings a form XObject shows, decoded with the fonts of its resources. */
    static String formText(com.lowagie.text.pdf.PRStream form) throws java.io.IOException {
        com.lowagie.text.pdf.PdfDictionary fonts = form.getAsDict(com.lowagie.text.pdf.PdfName.RESOURCES).getAsDict(com.lowagie.text.pdf.PdfName.FONT);
        java.util.Map<String, com.lowagie.text.pdf.CMapAwareDocumentFont> byName = new java.util.HashMap<>();
        for (com.lowagie.text.pdf.PdfName n : fonts.getKeys())
            byName.put(n.toString(), new com.lowagie.text.pdf.CMapAwareDocumentFont((com.lowagie.text.pdf.PRIndirectReference) fonts.get(n)));
        com.lowagie.text.pdf.PRTokeniser tk = new com.lowagie.text.pdf.PRTokeniser(com.lowagie.text.pdf.PdfReader.getStreamBytes(form));
        StringBuilder out = new StringBuilder();
        com.lowagie.text.pdf.CMapAwareDocumentFont font = null;
        String lastName = null;
        while (tk.nextToken()) {
            if (tk.getTokenType() == com.lowagie.text.pdf.PRTokeniser.TK_NAME) lastName = "/" + tk.getStringValue();
            else if (tk.getTokenType() == com.lowagie.text.pdf.PRTokeniser.TK_OTHER && tk.getStringValue().equals("Tf")) font = byName.get(lastName);
            else if (tk.getTokenType() == com.lowagie.text.pdf.PRTokeniser.TK_STRING && font != null) {
                byte[] b = tk.getStringValue().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
                out.append(font.decode(b, 0, b.length)).append(' ');
            }
        }
        return out.toString();
    }
}
