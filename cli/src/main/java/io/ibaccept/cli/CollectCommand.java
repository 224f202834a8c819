package io.ibaccept.cli;

import io.ibaccept.collect.Collector;
import io.ibaccept.collect.CounterWindow;
import io.ibaccept.dump.Cmd;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.dump.Manifest;
import io.ibaccept.parse.ParseException;
import io.ibaccept.parse.Text;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:the dump is written (a command that failed, timed out or was missing on a node is an error record in it, judged by analyze)", "1:the dump is written, but more than half of the command outputs failed (unreachable nodes, no subnet manager, tools missing): it judges little", "2:bad usage (the message says what)", "3:internal error (a bug: report it with the dump)"},
        name = "collect", sortOptions = false,
        description = {"Collect fabric and node diagnostics from every node into a dump directory.",
                "Bounded parallelism and per-command timeouts; a host that is unreachable, hangs or lacks a tool becomes an error "
                        + "record in the dump and collection goes on for the others. Progress: a bar on a terminal, one line per command otherwise."})
final class CollectCommand implements Callable<Integer> {
    @ParentCommand
    Main main;

    @ArgGroup(exclusive = true, multiplicity = "1")
    NodeSelection nodes;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DUMP_DIR", description = "dump directory (created if missing)")
    Path out;

    @Mixin
    TransportOptions transport;

    @Option(names = "--fabric-node", paramLabel = "NODE", description = "node that runs the fabric-wide commands (default: the first node)")
    String fabricNode;

    @Option(names = "--parallel", paramLabel = "N", defaultValue = "32", description = "nodes collected at once (default: ${DEFAULT-VALUE})")
    int parallel;

    @Option(names = "--cluster", paramLabel = "NAME", defaultValue = "cluster", description = "cluster name for the manifest and the report")
    String cluster;

    @Option(names = "--mlxlink", description = "also collect mlxlink (cable, BER, PCIe) per node")
    boolean mlxlink;

    @Option(names = "--ibdiagnet", description = "also run ibdiagnet on the fabric node")
    boolean ibdiagnet;

    @Option(names = "--ethtool", paramLabel = "IFACE", description = "also collect 'ethtool -S IFACE' per node (RoCE / Ethernet counters)")
    String ethtool;

    @Option(names = "--probe-cmd", paramLabel = "CMD", description = "run the native probe on each node with this command, e.g. 'ibaccept probe'")
    String probeCmd;

    @Option(names = "--node-timeout-s", paramLabel = "S", defaultValue = "300",
            description = "per-node deadline; a node that hangs on two commands in a row is given up (default: ${DEFAULT-VALUE})")
    int nodeTimeoutS;

    @Option(names = "--only", paramLabel = "CMD", split = ",", converter = CmdName.class, completionCandidates = CmdName.Names.class,
            description = "re-collect only these commands into an existing dump (names as in the dump: ${COMPLETION-CANDIDATES}); "
                    + "the other files and the manifest's nodes are kept")
    List<Cmd> only;

    @Option(names = "--window", paramLabel = "DURATION", arity = "0..1", fallbackValue = "2m", converter = Durations.class,
            description = "read every port's counters fabric-wide (switch ports included) at the start and at the end of this window "
                    + "(e.g. 10m; 2m when given without a value), so the report judges errors per hour and BER, not a snapshot")
    Duration window;

    @Option(names = "--clear-counters", description = "with --window: clear the port counters before the first sample "
            + "(off by default: it destroys the counter history other monitoring relies on; never on a production fabric without intent)")
    boolean clearCounters;

    @Option(names = "--sm-nodes", paramLabel = "HOSTLIST", description = "the nodes (a hostlist or node groups, as --nodes) meant to run the subnet manager (kept in the "
            + "manifest: a master elsewhere fails): their opensm.conf, partitions.conf and opensm.log tail, whether opensm runs there or not; "
            + "the other collected nodes are still read where an opensm process runs (default: only those)")
    String smNodes;

    @Override
    public Integer call() {
        if (clearCounters && window == null) throw new Main.UsageError("--clear-counters needs --window DURATION");
        if (window != null && only != null) throw new Main.UsageError("--window takes whole-fabric samples: not with --only");
        if (parallel < 1) throw new Main.UsageError("--parallel must be at least 1");
        if (nodeTimeoutS < 1) throw new Main.UsageError("--node-timeout-s must be at least 1");
        Set<Cmd> selected = only == null ? null : EnumSet.copyOf(only);
        if (selected != null) {
            // the optional commands named in --only are collected without their switch; some need its value
            if (selected.contains(Cmd.MLXLINK) || selected.contains(Cmd.MLXLINK_PCIE)) mlxlink = true;
            if (selected.contains(Cmd.IBDIAGNET_LOG) || selected.contains(Cmd.IBDIAGNET_DB)) {
                ibdiagnet = true;
                selected.addAll(List.of(Cmd.IBDIAGNET_LOG, Cmd.IBDIAGNET_DB)); // the .db_csv is a file of the same ibdiagnet run
            }
            if (selected.contains(Cmd.ETHTOOL) && ethtool == null) throw new Main.UsageError("--only ethtool-S needs --ethtool IFACE");
            if (selected.contains(Cmd.NATIVE_PROBE) && probeCmd == null) throw new Main.UsageError("--only native-probe needs --probe-cmd CMD");
        }
        List<String> hosts = nodes.nodes();
        Manifest before = selected == null ? null : existingManifest();
        Collector.Options opt = new Collector.Options(cluster, fabricNode, parallel, mlxlink, ibdiagnet, ethtool, probeCmd,
                Duration.ofSeconds(nodeTimeoutS));
        // the bar's total is the collector's own count, from its first "[n/total]" line (SM snippets run where opensm is found)
        try (Progress p = Progress.open("collect", 0, STEP, main.err)) {
            Collector c = new Collector(transport.transport(nodes.slurm), opt, p.lines()).only(selected);
            if (before != null) c.extending(before);
            if (window != null) c.withCounterWindow(new CounterWindow.Options(window, clearCounters));
            if (smNodes != null) c.withSmNodes(NodeSelection.expand(smNodes, "--sm-nodes"));
            c.collect(hosts, out);
            main.out.println("dump written to " + out + "; analyse with: ibaccept analyze " + out + " -o <report-dir>");
            if (c.notOk() * 2 > c.collected()) {
                main.err.println("ibaccept: " + c.notOk() + " of " + c.collected() + " command outputs failed (the lines above and the dump's .meta files say why): "
                        + "the dump judges little; check that the nodes are reachable, a subnet manager runs and the tools are installed");
                return Main.NOT_ACCEPTED;
            }
        }
        return 0;
    }

    /** A collector line "[  12/118] node03 ibstat ok 40 ms": group 1 is the status. */
    static final Pattern STEP = Pattern.compile("^\\[\\s*\\d+/\\d+\\]\\s+\\S+\\s+\\S+\\s+(\\S+)");

    private Manifest existingManifest() {
        try {
            String text = DumpWriter.readManifest(out);
            return text == null ? null : Manifest.parse(new Text(Manifest.FILE, text));
        } catch (IOException | ParseException e) {
            return null; // unreadable: the collector's fresh manifest stands
        }
    }

    /** Command names as the dump stores them (ibstat, smpquery-portinfo, ...). */
    static final class CmdName implements CommandLine.ITypeConverter<Cmd> {
        @Override
        public Cmd convert(String value) {
            return Cmd.named(value).orElseThrow(() ->
                    new CommandLine.TypeConversionException("unknown command '" + value + "' (known: " + String.join(", ", new Names()) + ")"));
        }

        static final class Names extends ArrayList<String> {
            Names() {
                super(Arrays.stream(Cmd.values()).map(Cmd::fileName).toList());
            }
        }
    }
}
