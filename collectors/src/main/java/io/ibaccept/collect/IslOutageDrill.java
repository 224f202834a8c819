package io.ibaccept.collect;

import io.ibaccept.dump.Cmd;
import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.model.Lft;
import io.ibaccept.model.PortInfo;
import io.ibaccept.model.Topology;
import io.ibaccept.parse.IbnetdiscoverParser;
import io.ibaccept.parse.IbrouteParser;
import io.ibaccept.parse.Issues;
import io.ibaccept.parse.SmpqueryParser;
import io.ibaccept.parse.Text;
import io.ibaccept.safety.Shell;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The ISL drill: disable one switch-to-switch port with ibportstate, time until the subnet manager routes no LID out
 * of either end of the link, enable it again and check that it comes back Active at the width and speed it had. The
 * port is enabled again whatever happens after the disable (also when the JVM is shut down by Ctrl-C). Every step goes
 * into the dump's fabric/isl-drill.out as it happens.
 */
public final class IslOutageDrill {
    /** pair: as for {@link SmFailoverDrill.Options}, run while the link is down; null when none was asked for. */
    public record Options(String switchSpec, int port, String fabricNode, Duration timeout, Duration poll,
                          java.util.function.Supplier<String> pair) {}

    /** rerouteSeconds/backSeconds null: did not happen in time. */
    public record Result(Double rerouteSeconds, Double backSeconds, boolean restored) {}

    private static final Duration CMD = Duration.ofSeconds(30);

    private final Transport transport;
    private final Options opt;
    private final PrintStream progress;
    private final DrillRecord record;

    public IslOutageDrill(Transport transport, Options opt, PrintStream progress) {
        this.transport = transport;
        this.opt = opt;
        this.progress = progress;
        this.record = new DrillRecord(Cmd.ISL_DRILL, opt.fabricNode(), "ibaccept drill isl", progress);
        Shell.requireHost(opt.fabricNode());
        if (opt.port() < 1 || opt.port() > 254) throw new IllegalArgumentException("port must be 1-254, found " + opt.port());
    }

    /** One end of the link: the switch's LID and name, and the port. */
    record End(String name, int lid, int port) {
        @Override
        public String toString() {
            return name + " (lid " + lid + ") port " + port;
        }
    }

    public Result run(DumpWriter dump) {
        record.to(dump);
        ExecResult nd = transport.run(opt.fabricNode(), "ibnetdiscover", Duration.ofSeconds(120));
        if (!CommandResult.OK.equals(nd.status())) return refuse("ibnetdiscover failed on " + opt.fabricNode() + " (" + nd.status() + "): " + nd.stderr().strip());
        Topology topo;
        try {
            topo = IbnetdiscoverParser.parse(new Text(Cmd.IBNETDISCOVER.fileName(), nd.stdout()), Issues.collecting());
        } catch (RuntimeException unreadable) {
            return refuse("the topology could not be read: " + unreadable.getMessage());
        }
        Optional<Topology.Node> sw = topo.switches().stream().filter(this::named).findFirst();
        if (sw.isEmpty()) return refuse("no switch '" + opt.switchSpec() + "' (by name, GUID or LID) in the fabric");
        Topology.Node a = sw.get();
        Optional<Topology.Port> p = a.ports().stream().filter(x -> x.port() == opt.port()).findFirst();
        Topology.Node b = p.map(x -> topo.byGuid().get(x.remoteGuid())).orElse(null);
        if (p.isEmpty() || b == null || b.type() != Topology.NodeType.SWITCH)
            return refuse(a.description() + " port " + opt.port() + " is not cabled to another switch: not an ISL");
        long islsA = a.ports().stream().filter(x -> isSwitch(topo, x)).count(), islsB = b.ports().stream().filter(x -> isSwitch(topo, x)).count();
        if (islsA < 2 || islsB < 2)
            return refuse("the link is the only one between " + (islsA < 2 ? a.description() : b.description())
                    + " and the rest of the fabric: disabling it would cut the switch off, and the drill could not enable it again");
        End ea = new End(a.description(), a.lid(), opt.port()), eb = new End(b.description(), b.lid(), p.get().remotePort());
        record.header("link", ea + " <-> " + eb);
        Optional<PortInfo> before = portInfo(ea);
        if (before.isEmpty() || !"Active".equalsIgnoreCase(before.get().linkState()))
            return refuse("the link is not Active (" + before.map(PortInfo::linkState).orElse("PortInfo unreadable") + "): nothing to drill");
        String shape = shape(before.get());
        Lft la = lft(ea), lb = lft(eb);
        if (la != null && lb != null && la.routedOut(ea.port()) == 0 && lb.routedOut(eb.port()) == 0)
            return refuse("no LID is routed over " + ea + " <-> " + eb + ": taking it down would test nothing; choose a link that carries routes");
        record.step("before", shape + "; " + routed(la, ea) + ", " + routed(lb, eb), "");

        // registered before the port is touched: from here on, whatever happens, it is enabled again
        Thread hook = new Thread(() -> enable(ea), "ibaccept-drill-restore");
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            return finish(new Result(null, null, true));
        }
        long t0 = System.nanoTime();
        Double reroute = null, back = null;
        boolean restored;
        try {
            ExecResult dis = transport.run(opt.fabricNode(), "ibportstate " + ea.lid() + " " + ea.port() + " disable", CMD);
            boolean disabled = CommandResult.OK.equals(dis.status());
            // a failed disable may still have taken the port down (its answer routed over that port is lost): enabled below all the same
            record.step("disable", ea + ": " + (disabled ? "ok" : "failed (" + dis.status() + ", exit " + dis.exitCode() + ")"), dis.stdout() + dis.stderr());
            if (disabled) {
                long end = t0 + opt.timeout().toNanos();
                String last = "";
                while (System.nanoTime() < end && !Transport.stopping()) {
                    Lft na = lft(ea), nb = lft(eb);
                    last = routed(na, ea) + ", " + routed(nb, eb);
                    // routed around: nothing leaves through either end, and every destination is still routed
                    if (na != null && nb != null && na.routedOut(ea.port()) == 0 && nb.routedOut(eb.port()) == 0
                            && (la == null || na.routed() >= la.routed()) && (lb == null || nb.routed() >= lb.routed())) {
                        reroute = (System.nanoTime() - t0) / 1e9;
                        break;
                    }
                    DrillRecord.sleep(opt.poll());
                }
                record.step("rerouted", reroute != null ? String.format(Locale.ROOT, "after %.1f s (no LID routed out of either end, every LID still routed)", reroute)
                        : "not within " + opt.timeout().toSeconds() + " s (" + last + ")", "");
                if (opt.pair() != null && reroute != null) record.step("pair", opt.pair().get(), "");
            }
        } finally {
            restored = enable(ea);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs or ran: it enables only once
            }
        }
        if (restored) {
            long t1 = enabledAt, end = t1 + opt.timeout().toNanos();
            Optional<PortInfo> now = Optional.empty();
            while (System.nanoTime() < end && !Transport.stopping()) {
                now = portInfo(ea);
                if (now.isPresent() && "Active".equalsIgnoreCase(now.get().linkState())) {
                    back = (System.nanoTime() - t1) / 1e9;
                    break;
                }
                DrillRecord.sleep(opt.poll());
            }
            String got = now.map(IslOutageDrill::shape).orElse("PortInfo unreadable");
            record.step("back", back == null ? "not within " + opt.timeout().toSeconds() + " s (" + got + ")"
                    : String.format(Locale.ROOT, "after %.1f s, %s", back, got) + (got.equals(shape) ? "" : ", below " + shape + " before"), "");
        }
        record.step("restored", restored ? "yes" : "no: " + ea + " is still disabled; enable it: ibportstate " + ea.lid() + " " + ea.port() + " enable", "");
        return finish(new Result(reroute, back, restored));
    }

    private boolean named(Topology.Node n) {
        String s = opt.switchSpec();
        if (s.equals(n.description()) || s.equalsIgnoreCase(String.format("0x%016x", n.guid())) || s.equalsIgnoreCase(String.format("0x%x", n.guid())))
            return true;
        return s.matches("\\d+") && Integer.parseInt(s) == n.lid();
    }

    private static boolean isSwitch(Topology t, Topology.Port p) {
        Topology.Node n = t.byGuid().get(p.remoteGuid());
        return n != null && n.type() == Topology.NodeType.SWITCH;
    }

    private Optional<PortInfo> portInfo(End e) {
        ExecResult r = transport.run(opt.fabricNode(), "smpquery portinfo " + e.lid() + " " + e.port(), CMD);
        if (!CommandResult.OK.equals(r.status())) return Optional.empty();
        try {
            return Optional.of(SmpqueryParser.portInfo(new Text(Cmd.PORTINFO.fileName(), r.stdout()), Issues.collecting()));
        } catch (RuntimeException unreadable) {
            return Optional.empty();
        }
    }

    /** "Active, 4X 53.125 Gbps": what the port runs. */
    static String shape(PortInfo p) {
        String speed = p.linkSpeedExtActive() != null && !p.linkSpeedExtActive().isBlank() && !p.linkSpeedExtActive().startsWith("0")
                ? p.linkSpeedExtActive() : p.linkSpeedActive();
        return p.linkState() + ", " + (p.linkWidthActive() == null ? "?" : p.linkWidthActive()) + " " + speed;
    }

    private Lft lft(End e) {
        ExecResult r = transport.run(opt.fabricNode(), "ibroute " + e.lid(), CMD);
        if (!CommandResult.OK.equals(r.status())) return null;
        try {
            return IbrouteParser.parse(new Text("ibroute", r.stdout()), Issues.collecting());
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    private static String routed(Lft t, End e) {
        return t == null ? "LFT of " + e.name() + " unreadable" : t.routedOut(e.port()) + " LID(s) routed out of " + e.name() + "/" + e.port()
                + " (" + t.routed() + " routed)";
    }

    private volatile boolean enabled;
    private volatile long enabledAt;

    /**
     * Enables the disabled port (once; also from the shutdown hook), asking twice: a port left disabled is the one
     * outcome a drill must not have, and one lost answer (or a command stopped with the drill) is not a reason for it.
     * True when ibportstate did it.
     */
    private synchronized boolean enable(End e) {
        if (enabled) return true;
        enabledAt = System.nanoTime();
        String cmd = "ibportstate " + e.lid() + " " + e.port() + " enable";
        ExecResult r = transport.restore(opt.fabricNode(), cmd, CMD);
        String earlier = "";
        if (!CommandResult.OK.equals(r.status())) {
            earlier = "first attempt: " + r.status() + ", exit " + r.exitCode() + ": " + r.stderr().strip() + "\n";
            r = transport.restore(opt.fabricNode(), cmd, CMD);
        }
        enabled = CommandResult.OK.equals(r.status());
        record.step("enable", e + ": " + (enabled ? "ok" : "failed (" + r.status() + ", exit " + r.exitCode() + ")"), earlier + r.stdout() + r.stderr());
        return enabled;
    }

    private Result refuse(String why) {
        record.step("refused", why, "");
        throw new DrillRefused(why);
    }

    private Result finish(Result r) {
        record.write();
        return r;
    }



}
