package io.ibaccept.cli;

import io.ibaccept.collect.SmFailoverDrill;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.dump.Manifest;
import io.ibaccept.model.Hostlist;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "drill", description = "Active acceptance tests that change the running fabric and put it back. They refuse to run without --yes.",
        subcommands = {DrillCommand.SmFailover.class})
final class DrillCommand {
    @ParentCommand
    Main main;

    @Command(name = "sm-failover", sortOptions = false, description = {
            "Stop the master subnet manager on its node (its opensm service, else the process), time until the standby is MASTER, "
                    + "check that the ports stayed Active with their LIDs and P_Keys, start the stopped SM again and time until it has its "
                    + "configured role back. Each step, with its time and command output, goes into DUMP/fabric/sm-failover-drill.out; "
                    + "'ibaccept analyze DUMP' judges it (sm.drill). The stopped SM is started again whatever happens, also on Ctrl-C.",
            "Exit code: 0 the standby took over and the SM was started again, 1 it did not take over or was not started again, "
                    + "2 refused (no --yes, fewer than two running SMs, bad usage)."})
    static final class SmFailover implements Callable<Integer> {
        @ParentCommand
        DrillCommand parent;

        @Option(names = "--sm-nodes", required = true, paramLabel = "HOSTLIST", description = "the SM nodes (master and standby), e.g. sm[01-02]")
        String smNodes;

        @Option(names = "--nodes", paramLabel = "HOSTLIST", description = "nodes whose ports must stay Active with their LIDs and P_Keys (default: the SM nodes)")
        String nodes;

        @Option(names = "--fabric-node", paramLabel = "NODE", description = "node that asks sminfo (default: the first of --nodes, else of --sm-nodes)")
        String fabricNode;

        @Option(names = {"-o", "--output"}, required = true, paramLabel = "DUMP_DIR", description = "dump directory to add the drill's record to")
        Path out;

        @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "3m",
                description = "how long the standby may take to become MASTER, and the SM to get its role back (default: ${DEFAULT-VALUE})")
        String timeout;

        @Option(names = "--yes", description = "really stop the master SM: while no SM is master, new and rebooted ports stay in Init")
        boolean yes;

        @Mixin
        TransportOptions transport;

        @Override
        public Integer call() {
            List<String> sms = Hostlist.expand(smNodes);
            if (new LinkedHashSet<>(sms).size() < 2) throw new Main.UsageError("--sm-nodes: a failover drill needs the master's and a standby's node");
            List<String> check = nodes == null ? sms : Hostlist.expand(nodes);
            String fabric = fabricNode != null ? fabricNode : check.get(0);
            Duration limit = Durations.parse(timeout);
            // names are checked before anything is written or run
            sms.forEach(io.ibaccept.safety.Shell::requireHost);
            check.forEach(io.ibaccept.safety.Shell::requireHost);
            io.ibaccept.safety.Shell.requireHost(fabric);
            if (!yes) throw new Main.UsageError("this drill stops the master SM on " + String.join(" or ", sms)
                    + " (no SM is master until the standby takes over; new ports stay in Init meanwhile); add --yes to run it");
            DumpWriter w = new DumpWriter(out);
            List<String> listed = new ArrayList<>(new LinkedHashSet<>(check));
            Manifest ifAbsent = new Manifest(Manifest.FORMAT, "unnamed", Instant.now().toString(), "ibaccept drill", fabric, listed,
                    Map.of(), Manifest.PARTIAL, sms);
            w.state(Manifest.PARTIAL, ifAbsent);
            SmFailoverDrill.Result r;
            try {
                r = new SmFailoverDrill(transport.transport(false), new SmFailoverDrill.Options(sms, check, fabric, limit, Duration.ofSeconds(2)),
                        parent.main.err).run(w);
            } catch (SmFailoverDrill.Refused e) {
                w.state(Manifest.COMPLETE, ifAbsent);
                throw new Main.UsageError("drill refused: " + e.getMessage());
            }
            w.state(Manifest.COMPLETE, ifAbsent);
            parent.main.out.println("SM failover drill written to " + out + ": " + (r.takeoverSeconds() == null ? "the standby did not take over"
                    : String.format(java.util.Locale.ROOT, "taken over in %.1f s", r.takeoverSeconds()))
                    + (r.restored() ? "; the stopped SM runs again" : "; the stopped SM did NOT start again: start it by hand")
                    + "; analyse with: ibaccept analyze " + out + " -o <report-dir>");
            return r.takeoverSeconds() != null && r.restored() ? Main.ACCEPTED : Main.NOT_ACCEPTED;
        }
    }
}
