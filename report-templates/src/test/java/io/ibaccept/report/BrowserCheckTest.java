package io.ibaccept.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ibaccept.analysis.Analysis;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.samples.SyntheticDump;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The reports looked at as a person would: report.html in headless Chromium at 1,280 px and report.pdf through
 * poppler's pdftotext. A probe script added to a copy of the page measures the layout after load (no horizontal
 * overflow, every SVG inside its section), records console and load errors, and reads the computed colour of the
 * down host in the fabric picture and of the bad pair in the heat map. The PDF must carry "page X of Y" on every page
 * and no two words may overlap. Screenshots and the reports stay under target/browser-check for a person to look at.
 * Skipped without Chromium or pdftotext unless IBACCEPT_REQUIRE_BROWSER=1 (CI installs both, so a skip there would hide a loss).
 */
class BrowserCheckTest {
    static final Path OUT = Path.of("target", "browser-check");
    static final int WIDTH = 1280;
    static final String FAIL_RGB = "rgb(214, 39, 40)"; // FabricSvg.FAIL
    static final ObjectMapper JSON = new ObjectMapper();

    static Path tool(String env, String path) {
        String p = System.getenv(env);
        Path t = Path.of(p == null || p.isBlank() ? path : p);
        boolean ok = Files.isExecutable(t);
        if (!ok && "1".equals(System.getenv("IBACCEPT_REQUIRE_BROWSER")))
            throw new AssertionError("IBACCEPT_REQUIRE_BROWSER=1 but " + t + " is not installed (Debian: chromium, poppler-utils)");
        assumeTrue(ok, t + " not installed");
        return t;
    }

    /**
     * name, dump ("synthetic" for a generated 2,000-node fabric, "selene" for the Selene compute capture), a host drawn as down or absent in the fabric picture,
     * the bad pair named under the heat map ("-" when the dump has no pair test with a bad pair).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "demo, ../sample-dumps/dumps/demo-hdr16, node16, node07 \u2013 node08",
            "synthetic-2000, synthetic, cn0667, cn0401 \u2013 cn0402",
            "real-captures, ../sample-dumps/dumps/real-captures, a100-gpud, -",
            "selene-compute, selene, CSPINE1-71, -"})
    void reportReadsRightInARealBrowserAndItsPdfHasNoOverlappingText(String name, String dump, String downHost, String badPair,
                                                                     @TempDir Path tmp) throws Exception {
        Path chromium = tool("IBACCEPT_CHROMIUM", "/usr/bin/chromium"), pdftotext = tool("IBACCEPT_PDFTOTEXT", "/usr/bin/pdftotext");
        Path dir = OUT.resolve(name);
        deleteTree(dir);
        Files.createDirectories(dir);
        Path dumpDir = dump.equals("synthetic") || dump.equals("selene") ? tmp.resolve("dump") : Path.of(dump);
        if (dump.equals("synthetic")) SyntheticDump.generate(dumpDir, 2000, true);
        if (dump.equals("selene")) seleneCompute(dumpDir);
        ReportWriter.Written w = ReportWriter.write(Analysis.of(DumpLoader.load(dumpDir)), dir);
        assertThat(w.errors()).isEmpty();

        Path probe = dir.resolve("probe.html");
        Files.writeString(probe, withProbe(Files.readString(dir.resolve("report.html"))));
        JsonNode r = measure(chromium, probe, tmp.resolve("profile"));
        screenshot(chromium, dir.resolve("report.html"), dir.resolve(name + ".png"), tmp.resolve("profile2"));

        assertThat(r.get("errors")).as("console and load errors").isEmpty();
        assertThat(r.get("scrollWidth").asInt()).as("page width at %d px", WIDTH).isLessThanOrEqualTo(r.get("viewport").asInt());
        for (JsonNode s : r.get("svgs"))
            assertThat(s.get("left").asDouble() >= s.get("cardLeft").asDouble() - 0.5 && s.get("right").asDouble() <= s.get("cardRight").asDouble() + 0.5)
                    .as("SVG %s inside its section: %s", s.get("what").asText(), s).isTrue();
        assertThat(r.get("svgs").size()).isGreaterThan(0);
        List<String> downTexts = new ArrayList<>();
        for (JsonNode t : r.get("fabricProblems")) if (t.get("fill").asText().equals(FAIL_RGB)) downTexts.add(t.get("text").asText());
        assertThat(downTexts).as("texts of the fabric picture in the FAIL colour").anyMatch(t -> t.contains(downHost));
        if (!badPair.equals("-")) {
            List<String> pairs = new ArrayList<>();
            for (JsonNode t : r.get("badPairs")) pairs.add(t.asText());
            assertThat(pairs).as("bad pairs listed under the heat map").anyMatch(t -> t.startsWith(badPair));
            assertThat(r.get("badOutlines").asInt()).as("bad pair cells outlined").isGreaterThanOrEqualTo(1);
            assertThat(r.get("badPairFills")).as("the bad pair's marker is in a red bin").anySatisfy(f ->
                    assertThat(f.asText()).isIn("rgb(232, 88, 43)", "rgb(198, 40, 40)", "rgb(109, 16, 40)"));
        }

        // the PDF: a footer on every page, no two words on top of each other
        Path bbox = dir.resolve("report.bbox.html");
        run(List.of(pdftotext.toString(), "-bbox", dir.resolve("report.pdf").toString(), bbox.toString()), 120);
        List<List<double[]>> pages = new ArrayList<>();
        List<List<String>> words = new ArrayList<>();
        Matcher m = Pattern.compile("<page |<word xMin=\"([\\d.]+)\" yMin=\"([\\d.]+)\" xMax=\"([\\d.]+)\" yMax=\"([\\d.]+)\">([^<]*)</word>")
                .matcher(Files.readString(bbox));
        while (m.find()) {
            if (m.group().startsWith("<page")) {
                pages.add(new ArrayList<>());
                words.add(new ArrayList<>());
                continue;
            }
            pages.get(pages.size() - 1).add(new double[] {d(m.group(1)), d(m.group(2)), d(m.group(3)), d(m.group(4))});
            words.get(words.size() - 1).add(m.group(5));
        }
        assertThat(pages).isNotEmpty();
        // page 1 is the signed page: the verdict and the signature block on it, whatever the size of the dump
        String first = String.join(" ", words.get(0));
        assertThat(first).as("page 1").contains("ACCEPTED").contains("Signatures").contains("Integrator").contains("Customer").contains("Remarks");
        for (int p = 0; p < pages.size(); p++) {
            String text = String.join(" ", words.get(p));
            assertThat(text).as("footer of page %d", p + 1).contains("page " + (p + 1) + " of " + pages.size());
            List<double[]> b = pages.get(p);
            for (int i = 0; i < b.size(); i++)
                for (int j = i + 1; j < b.size(); j++)
                    assertThat(overlap(b.get(i), b.get(j)))
                            .as("page %d: '%s' and '%s' overlap", p + 1, words.get(p).get(i), words.get(p).get(j)).isLessThan(0.25);
        }
    }

    /**
     * NVIDIA's Selene compute fabric as captured (666 switches, 4,341 CAs; parsers' real samples, SOURCES.md there),
     * collected from one of its login nodes: the long names and hostlists of a real fabric of that size.
     */
    static void seleneCompute(Path dir) throws IOException {
        Files.createDirectories(dir.resolve("fabric"));
        try (java.io.InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(
                Path.of("..", "parsers", "src", "test", "resources", "real", "ibnetdiscover", "ufm-sdk-selene-compute-hdr-666sw-4341ca.txt.gz")))) {
            Files.copy(in, dir.resolve("fabric/ibnetdiscover.out"));
        }
        Files.writeString(dir.resolve("manifest.txt"), "format: 1\ncluster: selene\nfabric_node: selene-login-01\nnodes: selene-login-01\n");
    }

    /** The share of the smaller box covered by the other. */
    static double overlap(double[] a, double[] b) {
        double w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]), h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
        if (w <= 0 || h <= 0) return 0;
        double small = Math.min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]));
        return small <= 0 ? 0 : w * h / small;
    }

    private static double d(String s) {
        return Double.parseDouble(s);
    }

    static final String HEAD_PROBE = "<script>window.__errs=[];"
            + "window.addEventListener('error',function(e){var t=e.target;__errs.push(t&&t!==window?'load: '+(t.src||t.href||t.tagName):'error: '+e.message);},true);"
            + "var __ce=console.error;console.error=function(){__errs.push('console.error: '+Array.prototype.join.call(arguments,' '));__ce.apply(console,arguments);};"
            + "</script>";

    static final String BODY_PROBE = "<script>window.addEventListener('load',function(){"
            + "var r={viewport:window.innerWidth,scrollWidth:document.documentElement.scrollWidth,errors:window.__errs,svgs:[],fabricProblems:[],badPairs:[],badPairFills:[],badOutlines:0};"
            + "document.querySelectorAll('svg').forEach(function(s){var c=s.closest('section')||document.body,b=s.getBoundingClientRect(),cb=c.getBoundingClientRect();"
            + "r.svgs.push({what:(c.id||'')+' '+(s.getAttribute('class')||''),left:b.left,right:b.right,cardLeft:cb.left,cardRight:cb.right});});"
            + "document.querySelectorAll('svg.fabric text').forEach(function(t){if(/down|absent|FAIL/.test(t.getAttribute('class')||''))"
            + "r.fabricProblems.push({text:t.firstChild?t.firstChild.nodeValue:'',fill:getComputedStyle(t).fill});});"
            + "document.querySelectorAll('text.bad-pair').forEach(function(t){r.badPairs.push(t.textContent);});"
            + "document.querySelectorAll('rect.bad-pair').forEach(function(t){r.badPairFills.push(getComputedStyle(t).fill);});"
            + "r.badOutlines=document.querySelectorAll('rect.bad').length;"
            + "var pre=document.createElement('pre');pre.id='probe-result';pre.textContent=JSON.stringify(r);document.body.appendChild(pre);});</script>";

    static String withProbe(String html) {
        int head = html.indexOf("<head>"), body = html.lastIndexOf("</body>");
        assertThat(head).isNotNegative();
        assertThat(body).isNotNegative();
        return html.substring(0, head + 6) + HEAD_PROBE + html.substring(head + 6, body) + BODY_PROBE + html.substring(body);
    }

    static List<String> chromium(Path chromium, Path profile) {
        return new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                "--user-data-dir=" + profile.toAbsolutePath(), "--virtual-time-budget=15000"));
    }

    static JsonNode measure(Path chromium, Path page, Path profile) throws Exception {
        List<String> cmd = chromium(chromium, profile);
        cmd.addAll(List.of("--window-size=" + WIDTH + ",1000", "--dump-dom", page.toAbsolutePath().toUri().toString()));
        String dom = run(cmd, 180);
        Matcher m = Pattern.compile("<pre id=\"probe-result\">(.*?)</pre>", Pattern.DOTALL).matcher(dom);
        assertThat(m.find()).as("probe result in the DOM Chromium printed").isTrue();
        return JSON.readTree(org.jsoup.parser.Parser.unescapeEntities(m.group(1), false));
    }

    static void screenshot(Path chromium, Path page, Path png, Path profile) throws Exception {
        List<String> cmd = chromium(chromium, profile);
        cmd.addAll(List.of("--window-size=" + WIDTH + ",3000", "--screenshot=" + png.toAbsolutePath(), page.toAbsolutePath().toUri().toString()));
        run(cmd, 180);
        assertThat(png).exists();
    }

    /**
     * Runs a command to its end (generous deadline: CI machines are loaded) and returns its stdout. On the deadline the
     * process and every process it started (Chromium's renderers) are killed by PID.
     */
    static String run(List<String> cmd, int seconds) throws Exception {
        Path out = Files.createTempFile("browser-check", ".out"), err = Files.createTempFile("browser-check", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            p.getOutputStream().close();
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new AssertionError(cmd.get(0) + " did not finish in " + seconds + " s");
            }
            assertThat(p.exitValue()).as("%s exit code; stderr: %s", cmd.get(0), Files.readString(err)).isZero();
            return Files.readString(out);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
