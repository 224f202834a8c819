package io.ibaccept.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reports of analyze replace the previous ones as a set, in a real JVM: a full disk (a file size limit) or a
 * SIGTERM at any point leaves the previous complete set or the new complete set, never a mix and never a half file;
 * a link planted in the output directory is replaced, not written through; outputs of an earlier run that this run
 * does not make are removed.
 */
class ReportSetTest {
    private static final Path DEMO = Path.of("..", "sample-dumps", "dumps", "demo-hdr16");
    private static final Pattern DUMP_ID = Pattern.compile("sha256:[0-9a-f]{64}");
    /** The outputs that name the dump they were made from. */
    private static final List<String> WITH_ID = List.of("findings.json", "report.html", "topology.conf", "nhc.conf", "drain.sh");

    @TempDir
    Path tmp;

    private List<String> analyze(Path dump, Path out, String... extra) {
        List<String> c = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:-UsePerfData", "-cp", System.getProperty("java.class.path"), Main.class.getName(), "analyze", dump.toString(),
                "-o", out.toString()));
        c.addAll(Arrays.asList(extra));
        return c;
    }

    private int run(List<String> command, Path log) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("analyze ends").isTrue();
            return p.exitValue();
        } finally {
            p.destroyForcibly();
        }
    }

    /** The demo dump with one file more: another dump id, the same findings. */
    private Path otherDump() throws IOException {
        Path copy = MainTest.copyOfDemo(tmp.resolve("other-dump"));
        Files.writeString(copy.resolve("NOTES.txt"), "re-collected after the cable swap\n");
        return copy;
    }

    private static Map<String, byte[]> snapshot(Path dir) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) out.put(p.getFileName().toString(), Files.isRegularFile(p) ? Files.readAllBytes(p) : new byte[0]);
        }
        return out;
    }

    private static Set<String> ids(Path dir) throws IOException {
        Set<String> ids = new java.util.TreeSet<>();
        for (String f : WITH_ID) {
            Matcher m = DUMP_ID.matcher(Files.readString(dir.resolve(f)));
            while (m.find()) ids.add(m.group());
        }
        return ids;
    }

    private static boolean sameAs(Map<String, byte[]> a, Map<String, byte[]> b) {
        return a.keySet().equals(b.keySet()) && a.keySet().stream().allMatch(k -> Arrays.equals(a.get(k), b.get(k)));
    }

    @Test
    void aFullDiskLeavesThePreviousSetWhole() throws Exception {
        Path out = tmp.resolve("out");
        assertThat(run(analyze(DEMO, out), tmp.resolve("first.log"))).isEqualTo(Main.NOT_ACCEPTED);
        Map<String, byte[]> before = snapshot(out);
        List<String> limited = new ArrayList<>(List.of("bash", "-c", "ulimit -f 40 && exec \"$@\"", "bash"));
        limited.addAll(analyze(otherDump(), out));
        // report.html (about 100 KiB) cannot be written under a 40 KiB file size limit, as on a full disk
        assertThat(run(limited, tmp.resolve("full.log"))).isEqualTo(Main.USAGE);
        assertThat(Files.readString(tmp.resolve("full.log"))).contains("File too large").contains("no report was replaced")
                .as("said in words, with no Java class name").doesNotContain("java.", "Exception");
        assertThat(sameAs(snapshot(out), before)).as("the previous set, byte for byte, and nothing else").isTrue();
    }

    /** SIGKILL runs no shutdown hook: the staging directory stays, and the next run removes it (its process is gone). */
    @Test
    void aStagingDirectoryLeftBySigkillIsRemovedByTheNextRun() throws Exception {
        Path out = tmp.resolve("out");
        Path left = null;
        for (int attempt = 0; attempt < 5 && left == null; attempt++) {
            Process p = new ProcessBuilder(analyze(DEMO, out)).redirectErrorStream(true).redirectOutput(tmp.resolve("killed" + attempt + ".log").toFile()).start();
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
                while (left == null && p.isAlive() && System.nanoTime() < deadline) {
                    left = staging(out);
                    if (left == null) Thread.sleep(5);
                }
                if (left != null) p.destroyForcibly(); // SIGKILL to this child, by its pid
                assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
            } finally {
                p.destroyForcibly();
            }
            if (left != null && !Files.exists(left)) left = null; // the run had finished and removed it before the signal
        }
        assertThat(left).as("a run killed while its reports were staged").isNotNull();
        assertThat(run(analyze(DEMO, out), tmp.resolve("next.log"))).isEqualTo(Main.NOT_ACCEPTED);
        assertThat(left).doesNotExist();
        assertThat(staging(out)).isNull();
    }

    private static Path staging(Path out) throws IOException {
        if (!Files.isDirectory(out)) return null;
        try (Stream<Path> s = Files.list(out)) {
            return s.filter(x -> x.getFileName().toString().startsWith(".ibaccept-new-")).findFirst().orElse(null);
        }
    }

    @Test
    void aSigtermAtAnyPointLeavesOneCompleteSet() throws Exception {
        Path out = tmp.resolve("out");
        Path[] dumps = {DEMO, otherDump()};
        assertThat(run(analyze(dumps[0], out), tmp.resolve("first.log"))).isEqualTo(Main.NOT_ACCEPTED);
        String[] id = new String[2];
        id[0] = ids(out).iterator().next();
        long[] delaysMs = {300, 900, 1500, 2100, 2800, 3600};
        int replaced = 0, kept = 0;
        for (int i = 0; i < delaysMs.length; i++) {
            int next = (i + 1) % 2;
            Map<String, byte[]> before = snapshot(out);
            Process p = new ProcessBuilder(analyze(dumps[next], out)).redirectErrorStream(true)
                    .redirectOutput(tmp.resolve("run" + i + ".log").toFile()).start();
            try {
                Thread.sleep(delaysMs[i] + (long) (Math.random() * 300));
                p.destroy(); // SIGTERM to this child, by its pid
                assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
            } finally {
                p.destroyForcibly();
            }
            Map<String, byte[]> after = snapshot(out);
            assertThat(after.keySet()).as("no staging directory or part file is left").allMatch(n -> !n.startsWith("."));
            if (sameAs(after, before)) {
                kept++;
            } else {
                Set<String> now = ids(out);
                assertThat(now).as("every report of the set names the same dump").hasSize(1);
                if (id[next] == null) id[next] = now.iterator().next();
                assertThat(now).containsExactly(id[next]);
                assertThat(after.keySet()).isEqualTo(before.keySet());
                replaced++;
            }
        }
        System.out.println("SIGTERM runs: " + kept + " left the previous set, " + replaced + " put the new set in place");
        // the first signal comes before the JVM has even loaded the dump: at least that run must have left the set alone
        assertThat(kept).isPositive();
    }

    @Test
    void plantedLinksAreReplacedAndOutputsOfAnEarlierRunAreRemoved() throws Exception {
        Path out = Files.createDirectories(tmp.resolve("out"));
        Path victim = Files.writeString(tmp.resolve("victim"), "precious\n");
        Files.createSymbolicLink(out.resolve("findings.csv"), victim);
        Files.writeString(out.resolve("workorder.csv"), "from an earlier run with a cabling plan\n");
        Files.writeString(out.resolve("notes.txt"), "the engineer's own file\n");
        assertThat(run(analyze(DEMO, out), tmp.resolve("run.log"))).isEqualTo(Main.NOT_ACCEPTED);
        assertThat(victim).hasContent("precious");
        assertThat(Files.isSymbolicLink(out.resolve("findings.csv"))).isFalse();
        assertThat(Files.readString(out.resolve("findings.csv"))).startsWith("check,title,status");
        assertThat(out.resolve("workorder.csv")).doesNotExist();
        assertThat(out.resolve("notes.txt")).hasContent("the engineer's own file");
        try (Stream<Path> s = Files.list(out)) {
            assertThat(s.map(p -> p.getFileName().toString()).collect(Collectors.toSet())).noneMatch(n -> n.startsWith("."));
        }
    }
}
