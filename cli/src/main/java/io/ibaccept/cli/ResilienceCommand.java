package io.ibaccept.cli;

import io.ibaccept.collect.ResilienceRun;
import io.ibaccept.collect.SimFabric;
import io.ibaccept.dump.Cmd;
import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.model.ClusterData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "resilience", sortOptions = false,
        description = {"N-1 on a twin of the fabric: build it from the dump (ibsim with the topology as built, opensm with the dump's routing "
                + "settings and LIDs), check that its forwarding tables are the dump's, then take out each switch-to-switch cable (--switches: "
                + "and each switch) in turn, let opensm re-route, and walk the tables (every destination reached, no forwarding or credit loop, "
                + "the worst uplink's load). The live fabric is not touched. The record goes into DUMP/fabric/resilience.out, then the dump is "
                + "analysed into OUT: page 1 says whether the fabric survives the loss of any one ISL (check resilience.n1).",
                "Needs the simulator on this machine: ibsim-utils, libumad2sim0, opensm, infiniband-diags."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:accepted", "1:not accepted: a check failed (a critical cable, for one)", "2:bad usage, no simulator, or a dump that is not a directory",
                "3:internal error (a bug: report it with the dump)", "4:incomplete"})
final class ResilienceCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Parameters(index = "0", paramLabel = "DUMP", description = "dump directory (the record is written into it)")
    Path dump;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DIR", description = "directory for the reports (created if missing)")
    Path outDir;

    @Option(names = "--switches", description = "also take out each switch in turn (its hosts go with it; the rest must stay reachable)")
    boolean switches;

    @Option(names = "--contract", paramLabel = "FILE", description = "the acceptance contract the analysis judges against (it may require resilience.n1)")
    Path contract;

    @Option(names = "--parallel", paramLabel = "N", description = "twins run at once, each an ibsim and opensm of its own (default: the machine's cores, at most 8)")
    Integer parallel;

    @Option(names = "--sample", paramLabel = "N", description = "take out only N cables/switches, spread evenly over the fabric; the record and page 1 state the coverage")
    int sample;

    @Option(names = "--sweep-timeout", paramLabel = "SECONDS", defaultValue = "300", description = "longest one re-route of the twin's opensm may take (default: ${DEFAULT-VALUE})")
    long sweepTimeout;

    @Override
    public Integer call() {
        if (!Files.isDirectory(dump)) throw new Main.UsageError(dump + " is not a dump directory (unpack a .zip dump first): the record is written into it");
        if (!SimFabric.available()) throw new Main.UsageError("the twin needs the simulator: apt-get install ibsim-utils libumad2sim0 opensm infiniband-diags");
        if (sample < 0) throw new Main.UsageError("--sample must be 0 (all) or more, found " + sample);
        int n = parallel == null ? Math.min(8, Runtime.getRuntime().availableProcessors()) : parallel;
        if (n < 1 || n > 64) throw new Main.UsageError("--parallel must be 1-64, found " + n);
        ClusterData data = DumpLoader.load(dump);
        Path work;
        try {
            work = Files.createTempDirectory("ibaccept-twin");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Instant start = Instant.now();
        String record;
        try {
            record = new ResilienceRun(data, new ResilienceRun.Options(switches, n, sample, Duration.ofSeconds(sweepTimeout)), work, main.err).run();
        } catch (IllegalArgumentException e) {
            throw new Main.UsageError(e.getMessage());
        }
        long ms = Duration.between(start, Instant.now()).toMillis();
        new DumpWriter(dump).command(Cmd.RESILIENCE.path(null), new CommandResult(Cmd.RESILIENCE.fileName(), "", "ibaccept resilience", CommandResult.OK, 0, ms,
                start.toString(), ""), record);
        main.err.println("wrote " + dump.resolve(Cmd.RESILIENCE.path(null)));
        // the twins' netfiles and opensm logs are kept only when the run failed (above, the message names them)
        try (var files = Files.walk(work)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            main.err.println("ibaccept: could not remove the twin's files in " + work + ": " + e.getMessage());
        }
        AnalyzeCommand a = new AnalyzeCommand();
        a.main = main;
        a.dump = dump;
        a.outDir = outDir;
        a.contract = contract;
        return a.call();
    }
}
