package io.ibaccept.cli;

import java.nio.file.Files;
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

    @Option(names = "--hcas-per-node", paramLabel = "K", defaultValue = "1",
            description = "HCAs per host of the synthetic fabric, each on its own rail (GPU hosts: 8); more than one builds an NDR rail-optimised tree (default: ${DEFAULT-VALUE})")
    int hcasPerNode;

    @Option(names = "--keep", paramLabel = "DIR", description = "write the synthetic dump into DIR (new or empty) and keep it, to analyze it again")
    Path keep;

    @Override
    public Integer call() {
        if (nodes < 1) throw new Main.UsageError("--nodes must be at least 1");
        if (runs < 0 || (freshRuns != null && freshRuns < 0)) throw new Main.UsageError("--runs and --fresh-runs must not be negative");
        if (hcasPerNode < 1 || hcasPerNode > 16) throw new Main.UsageError("--hcas-per-node must be 1 to 16");
        if (keep != null && dump != null) throw new Main.UsageError("--keep writes the synthetic dump; with --dump there is none");
        if (keep != null && Files.exists(keep) && !isEmptyDirectory(keep))
            throw new Main.UsageError("--keep " + keep + ": exists and is not an empty directory");
        return new Bench(main.out).run(new Bench.Fabric(dump, nodes, hcasPerNode, everyNodeFails, keep), runs, freshRuns == null ? runs : freshRuns);
    }

    private static boolean isEmptyDirectory(Path p) {
        if (!Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return false;
        try (java.util.stream.Stream<Path> s = Files.list(p)) {
            return s.findAny().isEmpty();
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
