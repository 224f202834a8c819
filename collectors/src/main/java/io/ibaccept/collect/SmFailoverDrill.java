package io.ibaccept.collect;

import io.ibaccept.dump.Cmd;
import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.dump.sources.OpensmScripts;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.SmInfo;
import io.ibaccept.parse.Issues;
import io.ibaccept.parse.IbstatParser;
import io.ibaccept.parse.SmParser;
import io.ibaccept.parse.SmpqueryParser;
import io.ibaccept.parse.Text;
import io.ibaccept.safety.Shell;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The SM failover drill: stop the master opensm on its node (its service, else the process, keeping its command line
 * and environment to start it again the same way), time until another SM is MASTER, check that the ports stayed
 * Active with their LIDs and P_Keys, start the stopped SM again and time until it has its configured role back. Every
 * step goes into the dump's fabric/sm-failover-drill.out as it happens; the stopped SM is started again whatever
 * happens after the stop (also when the JVM is shut down by Ctrl-C).
 */
public final class SmFailoverDrill {
    /**
     * pair: runs one RDMA pair test while the standby is master and says how it went ("node03 -> node07 ib_write_bw:
     * ok, 24.5 Gb/s" or "...: failed (...)"); null when no pair was asked for.
     */
    public record Options(List<String> smNodes, List<String> checkNodes, String fabricNode, Duration takeoverTimeout, Duration poll,
                          java.util.function.Supplier<String> pair) {
        public Options {
            smNodes = List.copyOf(smNodes);
            checkNodes = List.copyOf(checkNodes);
        }
    }

    /** What the drill found; refused: why it did not stop anything (null when it ran). */
    public record Result(String refused, Double takeoverSeconds, boolean portsUnchanged, Double backSeconds, boolean restored) {}

    private static final Duration CMD = Duration.ofSeconds(30);

    private final Transport transport;
    private final Options opt;
    private final PrintStream progress;
    private final DrillRecord record;

    public SmFailoverDrill(Transport transport, Options opt, PrintStream progress) {
        this.transport = transport;
        this.opt = opt;
        this.progress = progress;
        this.record = new DrillRecord(Cmd.SM_DRILL, opt.fabricNode(), "ibaccept drill sm-failover", progress);
        opt.smNodes().forEach(Shell::requireHost);
        opt.checkNodes().forEach(Shell::requireHost);
        Shell.requireHost(opt.fabricNode());
    }

    /** One SM node's SM as sminfo sees it, with its node. */
    record Sm(String host, int lid, long guid, int priority, String state) {}

    /** How the master was stopped, to start it the same way. */
    record Stopped(String host, String method, String saved, long pid, String prepared) {}

    public Result run(DumpWriter dump) {
        record.to(dump);
        record.header("sm_nodes", String.join(" ", opt.smNodes()));
        record.header("checked_nodes", String.join(" ", opt.checkNodes()));
        List<Sm> sms = sms();
        List<Sm> running = sms.stream().filter(s -> s.state() != null).toList();
        if (running.size() < 2) return refuse("a failover drill needs a master and a standby SM: SMs answer on "
                + (running.isEmpty() ? "none" : running.stream().map(Sm::host).collect(Collectors.joining(", "))) + " of the SM nodes "
                + String.join(", ", opt.smNodes()));
        Optional<Sm> master = running.stream().filter(s -> s.state().equals("SMINFO_MASTER")).findFirst();
        if (master.isEmpty()) return refuse("no SM node holds the MASTER SM (" + describe(running) + ")");
        record.step("before", describe(running), "");
        Map<String, PortState> before = ports();
        record.step("ports_before", summary(before), "");

        Sm primary = master.get();
        Stopped stopped = prepare(primary.host());
        if (stopped == null) return finish(new Result(null, null, false, null, true));
        // registered before anything is stopped: from here on, whatever happens, the SM is started again
        Thread hook = new Thread(() -> restart(stopped), "ibaccept-drill-restore");
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            return finish(new Result(null, null, false, null, true));
        }
        Double takeover = null, back = null;
        boolean unchanged = false, restored = false;
        try {
            if (!stop(stopped)) return finish(new Result(null, null, false, null, restart(stopped)));
            long t0 = System.nanoTime();
            List<Sm> standbys = running.stream().filter(x -> x != primary).toList();
            Optional<SmInfo> now = awaitMaster(g -> g != primary.guid(), standbys, opt.takeoverTimeout());
            if (now.isPresent()) {
                takeover = (System.nanoTime() - t0) / 1e9;
                record.step("takeover", hostOf(sms, now.get()) + " after " + String.format(Locale.ROOT, "%.1f", takeover) + " s", "");
            } else record.step("takeover", "none within " + opt.takeoverTimeout().toSeconds() + " s", "");
            Map<String, PortState> after = ports();
            String diff = diff(before, after);
            unchanged = diff.endsWith("not active: none; lid changed: none; pkeys changed: none");
            record.step("ports_after", diff, "");
            if (opt.pair() != null && takeover != null) record.step("pair", opt.pair().get(), "");
        } finally {
            restored = restart(stopped);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs or ran: it restarts only what is not running
            }
        }
        if (restored) {
            // opensm hands mastership back to an SM of higher priority; with a lower one the restarted SM stands by
            Sm other = running.stream().filter(s -> s != primary).max((a, b) -> Integer.compare(a.priority(), b.priority())).orElseThrow();
            boolean master2 = primary.priority() > other.priority();
            long t0 = restartedAt;
            // asked at its own LID: the ports' SM LID may still name the standby for a sweep or more after a handover
            Optional<SmInfo> role = awaitState(primary, master2 ? "SMINFO_MASTER" : "SMINFO_STANDBY", opt.takeoverTimeout());
            String want = (master2 ? "MASTER" : "STANDBY") + ", priority " + primary.priority() + (master2 ? " above " : " not above ") + other.priority();
            if (role.isPresent()) {
                back = (System.nanoTime() - t0) / 1e9;
                record.step("back", primary.host() + " " + (master2 ? "MASTER" : "STANDBY") + " after " + String.format(Locale.ROOT, "%.1f", back)
                        + " s (configured: " + want + ")", "");
            } else record.step("back", primary.host() + " not " + (master2 ? "MASTER" : "STANDBY") + " within " + opt.takeoverTimeout().toSeconds()
                    + " s (configured: " + want + ")", "");
        }
        record.step("restored", restored ? "yes" : "no: opensm on " + primary.host() + " did not start again; start it by hand", "");
        return finish(new Result(null, takeover, unchanged, back, restored));
    }

    private Result refuse(String why) {
        record.step("refused", why, "");
        record.write();
        throw new DrillRefused(why);
    }

    private Result finish(Result r) {
        record.write();
        return r;
    }

    /** Each SM node's SM: its LID from ibstat, its state and priority from sminfo at that LID (null state: no SM answers). */
    private List<Sm> sms() {
        List<Sm> out = new ArrayList<>();
        for (String h : opt.smNodes()) {
            ExecResult st = transport.run(h, "ibstat", CMD);
            Ibstat.Port port = null;
            if (CommandResult.OK.equals(st.status())) {
                try {
                    port = IbstatParser.parse(new Text(Cmd.IBSTAT.fileName(), st.stdout()), Issues.collecting()).stream().flatMap(c -> c.ports().stream())
                            .filter(p -> p.state().equalsIgnoreCase("Active") && !"Ethernet".equalsIgnoreCase(p.linkLayer())).findFirst().orElse(null);
                } catch (RuntimeException unreadable) {
                    port = null;
                }
            }
            if (port == null) {
                out.add(new Sm(h, 0, 0, 0, null));
                continue;
            }
            ExecResult si = transport.run(opt.fabricNode(), "sminfo " + port.baseLid(), CMD);
            List<SmInfo> info = CommandResult.OK.equals(si.status()) ? SmParser.sminfo(new Text("sminfo", si.stdout()), Issues.collecting()) : List.of();
            long guid = port.portGuid();
            out.add(info.stream().filter(i -> i.guid() == guid).findFirst().map(i -> new Sm(h, i.lid(), i.guid(), i.priority(), i.stateName()))
                    .orElse(new Sm(h, port.baseLid(), guid, 0, null)));
        }
        return out;
    }

    private static String describe(List<Sm> sms) {
        return sms.stream().map(s -> s.state().replace("SMINFO_", "").toLowerCase(Locale.ROOT) + " " + s.host() + " (lid " + s.lid()
                + ", priority " + s.priority() + ")").collect(Collectors.joining("; "));
    }

    private static String hostOf(List<Sm> sms, SmInfo s) {
        return sms.stream().filter(x -> x.guid() == s.guid()).map(Sm::host).findFirst().orElse(String.format("guid 0x%x (lid %d)", s.guid(), s.lid()));
    }

    /**
     * Polls until a MASTER whose GUID passes: each standby asked at its own LID, and plain sminfo on the fabric node (the
     * SM its port points to, which finds a master outside the SM nodes).
     */
    private Optional<SmInfo> awaitMaster(java.util.function.LongPredicate guid, List<Sm> standbys, Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end && !Transport.stopping()) {
            List<String> asks = new java.util.ArrayList<>();
            for (Sm sb : standbys) asks.add("sminfo " + sb.lid());
            asks.add("sminfo");
            for (String ask : asks)
                for (SmInfo s : sminfo(transport.run(opt.fabricNode(), ask, CMD)))
                    if (s.isMaster() && guid.test(s.guid())) return Optional.of(s);
            DrillRecord.sleep(opt.poll());
        }
        return Optional.empty();
    }

    /** What one sminfo printed; nothing when it failed or printed nothing readable (the SM may be between states). */
    private static List<SmInfo> sminfo(ExecResult r) {
        if (!CommandResult.OK.equals(r.status())) return List.of();
        try {
            return SmParser.sminfo(new Text("sminfo", r.stdout()), Issues.collecting());
        } catch (RuntimeException unreadable) {
            return List.of();
        }
    }

    private Optional<SmInfo> awaitState(Sm sm, String state, Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end && !Transport.stopping()) {
            ExecResult r = transport.run(opt.fabricNode(), "sminfo " + sm.lid(), CMD);
            for (SmInfo s : sminfo(r))
                if (s.guid() == sm.guid() && state.equals(s.stateName())) return Optional.of(s);
            DrillRecord.sleep(opt.poll());
        }
        return Optional.empty();
    }

    /** A port's state, LID and P_Keys. */
    record PortState(String state, int lid, SortedSet<Integer> pkeys) {}

    /** Every checked node's IB ports ("node03 mlx5_0/1") with state and LID from ibstat, P_Keys of the node's port from smpquery. */
    private Map<String, PortState> ports() {
        Map<String, PortState> m = new TreeMap<>();
        for (String h : opt.checkNodes()) {
            ExecResult st = transport.run(h, "ibstat", CMD);
            ExecResult pk = transport.run(h, "smpquery -D pkeys 0", CMD);
            SortedSet<Integer> pkeys = null;
            if (CommandResult.OK.equals(pk.status())) {
                try {
                    pkeys = SmpqueryParser.pkeys(new Text(Cmd.PKEYS.fileName(), pk.stdout()), Issues.collecting());
                } catch (RuntimeException unreadable) {
                    pkeys = null;
                }
            }
            if (!CommandResult.OK.equals(st.status())) {
                m.put(h, new PortState("ibstat failed", 0, pkeys));
                continue;
            }
            try {
                for (Ibstat.Ca ca : IbstatParser.parse(new Text("ibstat", st.stdout()), Issues.collecting()))
                    for (Ibstat.Port p : ca.ports())
                        if (!"Ethernet".equalsIgnoreCase(p.linkLayer()))
                            m.put(h + " " + ca.name() + "/" + p.number(), new PortState(p.state(), p.baseLid(), p == firstIb(ca) ? pkeys : null));
            } catch (RuntimeException unreadable) {
                m.put(h, new PortState("ibstat unreadable", 0, pkeys));
            }
        }
        return m;
    }

    private static Ibstat.Port firstIb(Ibstat.Ca ca) {
        return ca.ports().stream().filter(p -> !"Ethernet".equalsIgnoreCase(p.linkLayer())).findFirst().orElse(null);
    }

    private static String summary(Map<String, PortState> ports) {
        long active = ports.values().stream().filter(p -> p.state().equalsIgnoreCase("Active")).count();
        return ports.size() + " port(s), " + active + " Active";
    }

    /** "N port(s), M Active; not active: ...; lid changed: ...; pkeys changed: ..." ("none" where nothing changed). */
    static String diff(Map<String, PortState> before, Map<String, PortState> after) {
        List<String> inactive = new ArrayList<>(), lids = new ArrayList<>(), pkeys = new ArrayList<>();
        Map<String, PortState> all = new LinkedHashMap<>(before);
        for (var e : all.entrySet()) {
            PortState b = e.getValue(), a = after.get(e.getKey());
            if (!b.state().equalsIgnoreCase("Active")) continue; // down before the drill: not its doing
            if (a == null || !a.state().equalsIgnoreCase("Active")) inactive.add(e.getKey() + " (" + (a == null ? "gone" : a.state()) + ")");
            else if (b.lid() != a.lid()) lids.add(e.getKey() + " " + b.lid() + " -> " + a.lid());
            if (a != null && b.pkeys() != null && !Objects.equals(b.pkeys(), a.pkeys()))
                pkeys.add(e.getKey() + " " + hex(b.pkeys()) + " -> " + (a.pkeys() == null ? "unreadable" : hex(a.pkeys())));
        }
        return summary(after) + "; not active: " + none(inactive) + "; lid changed: " + none(lids) + "; pkeys changed: " + none(pkeys);
    }

    private static String hex(SortedSet<Integer> keys) {
        return keys.stream().map(k -> String.format("0x%04x", k)).collect(Collectors.joining(","));
    }

    private static String none(List<String> l) {
        return l.isEmpty() ? "none" : String.join(", ", l);
    }

    /**
     * Finds the SM on host and how to start it again: its systemd service when that runs the process, else its command
     * line, environment and working directory, kept in a private directory on the node. Nothing is stopped yet.
     */
    private Stopped prepare(String host) {
        String script = OpensmScripts.FIND
                + "[ -n \"$SMPID\" ] || { echo 'no opensm process runs here' >&2; exit 3; }; "
                + "if command -v systemctl >/dev/null 2>&1 && [ \"$(systemctl show -p MainPID opensm 2>/dev/null | cut -d= -f2)\" = \"$SMPID\" ]; then "
                + "echo \"pid: $SMPID\"; echo 'method: systemctl'; exit 0; fi; "
                + "D=$(mktemp -d /tmp/ibaccept-drill.XXXXXX) || exit 1; "
                + "cp /proc/$SMPID/cmdline \"$D/cmdline\" && cp /proc/$SMPID/environ \"$D/environ\" && readlink /proc/$SMPID/cwd > \"$D/cwd\" || exit 1; "
                + "echo \"pid: $SMPID\"; echo 'method: kill'; echo \"saved: $D\"; printf 'command: '; tr '\\0' ' ' < \"$D/cmdline\"; echo";
        ExecResult r = transport.run(host, script, CMD);
        String method = value(r.stdout(), "method"), saved = value(r.stdout(), "saved"), pid = value(r.stdout(), "pid");
        boolean ok = CommandResult.OK.equals(r.status()) && pid != null && pid.matches("\\d+") && method != null
                && (method.equals("systemctl") || saved != null && saved.matches("/tmp/ibaccept-drill\\.[A-Za-z0-9]+"));
        if (!ok) record.step("stop", host + ": not stopped, its opensm could not be prepared for a restart (" + r.status() + ", exit "
                + r.exitCode() + ")", r.stdout() + r.stderr());
        return ok ? new Stopped(host, method, saved, Long.parseLong(pid), r.stdout()) : null;
    }

    /** Stops the prepared SM: its service, else SIGTERM to that process, waiting up to 30 s for it to end. */
    private boolean stop(Stopped s) {
        String script = s.method().equals("systemctl") ? "systemctl stop opensm || exit 1; echo 'method: systemctl'"
                : "P=" + s.pid() + "; kill \"$P\" || exit 1; i=0; while kill -0 \"$P\" 2>/dev/null && [ $i -lt 150 ]; do sleep 0.2; i=$((i+1)); done; "
                + "kill -0 \"$P\" 2>/dev/null && { echo \"opensm $P did not stop\" >&2; exit 1; }; echo \"method: kill $P\"";
        ExecResult r = transport.run(s.host(), script, Duration.ofSeconds(120));
        boolean ok = CommandResult.OK.equals(r.status());
        record.step("stop", s.host() + ": " + (ok ? (s.method().equals("systemctl") ? "systemctl" : "kill " + s.pid()) : "failed (" + r.status()
                + ", exit " + r.exitCode() + ")"), s.prepared() + r.stdout() + r.stderr());
        return ok;
    }

    private volatile boolean started;
    /** When the stopped SM was started again: its role-back time counts from here. */
    private volatile long restartedAt;

    /** Starts the stopped SM as it was started (once; also from the shutdown hook). True when an opensm runs there again. */
    private synchronized boolean restart(Stopped s) {
        if (started) return true;
        restartedAt = System.nanoTime();
        // an opensm that runs (a stop that failed, or systemd's Restart=) is left as it is
        String running = OpensmScripts.FIND + "[ -n \"$SMPID\" ] && { echo \"pid: $SMPID (running)\"; exit 0; }; ";
        String how = s.method().equals("systemctl") ? "systemctl start opensm || exit 1; "
                : "D=" + Shell.quote(s.saved()) + "; [ -d \"$D\" ] || exit 1; cat \"$D/environ\" \"$D/cmdline\" > \"$D/argv\" && cd \"$(cat \"$D/cwd\")\" || exit 1; "
                + "setsid xargs -0 -a \"$D/argv\" env -i </dev/null >/dev/null 2>&1 & ";
        // the saved command line is removed only once the SM runs again
        String cleanup = s.method().equals("systemctl") ? "" : "rm -f \"$D/argv\" \"$D/cmdline\" \"$D/environ\" \"$D/cwd\"; rmdir \"$D\"; ";
        String script = running + how + "i=0; while [ $i -lt 40 ]; do " + OpensmScripts.FIND + "[ -n \"$SMPID\" ] && { " + cleanup
                + "echo \"pid: $SMPID\"; exit 0; }; sleep 0.5; i=$((i+1)); done; echo 'opensm did not start' >&2; exit 1";
        ExecResult r = transport.restore(s.host(), script, Duration.ofSeconds(60));
        started = CommandResult.OK.equals(r.status());
        record.step("restart", s.host() + ": " + (started ? "ok" : "failed (" + r.status() + ", exit " + r.exitCode() + ")"), r.stdout() + r.stderr());
        record.write();
        return started;
    }

    private static String value(String text, String key) {
        for (String line : text.split("\n")) if (line.startsWith(key + ": ")) return line.substring(key.length() + 2).trim();
        return null;
    }



}
