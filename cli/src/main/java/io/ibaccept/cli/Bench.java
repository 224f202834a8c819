package io.ibaccept.cli;

import io.ibaccept.dump.DumpLoader;
import io.ibaccept.model.ClusterData;
import io.ibaccept.report.ReportWriter;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.analysis.Analysis;
import io.ibaccept.samples.SyntheticDump;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * 'ibaccept bench': one-shot analyses in fresh JVMs (what a user pays: JVM start, class loading, JIT warm-up) and warm
 * in-process runs, on a generated fat tree or a given dump. Per phase: wall and CPU time; peak RSS of the fresh JVM
 * (its own VmHWM), peak heap of the warm runs; the sizes of the reports written.
 */
final class Bench {
    private static final List<String> PHASES = List.of("load+parse", "rules", "reports");
    private static final Pattern PHASE = Pattern.compile("^phase (\\S+) wall_ms=(\\d+) cpu_ms=(\\d+)$", Pattern.MULTILINE);
    private static final Pattern PROCESS = Pattern.compile("^process cpu_ms=(\\d+) peak_rss_kib=(-?\\d+)$", Pattern.MULTILINE);
    /**
     * What the launcher passes to a one-shot command, minus the CDS archive and the logging: for runs without the
     * launcher and for the floor. The heap is the one the launcher worked out (IBACCEPT_ONE_SHOT_HEAP: smaller under a
     * virtual-memory limit), else its default.
     */
    static List<String> oneShotFlags() {
        List<String> f = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData"));
        String heap = System.getenv("IBACCEPT_ONE_SHOT_HEAP");
        f.addAll(heap == null || heap.isBlank() ? List.of("-Xms64m", "-Xmx3g") : List.of(heap.trim().split("\\s+")));
        return f;
    }

    private final PrintStream out;

    Bench(PrintStream out) {
        this.out = out;
    }

    /** One measured run: wall/cpu per phase (ms), total wall/cpu (ms), peak memory (KiB). */
    record Run(Map<String, long[]> phases, long wallMs, long cpuMs, long peakKib) {}

    /** What is measured: a given dump, or a synthetic fabric of nodes hosts with hcas HCAs each (kept in keep, if given). */
    record Fabric(Path given, int nodes, int hcas, boolean everyNodeFails, Path keep) {}

    int run(Fabric fabric, int warmRuns, int freshRuns) {
        Path given = fabric.given();
        int nodes = fabric.nodes();
        Path tmp;
        try {
            tmp = Files.createTempDirectory("ibaccept-bench-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            Path dump = given;
            if (dump == null) {
                dump = fabric.keep() != null ? fabric.keep() : tmp.resolve("dump");
                long g0 = System.nanoTime();
                SyntheticDump.Shape shape;
                try {
                    shape = SyntheticDump.generate(dump, nodes, true, fabric.everyNodeFails(), fabric.hcas());
                } catch (SyntheticDump.TooLarge e) {
                    throw new Main.UsageError(e.getMessage());
                }
                out.printf(Locale.ROOT, "generated %d-node dump in %d ms: %s (%d CAs, %d switches)%n", nodes, (System.nanoTime() - g0) / 1_000_000, shape,
                        shape.cas(), shape.switches());
                if (fabric.keep() != null) out.println("kept in " + dump + ": ibaccept analyze " + dump + " -o OUT");
            }
            out.printf(Locale.ROOT, "machine: %d CPUs, load average %s; %s%n", Runtime.getRuntime().availableProcessors(), loadAverage(),
                    "when other work competes for the CPUs, compare the CPU times rather than wall times");
            long[] size = dumpSize(dump);
            out.printf(Locale.ROOT, "dump %s: %d files, %.1f MiB%n", dump, size[0], size[1] / 1048576.0);
            Path outDir = tmp.resolve("out");
            List<Run> fresh = new ArrayList<>();
            List<String> cmd = oneShot(dump, outDir);
            if (freshRuns > 0) {
                out.println("one-shot runs in fresh JVMs: " + String.join(" ", cmd));
                String archive = archiveState();
                if (!archive.isEmpty()) out.println(archive);
            }
            // each one-shot run is paired with a run of the read floor, so the ratio holds when the machine's speed drifts
            List<Run> floor = new ArrayList<>();
            List<Double> ratios = new ArrayList<>();
            for (int i = 0; i < freshRuns; i++) {
                Run r = fresh(cmd);
                fresh.add(r);
                out.println(line("fresh " + (i + 1), r, "peak RSS"));
                Run f = fresh(floorCommand(dump));
                floor.add(f);
                ratios.add(f.cpuMs() > 0 ? (double) r.cpuMs() / f.cpuMs() : Double.NaN);
                out.printf(Locale.ROOT, "read floor %d: wall %d ms, CPU %d ms, peak RSS %d KiB; analyze/floor CPU %.2f%n", i + 1,
                        f.wallMs(), f.cpuMs(), f.peakKib(), ratios.get(i));
            }
            List<Run> warm = new ArrayList<>();
            Analysis lastWarm = null; // its fabric graph and tables serve the routing walk below
            String verdict = "";
            int findings = 0;
            for (int i = 0; i < warmRuns; i++) {
                ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
                Phases ph = new Phases();
                long w0 = System.nanoTime(), c0 = Phases.cpuNanos();
                ClusterData d = DumpLoader.load(dump);
                ph.end("load+parse");
                Analysis a = Analysis.of(d);
                lastWarm = a;
                Report r = a.report();
                ph.end("rules");
                ReportWriter.write(a, outDir);
                ph.end("reports");
                Run run = new Run(byName(ph.phases), (System.nanoTime() - w0) / 1_000_000, (Phases.cpuNanos() - c0) / 1_000_000, peakHeapKib());
                warm.add(run);
                verdict = r.verdict().label();
                findings = r.findings().size();
                out.println(line("warm " + (i + 1), run, "peak heap"));
            }
            out.println();
            if (!fresh.isEmpty()) {
                out.println(line("one-shot median", median(fresh), "peak RSS"));
                Run f = median(floor);
                double[] rs = ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
                out.printf(Locale.ROOT, "read floor median: wall %d ms, CPU %d ms (a JVM reading and decoding every file in parallel, no parsing); "
                        + "one-shot analyze CPU / floor CPU: median %.2f (min %.2f, max %.2f over %d paired runs)%n",
                        f.wallMs(), f.cpuMs(), rs[rs.length / 2], rs[0], rs[rs.length - 1], rs.length);
            }
            if (warm.size() > 1) out.println(line("warm median (runs 2-" + warm.size() + ")", median(warm.subList(1, warm.size())), "peak heap"));
            else if (warm.size() == 1) out.println(line("warm (1 run, JIT cold)", warm.get(0), "peak heap"));
            routingWalk(lastWarm != null ? lastWarm : Analysis.of(DumpLoader.load(dump)));
            out.println("reports: " + reportSizes(outDir) + (warm.isEmpty() ? "" : "; " + findings + " findings, verdict " + verdict));
            return 0;
        } finally {
            delete(tmp);
        }
    }

    /** The route walk of the routing checks alone, warm, median of 3, on an analysis of the dump (the last warm run's). */
    private void routingWalk(Analysis a) {
        io.ibaccept.fabric.Fabric f = a.fabric();
        io.ibaccept.model.ForwardingTables t = a.data().fabric().lfts();
        if (f == null) {
            out.println("routing walk: no fabric graph in the dump");
            return;
        }
        String from = "dump_fts";
        if (t == null) {
            out.println("routing walk: no dump_fts in the dump");
            return;
        }
        long[] ms = new long[3];
        io.ibaccept.fabric.Routing r = null;
        for (int i = 0; i < ms.length; i++) {
            long t0 = System.nanoTime();
            r = io.ibaccept.fabric.Routing.analyze(f, t);
            ms[i] = (System.nanoTime() - t0) / 1_000_000;
        }
        java.util.Arrays.sort(ms);
        out.printf(Locale.ROOT, "routing walk (%s): median %d ms of 3 warm runs: %d switches x %d CA LIDs, %d paths, %d switch-to-switch ports, %d credit loop(s)%n",
                from, ms[1], t.switches().size(), r.destinations(), r.pathsWalked(), r.channels(), r.creditLoops().size());
    }

    private static List<String> oneShot(Path dump, Path outDir) {
        List<String> c = new ArrayList<>();
        String launcher = System.getenv("IBACCEPT_LAUNCHER");
        if (launcher != null && Files.isExecutable(Path.of(launcher))) c.add(launcher); // the launcher picks the flags, as for a user
        else {
            c.add(ProcessHandle.current().info().command().orElse("java"));
            c.addAll(oneShotFlags());
            c.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        }
        c.addAll(List.of("analyze", dump.toString(), "-o", outDir.toString(), "--timings"));
        return c;
    }

    /** The read floor in a fresh JVM with the one-shot flags of the launcher (C1, serial GC, no perf data, the heap). */
    private static List<String> floorCommand(Path dump) {
        List<String> c = new ArrayList<>();
        c.add(ProcessHandle.current().info().command().orElse("java"));
        c.addAll(oneShotFlags());
        c.addAll(List.of("-cp", System.getProperty("java.class.path"), ReadFloor.class.getName(), dump.toString()));
        return c;
    }

    /**
     * Whether the launcher's class-data archive is in place: without it the first one-shot run records it (a cost a
     * user pays once per build), which the median of three or more runs leaves out.
     */
    private static String archiveState() {
        String launcher = System.getenv("IBACCEPT_LAUNCHER");
        String archive = System.getenv("IBACCEPT_CDS_ARCHIVE"); // where the launcher keeps it: checkout or release
        if (launcher == null || archive == null || archive.isEmpty()) return "";
        Path jsa = Path.of(archive);
        try {
            Path jar = Path.of(Bench.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(jsa) && Files.getLastModifiedTime(jsa).compareTo(Files.getLastModifiedTime(jar)) > 0)
                return "class-data archive " + jsa + " in place: every one-shot run maps it";
        } catch (IOException | java.net.URISyntaxException | RuntimeException e) {
            return ""; // run from classes, not the jar
        }
        return "no class-data archive yet: fresh run 1 records it (once per build), the later runs map it";
    }

    private static Run fresh(List<String> cmd) {
        try {
            Path errFile = Files.createTempFile("ibaccept-bench-", ".err");
            try {
                long t0 = System.nanoTime();
                Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(errFile.toFile()).start();
                int code = p.waitFor();
                long wall = (System.nanoTime() - t0) / 1_000_000;
                String err = Files.readString(errFile, StandardCharsets.UTF_8);
                Matcher pm = PROCESS.matcher(err);
                if (code > 1 || !pm.find()) throw new IllegalStateException("one-shot analyze exited " + code + ": " + err.strip());
                Map<String, long[]> phases = new LinkedHashMap<>();
                for (Matcher m = PHASE.matcher(err); m.find(); )
                    phases.put(m.group(1), new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(3))});
                return new Run(phases, wall, Long.parseLong(pm.group(1)), Long.parseLong(pm.group(2)));
            } finally {
                Files.deleteIfExists(errFile);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    private static String line(String label, Run r, String memory) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-26s wall %6d ms, cpu %6d ms, %s %5d MiB |", label + ":", r.wallMs(),
                r.cpuMs(), memory, r.peakKib() / 1024));
        List<String> ps = new ArrayList<>();
        for (String p : PHASES) {
            long[] v = r.phases().getOrDefault(p, new long[2]);
            ps.add(String.format(Locale.ROOT, "%s %d/%d ms", p, v[0], v[1]));
        }
        return b.append(' ').append(String.join(", ", ps)).append(" (wall/cpu)").toString();
    }

    private static Map<String, long[]> byName(List<Phases.Phase> ps) {
        Map<String, long[]> m = new LinkedHashMap<>();
        for (Phases.Phase p : ps) m.put(p.name(), new long[] {p.wallMs(), p.cpuMs()});
        return m;
    }

    /** Median of each figure on its own. */
    static Run median(List<Run> runs) {
        Map<String, long[]> phases = new LinkedHashMap<>();
        for (String p : PHASES)
            phases.put(p, new long[] {median(runs.stream().mapToLong(r -> r.phases().getOrDefault(p, new long[2])[0]).toArray()),
                    median(runs.stream().mapToLong(r -> r.phases().getOrDefault(p, new long[2])[1]).toArray())});
        return new Run(phases, median(runs.stream().mapToLong(Run::wallMs).toArray()), median(runs.stream().mapToLong(Run::cpuMs).toArray()),
                median(runs.stream().mapToLong(Run::peakKib).toArray()));
    }

    static long median(long[] v) {
        long[] c = v.clone();
        java.util.Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
    }

    static long peakHeapKib() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans())
            if (p.getType() == MemoryType.HEAP) sum += p.getPeakUsage().getUsed();
        return sum / 1024;
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static long[] dumpSize(Path dump) {
        if (!Files.isDirectory(dump)) return new long[] {1, dump.toFile().length()};
        long[] n = new long[2];
        try (Stream<Path> s = Files.walk(dump)) {
            s.filter(Files::isRegularFile).forEach(p -> {
                n[0]++;
                n[1] += p.toFile().length();
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return n;
    }

    private static String reportSizes(Path outDir) {
        if (!Files.isDirectory(outDir)) return "none written";
        try (Stream<Path> s = Files.list(outDir)) {
            return String.join(", ", s.filter(Files::isRegularFile).sorted()
                    .map(p -> String.format(Locale.ROOT, "%s %.1f KiB", p.getFileName(), p.toFile().length() / 1024.0)).toList());
        } catch (IOException e) {
            return "unreadable: " + e.getMessage();
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // temp dir clean-up is best effort
        }
    }
}
