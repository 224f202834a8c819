package io.ibaccept.cli;

import io.ibaccept.dump.DumpWriter;
import io.ibaccept.rdma.PairScheduler;
import io.ibaccept.rdma.PerftestRunner;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "rdma", sortOptions = false,
        description = {"Pairwise perftest runs in rounds (no node in two tests at once); the outputs are added to the dump."})
final class RdmaCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @ArgGroup(exclusive = true, multiplicity = "1")
    NodeSelection nodes;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DUMP_DIR", description = "dump directory to add the results to")
    Path out;

    @Option(names = "--tests", paramLabel = "TEST", split = ",", defaultValue = "ib_write_bw,ib_read_lat",
            description = "perftest programs to run (default: ${DEFAULT-VALUE})")
    List<String> tests;

    @Option(names = "--pattern", paramLabel = "PATTERN", defaultValue = "all-pairs", converter = PatternName.class,
            completionCandidates = PatternName.Names.class, description = "which pairs: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
    PairScheduler.Pattern pattern;

    @Option(names = "--device", paramLabel = "DEV", description = "HCA for perftest's -d, e.g. mlx5_0 (default: perftest's choice)")
    String device;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "18515", description = "first TCP port for the perftest handshake (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--timeout-s", paramLabel = "S", defaultValue = "120", description = "per-test timeout (default: ${DEFAULT-VALUE})")
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
        List<String> hosts = nodes.nodes();
        var rounds = PairScheduler.rounds(hosts, pattern);
        PerftestRunner.Options opt = new PerftestRunner.Options(tests, device, port, Duration.ofSeconds(timeoutS),
                Duration.ofMillis(Math.max(0, serverDelayMs)), extra);
        int n;
        try (Progress p = Progress.open("rdma", (long) tests.size() * rounds.size(), STEP, main.err)) {
            n = new PerftestRunner(transport.transport(nodes.slurm), opt, p.lines()).run(rounds, new DumpWriter(out));
        }
        main.out.println(n + " perftest pair run(s) in " + rounds.size() + " round(s) written to " + out);
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
                default -> throw new CommandLine.TypeConversionException("expected one of all-pairs, ring, bisection, found '" + value + "'");
            };
        }

        static final class Names extends ArrayList<String> {
            Names() {
                super(List.of("all-pairs", "ring", "bisection"));
            }
        }
    }
}
