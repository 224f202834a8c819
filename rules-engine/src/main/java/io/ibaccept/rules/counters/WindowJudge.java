package io.ibaccept.rules.counters;

import io.ibaccept.model.ClusterData;
import io.ibaccept.model.CounterSample;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.FabricIndex;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Judges every link on the counter deltas of its two ends over the window. Pure: the same inputs give the same
 * verdicts; the rule turns them into findings and the report into a table.
 */
public final class WindowJudge {
    public static final String CHECK = "link.errors.window";

    /** Counters that mean the link itself corrupts or loses packets (the receive side of each end). */
    /** Of OTHER, the counters of the cable's own physical layer. */
    static final java.util.Set<String> CABLE = java.util.Set.of("PortRcvErrors", "LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors");
    static final List<String> OTHER = List.of("PortRcvErrors", "PortRcvRemotePhysicalErrors", "LocalLinkIntegrityErrors",
            "ExcessiveBufferOverrunErrors", "PortXmitDiscards");
    static final List<String> ERRORS = List.of("SymbolErrorCounter", "LinkErrorRecoveryCounter", "LinkDownedCounter",
            "PortRcvErrors", "PortRcvRemotePhysicalErrors", "LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors",
            "PortXmitDiscards");

    /** Thresholds of the check: the defaults {@link LinkErrorsWindow#settings()} declares, or the user's. */
    public record Limits(double linkDownedMax, double recoveryMax, double symbolPerHourWarn, double symbolPerHourFail,
                         double berWarn, double berFail, double berMinBits, double otherPerHourWarn,
                         double xmitWaitPerSecondWarn, double loadMinBytes) {
        public static Limits of(RuleConfig cfg) {
            return new Limits(cfg.number(CHECK, "link_downed_max"), cfg.number(CHECK, "link_recovery_max"),
                    cfg.number(CHECK, "symbol_per_hour_warn"), cfg.number(CHECK, "symbol_per_hour_fail"),
                    cfg.number(CHECK, "ber_warn"), cfg.number(CHECK, "ber_fail"), cfg.number(CHECK, "ber_min_bits"),
                    cfg.number(CHECK, "other_per_hour_warn"), cfg.number(CHECK, "xmit_wait_per_s_warn"),
                    cfg.number(CHECK, "load_min_bytes"));
        }
    }

    /** One end of a link: its name, its delta (null when a sample lacks the port), the host behind it (CA ends). */
    public record End(String name, String host, PortDelta delta) {}

    /**
     * The verdict on one link. variant selects cause/fix text: "" (errors), "flap", "congestion", "note".
     * vars fill the ${...} placeholders.
     */
    public record Verdict(LinkWindowRow row, List<String> objects, List<Evidence> evidence, String summary,
                          String variant, Map<String, Object> vars) {}

    private final ClusterData data;
    private final CounterWindowData window;
    private final Limits lim;

    public WindowJudge(ClusterData data, CounterWindowData window, Limits lim) {
        this.data = data;
        this.window = window;
        this.lim = lim;
    }

    /** Verdicts for every link both samples cover (links from the fabric index; ports without iblinkinfo alone). */
    public List<Verdict> judge(List<FabricIndex.Link> links) {
        Map<String, CounterSample.Port> s = byKey(window.start()), e = byKey(window.end());
        Map<Integer, String> hostOfLid = hostsByLid();
        List<Verdict> out = new ArrayList<>();
        java.util.Set<String> done = new java.util.HashSet<>();
        for (FabricIndex.Link l : links) {
            End a = end(l.a(), s, e, hostOfLid);
            End b = l.b() == null ? null : end(l.b(), s, e, hostOfLid);
            done.add(key(l.a()));
            if (l.b() != null) done.add(key(l.b()));
            if (a.delta() == null && (b == null || b.delta() == null)) continue;
            out.add(verdict(a, b, l.a().switchNode() && l.b() != null && l.b().switchNode()));
        }
        for (Map.Entry<String, CounterSample.Port> p : e.entrySet()) {
            if (done.contains(p.getKey()) || !s.containsKey(p.getKey())) continue;
            CounterSample.Port ep = p.getValue();
            String host = hostOfLid.get(ep.lid());
            End a = new End("lid " + ep.lid() + " port " + ep.port(), host, PortDelta.of(s.get(p.getKey()), ep, window.seconds()));
            out.add(verdict(a, null, false));
        }
        out.sort((x, y) -> LinkWindowRow.WORST_FIRST.compare(x.row(), y.row()));
        return out;
    }

    private Verdict verdict(End a, End b, boolean isl) {
        List<End> ends = new ArrayList<>();
        if (a.delta() != null) ends.add(a);
        if (b != null && b.delta() != null) ends.add(b);
        double secs = window.seconds();
        Status st = Status.PASS;
        String variant = "";
        List<String> parts = new ArrayList<>(), notes = new ArrayList<>();
        List<Evidence> ev = new ArrayList<>();
        long errors = 0, before = 0;
        boolean atLeast = false, flap = false, errorProblem = false, congestion = false, cableErrors = false, notDiscards = false;
        double worstBer = Double.NaN, bitsAtWorst = 0, bytes = 0, waitPerS = 0, leastBits = Double.NaN;
        for (End x : ends) {
            PortDelta d = x.delta();
            List<String> mine = new ArrayList<>();
            for (String c : ERRORS) {
                CounterDelta cd = d.get(c);
                if (cd == null) continue;
                before += d.before(c);
                if (cd.kind() == CounterDelta.Kind.UNKNOWN) {
                    notes.add(x.name() + " " + c + " " + cd.describe());
                    continue;
                }
                errors += cd.delta();
                if (cd.delta() > 0 && cd.atLeast()) atLeast = true;
            }
            CounterDelta down = d.get("LinkDownedCounter"), rec = d.get("LinkErrorRecoveryCounter"), sym = d.get("SymbolErrorCounter");
            if (down != null && down.kind() != CounterDelta.Kind.UNKNOWN && down.delta() > lim.linkDownedMax()) {
                mine.add("LinkDownedCounter +" + down.describe() + " (went down during the window)");
                st = worse(st, Status.FAIL);
                flap = true;
            }
            if (rec != null && rec.kind() != CounterDelta.Kind.UNKNOWN && rec.delta() > lim.recoveryMax()) {
                mine.add("LinkErrorRecoveryCounter +" + rec.describe() + " (" + rate(rec.delta(), secs) + ")");
                st = worse(st, Status.FAIL);
                errorProblem = true;
                cableErrors = true;
            }
            long rcv = d.delta("PortRcvData");
            double bits = d.get("PortRcvData") == null ? 0 : Rates.bitsReceived(rcv);
            // what each direction carried: a BER is proven only for the bits the end that received less saw
            if (d.get("PortRcvData") != null) leastBits = Double.isNaN(leastBits) ? bits : Math.min(leastBits, bits);
            bytes += bits / 8 + (d.get("PortXmitData") == null ? 0 : Rates.bitsReceived(d.delta("PortXmitData")) / 8);
            if (sym != null && sym.kind() != CounterDelta.Kind.UNKNOWN && sym.delta() > 0) {
                double perHour = Rates.perHour(sym.delta(), secs);
                double ber = Rates.symbolBer(sym.delta(), rcv);
                boolean berUsable = bits >= lim.berMinBits() && !Double.isNaN(ber);
                if (!Double.isNaN(ber) && (Double.isNaN(worstBer) || ber > worstBer)) {
                    worstBer = ber;
                    bitsAtWorst = bits;
                }
                Status s = perHour > lim.symbolPerHourFail() || berUsable && ber > lim.berFail() ? Status.FAIL
                        : perHour > lim.symbolPerHourWarn() || berUsable && ber > lim.berWarn() ? Status.WARN : Status.PASS;
                if (s != Status.PASS) {
                    mine.add("SymbolErrorCounter +" + sym.describe() + " (" + rate(sym.delta(), secs) + ", symbol BER "
                            + (Double.isNaN(ber) ? "not measurable: nothing received" : sci(ber) + (berUsable ? "" : " over only " + sci(bits) + " bits")) + ")");
                    st = worse(st, s);
                    errorProblem = true;
                    cableErrors = true;
                }
            }
            for (String c : OTHER) {
                CounterDelta cd = d.get(c);
                if (cd == null || cd.kind() == CounterDelta.Kind.UNKNOWN || cd.delta() <= 0) continue;
                if (Rates.perHour(cd.delta(), secs) > lim.otherPerHourWarn()) {
                    mine.add(c + " +" + cd.describe() + " (" + rate(cd.delta(), secs) + ")");
                    st = worse(st, Status.WARN);
                    errorProblem = true;
                    cableErrors |= CABLE.contains(c);
                    notDiscards |= !c.equals("PortXmitDiscards");
                }
            }
            CounterDelta wait = d.get("PortXmitWait");
            if (wait != null && wait.kind() != CounterDelta.Kind.UNKNOWN) {
                double w = Rates.perSecond(wait.delta(), secs);
                waitPerS = Math.max(waitPerS, w);
                if (w > lim.xmitWaitPerSecondWarn()) {
                    mine.add("PortXmitWait +" + wait.describe() + " (" + String.format(Locale.ROOT, "%.0f", w) + " ticks/s: congestion)");
                    st = worse(st, Status.WARN);
                    congestion = true;
                }
            }
            if (d.reset()) notes.add(x.name() + ": counters were reset during the window (reboot, driver reload or perfquery -R); deltas count from the reset");
            if (!mine.isEmpty()) {
                parts.add(x.name() + ": " + String.join(", ", mine));
                ev.add(Evidence.of("before: " + values(d.start()), d.start().ref()));
                ev.add(Evidence.of("after " + minutes(secs) + ": " + values(d.end()), d.end().ref()));
            }
        }
        // discards and errors received from upstream say little about this cable: their own variant, no cable root; a
        // port that discards what it held too long while it waited for credits is congested
        variant = flap ? "flap" : errorProblem ? (cableErrors ? "" : congestion && !notDiscards ? "congestion" : "traffic")
                : congestion ? "congestion" : "";
        String name = a.name() + (b == null ? "" : " <-> " + b.name());
        boolean load = bytes >= lim.loadMinBytes();
        String summary;
        if (st != Status.PASS) {
            summary = name + ": " + String.join("; ", parts) + " in a " + minutes(secs) + " window";
        } else if (before > 0) {
            variant = "note";
            summary = "note: " + name + ": error counters were non-zero before the window (" + beforeText(ends)
                    + ") and did not move during " + minutes(secs) + attribution(ends);
            for (End x : ends) if (errorsBefore(x.delta()) > 0) ev.add(Evidence.of("before: " + values(x.delta().start()), x.delta().start().ref()));
        } else {
            summary = name + ": no errors during " + minutes(secs);
        }
        if (!notes.isEmpty()) summary += " (" + String.join("; ", notes) + ")";
        double ratePerHour = Rates.perHour(errors, secs);
        LinkWindowRow row = new LinkWindowRow(a.name(), b == null ? "" : b.name(), isl, errors, atLeast, ratePerHour,
                worstBer, Double.isNaN(worstBer) ? (Double.isNaN(leastBits) ? 0 : leastBits) : bitsAtWorst, load, bytes, waitPerS, before, false, st, summary);
        List<String> objs = new ArrayList<>();
        for (End x : ends) objs.add(x.name());
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("link", name);
        vars.put("a", a.name());
        vars.put("b", b == null ? "<remote end>" : b.name());
        vars.put("lid", a.delta() != null ? a.delta().lid() : b.delta().lid());
        vars.put("port", a.delta() != null ? a.delta().port() : b.delta().port());
        vars.put("window", minutes(secs));
        return new Verdict(row, objs, ev, summary, variant, vars);
    }

    /** Why LinkDowned counts before the window are no flap now: a host that came up after the counters started. */
    private String attribution(List<End> ends) {
        long downs = 0;
        for (End x : ends) downs += x.delta().before("LinkDownedCounter");
        if (downs == 0) return "";
        if (window.cleared()) return "";
        for (End x : ends) {
            if (x.host() == null) continue;
            Double up = window.uptimes().get(x.host());
            if (up == null) continue;
            return "; LinkDownedCounter before the window is attributed to the reboot of " + x.host() + " (up "
                    + hours(up) + "; the counters were not cleared in this collection, so they normally predate that boot)";
        }
        return "; the LinkDowned counts predate the window (switch or cable work before it; clear the counters to confirm)";
    }

    private static long errorsBefore(PortDelta d) {
        long n = 0;
        for (String c : ERRORS) n += d.before(c);
        return n;
    }

    private static String beforeText(List<End> ends) {
        List<String> s = new ArrayList<>();
        for (End x : ends) {
            List<String> c = new ArrayList<>();
            for (String n : ERRORS) if (x.delta().before(n) > 0) c.add(n + "=" + x.delta().before(n));
            if (!c.isEmpty()) s.add(x.name() + " " + String.join(" ", c));
        }
        return String.join("; ", s);
    }

    private static String values(CounterSample.Port p) {
        List<String> s = new ArrayList<>();
        for (String n : ERRORS) if (p.counters().getOrDefault(n, 0L) != 0) s.add(n + "=" + p.counters().get(n));
        if (s.isEmpty()) s.add("no error counts");
        if (p.counters().containsKey("PortRcvData")) s.add("PortRcvData=" + Long.toUnsignedString(p.counters().get("PortRcvData")));
        return String.join(" ", s);
    }

    static String rate(long n, double secs) {
        double h = Rates.perHour(n, secs);
        return (h >= 100 ? String.format(Locale.ROOT, "%.0f", h) : String.format(Locale.ROOT, "%.1f", h)) + "/h";
    }

    static String sci(double v) {
        return String.format(Locale.ROOT, "%.1e", v);
    }

    static String minutes(double secs) {
        return secs >= 5400 ? String.format(Locale.ROOT, "%.1f h", secs / 3600)
                : secs >= 90 ? String.format(Locale.ROOT, "%.1f min", secs / 60) : String.format(Locale.ROOT, "%.0f s", secs);
    }

    static String hours(double secs) {
        return secs >= 172800 ? String.format(Locale.ROOT, "%.1f days", secs / 86400) : String.format(Locale.ROOT, "%.1f h", secs / 3600);
    }

    private static Status worse(Status a, Status b) {
        return b.worseThan(a) ? b : a;
    }

    private End end(LinkInfo l, Map<String, CounterSample.Port> s, Map<String, CounterSample.Port> e, Map<Integer, String> hosts) {
        String k = key(l);
        PortDelta d = s.containsKey(k) && e.containsKey(k) ? PortDelta.of(s.get(k), e.get(k), window.seconds()) : null;
        return new End(l.nodeName() + " port " + l.port(), l.switchNode() ? null : hosts.get(l.lid()), d);
    }

    private static String key(LinkInfo l) {
        return l.lid() + ":" + l.port();
    }

    private static Map<String, CounterSample.Port> byKey(CounterSample s) {
        Map<String, CounterSample.Port> m = new HashMap<>();
        for (CounterSample.Port p : s.ports()) m.put(p.key(), p);
        return m;
    }

    /** CA port LIDs (ibstat) -> host name, for the uptime of the host behind a link end. */
    private Map<Integer, String> hostsByLid() {
        Map<Integer, String> m = new HashMap<>();
        for (var h : data.hosts().values()) {
            if (h.ibstat() == null) continue;
            for (var ca : h.ibstat()) for (var p : ca.ports()) if (p.baseLid() > 0) m.put(p.baseLid(), h.host());
        }
        return m;
    }
}
