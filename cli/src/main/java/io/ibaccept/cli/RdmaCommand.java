package io.ibaccept.cli;

import io.ibaccept.dump.DumpLoader;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.rdma.CollectiveRunner;
import io.ibaccept.rdma.PairScheduler;
import io.ibaccept.rdma.PerftestRunner;
import io.ibaccept.rdma.Retest;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.analysis.Analysis;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:the tests ran and their outputs are in the dump (analyze judges them; a failed pair is a record, not an exit code)", "2:bad usage (the message says what)", "3:internal error (a bug: report it with the dump)"},
        name = "rdma", sortOptions = false,
        description = {"Pairwise perftest runs in rounds (no node in two tests at once); the outputs are added to the dump.",
                "--retest re-runs the pairs the analysis found to be outliers (both runs stay in the dump); --collective runs "
                        + "OSU / nccl-tests collectives over the nodes through mpirun or srun."})
final class RdmaCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    NodeSelection nodes;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DUMP_DIR", description = "dump directory to add the results to")
    Path out;

    @Option(names = "--tests", paramLabel = "TEST", split = ",", defaultValue = "ib_write_bw,ib_read_lat",
            description = "perftest programs to run (default: ${DEFAULT-VALUE})")
    List<String> tests;

    @Option(names = "--pattern", paramLabel = "PATTERN", defaultValue = "all-pairs", converter = PatternName.class,
            completionCandidates = PatternName.Names.class, description = "which pairs: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    PairScheduler.Pattern pattern;

    @Option(names = "--reference", paramLabel = "NODE", description = "one-to-all: the node tested against every other one")
    String reference;

    @Option(names = "--retest", description = "re-run the outlier pairs of the perftest runs already in DUMP_DIR whose latest attempt "
            + "still fails (in rounds, no node twice per round); the first runs are kept, the analysis judges the latest")
    boolean retest;

    @Option(names = "--rules", paramLabel = "FILE", description = "--retest: the thresholds that decide the outliers (as for analyze)")
    Path rules;

    @Option(names = "--collective", paramLabel = "BENCH", split = ",",
            description = "run these collectives instead of perftest pairs: osu_allreduce, osu_alltoall, osu_allgather, osu_bcast, "
                    + "osu_reduce, osu_barrier, all_reduce_perf, alltoall_perf, all_gather_perf")
    List<String> collectives;

    @Option(names = "--launcher", paramLabel = "L", defaultValue = "mpirun", description = "collectives: mpirun or srun (default: ${DEFAULT-VALUE})")
    String launcher;

    @Option(names = "--ranks-per-node", paramLabel = "N", defaultValue = "1", description = "collectives: MPI ranks per node (default: ${DEFAULT-VALUE})")
    int ranksPerNode;

    @Option(names = "--sizes", paramLabel = "MIN:MAX", defaultValue = "4:4194304",
            description = "collectives: message sizes in bytes (default: ${DEFAULT-VALUE})")
    String sizes;

    @Option(names = "--iterations", paramLabel = "N", defaultValue = "1000", description = "collectives: iterations per size (default: ${DEFAULT-VALUE})")
    int iterations;

    @Option(names = "--osu-dir", paramLabel = "DIR", description = "collectives: directory of the OSU binaries on the nodes (default: PATH)")
    String osuDir;

    @Option(names = "--nccl-tests-dir", paramLabel = "DIR", description = "collectives: directory of the nccl-tests binaries (default: PATH)")
    String ncclTestsDir;

    @Option(names = "--launcher-args", paramLabel = "ARGS", parameterConsumer = TransportOptions.Verbatim.class,
            description = "collectives: extra mpirun/srun arguments, e.g. --launcher-args '-x UCX_NET_DEVICES=mlx5_0:1'")
    String launcherArgs;

    @Option(names = "--device", paramLabel = "DEV", description = "HCA for perftest's -d, e.g. mlx5_0 (default: perftest's choice)")
    String device;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "18515", description = "first TCP port for the perftest handshake (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--timeout-s", paramLabel = "S", defaultValue = "120", description = "per-test timeout (default: ${DEFAULT-VALUE}; collectives: x10)")
    int timeoutS;

    @Option(names = "--server-delay-ms", paramLabel = "MS", defaultValue = "1500",
            description = "wait after starting the server side before the client starts (default: ${DEFAULT-VALUE})")
    int serverDelayMs;

    @Option(names = "--extra", paramLabel = "ARGS", parameterConsumer = TransportOptions.Verbatim.class,
            description = "extra perftest arguments, e.g. --extra '-F -a'")
    String extra;

    @Mixin
    TransportOptions transport;

    @Override
    public Integer call() {
        if (port < 1 || port > 65535) throw new Main.UsageError("--port must be 1-65535, found " + port);
        if (timeoutS < 1) throw new Main.UsageError("--timeout-s must be at least 1");
        if (retest && collectives != null) throw new Main.UsageError("--retest and --collective are separate runs: give one of them");
        if (retest) return retest();
        if (nodes == null) throw new Main.UsageError("give the nodes: --nodes, --hostfile or --slurm (only --retest takes them from the dump)");
        if (collectives != null) return collectives();
        List<String> hosts = nodes.nodes();
        if (pattern == PairScheduler.Pattern.ONE_TO_ALL && reference == null)
            throw new Main.UsageError("--pattern one-to-all needs --reference NODE");
        if (reference != null && pattern != PairScheduler.Pattern.ONE_TO_ALL)
            throw new Main.UsageError("--reference is for --pattern one-to-all");
        if (reference != null && !hosts.contains(reference))
            throw new Main.UsageError("--reference " + reference + " is not one of the nodes");
        var rounds = PairScheduler.rounds(hosts, pattern, reference);
        int n;
        try (Progress p = Progress.open("rdma", (long) tests.size() * rounds.size(), STEP, main.err)) {
            n = new PerftestRunner(transport.transport(nodes.slurm), options(tests), p.lines()).run(rounds, new DumpWriter(out));
        }
        main.out.println(n + " perftest pair run(s) in " + rounds.size() + " round(s) written to " + out);
        return 0;
    }

    private PerftestRunner.Options options(List<String> which) {
        return new PerftestRunner.Options(which, device, port, Duration.ofSeconds(timeoutS), Duration.ofMillis(Math.max(0, serverDelayMs)), extra);
    }

    /** The outliers of the runs in the dump, re-run; both runs stay, the analysis judges each pair by its latest attempt. */
    private int retest() {
        if (!Files.isDirectory(out.resolve("perftest"))) throw new Main.UsageError(out + ": no perftest runs to retest (run 'ibaccept rdma' first)");
        RuleConfig cfg = rules == null ? RuleConfig.defaults() : RuleConfig.withOverrides(rules);
        Map<String, List<Map.Entry<String, String>>> bad = Analysis.of(out, Analysis.Options.of(cfg)).perf().retestPairs();
        Map<String, List<PairScheduler.Pair>> pairs = new LinkedHashMap<>();
        bad.forEach((test, l) -> pairs.put(test, l.stream().map(e -> new PairScheduler.Pair(e.getKey(), e.getValue())).toList()));
        int total = pairs.values().stream().mapToInt(List::size).sum();
        if (total == 0) {
            main.out.println("no outlier pairs to retest in " + out);
            return 0;
        }
        main.out.println("retesting " + total + " outlier pair(s): " + pairs.keySet());
        boolean slurm = nodes != null && nodes.slurm;
        int n;
        long rounds = pairs.values().stream().mapToLong(l -> PairScheduler.pack(l).size()).sum(); // progress counts rounds
        try (Progress p = Progress.open("rdma --retest", rounds, STEP, main.err)) {
            n = new Retest(test -> new PerftestRunner(transport.transport(slurm), options(List.of(test)), p.lines())).run(pairs, new DumpWriter(out));
        }
        main.out.println(n + " retest run(s) written to " + out + "; analyse again to keep only the pairs that failed twice");
        return 0;
    }

    private int collectives() {
        List<String> hosts = nodes.nodes();
        String[] mm = sizes.split(":", -1);
        long min, max;
        try {
            if (mm.length != 2) throw new NumberFormatException();
            min = Long.parseLong(mm[0].trim());
            max = Long.parseLong(mm[1].trim());
        } catch (NumberFormatException e) {
            throw new Main.UsageError("--sizes must be MIN:MAX in bytes, found '" + sizes + "'");
        }
        CollectiveRunner.Launcher l = switch (launcher) {
            case "mpirun" -> CollectiveRunner.Launcher.MPIRUN;
            case "srun" -> CollectiveRunner.Launcher.SRUN;
            default -> throw new Main.UsageError("--launcher must be mpirun or srun, found '" + launcher + "'");
        };
        CollectiveRunner.Options opt;
        try {
            opt = new CollectiveRunner.Options(collectives, l, ranksPerNode, min, max, iterations, osuDir, ncclTestsDir, launcherArgs,
                    Duration.ofSeconds(10L * timeoutS));
        } catch (RuntimeException e) {
            throw new Main.UsageError(e.getMessage());
        }
        int n = new CollectiveRunner(transport.transport(nodes.slurm), opt, main.err).run(hosts, new DumpWriter(out));
        main.out.println(n + " collective benchmark(s) over " + hosts.size() + " nodes written to " + out + "/collective");
        return 0;
    }

    /** The runner's line "ib_write_bw round 3/15: 8 pair(s) done". */
    static final Pattern STEP = Pattern.compile(" round \\d+/\\d+: ");

    static final class PatternName implements CommandLine.ITypeConverter<PairScheduler.Pattern> {
        @Override
        public PairScheduler.Pattern convert(String value) {
            return switch (value) {
                case "all-pairs" -> PairScheduler.Pattern.ALL_PAIRS;
                case "ring" -> PairScheduler.Pattern.RING;
                case "bisection" -> PairScheduler.Pattern.BISECTION;
                case "one-to-all" -> PairScheduler.Pattern.ONE_TO_ALL;
                default -> throw new CommandLine.TypeConversionException("expected one of all-pairs, ring, bisection, one-to-all, found '" + value + "'");
            };
        }

        static final class Names extends ArrayList<String> {
            Names() {
                super(List.of("all-pairs", "ring", "bisection", "one-to-all"));
            }
        }
    }
}
