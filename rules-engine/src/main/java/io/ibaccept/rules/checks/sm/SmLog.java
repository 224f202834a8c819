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

/**
 * The opensm.log tail of each SM node, one finding per host and kind of message, counted, with the first and last
 * file:line: duplicate GUIDs, the SM's own port down, partitions.conf rejected, error lines (per function or ERR
 * code), heavy sweeps and master/standby changes beyond a threshold.
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
                // what a standby logged while its master stopped answering follows from the takeover (sm.failover)
                for (SmFailover.Takeover t : takeovers)
                    if (ev.stream().allMatch(x -> x.ref().line() > t.standby().ref().line() && x.ref().line() <= t.master().ref().line()))
                        c.explainedBy(f, List.of(SmFacts.takeoverKey(s.host())));
            }
        }
        if (!bad) c.pass(logs + " opensm.log tail(s) without errors", List.of(), List.of());
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
