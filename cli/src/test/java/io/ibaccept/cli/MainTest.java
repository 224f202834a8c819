package io.ibaccept.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
    static final Path DEMO = Path.of("..", "sample-dumps", "dumps", "demo-hdr16");

    /** A copy of the demo dump at target, for tests that damage or extend it. */
    static Path copyOfDemo(Path target) throws java.io.IOException {
        try (java.util.stream.Stream<Path> s = Files.walk(DEMO)) {
            for (Path f : s.toList()) {
                Path t = target.resolve(DEMO.relativize(f).toString());
                if (Files.isDirectory(f)) Files.createDirectories(t);
                else Files.copy(f, t);
            }
        }
        return target;
    }

    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(o, true), new PrintStream(e, true));
        return new Run(code, o.toString(), e.toString());
    }

    @Test
    void analyzeDemoWritesAllReports(@TempDir Path out) {
        Run r = run("analyze", DEMO.toString(), "-o", out.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).startsWith("NOT ACCEPTED").contains("FAIL link.width").contains("wrote " + out.resolve("report.pdf"));
        assertThat(out.resolve("report.html")).exists();
        assertThat(out.resolve("report.pdf")).exists();
        assertThat(out.resolve("findings.csv")).exists();
    }

    /**
     * One analyze, every report written: the fabric graph (with the node-name-map), its fat-tree reading, the routing
     * walk, the plan comparison and the RDMA analysis are each derived exactly once, whoever asks for them (checks,
     * HTML, PDF, CSV and ops outputs on two threads).
     */
    @Test
    void eachFactIsDerivedOncePerAnalyze(@TempDir Path tmp) throws Exception {
        Path plan = Files.writeString(tmp.resolve("plan.csv"), "rack1-leaf01,21,spine02,21,X1\nrack1-leaf01,17,spine01,1,A1\n");
        Path names = Files.writeString(tmp.resolve("nnm"), "0x0000000000200002 \"rack1-leaf01\"\n");
        Run r = run("analyze", DEMO.toString(), "-o", tmp.resolve("out").toString(), "--expect", plan.toString(),
                "--node-name-map", names.toString(), "--timings");
        assertThat(r.code()).isEqualTo(1);
        java.util.List<String> derived = r.err().lines().filter(l -> l.matches("derived \\S+ wall_ms=\\d+")).map(l -> l.split(" ")[1]).toList();
        assertThat(derived).doesNotHaveDuplicates()
                .contains("fabric_graph", "fat_tree", "routing_walk", "port_index", "plan_diff", "rdma_analysis", "rdma_leaves");
        assertThat(Files.readString(tmp.resolve("out").resolve("report.html"))).contains("missing vs plan: rack1-leaf01 port 21");
    }

    @Test
    void unusableInputGivesAClearMessageAndNoStackTrace(@TempDir Path tmp) throws Exception {
        Run missing = run("analyze", tmp.resolve("nope").toString(), "-o", tmp.resolve("o").toString());
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).isEqualTo("ibaccept: " + tmp.resolve("nope") + ": not a dump directory (does not exist or is not a directory)\n");
        Files.writeString(tmp.resolve("r.properties"), "perftest.bw.min_pct=90\n");
        Run rules = run("analyze", DEMO.toString(), "-o", tmp.resolve("o").toString(), "--rules", tmp.resolve("r.properties").toString());
        assertThat(rules.code()).isEqualTo(2);
        assertThat(rules.err()).contains("r.properties:1: unknown rule setting 'perftest.bw.min_pct'").doesNotContain("\tat ");
        Run noOut = run("analyze", DEMO.toString());
        assertThat(noOut.code()).isEqualTo(2);
        assertThat(noOut.err()).startsWith("ibaccept: Missing required option: '--output=DIR'").contains("Try 'ibaccept analyze --help'");
        assertThat(run("frobnicate").code()).isEqualTo(2);
        Files.writeString(tmp.resolve("afile"), "x");
        Run unwritable = run("analyze", DEMO.toString(), "-o", tmp.resolve("afile").resolve("sub").toString());
        assertThat(unwritable.code()).isEqualTo(2);
        assertThat(unwritable.err()).isEqualTo("ibaccept: " + tmp.resolve("afile/sub") + ": cannot create the output directory (not a directory)\n");
        assertThat(run("collect", "--nodes", "n[1-", "-o", "x").err()).isEqualTo("ibaccept: hostlist 'n[1-': missing ']'\n");
    }

    @Test
    void brokenDumpStillYieldsAReport(@TempDir Path tmp) throws Exception {
        Path d = tmp.resolve("d");
        Files.createDirectories(d.resolve("nodes/x1"));
        Files.writeString(d.resolve("manifest.txt"), "format: 1\ncluster: broken\nnodes: x1 x2\n");
        Files.writeString(d.resolve("nodes/x1/ibstat.out"), "\u0000\u0001garbage");
        Run r = run("analyze", d.toString(), "-o", tmp.resolve("o").toString());
        // nothing failed, but inputs were broken: INCOMPLETE has its own exit code
        assertThat(r.code()).isEqualTo(Main.INCOMPLETE).isEqualTo(4);
        assertThat(r.out()).startsWith("INCOMPLETE").contains("ERROR input: ibstat: nodes/x1/ibstat.out: binary content");
        assertThat(tmp.resolve("o/report.html")).exists();
        assertThat(Files.readString(tmp.resolve("o/report.html"))).contains("INCOMPLETE");
    }

    @Test
    void benchRunsFreshAndWarmAnalysesOfARealFatTree() {
        Run r = run("bench", "--nodes", "50", "--runs", "2", "--fresh-runs", "1");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("generated 50-node dump").contains("2-level fat tree, 50 hosts, 3 leaves, 2 spines, 60 switch-to-switch links")
                .containsPattern("fresh 1: +wall +\\d+ ms, cpu +\\d+ ms, peak RSS +[1-9]\\d* MiB \\| load\\+parse \\d+/\\d+ ms, rules \\d+/\\d+ ms, reports \\d+/\\d+ ms")
                .containsPattern("warm 2: +wall +\\d+ ms, cpu +\\d+ ms, peak heap +\\d+ MiB")
                .containsPattern("reports: .*findings.csv [\\d.]+ KiB, .*report.html [\\d.]+ KiB, report.pdf [\\d.]+ KiB.*; \\d+ findings, verdict NOT ACCEPTED");
    }

    @Test
    void waiversAndCoverPage(@TempDir Path tmp) throws Exception {
        // waive every failing and warning check of the demo: accepted with waivers, exit 0, the cover names the customer
        // the checks to waive come from this build's own findings (the golden file is regenerated separately)
        assertThat(run("analyze", DEMO.toString(), "-o", tmp.resolve("plain").toString()).code()).isEqualTo(1);
        StringBuilder w = new StringBuilder("check,objects,reason,owner,expires\n");
        try (var in = Files.newBufferedReader(tmp.resolve("plain/findings.csv"))) {
            org.apache.commons.csv.CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in).getRecords().stream()
                    .filter(f -> f.get("status").equals("FAIL") || f.get("status").equals("WARN")).map(f -> f.get("check")).distinct()
                    .forEach(c -> w.append(c).append(",*,accepted for the test,J. Doe,2099-12-31\n"));
        }
        Files.writeString(tmp.resolve("waivers.csv"), w);
        Run r = run("analyze", DEMO.toString(), "-o", tmp.resolve("o").toString(), "--waivers", tmp.resolve("waivers.csv").toString(),
                "--customer", "ACME HPC", "--site", "Hall 2", "--operator", "J. Doe");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).startsWith("ACCEPTED WITH WAIVERS (limited coverage: 2 required checks not covered) - no check failed except findings accepted by waivers\n")
                .contains("  checks: 0 failed, 0 input errors, 0 warned, ").contains("root findings: 0 FAIL, 0 ERROR, 0 WARN, ").contains(" WAIVED, ");
        assertThat(Files.readString(tmp.resolve("o/report.html"))).contains("ACME HPC").contains("Hall 2").contains("J. Doe");

        Files.writeString(tmp.resolve("bad.csv"), "memlock,*,no owner\n");
        Run bad = run("analyze", DEMO.toString(), "-o", tmp.resolve("o2").toString(), "--waivers", tmp.resolve("bad.csv").toString());
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).startsWith("ibaccept: " + tmp.resolve("bad.csv") + ":1: ").doesNotContain("\tat ");
        assertThat(tmp.resolve("o2")).doesNotExist();
    }
}
