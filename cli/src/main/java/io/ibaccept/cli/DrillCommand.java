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

@Command(exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:see each drill's help", "2:bad usage (the message says what)", "3:internal error (a bug: report it with the dump)"},
        name = "drill", description = "Active acceptance tests that change the running fabric and put it back. They refuse to run without --yes.",
        subcommands = {DrillCommand.SmFailover.class, DrillCommand.Isl.class})
final class DrillCommand {
    @ParentCommand
    Main main;

    /**
     * Runs a drill into the dump: its manifest says partial until the drill ends (a killed drill leaves a dump that says
     * so); a refused drill changed nothing and is a usage error (exit 2).
     */
    static <R> R intoDump(Path out, String fabricNode, List<String> nodes, List<String> smNodes, java.util.function.Function<DumpWriter, R> drill) {
        DumpWriter w = new DumpWriter(out);
        Manifest ifAbsent = new Manifest(Manifest.FORMAT, "unnamed", Instant.now().toString(), "ibaccept drill", fabricNode, nodes, Map.of(),
                Manifest.PARTIAL, smNodes);
        w.state(Manifest.PARTIAL, ifAbsent);
        R r;
        try {
            r = drill.apply(w);
        } catch (io.ibaccept.collect.DrillRefused e) {
            w.state(Manifest.COMPLETE, ifAbsent);
            throw new Main.UsageError("drill refused: " + e.getMessage());
        }
        w.state(Manifest.COMPLETE, ifAbsent);
        return r;
    }

    /** The RDMA pair a drill runs while the fabric is degraded: traffic must still flow. */
    static final class PairOptions {
        @Option(names = "--pair", paramLabel = "CLIENT,SERVER", description = "run one perftest between these two nodes while the fabric is degraded (it must pass)")
        String pair;

        @Option(names = "--pair-test", paramLabel = "TEST", defaultValue = "ib_write_bw", description = "perftest program for --pair (default: ${DEFAULT-VALUE})")
        String test;

        @Option(names = "--pair-port", paramLabel = "PORT", defaultValue = "18515", description = "TCP port of its handshake (default: ${DEFAULT-VALUE})")
        int port;

        /** The check to run, or null without --pair; names and test are checked before anything runs. */
        java.util.function.Supplier<String> check(io.ibaccept.collect.Transport t) {
            if (pair == null) return null;
            String[] p = pair.split(",");
            if (p.length != 2) throw new Main.UsageError("--pair: CLIENT,SERVER, found '" + pair + "'");
            io.ibaccept.safety.Shell.requireHost(p[0]);
            io.ibaccept.safety.Shell.requireHost(p[1]);
            io.ibaccept.safety.Shell.requirePerftest(test);
            io.ibaccept.rdma.PerftestRunner runner = new io.ibaccept.rdma.PerftestRunner(t, new io.ibaccept.rdma.PerftestRunner.Options(List.of(test), null,
                    port, Duration.ofSeconds(120), Duration.ofSeconds(2), ""), new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
            return () -> runner.once(test, new io.ibaccept.rdma.PairScheduler.Pair(p[0], p[1]));
        }
    }

    @Command(exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:the standby took over, the ports kept their state, LIDs and P_Keys, and the stopped SM is back", "1:no takeover, or the drill could not put everything back (the record in the dump says what)", "2:bad usage, or refused (no --yes, no running standby)", "3:internal error (a bug: report it with the dump)"},
            name = "sm-failover", sortOptions = false, description = {
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

        @Mixin
        PairOptions pair;

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
            io.ibaccept.collect.Transport t = transport.transport(false);
            java.util.function.Supplier<String> pairCheck = pair.check(t);
            SmFailoverDrill.Result r = intoDump(out, fabric, new ArrayList<>(new LinkedHashSet<>(check)), sms, w -> new SmFailoverDrill(t,
                    new SmFailoverDrill.Options(sms, check, fabric, limit, Duration.ofSeconds(2), pairCheck), parent.main.err).run(w));
            parent.main.out.println("SM failover drill written to " + out + ": " + (r.takeoverSeconds() == null ? "the standby did not take over"
                    : String.format(java.util.Locale.ROOT, "taken over in %.1f s", r.takeoverSeconds()))
                    + (r.restored() ? "; the stopped SM runs again" : "; the stopped SM did NOT start again: start it by hand")
                    + "; analyse with: ibaccept analyze " + out + " -o <report-dir>");
            return r.takeoverSeconds() != null && r.restored() ? Main.ACCEPTED : Main.NOT_ACCEPTED;
        }
    }

    @Command(exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:the SM routed around the disabled link and it came back as it was", "1:no re-route in time, or the link did not come back (the record in the dump says what)", "2:bad usage, or refused (no --yes, the switch's only link)", "3:internal error (a bug: report it with the dump)"},
            name = "isl", sortOptions = false, description = {
            "Disable one switch-to-switch port (ibportstate ... disable), time until the subnet manager routes no LID out of either "
                    + "end of the link (ibroute), enable it again and check that it comes back Active at the width and speed it had. "
                    + "Each step goes into DUMP/fabric/isl-drill.out; 'ibaccept analyze DUMP' judges it (fabric.isl_drill). The port "
                    + "is enabled again whatever happens, also on Ctrl-C. A link that is a switch's only one to the fabric is refused.",
            "Exit code: 0 re-routed and back as before, 1 not re-routed, not back or not enabled again, 2 refused (no --yes, not an ISL, bad usage)."})
    static final class Isl implements Callable<Integer> {
        @ParentCommand
        DrillCommand parent;

        @Option(names = "--link", required = true, paramLabel = "SWITCH:PORT",
                description = "the switch (its node description, GUID or LID) and the port of the link to take down, e.g. leaf03:17")
        String link;

        @Option(names = "--fabric-node", required = true, paramLabel = "NODE", description = "node that runs ibportstate, ibroute and smpquery")
        String fabricNode;

        @Option(names = {"-o", "--output"}, required = true, paramLabel = "DUMP_DIR", description = "dump directory to add the drill's record to")
        Path out;

        @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "2m",
                description = "how long the SM may take to re-route, and the link to come back (default: ${DEFAULT-VALUE})")
        String timeout;

        @Option(names = "--yes", description = "really disable the port: traffic over it stops until the SM re-routes")
        boolean yes;

        @Mixin
        TransportOptions transport;

        @Mixin
        PairOptions pair;

        @Override
        public Integer call() {
            int colon = link.lastIndexOf(':');
            int port;
            try {
                port = colon > 0 ? Integer.parseInt(link.substring(colon + 1)) : -1;
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 1 || port > 254) throw new Main.UsageError("--link: SWITCH:PORT with a port of 1-254, found '" + link + "'");
            io.ibaccept.safety.Shell.requireHost(fabricNode);
            Duration limit = Durations.parse(timeout);
            if (!yes) throw new Main.UsageError("this drill disables port " + port + " of " + link.substring(0, colon)
                    + " (traffic over it stops until the SM re-routes); add --yes to run it");
            io.ibaccept.collect.Transport t = transport.transport(false);
            java.util.function.Supplier<String> pairCheck = pair.check(t);
            int p = port;
            io.ibaccept.collect.IslOutageDrill.Result r = intoDump(out, fabricNode, List.of(fabricNode), List.of(), w -> new io.ibaccept.collect.IslOutageDrill(t,
                    new io.ibaccept.collect.IslOutageDrill.Options(link.substring(0, colon), p, fabricNode, limit, Duration.ofSeconds(2), pairCheck),
                    parent.main.err).run(w));
            parent.main.out.println("ISL drill written to " + out + ": " + (r.rerouteSeconds() == null ? "the SM did not re-route"
                    : String.format(java.util.Locale.ROOT, "re-routed in %.1f s", r.rerouteSeconds()))
                    + (r.restored() ? (r.backSeconds() == null ? "; the port was enabled but the link did not come back" : "; the link is back")
                    : "; the port is still DISABLED: enable it by hand") + "; analyse with: ibaccept analyze " + out + " -o <report-dir>");
            return r.rerouteSeconds() != null && r.backSeconds() != null && r.restored() ? Main.ACCEPTED : Main.NOT_ACCEPTED;
        }
    }
}
