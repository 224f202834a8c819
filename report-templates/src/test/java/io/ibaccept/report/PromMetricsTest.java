package io.ibaccept.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ibaccept.analysis.Analysis;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.dump.Manifest;
import io.ibaccept.model.ClusterData;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.counters.LinkErrorsWindow;
import io.ibaccept.rules.counters.LinkWindowRow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ibaccept.prom read back by real parsers of the format: the Python Prometheus client's OpenMetrics parser and its
 * parser of the text format 0.0.4 (Debian python3-prometheus-client), which must agree, and promtool check metrics
 * (prometheus/common's parser, the one node_exporter's textfile collector uses) when it is installed. Skipped without
 * the Python client unless IBACCEPT_REQUIRE_SIM=1, where CI installs it and a skip would hide a loss.
 */
class PromMetricsTest {
    static final ObjectMapper JSON = new ObjectMapper();

    /** Prints, per parser, each family's name, type, help and samples (name, labels, value) as JSON. */
    static final String PARSE = """
            import json, sys
            from prometheus_client.openmetrics.parser import text_string_to_metric_families as openmetrics
            from prometheus_client.parser import text_string_to_metric_families as text004
            text = open(sys.argv[1], encoding='utf-8').read()
            def fams(parse):
                return [{'name': f.name, 'type': f.type, 'help': f.documentation,
                         'samples': [{'name': s.name, 'labels': s.labels, 'value': float(s.value)} for s in f.samples]} for f in parse(text)]
            print(json.dumps({'openmetrics': fams(openmetrics), 'text004': fams(text004)}))
            """;

    static Path python() {
        String p = System.getenv("IBACCEPT_PYTHON3");
        Path py = Path.of(p == null || p.isBlank() ? "/usr/bin/python3" : p);
        boolean ok = Files.isExecutable(py) && run(List.of(py.toString(), "-c", "import prometheus_client.openmetrics.parser"), null).code == 0;
        if (!ok && "1".equals(System.getenv("IBACCEPT_REQUIRE_SIM")))
            throw new AssertionError("IBACCEPT_REQUIRE_SIM=1 but " + py + " cannot import prometheus_client (Debian: python3-prometheus-client)");
        assumeTrue(ok, py + " with prometheus_client not installed");
        return py;
    }

    record Ran(int code, String out) {}

    static Ran run(List<String> cmd, Path stdin) {
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            if (stdin != null) pb.redirectInput(stdin.toFile());
            Process p = pb.start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(cmd + " did not finish in 120 s");
            }
            return new Ran(p.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new Ran(-1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The file as both Python parsers read it; they must read the same families and samples. */
    static JsonNode parsed(Path prom, Path tmp) throws IOException {
        Path script = tmp.resolve("parse.py");
        Files.writeString(script, PARSE);
        Ran r = run(List.of(python().toString(), script.toString(), prom.toString()), null);
        assertThat(r.code()).as("python parsers: %s", r.out()).isZero();
        JsonNode j = JSON.readTree(r.out());
        assertThat(j.get("openmetrics")).isEqualTo(j.get("text004"));
        promtool(prom);
        return j.get("openmetrics");
    }

    /** promtool check metrics: parsed as node_exporter parses it, and linted; only where promtool is installed. */
    static void promtool(Path prom) {
        String p = System.getenv("IBACCEPT_PROMTOOL");
        Path tool = Path.of(p == null || p.isBlank() ? "/usr/bin/promtool" : p);
        if (!Files.isExecutable(tool)) return;
        Ran r = run(List.of(tool.toString(), "check", "metrics"), prom);
        assertThat(r.code()).as("promtool check metrics: %s", r.out()).isZero();
        assertThat(r.out()).isBlank();
    }

    /** family -> (labels as "k=v,k=v" in file order -> value) */
    static Map<String, Map<String, Double>> samples(JsonNode families) {
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        for (JsonNode f : families) {
            assertThat(f.get("name").asText()).startsWith("ibaccept_");
            assertThat(f.get("type").asText()).isEqualTo("gauge");
            assertThat(f.get("help").asText()).isNotBlank();
            Map<String, Double> m = out.computeIfAbsent(f.get("name").asText(), k -> new LinkedHashMap<>());
            for (JsonNode s : f.get("samples")) {
                List<String> kv = new ArrayList<>();
                s.get("labels").fields().forEachRemaining(e -> kv.add(e.getKey() + "=" + e.getValue().asText()));
                assertThat(m.put(String.join(",", kv), s.get("value").asDouble())).as("duplicate sample %s", kv).isNull();
            }
        }
        return out;
    }

    static double sum(Map<String, Double> m, String labelPart) {
        return m.entrySet().stream().filter(e -> e.getKey().contains(labelPart)).mapToDouble(Map.Entry::getValue).sum();
    }

    @Test
    void demoMetricsParseInBothFormatsAndCountAsTheReportCounts(@TempDir Path tmp) throws Exception {
        Analysis a = Analysis.of(DumpLoader.load(ReportRenderingTest.DEMO));
        Path out = tmp.resolve("out");
        ReportWriter.Written w = ReportWriter.write(a, out);
        assertThat(w.errors()).isEmpty();
        Path prom = out.resolve("ibaccept.prom");
        assertThat(w.files()).contains(prom);
        // beside junit.xml, in the set that replaces the previous run's as a whole; no staging directory is left behind
        try (Stream<Path> s = Files.list(out)) {
            assertThat(s.map(p -> p.getFileName().toString())).contains("junit.xml", "ibaccept.prom").noneMatch(n -> n.startsWith("."));
        }
        String text = Files.readString(prom);
        assertThat(text).endsWith("\n# EOF\n").doesNotContain("\n\n");

        Map<String, Map<String, Double>> m = samples(parsed(prom, tmp));
        // the demo's counts as the README states them: 9 checks fail with 9 root FAIL findings, 15 consequences
        assertThat(m.get("ibaccept_verdict")).containsEntry("verdict=REJECTED", 1.0).containsEntry("verdict=ACCEPTED", 0.0).hasSize(5);
        assertThat(m.get("ibaccept_accepted")).containsExactly(Map.entry("", 0.0));
        assertThat(m.get("ibaccept_checks")).containsEntry("status=FAIL", 9.0);
        assertThat(sum(m.get("ibaccept_root_findings"), "status=FAIL")).isEqualTo(9.0);
        assertThat(m.get("ibaccept_check_status")).containsEntry("check=port.state,status=FAIL", 1.0)
                .containsEntry("check=perftest.bw,status=CONSEQUENCE", 1.0);
        assertThat(m.get("ibaccept_consequence_findings").values().stream().mapToDouble(Double::doubleValue).sum()).isEqualTo(15.0);
        // the same counts as junit.xml and the analysis itself
        ReportCounts c = ReportCounts.of(a.report());
        assertThat(Files.readString(out.resolve("junit.xml"))).contains("failures=\"" + c.checks("FAIL") + "\"");
        for (String s : ReportCounts.CHECK_STATES) assertThat(m.get("ibaccept_checks")).containsEntry("status=" + s, (double) c.checks(s));
        for (Status s : Status.values()) assertThat(sum(m.get("ibaccept_root_findings"), "status=" + s.name() + "")).as("%s", s)
                .isEqualTo((double) c.findings(s));
        assertThat(m.get("ibaccept_check_status")).hasSize(c.checks().size());
        // the coverage the first page states: link.errors.window has no counter window
        assertThat(m.get("ibaccept_coverage_gap")).containsKey("check=link.errors.window");
        assertThat(m.get("ibaccept_coverage_required_checks").get("")).isEqualTo((double) a.report().coverage().required().size());
        assertThat(m.get("ibaccept_dump_info").keySet()).singleElement().satisfies(k -> assertThat(k)
                .contains("dump_id=" + a.dumpId()).contains("cluster=demo-hdr16").contains("collected=2026-12-02T14:04:08"));
        assertThat(m.get("ibaccept_collection_timestamp_seconds").get("")).isEqualTo(1796220248.0);
        // no counter window in the demo: no BER metric
        assertThat(m).doesNotContainKeys("ibaccept_link_symbol_ber_worst", "ibaccept_window_links");
    }

    /** One "perfquery LID PORT" block (PortCounters) as infiniband-diags prints it. */
    static String block(int lid, int port, Map<String, Long> values) {
        StringBuilder sb = new StringBuilder("# Port counters: Lid " + lid + " port " + port + " (CapMask: 0x1300)\n");
        sb.append(line("PortSelect", port)).append("CounterSelect:...................0x0000\n");
        for (String n : List.of("SymbolErrorCounter", "LinkErrorRecoveryCounter", "LinkDownedCounter", "PortRcvErrors",
                "PortRcvRemotePhysicalErrors", "PortRcvSwitchRelayErrors", "PortXmitDiscards", "PortXmitConstraintErrors",
                "PortRcvConstraintErrors", "LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors", "QP1Dropped",
                "VL15Dropped", "PortXmitData", "PortRcvData", "PortXmitPkts", "PortRcvPkts", "PortXmitWait"))
            sb.append(line(n, values.getOrDefault(n, 0L)));
        return sb.toString();
    }

    /** One "perfquery -x LID PORT" block with the 64-bit data counters. */
    static String ext(int lid, int port, long data) {
        return "# Port extended counters: Lid " + lid + " port " + port + " (CapMask: 0x1300 CapMask2: 0x0000000)\n"
                + line("PortSelect", port) + "CounterSelect:...................0x0000\n" + line("PortXmitData", data)
                + line("PortRcvData", data) + line("PortXmitPkts", 0) + line("PortRcvPkts", 0) + line("PortUnicastXmitPkts", 0)
                + line("PortUnicastRcvPkts", 0) + line("PortMulticastXmitPkts", 0) + line("PortMulticastRcvPkts", 0);
    }

    static String line(String name, long value) {
        return name + ":" + ".".repeat(Math.max(1, 32 - name.length())) + value + "\n";
    }

    static String meta(String name, String started) {
        return "name: " + name + "\nhost: node01\ncommand: perfquery\nstatus: ok\nexit: 0\nduration_ms: 2000\nstarted: " + started + "\n";
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t);
            }
        }
    }

    @Test
    void counterWindowGivesTheWorstBerAndTheProvenBoundPerLinkClass(@TempDir Path tmp) throws Exception {
        // the demo with a 10-minute counter window: node13's cable (leaf04 port 1, LID 9) took 5 symbol errors while
        // receiving 1e11 x 4 octets; node14's (leaf04 port 2 / LID 20) and leaf04-spine01 (LID 9 port 17 / LID 2 port 7)
        // carried the same without errors
        Path dump = tmp.resolve("dump");
        copyTree(ReportRenderingTest.DEMO, dump);
        long d = 100_000_000_000L;
        int[][] ports = {{9, 1}, {19, 1}, {9, 2}, {20, 1}, {9, 17}, {2, 7}};
        StringBuilder start = new StringBuilder(), end = new StringBuilder();
        for (int[] p : ports) {
            start.append(block(p[0], p[1], Map.of())).append(ext(p[0], p[1], 0));
            end.append(block(p[0], p[1], p[0] == 9 && p[1] == 1 ? Map.of("SymbolErrorCounter", 5L) : Map.of())).append(ext(p[0], p[1], d));
        }
        Files.writeString(dump.resolve("fabric/counters-start.out"), start);
        Files.writeString(dump.resolve("fabric/counters-start.meta"), meta("counters-start", "2026-12-02T15:00:00Z"));
        Files.writeString(dump.resolve("fabric/counters-end.out"), end);
        Files.writeString(dump.resolve("fabric/counters-end.meta"), meta("counters-end", "2026-12-02T15:10:00Z"));
        Analysis a = Analysis.of(DumpLoader.load(dump));
        List<LinkWindowRow> rows = a.linkWindow();
        assertThat(rows).filteredOn(r -> !r.snapshotOnly()).hasSize(3);
        Path out = tmp.resolve("out");
        assertThat(ReportWriter.write(a, out).errors()).isEmpty();

        Map<String, Map<String, Double>> m = samples(parsed(out.resolve("ibaccept.prom"), tmp));
        assertThat(m.get("ibaccept_window_links")).containsEntry("link_class=host", 2.0).containsEntry("link_class=switch_to_switch", 1.0);
        // 5 errors over 3.2e12 bits
        assertThat(m.get("ibaccept_link_symbol_ber_worst")).containsOnlyKeys("link_class=host");
        assertThat(m.get("ibaccept_link_symbol_ber_worst").get("link_class=host")).isCloseTo(5 / 3.2e12, org.assertj.core.data.Percentage.withPercentage(0.01));
        // both classes had an error-free link that carried 3.2e12 bits: the bound link.errors.window states for that (9.4e-13)
        for (LinkErrorsWindow.ClassBer c : LinkErrorsWindow.perClass(rows))
            assertThat(m.get("ibaccept_link_symbol_ber_proven_bound").get("link_class=" + (c.switchToSwitch() ? "switch_to_switch" : "host")))
                    .isEqualTo(c.provenBound()).isCloseTo(9.4e-13, org.assertj.core.data.Percentage.withPercentage(1));
        // and node13's cable is the window's finding
        assertThat(a.report().findings()).filteredOn(f -> f.check().equals("link.errors.window") && f.status() != Status.PASS)
                .singleElement().satisfies(f -> assertThat(f.objects()).contains("leaf04 port 1"));
    }

    @Test
    void labelValuesFromTheDumpAreEscapedAndReadBackAsWritten(@TempDir Path tmp) throws Exception {
        // a cluster name and check ids as a damaged or hostile dump could carry them
        String cluster = "lab \"A\" \\ hall\n2";
        String quote = "evil\"check", backslash = "back\\slash\\n", newline = "new\nline", lone = "lone\uD800x", cr = "cr\rx";
        ClusterData base = DumpLoader.load(ReportRenderingTest.DEMO);
        Manifest mf = base.manifest();
        ClusterData data = new ClusterData(base.source(), new Manifest(mf.format(), cluster, mf.created(), mf.collector(), mf.fabricNode(),
                mf.nodes(), mf.toolVersions(), mf.state()), base.hosts(), base.fabric(), base.perftests(), base.commands(), base.problems());
        List<Finding> fs = new ArrayList<>();
        for (String check : List.of(quote, backslash, newline, lone, cr))
            fs.add(new Finding(check, "t", Status.FAIL, List.of("node01"), List.of(), "s", "c", "f"));
        Path out = tmp.resolve("out");
        assertThat(ReportWriter.write(Analysis.of(new Report(data, fs)), out).errors()).isEmpty();
        Path prom = out.resolve("ibaccept.prom");
        String text = Files.readString(prom);
        assertThat(text).contains("check=\"evil\\\"check\"").contains("check=\"back\\\\slash\\\\n\"").contains("check=\"new\\nline\"")
                .contains("cluster=\"lab \\\"A\\\" \\\\ hall\\n2\"");
        assertThat(text.lines()).allSatisfy(l -> assertThat(l).matches("(# (HELP|TYPE|EOF).*|ibaccept_[a-z_]+(\\{.*\\})? \\S+)"));

        JsonNode fams = parsed(prom, tmp);
        List<String> checks = new ArrayList<>();
        String clusterRead = null;
        for (JsonNode f : fams)
            for (JsonNode s : f.get("samples")) {
                if (f.get("name").asText().equals("ibaccept_check_status")) checks.add(s.get("labels").get("check").asText());
                if (f.get("name").asText().equals("ibaccept_dump_info")) clusterRead = s.get("labels").get("cluster").asText();
            }
        // escaped characters come back as written; a lone surrogate and a carriage return become U+FFFD
        assertThat(checks).containsExactly(quote, backslash, newline, "lone\uFFFDx", "cr\uFFFDx");
        assertThat(clusterRead).isEqualTo(cluster);
    }

    @Test
    void numbersAreWholeOrShortestWithALowerCaseExponent() {
        assertThat(PromMetrics.number(9)).isEqualTo("9");
        assertThat(PromMetrics.number(1796220248)).isEqualTo("1796220248");
        assertThat(PromMetrics.number(1.5625e-12)).isEqualTo("1.5625e-12");
        assertThat(PromMetrics.number(0.5)).isEqualTo("0.5");
    }
}
