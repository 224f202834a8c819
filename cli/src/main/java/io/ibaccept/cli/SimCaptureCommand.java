package io.ibaccept.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:captured", "2:bad usage, or the simulator's packages are not installed", "3:internal error (a bug: report it)"},
        name = "sim-capture", sortOptions = false,
        description = {"Re-capture the demo dump on ibsim: the 16-node fat tree with its injected faults, collected as 'collect' would.",
                "Needs ibsim-utils libumad2sim0 opensm infiniband-diags."})
final class SimCaptureCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DUMP_DIR", description = "dump directory to write")
    Path out;

    @Option(names = "--netfile", paramLabel = "FILE", defaultValue = "sample-dumps/sim/fattree-16.net", description = "ibsim netfile (default: ${DEFAULT-VALUE})")
    Path netfile;

    @Option(names = "--overlay", paramLabel = "DIR",
            description = "copy sample outputs of tools ibsim cannot run (mlxlink, ofed_info, ibdiagnet) over the dump, e.g. sample-dumps/overlay/demo-hdr16")
    Path overlay;

    @Option(names = "--nodes", paramLabel = "HOSTLIST", defaultValue = "node[01-16]", description = "hosts of the netfile (default: ${DEFAULT-VALUE})")
    String nodes;

    @Option(names = "--cluster", paramLabel = "NAME", defaultValue = "demo-hdr16", description = "cluster name (default: ${DEFAULT-VALUE})")
    String cluster;

    @Override
    public Integer call() {
        return SimCapture.run(netfile, out, overlay, nodes, cluster, main.out, main.err);
    }
}
