package io.ibaccept.rdma;

import io.ibaccept.collect.ExecResult;
import io.ibaccept.collect.Transport;
import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.safety.Shell;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * 'rdma --collective osu_allreduce,osu_alltoall[,all_reduce_perf]': runs MPI collective benchmarks over the tested
 * nodes from one launch node, through mpirun (Open MPI / HPC-X syntax) or srun, and records each run as
 * collective/BENCHMARK.{out,err,meta} (meta: launcher, ranks, ppn, nodes, the exact command line). Before running, the
 * launcher and the benchmark are looked up on the launch node; a missing one is recorded as status missing-tool with
 * the install hint in .err (the collective check turns it into a SKIP), never a failure.
 * Every value that reaches the command line is validated (host names, benchmark allow-list, numbers, plain paths) and
 * quoted with {@link Shell}.
 */
public final class CollectiveRunner {
    public enum Launcher { MPIRUN, SRUN }

    /** OSU micro-benchmarks (c/mpi/collective) and nccl-tests programs this runner knows how to drive and parse. */
    public static final Set<String> OSU = Set.of("osu_allreduce", "osu_alltoall", "osu_allgather", "osu_bcast", "osu_reduce", "osu_barrier");
    public static final Set<String> NCCL = Set.of("all_reduce_perf", "alltoall_perf", "all_gather_perf");

    /** Directories: absolute, plain characters only (no quoting surprises, no '..'). */
    private static final Pattern PLAIN_DIR = Pattern.compile("/[A-Za-z0-9_@%+=:,./-]*");

    public record Options(List<String> benchmarks, Launcher launcher, int ranksPerNode, long minBytes, long maxBytes,
                          int iterations, String osuDir, String ncclTestsDir, String launcherArgs, Duration timeout) {
        public Options {
            benchmarks = List.copyOf(benchmarks);
            for (String b : benchmarks)
                if (!OSU.contains(b) && !NCCL.contains(b))
                    throw new Shell.UnsafeValue("unknown collective benchmark '" + b + "': one of " + new java.util.TreeSet<>(union()));
            if (ranksPerNode < 1 || ranksPerNode > 1024) throw new Shell.UnsafeValue("ranks per node must be 1..1024, found " + ranksPerNode);
            if (minBytes < 1 || maxBytes < minBytes || maxBytes > (1L << 34))
                throw new Shell.UnsafeValue("message sizes must satisfy 1 <= min <= max <= 16 GiB, found " + minBytes + ":" + maxBytes);
            if (iterations < 1 || iterations > 1_000_000) throw new Shell.UnsafeValue("iterations must be 1..1000000, found " + iterations);
            requireDir(osuDir);
            requireDir(ncclTestsDir);
        }

        /** Defaults: mpirun, 1 rank per node, 4 B .. 4 MiB (covers the 1 MiB field figure), 1000 iterations. */
        public static Options defaults(List<String> benchmarks) {
            return new Options(benchmarks, Launcher.MPIRUN, 1, 4, 4L << 20, 1000, null, null, null, Duration.ofMinutes(15));
        }
    }

    private final Transport transport;
    private final Options opt;
    private final PrintStream progress;

    public CollectiveRunner(Transport transport, Options opt, PrintStream progress) {
        this.transport = transport;
        this.opt = opt;
        this.progress = progress;
    }

    /** The command that runs one benchmark over the nodes (launched on the first node). */
    public String command(String benchmark, List<String> nodes) {
        nodes.forEach(Shell::requireHost);
        int ranks = nodes.size() * opt.ranksPerNode();
        List<String> argv = new ArrayList<>();
        if (opt.launcher() == Launcher.MPIRUN) {
            List<String> hosts = nodes.stream().map(h -> h + ":" + opt.ranksPerNode()).toList();
            argv.addAll(List.of("mpirun", "-np", String.valueOf(ranks), "--host", String.join(",", hosts),
                    "--map-by", "ppr:" + opt.ranksPerNode() + ":node"));
        } else {
            argv.addAll(List.of("srun", "--nodes=" + nodes.size(), "--ntasks=" + ranks, "--ntasks-per-node=" + opt.ranksPerNode(),
                    "--nodelist=" + String.join(",", nodes)));
        }
        String launcherArgs = Shell.words(opt.launcherArgs());
        argv.add(program(benchmark));
        if (OSU.contains(benchmark)) {
            // -f: min/max latency and iterations columns too; -m MIN:MAX sizes; -i iterations (OMB 5.x to 7.x)
            if (!benchmark.equals("osu_barrier")) argv.addAll(List.of("-m", opt.minBytes() + ":" + opt.maxBytes()));
            argv.addAll(List.of("-i", String.valueOf(opt.iterations()), "-f"));
        } else {
            // nccl-tests: -b/-e sizes, -f 2 doubling, -g 1 GPU per rank, -n iterations
            argv.addAll(List.of("-b", String.valueOf(Math.max(8, opt.minBytes())), "-e", String.valueOf(opt.maxBytes()), "-f", "2",
                    "-g", "1", "-n", String.valueOf(Math.min(opt.iterations(), 1000))));
        }
        String cmd = Shell.join(argv);
        if (!launcherArgs.isEmpty()) {
            String launcher = argv.get(0);
            cmd = launcher + " " + launcherArgs + cmd.substring(launcher.length());
        }
        return cmd;
    }

    /** Where the benchmark program is: in the configured directory, else on PATH. */
    String program(String benchmark) {
        String dir = OSU.contains(benchmark) ? opt.osuDir() : opt.ncclTestsDir();
        return dir == null ? benchmark : dir.replaceAll("/+$", "") + "/" + benchmark;
    }

    /** A shell check that both the launcher and the benchmark exist on the launch node (exit 127 if not). */
    String probe(String benchmark) {
        String launcher = opt.launcher() == Launcher.MPIRUN ? "mpirun" : "srun";
        String prog = program(benchmark);
        String progTest = prog.contains("/") ? "test -x " + Shell.quote(prog) : "command -v " + Shell.quote(prog) + " >/dev/null 2>&1";
        return "command -v " + launcher + " >/dev/null 2>&1 || { echo 'no " + launcher + " on this node' >&2; exit 127; }; "
                + progTest + " || { echo 'no " + prog + " on this node' >&2; exit 127; }"; // prog is plain: allow-listed name in a plain directory
    }

    /** Runs each benchmark once over all nodes; returns how many ran (missing ones are recorded, not counted). */
    public int run(List<String> nodes, DumpWriter w) {
        if (nodes.size() < 2) throw new IllegalArgumentException("a collective needs at least 2 nodes, got " + nodes.size());
        nodes.forEach(Shell::requireHost);
        String launch = nodes.get(0);
        int ran = 0;
        for (String b : opt.benchmarks()) {
            String cmd = command(b, nodes);
            Map<String, String> extra = new LinkedHashMap<>();
            extra.put("launcher", opt.launcher().name().toLowerCase());
            extra.put("ranks", String.valueOf(nodes.size() * opt.ranksPerNode()));
            extra.put("ppn", String.valueOf(opt.ranksPerNode()));
            extra.put("nodes", String.join(",", nodes));
            ExecResult probe = transport.run(launch, probe(b), Duration.ofSeconds(30));
            if (!CommandResult.OK.equals(probe.status())) {
                String why = (probe.stderr() == null ? "" : probe.stderr().trim()) + "\n" + installHint(b, opt.launcher());
                w.command("collective/" + b + ".out", new CommandResult(b, launch, cmd, CommandResult.MISSING_TOOL, probe.exitCode(),
                        probe.durationMs(), Instant.now().toString(), why), "", extra);
                progress.printf("%s: not available on %s, skipped (%s)%n", b, launch, firstLine(probe.stderr()));
                continue;
            }
            String started = Instant.now().toString();
            ExecResult r = transport.run(launch, cmd, opt.timeout());
            w.command("collective/" + b + ".out", new CommandResult(b, launch, cmd, r.status(), r.exitCode(), r.durationMs(), started,
                    r.stderr()), r.stdout(), extra);
            progress.printf("%s over %d rank(s): %s in %d s%n", b, nodes.size() * opt.ranksPerNode(), r.status(), r.durationMs() / 1000);
            ran++;
        }
        return ran;
    }

    /** What to install where, for the SKIP finding. */
    public static String installHint(String benchmark, Launcher launcher) {
        String l = launcher == Launcher.MPIRUN
                ? "mpirun must be on PATH on the launch node (Open MPI or NVIDIA HPC-X: 'module load hpcx' / 'source hpcx-init.sh; hpcx_load')"
                : "srun must be available (run inside an allocation: salloc -N <n>)";
        String b = OSU.contains(benchmark)
                ? "install the OSU micro-benchmarks on every node (HPC-X ships them in $HPCX_OSU_DIR; Spack: 'spack install osu-micro-benchmarks';"
                + " or build from mvapich.cse.ohio-state.edu/benchmarks: ./configure CC=mpicc CXX=mpicxx && make && make install)"
                + " and pass --osu-path DIR when they are not on PATH"
                : "build nccl-tests with MPI on every GPU node ('git clone https://github.com/NVIDIA/nccl-tests && make MPI=1 MPI_HOME=... CUDA_HOME=...')"
                + " and pass --nccl-tests-path DIR/build";
        return "install hint: " + b + "; " + l + ".";
    }

    private static void requireDir(String dir) {
        if (dir != null && (!PLAIN_DIR.matcher(dir).matches() || dir.contains("..")))
            throw new Shell.UnsafeValue("benchmark directory '" + dir + "' must be an absolute path of letters, digits and _@%+=:,./- (no '..')");
    }

    private static Set<String> union() {
        Set<String> s = new java.util.HashSet<>(OSU);
        s.addAll(NCCL);
        return s;
    }

    private static String firstLine(String s) {
        if (s == null || s.isBlank()) return "not found";
        return s.strip().lines().findFirst().orElse("");
    }
}
