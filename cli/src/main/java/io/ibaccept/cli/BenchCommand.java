package io.ibaccept.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:measured", "2:bad usage (the message says what)", "3:internal error (a bug: report it with the dump)"},
        name = "bench", sortOptions = false,
        description = {"Benchmark analyze on a synthetic N-node fat tree or a dump of your own.",
                "One-shot runs in fresh JVMs (what a user pays), then warm in-process runs: wall time, CPU time and peak RSS/heap "
                        + "per phase (load+parse, rules, reports), and the sizes of the reports."})
final class BenchCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "2000", description = "hosts of the synthetic fabric (default: ${DEFAULT-VALUE})")
    int nodes;

    @Option(names = "--runs", paramLabel = "K", defaultValue = "5", description = "warm in-process runs (default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--fresh-runs", paramLabel = "K", description = "one-shot runs in fresh JVMs (default: as --runs)")
    Integer freshRuns;

    @Option(names = "--dump", paramLabel = "DIR", description = "benchmark this dump instead of generating one (e.g. sample-dumps/dumps/demo-hdr16)")
    Path dump;

    @Option(names = "--every-node-fails", description = "every host of the synthetic fabric gets a finding (memlock on all, a 1X link on every other host): the report-size worst case")
    boolean everyNodeFails;

    @Override
    public Integer call() {
        if (nodes < 1) throw new Main.UsageError("--nodes must be at least 1");
        if (runs < 0 || (freshRuns != null && freshRuns < 0)) throw new Main.UsageError("--runs and --fresh-runs must not be negative");
        return new Bench(main.out).run(dump, nodes, runs, freshRuns == null ? runs : freshRuns, everyNodeFails);
    }
}
