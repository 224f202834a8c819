package io.ibaccept.rdma;

import io.ibaccept.dump.DumpWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * 'rdma --retest': re-runs the outlier pairs of a dump (the pairs perftest.outlier found, see
 * io.ibaccept.rules.perf.PerfAnalysis#retestPairs) in rounds with no node twice per round, and adds the results next
 * to the first runs: perftest/TEST__CLIENT__SERVER.retestN.{client,server}.{out,err,meta}, N = 1 for the first retest,
 * 2 for the next... The first run is never overwritten; the analysis judges each pair by its latest attempt and keeps
 * only the pairs that fail again. Runs through the unchanged PerftestRunner into a scratch dump, then moves its files
 * under the retest names.
 */
public final class Retest {
    private static final Pattern RUN_FILE = Pattern.compile("^(.+__.+__.+?)(\\.retest(\\d+))?\\.(client|server)\\.(out|err|meta)$");

    private final Function<String, PerftestRunner> runnerForTest;

    /** runnerForTest: a PerftestRunner whose options run exactly that one test (same device/port/extra args as the first run). */
    public Retest(Function<String, PerftestRunner> runnerForTest) {
        this.runnerForTest = runnerForTest;
    }

    /** Runs every test's pairs; returns how many pair runs were made. */
    public int run(Map<String, List<PairScheduler.Pair>> pairsByTest, DumpWriter dump) {
        int ran = 0;
        for (Map.Entry<String, List<PairScheduler.Pair>> e : pairsByTest.entrySet()) {
            if (e.getValue().isEmpty()) continue;
            String test = e.getKey();
            List<List<PairScheduler.Pair>> rounds = PairScheduler.pack(e.getValue());
            Path scratch = scratch();
            try {
                ran += runnerForTest.apply(test).run(rounds, new DumpWriter(scratch));
                moveAsRetest(scratch.resolve("perftest"), perftestDir(dump.root()));
            } finally {
                deleteTree(scratch);
            }
        }
        return ran;
    }

    /** The dump's perftest directory, made if missing; a link planted there is refused, never moved into. */
    private static Path perftestDir(Path root) {
        try {
            return io.ibaccept.safety.OutputFiles.directory(root, "perftest");
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    /** The next retest number of a run id in this perftest directory: 1 + the highest .retestN present. */
    static int nextAttempt(Path perftestDir, String id) {
        int max = 0;
        if (!Files.isDirectory(perftestDir)) return 1;
        try (Stream<Path> s = Files.list(perftestDir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Matcher m = RUN_FILE.matcher(p.getFileName().toString());
                if (m.matches() && m.group(1).equals(id) && m.group(3) != null) max = Math.max(max, Integer.parseInt(m.group(3)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return max + 1;
    }

    /** Moves every run file of the scratch dump to the dump under its retest name. */
    static void moveAsRetest(Path from, Path to) {
        if (!Files.isDirectory(from)) return;
        try {
            Files.createDirectories(to);
            List<Path> files;
            try (Stream<Path> s = Files.list(from)) {
                files = s.sorted().toList();
            }
            java.util.Map<String, Integer> attempt = new java.util.HashMap<>();
            for (Path p : files) {
                Matcher m = RUN_FILE.matcher(p.getFileName().toString());
                if (!m.matches() || m.group(2) != null) continue;
                String id = m.group(1);
                int n = attempt.computeIfAbsent(id, k -> nextAttempt(to, k));
                Files.move(p, to.resolve(id + ".retest" + n + "." + m.group(4) + "." + m.group(5)), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path scratch() {
        try {
            return Files.createTempDirectory("ibaccept-retest");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path p) {
        try (Stream<Path> s = Files.walk(p)) {
            for (Path x : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) Files.deleteIfExists(x);
        } catch (IOException ignored) {
            // scratch space; the results were moved already
        }
    }

    /** For tests and the CLI's summary: the retest ids present in a perftest directory. */
    static List<String> retestIds(Path perftestDir) {
        List<String> ids = new ArrayList<>();
        try (Stream<Path> s = Files.list(perftestDir)) {
            s.map(p -> p.getFileName().toString()).filter(n -> n.matches(".*\\.retest\\d+\\.client\\.meta")).sorted()
                    .forEach(n -> ids.add(n.substring(0, n.length() - ".client.meta".length())));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ids;
    }
}
