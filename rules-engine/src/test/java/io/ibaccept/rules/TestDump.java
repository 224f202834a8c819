package io.ibaccept.rules;

import io.ibaccept.dump.DumpLoader;
import io.ibaccept.samples.SyntheticDump;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** A dump directory the tests build from the healthy synthetic fabric (or copy from the demo) and then break. */
final class TestDump {
    static final Path DEMO = Path.of("..", "sample-dumps", "dumps", "demo-hdr16");
    final Path dir;

    private TestDump(Path dir) {
        this.dir = dir;
    }

    static TestDump healthy(Path tmp, int nodes) {
        SyntheticDump.generate(tmp, nodes, false);
        return new TestDump(tmp);
    }

    static TestDump demoCopy(Path tmp) {
        return copy(DEMO, tmp);
    }

    /** A copy of a bundled dump to change. */
    static TestDump copy(Path dump, Path tmp) {
        try (Stream<Path> s = Files.walk(dump)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path to = tmp.resolve(dump.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(to);
                else Files.copy(p, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new TestDump(tmp);
    }

    TestDump write(String rel, String content) {
        try {
            Files.createDirectories(dir.resolve(rel).getParent());
            Files.writeString(dir.resolve(rel), content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    String read(String rel) {
        try {
            return Files.readString(dir.resolve(rel));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    TestDump replace(String rel, String from, String to) {
        String s = read(rel);
        if (!s.contains(from)) throw new IllegalArgumentException(rel + " does not contain '" + from + "'");
        return write(rel, s.replace(from, to));
    }

    TestDump delete(String rel) {
        try {
            Files.deleteIfExists(dir.resolve(rel));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    Report analyze() {
        return analyze(RuleConfig.defaults());
    }

    Report analyze(RuleConfig cfg) {
        return new RulesEngine(cfg).run(DumpLoader.load(dir));
    }

    static List<Finding> of(Report r, String check) {
        return r.findings().stream().filter(f -> f.check().equals(check)).toList();
    }

    static List<Finding> problems(Report r, String check) {
        return of(r, check).stream().filter(f -> f.status() == Status.FAIL || f.status() == Status.WARN || f.status() == Status.ERROR).toList();
    }

    static Status status(Report r, String check) {
        return r.checkStatus().get(check);
    }

    static RuleConfig config(Path tmp, String properties) {
        try {
            Path f = tmp.resolve("site-rules.properties");
            Files.writeString(f, properties);
            return RuleConfig.withOverrides(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteTree(Path p) {
        try (Stream<Path> s = Files.walk(p)) {
            s.sorted(Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
        } catch (IOException ignored) {
            // best effort
        }
    }
}
