package io.ibaccept.rules.checks.sm;

import io.ibaccept.rules.checks.SmCheck;
import io.ibaccept.dump.Cmd;
import io.ibaccept.model.SmConfig;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The opensm.log tail of each SM node, one finding per host and kind of message, counted, with the first and last
 * file:line: duplicate GUIDs, the SM's own port down, partitions.conf rejected, error lines (per function or ERR
 * code), heavy sweeps and master/standby changes beyond a threshold, and a log that ends in opensm's 'Exiting SM'.
 */
public final class SmLog implements SmCheck {
    public String id() {
        return "sm.log";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.OPENSM_LOG));
    }

    public List<Setting> settings() {
        return List.of(Setting.number("heavy_sweeps", "20", "heavy sweeps in the collected log tail above which the fabric is unstable"),
                Setting.number("state_changes", "4", "MASTER/STANDBY/DISCOVERING transitions in the log tail above which the SMs fight"));
    }

    public void evaluate(Ctx c) {
        int logs = 0;
        boolean bad = false;
        for (SmConfig s : SmFacts.configs(c).values()) {
            if (s.log() == null) continue;
            logs++;
            List<SmFailover.Takeover> takeovers = SmFailover.takeovers(s);
            boolean exited = exited(c, s);
            bad |= exited;
            Map<String, List<SmConfig.LogEvent>> byKind = new LinkedHashMap<>();
            for (SmConfig.LogEvent e : s.log().events()) {
                String kind = e.kind().equals("error") ? "error " + what(e.message()) : e.kind();
                if (kind.equals("master") || kind.equals("standby") || kind.equals("discovering")) kind = "state";
                byKind.computeIfAbsent(kind, k -> new ArrayList<>()).add(e);
            }
            for (var e : byKind.entrySet()) {
                String kind = e.getKey();
                List<SmConfig.LogEvent> ev = e.getValue();
                Status st;
                String variant;
                if (kind.equals("duplicate-guid")) {
                    st = Status.FAIL;
                    variant = "duplicate";
                } else if (kind.equals("sm-port-down")) {
                    st = Status.WARN;
                    variant = "portdown";
                } else if (kind.equals("partitions-parse-error") || kind.equals("partitions-ignored")) {
                    st = Status.FAIL;
                    variant = "partitions";
                } else if (kind.startsWith("error ")) {
                    st = Status.WARN;
                    variant = "error";
                } else if (kind.equals("heavy-sweep") && ev.size() > c.number("heavy_sweeps")) {
                    st = Status.WARN;
                    variant = "sweeps";
                } else if (kind.equals("state") && ev.size() > c.number("state_changes")) {
                    st = Status.WARN;
                    variant = "states";
                } else continue;
                bad = true;
                List<Evidence> evidence = new ArrayList<>();
                evidence.add(Evidence.of(s.host() + ": " + ev.get(0).message(), ev.get(0).ref()));
                if (ev.size() > 1) evidence.add(Evidence.of(s.host() + " (last): " + ev.get(ev.size() - 1).message(), ev.get(ev.size() - 1).ref()));
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("host", s.host());
                v.put("count", ev.size());
                v.put("message", ev.get(0).message());
                Finding f = c.problem(st, List.of(s.host()), evidence, s.host() + " opensm.log: " + ev.size() + " x " + label(kind)
                        + " in the last " + s.log().lines() + " lines (first at " + ev.get(0).ref() + ")", variant, v);
                if (variant.equals("partitions")) c.explainedBy(f, List.of(SmFacts.syntaxKey(s.host())));
                // the SA refusing path records between ports without a common full membership follows from limited
                // default-partition membership (partitions.membership), where that is the fault
                if (ev.stream().allMatch(x -> x.message().contains("do not have any shared PKeys")))
                    c.explainedBy(f, List.of(SmFacts.DEFAULT_LIMITED));
                // the errors of the run that ended in 'Exiting SM' (a failed bind) are why it exited
                if (exited && variant.equals("error") && ev.stream().allMatch(x -> x.ref().line() < lastExitLine(s)))
                    c.explainedBy(f, List.of(exitKey(s.host())));
                // what a standby logged while its master stopped answering follows from the takeover (sm.failover)
                for (SmFailover.Takeover t : takeovers)
                    if (ev.stream().allMatch(x -> x.ref().line() > t.standby().ref().line() && x.ref().line() <= t.master().ref().line()))
                        c.explainedBy(f, List.of(SmFacts.takeoverKey(s.host())));
            }
        }
        if (!bad) c.pass(logs + " opensm.log tail(s) without errors", List.of(), List.of());
    }

    private static String exitKey(String host) {
        return "sm:exit:" + host;
    }

    /** The line of the log's last event when that is opensm's "Exiting SM", else 0. */
    private static int lastExitLine(SmConfig s) {
        List<SmConfig.LogEvent> ev = s.log().events();
        return !ev.isEmpty() && ev.get(ev.size() - 1).kind().equals("exit") ? ev.get(ev.size() - 1).ref().line() : 0;
    }

    /**
     * The log ends in opensm's "Exiting SM" (osm_sm.c, osm_sm_destroy: every exit, a stop as much as a failed start),
     * with the error lines of that run (kept from its banner on) as the reason, such as a failed bind ("osm_sm_bind: ERR
     * 2E10: SM MAD Controller bind failed", libvendor/osm_vendor_ibumad.c "ERR 5426: Unable to register class"): no SM
     * runs from this log's opensm. Where the node's record shows an opensm running, the one that exited was a second
     * start beside it (one port binds one SM): a WARN.
     */
    private boolean exited(Ctx c, SmConfig s) {
        List<SmConfig.LogEvent> events = s.log().events();
        int exitLine = lastExitLine(s);
        if (exitLine == 0) return false;
        SmConfig.LogEvent exit = events.get(events.size() - 1);
        List<SmConfig.LogEvent> errors = events.stream().filter(e -> e.kind().equals("error")).toList();
        Optional<SmConfig.LogEvent> bind = errors.stream().filter(e -> e.message().contains("bind")).findFirst();
        Optional<SmConfig.LogEvent> why = bind.or(() -> errors.stream().findFirst());
        boolean running = s.process() != null && s.process().running();
        // an opensm runs: a log whose last run stopped cleanly is an older tail, not a failed start
        if (running && errors.isEmpty()) return false;
        List<Evidence> evidence = new ArrayList<>();
        why.ifPresent(e -> evidence.add(Evidence.of(s.host() + ": " + e.message(), e.ref())));
        evidence.add(Evidence.of(s.host() + ": " + exit.message() + (exit.stamp() == null ? "" : " (" + exit.stamp().text() + ")"), exit.ref()));
        if (s.process() != null) evidence.add(Evidence.of(s.host() + ": " + (running ? "opensm pid " + s.process().pid() + " runs" : "no opensm process runs"),
                s.process().ref()));
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("host", s.host());
        v.put("message", why.map(SmConfig.LogEvent::message).orElse("no error line before it"));
        v.put("pid", running ? s.process().pid() : 0);
        String reason = why.map(e -> " after '" + e.message() + "' (" + e.ref() + ")").orElse("");
        String summary = running
                ? "an opensm started on " + s.host() + " exited" + reason + ": the log ends in 'Exiting SM' (" + exit.ref() + "); the opensm still running there (pid "
                + s.process().pid() + ") is another instance that holds the port"
                : "opensm on " + s.host() + " exited: its log ends in 'Exiting SM' (" + exit.ref() + ")" + reason + "; no SM runs from it";
        Finding f = c.problem(running ? Status.WARN : Status.FAIL, List.of(s.host()), evidence, summary, running ? "exited_second" : "exited", v);
        c.covers(f, List.of(exitKey(s.host())));
        // a designated SM node whose opensm is down is sm.failover's root, the exit its reason
        c.explainedBy(f, List.of(SmFacts.downKey(s.host())));
        return true;
    }

    /** The function or ERR code an error line names ("osm_vendor_bind: ERR 5426: ..." -> "ERR 5426"). */
    static String what(String message) {
        int err = message.indexOf("ERR ");
        if (err >= 0 && err + 8 <= message.length()) return message.substring(err, err + 8);
        int colon = message.indexOf(':');
        return colon > 0 && message.substring(0, colon).indexOf(' ') < 0 ? message.substring(0, colon) : "(error level)";
    }

    private static String label(String kind) {
        return switch (kind) {
            case "duplicate-guid" -> "duplicate GUID";
            case "sm-port-down" -> "'SM port is down'";
            case "partitions-parse-error" -> "partitions.conf PARSE ERROR";
            case "partitions-ignored" -> "'Partition configuration in error; retrying with default config'";
            case "heavy-sweep" -> "heavy sweep";
            case "state" -> "SM state change (MASTER/STANDBY/DISCOVERING)";
            default -> kind;
        };
    }
}
