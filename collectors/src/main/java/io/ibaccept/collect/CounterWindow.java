package io.ibaccept.collect;

import io.ibaccept.dump.Cmd;
import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.dump.sources.CollectOptions;
import io.ibaccept.dump.sources.Source;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Two fabric-wide counter samples, at the start and at the end of a window, taken from the fabric node: every
 * connected port of every switch and CA (from {@code ibnetdiscover -p}) is read with {@code perfquery -x LID ports}
 * (PortCountersExtended: 64-bit data counters, and on PMAs that support it 64-bit error counters) and {@code perfquery
 * LID ports} (PortCounters: the error counters, PortXmitWait). Host uptimes ({@code /proc/uptime}) are read on every
 * node at the start, so the rules can tell counters that predate a reboot. Optionally clears the counters first
 * ({@code perfquery -R} and {@code perfquery -x -R}): off by default, and never something to do on a production fabric
 * without asking, since it destroys the history other monitoring relies on.
 * <p>
 * Dump files: fabric/counters-ports.out (the ibnetdiscover -p port list used for both samples), fabric/counters-clear.out
 * (when cleared), fabric/counters-start.out, fabric/counters-end.out and nodes/HOST/uptime.out; each .meta has the
 * real start time and duration of its sample.
 */
public final class CounterWindow {
    /** window: time between the samples when nothing else runs in between; parallel: nodes read at once for uptime. */
    public record Options(Duration window, boolean clearCounters, Duration sampleTimeout, int parallel) {
        public Options(Duration window, boolean clearCounters) {
            this(window, clearCounters, Duration.ofMinutes(10), 32);
        }
    }

    /** What was sampled: ports per LID, whether both samples ran ok, when. */
    public record Result(SortedMap<Integer, SortedSet<Integer>> ports, boolean cleared, boolean startOk, boolean endOk,
                         Instant start, Instant end) {}

    private final Transport transport;
    private final Options opt;
    private final PrintStream progress;

    public CounterWindow(Transport transport, Options opt, PrintStream progress) {
        this.transport = transport;
        this.opt = opt;
        this.progress = progress;
    }

    /** The collect flavour: sample, wait for the window, sample. */
    public Result run(String fabricNode, List<String> nodes, DumpWriter w) {
        return run(fabricNode, nodes, w, () -> sleep(opt.window()));
    }

    /** Sample, run {@code during} (a burn-in's traffic, or a plain wait), sample. */
    public Result run(String fabricNode, List<String> nodes, DumpWriter w, Runnable during) {
        ExecResult disc = transport.run(fabricNode, "ibnetdiscover -p", opt.sampleTimeout());
        w.command("fabric/counters-ports.out", result("counters-ports", fabricNode, "ibnetdiscover -p", disc, Instant.now()), disc.stdout());
        SortedMap<Integer, SortedSet<Integer>> ports = ports(disc.stdout());
        if (ports.isEmpty()) {
            String why = "no connected port with a LID in 'ibnetdiscover -p' output (" + disc.status() + ")";
            progress.println("counter window: " + why);
            ExecResult none = new ExecResult(CommandResult.FAILED, 1, "", why, 0);
            record(w, Cmd.COUNTERS_START, fabricNode, "ibnetdiscover -p", none, Instant.now());
            return new Result(ports, false, false, false, null, null);
        }
        boolean cleared = false;
        if (opt.clearCounters()) {
            List<String> scripts = scripts(ports, true);
            Instant t = Instant.now();
            ExecResult r = runAll(fabricNode, scripts);
            w.command("fabric/counters-clear.out", result("counters-clear", fabricNode, String.join("\n", scripts), r, t), r.stdout());
            cleared = CommandResult.OK.equals(r.status());
            progress.printf("counter window: counters of %d port(s) cleared: %s%n", count(ports), r.status());
        }
        Instant t0 = Instant.now();
        boolean startOk = sample(Cmd.COUNTERS_START, fabricNode, ports, w);
        uptimes(nodes, w);
        progress.printf("counter window: first sample of %d port(s) %s; next sample after %s%n", count(ports),
                startOk ? "taken" : "FAILED", opt.window());
        during.run();
        Instant t1 = Instant.now();
        boolean endOk = sample(Cmd.COUNTERS_END, fabricNode, ports, w);
        progress.printf("counter window: second sample %s%n", endOk ? "taken" : "FAILED");
        return new Result(ports, cleared, startOk, endOk, t0, t1);
    }

    private boolean sample(Cmd cmd, String fabricNode, SortedMap<Integer, SortedSet<Integer>> ports, DumpWriter w) {
        List<String> scripts = scripts(ports, false);
        Instant t = Instant.now();
        ExecResult r = runAll(fabricNode, scripts);
        record(w, cmd, fabricNode, String.join("\n", scripts), r, t);
        return CommandResult.OK.equals(r.status());
    }

    /** Runs the scripts in order as one command: outputs concatenated, ok if any part was ok, time summed. */
    private ExecResult runAll(String node, List<String> scripts) {
        StringBuilder out = new StringBuilder(), err = new StringBuilder();
        long ms = 0;
        ExecResult last = null, ok = null;
        for (String sc : scripts) {
            last = transport.run(node, sc, opt.sampleTimeout());
            out.append(last.stdout());
            err.append(last.stderr());
            ms += last.durationMs();
            if (CommandResult.OK.equals(last.status())) ok = last;
        }
        ExecResult r = ok != null ? ok : last;
        return new ExecResult(r.status(), r.exitCode(), out.toString(), err.toString(), ms);
    }

    private void uptimes(List<String> nodes, DumpWriter w) {
        Source.Collect uptime = Cmd.UPTIME.source().collect(CollectOptions.DEFAULTS).orElseThrow();
        if (transport instanceof Transports.Srun srun && srun.oneStep()) {
            // under Slurm, one job step over the nodes rather than one per node (SlurmStep); started: when it began on the node
            CommandSet.Spec spec = new CommandSet.Spec(Cmd.UPTIME, uptime.script(), uptime.timeout(), uptime.okExits(), uptime.notHereExits());
            new SlurmStep(srun, uptime.timeout(), (node, s, r) -> record(w, Cmd.UPTIME, node, uptime.script(), r,
                    Instant.now().minusMillis(r.durationMs()))).run(nodes, List.of(spec), List.of(), List.of(), List.of());
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(opt.parallel(), nodes.size())));
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (String n : nodes) {
                fs.add(pool.submit(() -> {
                    Instant t = Instant.now();
                    record(w, Cmd.UPTIME, n, uptime.script(), transport.run(n, uptime.script(), uptime.timeout()), t);
                }));
            }
            for (Future<?> f : fs) {
                try {
                    f.get();
                } catch (Exception e) {
                    progress.println("uptime: " + e.getMessage());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void record(DumpWriter w, Cmd cmd, String host, String script, ExecResult r, Instant started) {
        w.command(cmd, host, result(cmd.fileName(), host, script, r, started), r.stdout());
    }

    private static CommandResult result(String name, String host, String script, ExecResult r, Instant started) {
        return new CommandResult(name, host, script, r.status(), r.exitCode(), r.durationMs(), started.toString(), r.stderr());
    }

    // "SW     9 20 0x0000000000200005 4x HDR - SW     3  8 0x... ( 'leaf04' - 'spine02' )": ibnetdiscover.c dump_ports_report
    private static final Pattern PORT_LINE = Pattern.compile("^\\s*(?:CA|SW|RT)\\s+(\\d+)\\s+(\\d+)\\s+0x[0-9a-fA-F]+\\s.*?\\s-\\s+(?:CA|SW|RT)\\s+\\d+\\s+\\d+\\s+0x.*");

    /** Connected ports by LID (switch: its base LID; CA: the port's LID) from {@code ibnetdiscover -p}. */
    public static SortedMap<Integer, SortedSet<Integer>> ports(String ibnetdiscoverP) {
        SortedMap<Integer, SortedSet<Integer>> out = new TreeMap<>();
        for (String line : ibnetdiscoverP.split("\n")) {
            Matcher m = PORT_LINE.matcher(line);
            if (!m.matches()) continue;
            int lid = Integer.parseInt(m.group(1)), port = Integer.parseInt(m.group(2));
            if (lid <= 0 || lid >= 0xC000 || port <= 0 || port > 254) continue; // no LID yet / multicast range / not a port
            out.computeIfAbsent(lid, k -> new TreeSet<>()).add(port);
        }
        return out;
    }

    /** LIDs per script: keeps each script far below the 128 KiB a single argv element may have (MAX_ARG_STRLEN). */
    static final int LIDS_PER_SCRIPT = 1000;

    /**
     * The sample (or clear) scripts: per LID one perfquery -x and one perfquery with the port list (perfquery.c reads a
     * comma-separated list and prints one block per port). LIDs and ports are integers from the parse above, so
     * nothing in them comes from a name. A failing LID (node gone, no PMA) is reported on stderr and the rest go on;
     * a script fails only when every call in it failed. Large fabrics get several scripts, run one after the other.
     */
    public static List<String> scripts(SortedMap<Integer, SortedSet<Integer>> ports, boolean clear) {
        List<String> out = new ArrayList<>();
        List<String> items = new ArrayList<>();
        for (Map.Entry<Integer, SortedSet<Integer>> e : ports.entrySet()) {
            items.add(e.getKey() + ":" + e.getValue().stream().map(String::valueOf).reduce((a, b) -> a + "," + b).orElseThrow());
            if (items.size() == LIDS_PER_SCRIPT) {
                out.add(script(items, clear));
                items = new ArrayList<>();
            }
        }
        if (!items.isEmpty()) out.add(script(items, clear));
        return out;
    }

    private static String script(List<String> lidPorts, boolean clear) {
        String reset = clear ? " -R" : "";
        return "f=0; n=0\n"
                + "for a in " + String.join(" ", lidPorts) + "; do\n"
                + "  l=${a%%:*}; p=${a#*:}\n"
                + "  for x in -x ''; do\n"
                + "    n=$((n+1)); perfquery $x" + reset + " $l $p || { f=$((f+1)); echo \"perfquery $x" + reset + " $l $p: failed\" >&2; }\n"
                + "  done\n"
                + "done\n"
                + "[ $f -gt 0 ] && echo \"$f of $n perfquery calls failed\" >&2\n"
                + "[ $f -lt $n ]\n";
    }

    static int count(SortedMap<Integer, SortedSet<Integer>> ports) {
        return ports.values().stream().mapToInt(SortedSet::size).sum();
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
