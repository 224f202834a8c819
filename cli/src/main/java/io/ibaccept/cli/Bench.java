package io.ibaccept.cli;

import io.ibaccept.dump.DumpLoader;
import io.ibaccept.model.ClusterData;
import io.ibaccept.report.ReportWriter;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.RulesEngine;
import io.ibaccept.samples.SyntheticDump;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;

/** 'ibaccept bench': generates an N-node dump, then times load+rules+reports per run and prints peak heap. */
final class Bench {
    private Bench() {}

    static int run(int nodes, int runs, PrintStream out) {
        Path dir;
        try {
            dir = Files.createTempDirectory("ibaccept-bench-");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        try {
            long g0 = System.nanoTime();
            SyntheticDump.generate(dir.resolve("dump"), nodes);
            out.printf("generated %d-node dump in %d ms%n", nodes, (System.nanoTime() - g0) / 1_000_000);
            double[] load = new double[runs], rules = new double[runs], report = new double[runs];
            String verdict = "";
            int findings = 0;
            for (int i = 0; i < runs; i++) {
                ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
                long t0 = System.nanoTime();
                ClusterData d = DumpLoader.load(dir.resolve("dump"));
                long t1 = System.nanoTime();
                Report r = new RulesEngine(RuleConfig.defaults()).run(d);
                long t2 = System.nanoTime();
                ReportWriter.write(r, dir.resolve("out"));
                long t3 = System.nanoTime();
                load[i] = (t1 - t0) / 1e6;
                rules[i] = (t2 - t1) / 1e6;
                report[i] = (t3 - t2) / 1e6;
                verdict = r.verdict().label();
                findings = r.findings().size();
                out.printf("run %d: load %.0f ms, rules %.0f ms, reports %.0f ms, total %.0f ms, peak heap %d MiB%n", i + 1,
                        load[i], rules[i], report[i], load[i] + rules[i] + report[i], peakHeapMiB());
            }
            out.printf("%d nodes: median load %.0f ms, rules %.0f ms, reports %.0f ms (first run includes JIT warm-up); %d findings, verdict %s%n",
                    nodes, median(load), median(rules), median(report), findings, verdict);
            return 0;
        } finally {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // temp dir clean-up is best effort
            }
        }
    }

    static long peakHeapMiB() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans())
            if (p.getType() == MemoryType.HEAP) sum += p.getPeakUsage().getUsed();
        return sum / (1024 * 1024);
    }

    static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c[c.length / 2];
    }
}
