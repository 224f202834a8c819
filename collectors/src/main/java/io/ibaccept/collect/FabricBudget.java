package io.ibaccept.collect;

import io.ibaccept.dump.Cmd;
import io.ibaccept.dump.CommandResult;
import java.time.Duration;
import java.util.List;

/**
 * The time the fabric node's commands get, scaled to the fabric instead of one fixed node deadline: the fabric-wide
 * queries send management datagrams (MADs) one after another, in numbers that grow with the switches and LIDs
 * (dump_fts sends one SMP per 64 LIDs per switch). Each command gets the longer of its descriptor's timeout and its MAD
 * count at {@link #PER_MAD}; the node deadline of the fabric node is the per-node deadline plus what its commands are
 * expected to take. Until this run's ibnetdiscover has answered, the fabric's size is an upper estimate from the
 * number of hosts; after it, the counts it printed.
 */
final class FabricBudget implements Collector.Budget {
    /**
     * Time allowed per sequential MAD: a healthy fabric answers in about 0.1 ms (dump_fts over 2,000 switches and 40,000
     * LIDs, 1.25 million SMPs, takes minutes), so this leaves room for retries on a loaded fabric. A deadline that is too
     * long only costs time on a fabric node that hangs; one too short loses the output of a large fabric.
     */
    static final Duration PER_MAD = Duration.ofMillis(2);

    /** Switches, their ports, and the CA ports (one LID each) of a fabric. */
    record Size(long switches, long switchPorts, long caPorts) {
        long lids() {
            return switches + caPorts;
        }

        long ports() {
            return switchPorts + caPorts;
        }

        /**
         * An upper estimate from the host count: at most one switch per 6 hosts (a three-level non-blocking fat tree
         * of 36-port switches has one per 7.2), 64 ports per switch (the largest radix in use), 8 HCA ports per host
         * (a GPU node with one HCA per GPU).
         */
        static Size estimate(int hosts) {
            long switches = Math.max(1, (hosts + 5) / 6);
            return new Size(switches, switches * 64, Math.max(1, hosts) * 8L);
        }

        /** The counts in ibnetdiscover's output ("Switch\t36 ..." and "Ca\t2 ..." records), or null without any. */
        static Size of(String ibnetdiscover) {
            long switches = 0, switchPorts = 0, caPorts = 0;
            for (String line : ibnetdiscover.split("\n")) {
                boolean sw = line.startsWith("Switch\t"), ca = line.startsWith("Ca\t");
                if (!sw && !ca) continue;
                String rest = line.substring(line.indexOf('\t') + 1).stripLeading();
                int end = 0;
                while (end < rest.length() && end < 4 && Character.isDigit(rest.charAt(end))) end++;
                if (end == 0) continue;
                int ports = Integer.parseInt(rest.substring(0, end));
                if (sw) {
                    switches++;
                    switchPorts += ports;
                } else caPorts += ports;
            }
            return switches + caPorts == 0 ? null : new Size(switches, switchPorts, caPorts);
        }
    }

    /** MADs a command sends, one after another, on a fabric of this size; 0 for the commands that send a few. */
    static long mads(Cmd cmd, Size s) {
        long discovery = 2 * s.ports(); // NodeInfo and PortInfo of every port
        return switch (cmd) {
            case IBNETDISCOVER, IBLINKINFO -> discovery;
            case IBQUERYERRORS -> discovery + s.ports(); // and one PortCounters query per port
            case DUMP_FTS -> discovery + s.switches() * ((s.lids() + 63) / 64);
            // one smpquery per switch-to-switch port: its NodeInfo and one SMP per port of its switch
            case SL2VL -> discovery + Math.max(0, s.switchPorts() - s.caPorts()) * (1 + s.switchPorts() / Math.max(1, s.switches()));
            default -> 0;
        };
    }

    static Duration expected(Cmd cmd, Size s) {
        return PER_MAD.multipliedBy(mads(cmd, s));
    }

    private final Duration nodeDeadline;
    private final List<CommandSet.Spec> specs;
    private final long start = System.nanoTime();
    private volatile Size size;

    FabricBudget(Duration nodeDeadline, List<CommandSet.Spec> specs, Size size) {
        this.nodeDeadline = nodeDeadline;
        this.specs = List.copyOf(specs);
        this.size = size;
    }

    /** The node deadline, what the commands are expected to take, and ibdiagnet's own long timeout. */
    @Override
    public Duration total() {
        Duration d = nodeDeadline;
        for (CommandSet.Spec s : specs) {
            d = d.plus(expected(s.cmd(), size));
            if (s.cmd() == Cmd.IBDIAGNET_LOG) d = d.plus(s.timeout());
        }
        return d;
    }

    @Override
    public long deadlineNanos() {
        return start + total().toNanos();
    }

    @Override
    public Duration timeout(CommandSet.Spec spec) {
        Duration e = expected(spec.cmd(), size);
        return e.compareTo(spec.timeout()) > 0 ? e : spec.timeout();
    }

    @Override
    public void ran(CommandSet.Spec spec, ExecResult r) {
        if (spec.cmd() != Cmd.IBNETDISCOVER || !CommandResult.OK.equals(r.status())) return;
        Size found = Size.of(r.stdout());
        if (found != null) size = found;
    }

    Size size() {
        return size;
    }
}
