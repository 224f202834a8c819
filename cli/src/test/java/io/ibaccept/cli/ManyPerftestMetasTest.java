package io.ibaccept.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.analysis.Analysis;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.InputProblem;
import io.ibaccept.model.PerftestRun;
import io.ibaccept.report.CoverInfo;
import io.ibaccept.report.ReportLayout;
import io.ibaccept.report.ReportWriter;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.RuleConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dump with 100,000 perftest .meta files and no outputs (a hostile or broken dump) is judged in bounded time, as one
 * input finding that names the first files and counts the rest, not 100,000 findings: one per file made the PDF's
 * table of findings quadratic (20,000 of them took 76 s to render, 100,000 over ten minutes).
 */
class ManyPerftestMetasTest {
    static final int REAL = 2_000, IN_ALL = 100_000;

    @Test
    void oneHundredThousandMetasWithoutOutputsAreOneFinding(@TempDir Path tmp) throws Exception {
        // the loader's own problems, from real files...
        Path dump = MainTest.copyOfDemo(tmp.resolve("dump"));
        for (int i = 0; i < REAL; i++) {
            String a = String.format("node%02d", i % 16 + 1), b = String.format("node%02d", (i + 1) % 16 + 1);
            Files.writeString(dump.resolve(String.format("perftest/ib_write_bw__x%06d__%s__%s.client.meta", i, a, b)),
                    "name: ib_write_bw\nhost: " + a + "\npeer: " + b + "\ncommand: ib_write_bw " + b + "\nstatus: ok\nexit: 0\nduration_ms: 5\nstarted: 2026-12-02T14:10:00Z\n");
        }
        ClusterData loaded = DumpLoader.load(dump);
        List<InputProblem> metas = loaded.problems().stream().filter(p -> p.file().contains("__x")).toList();
        assertThat(metas).hasSize(REAL).allSatisfy(p -> assertThat(p.message()).contains("says the command ran (status ok) but the output file is missing"));
        // ...and as many more as a dump of 100,000 would give, made alike in memory (writing 100,000 files is not the point)
        List<InputProblem> problems = new ArrayList<>(loaded.problems());
        List<PerftestRun> runs = new ArrayList<>(loaded.perftests());
        InputProblem p0 = metas.get(0);
        PerftestRun r0 = loaded.perftests().stream().filter(r -> r.id().equals("ib_write_bw__x000000__node01__node02")).findFirst().orElseThrow();
        for (int i = REAL; i < IN_ALL; i++) {
            String id = String.format("ib_write_bw__x%06d__node01__node02", i);
            problems.add(new InputProblem(p0.kind(), p0.host(), p0.command(), p0.file().replace(r0.id(), id), 0, p0.message().replace(r0.id(), id)));
            runs.add(new PerftestRun(id, r0.test(), r0.client(), r0.server(), null, null, r0.file().replace(r0.id(), id)));
        }
        ClusterData many = new ClusterData(loaded.source(), loaded.manifest(), loaded.hosts(), loaded.fabric(), runs, loaded.commands(), problems,
                loaded.collectives(), loaded.dumpId());

        Path out = tmp.resolve("out");
        long t0 = System.nanoTime();
        // generous: the bound is against minutes, not a measurement on a loaded machine
        ReportWriter.Written w = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(240), () -> {
            Analysis a = Analysis.of(many, Analysis.Options.of(RuleConfig.defaults()));
            List<Finding> input = a.report().findings().stream().filter(f -> f.check().equals("input") && f.summary().contains("__x")).toList();
            assertThat(input).singleElement().satisfies(f -> {
                assertThat(f.summary()).contains("ib_write_bw__x000000__node01__node02.client.meta").endsWith("(and " + (IN_ALL - 1) + " more like it)");
                assertThat(f.evidence()).hasSizeLessThanOrEqualTo(21);
            });
            return ReportWriter.writeAll(a, out, new CoverInfo(null, null, null), ReportLayout.DEFAULT);
        });
        System.out.printf("%,d perftest metas without outputs: judged and reported in %.1f s%n", IN_ALL, (System.nanoTime() - t0) / 1e9);
        assertThat(w.errors()).isEmpty();
        // the reports list findings; findings.json's inputProblems keeps every problem for machines (linear, 350 bytes each)
        for (String f : List.of("report.pdf", "report.html", "findings.csv", "junit.xml")) assertThat(Files.size(out.resolve(f))).as(f).isLessThan(1L << 20);
    }
}
