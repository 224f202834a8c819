package io.ibaccept.cli;

import io.ibaccept.dump.DumpWriter;
import io.ibaccept.rdma.BurnIn;
import io.ibaccept.safety.Shell;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:every node stayed through every round", "1:a node dropped out (named in burn/summary.out; the rest went on)", "2:bad usage (the message says what)", "3:internal error (a bug: report it with the dump)"},
        name = "burn", sortOptions = false,
        description = {"Burn-in: perftest traffic in rounds chosen from the topology so every leaf pair exchanges traffic (every "
                + "leaf-spine link carries load), between two fabric-wide counter samples. No node is in two tests at once; a node "
                + "that drops out is recorded in burn/summary.out and the rest continue.",
                "Analyse the dump afterwards: the report shows which switch-to-switch links were exercised and their error rates under load.",
                "Exit code 1 when a node dropped out."})
final class BurnCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @ArgGroup(exclusive = true, multiplicity = "1")
    NodeSelection nodes;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DUMP_DIR", description = "dump directory to add the samples and runs to")
    Path out;

    @Option(names = "--duration", required = true, paramLabel = "DURATION", converter = BurnCommand.AutoOrDuration.class,
            description = "total traffic time, spread over the rounds (e.g. 30m, 2h), or auto: per round as long as the slowest link needs to "
                    + "carry the bits that prove --ber-target with no error")
    Duration duration; // null: auto

    /** A duration, or "auto" (null): as long as the BER target needs. */
    static final class AutoOrDuration implements picocli.CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return "auto".equalsIgnoreCase(value.trim()) ? null : Durations.parse(value);
        }
    }

    @Option(names = "--ber-target", paramLabel = "BER", defaultValue = "1e-12",
            description = "with --duration auto: the bit error rate every link must prove, at 95 %% confidence (default: ${DEFAULT-VALUE})")
    double berTarget;

    @Option(names = "--test", paramLabel = "TEST", defaultValue = "ib_write_bw", description = "perftest bandwidth program (default: ${DEFAULT-VALUE})")
    String test;

    @Option(names = "--device", paramLabel = "DEV", description = "HCA for perftest's -d, e.g. mlx5_0 (default: perftest's choice)")
    String device;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "18515", description = "first TCP port for the perftest handshake (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--fabric-node", paramLabel = "NODE", description = "node that reads the topology and the counters (default: the first node)")
    String fabricNode;

    @Option(names = "--clear-counters", description = "clear the port counters before the first sample (off by default: it destroys the "
            + "counter history other monitoring relies on)")
    boolean clearCounters;

    @Option(names = "--round-slack-s", paramLabel = "S", defaultValue = "60",
            description = "time allowed per round beyond its traffic for start-up and teardown (default: ${DEFAULT-VALUE})")
    int roundSlackS;

    @Mixin
    TransportOptions transport;

    @Override
    public Integer call() {
        if (port < 1 || port > 65535) throw new Main.UsageError("--port must be 1-65535, found " + port);
        if (roundSlackS < 1) throw new Main.UsageError("--round-slack-s must be at least 1");
        Shell.requirePerftest(test);
        if (device != null) Shell.requireDevice(device);
        List<String> hosts = nodes.nodes();
        if (hosts.size() < 2) throw new Main.UsageError("a burn-in needs at least 2 nodes");
        if (!(berTarget > 0 && berTarget < 1)) throw new Main.UsageError("--ber-target must be between 0 and 1, e.g. 1e-12");
        Duration total = duration;
        BurnIn.Options opt = new BurnIn.Options(total, test, device, port, fabricNode, clearCounters, Duration.ofSeconds(roundSlackS), berTarget);
        BurnIn.Result r;
        try (Progress p = Progress.open("burn", 0, STEP, main.err)) {
            r = new BurnIn(transport.transport(nodes.slurm), opt, p.lines()).run(hosts, new DumpWriter(out));
        }
        main.out.println(r.testsRun() + " perftest run(s) in " + r.plan().rounds().size() + " round(s)"
                + (total == null ? " (duration chosen for BER < " + berTarget + ")" : " over " + Durations.format(total))
                + " written to " + out + "; analyse with: ibaccept analyze " + out + " -o <report-dir>");
        if (!r.plan().unplaced().isEmpty())
            main.out.println("not placed on a leaf pair (no topology match): " + String.join(", ", r.plan().unplaced()));
        r.dropped().forEach((h, why) -> main.out.println("dropped out: " + h + " (" + why + ")"));
        return r.dropped().isEmpty() ? 0 : Main.NOT_ACCEPTED;
    }

    /** BurnIn's line for each round it starts ("burn round 3/12 (leaf01-leaf02): ..."). */
    static final java.util.regex.Pattern STEP = java.util.regex.Pattern.compile("^burn round \\d+/\\d+");
}
