package io.ibaccept.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Wall and process CPU time per phase, and the peak RSS, of this JVM. CPU is the whole process (parallel parsing, JIT
 * and GC threads included), read from ProcessHandle so that no management beans are loaded into a one-shot run.
 * Printed as one line per phase, "phase NAME wall_ms=.. cpu_ms=..", one per fact the analysis derived, "derived NAME
 * wall_ms=..", and "process cpu_ms=.. peak_rss_kib=..", which 'bench' reads back from the fresh JVMs it starts.
 */
final class Phases {
    record Phase(String name, long wallMs, long cpuMs) {}

    final List<Phase> phases = new ArrayList<>();
    private long wall = System.nanoTime();
    private long cpu = cpuNanos();

    void end(String name) {
        long w = System.nanoTime(), c = cpuNanos();
        phases.add(new Phase(name, (w - wall) / 1_000_000, (c - cpu) / 1_000_000));
        wall = w;
        cpu = c;
    }

    /** What the analysis derived from the dump, one line each: "derived NAME wall_ms=..". */
    final List<io.ibaccept.rules.DumpFacts.Derived> derived = new ArrayList<>();

    void print(PrintStream err) {
        for (Phase p : phases) err.printf(Locale.ROOT, "phase %s wall_ms=%d cpu_ms=%d%n", p.name(), p.wallMs(), p.cpuMs());
        for (var d : derived) err.printf(Locale.ROOT, "derived %s wall_ms=%d%n", d.name(), d.nanos() / 1_000_000);
        err.println("process cpu_ms=" + cpuNanos() / 1_000_000 + " peak_rss_kib=" + peakRssKib());
    }

    static long cpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    /** VmHWM of this process (Linux); -1 where /proc is not there. */
    static long peakRssKib() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status")))
                if (l.startsWith("VmHWM:")) return Long.parseLong(l.substring(6).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            // not Linux: no RSS figure
        }
        return -1;
    }
}
