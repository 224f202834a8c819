package io.ibaccept.rules.checks.sm;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.SmDrill;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.checks.SmCheck;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The SM failover drill's record: the standby took over in time, the ports stayed Active with their LIDs and
 * P_Keys, the stopped SM was started again and got its configured role back.
 */
public final class SmDrillCheck implements SmCheck {
    public String id() {
        return "sm.drill";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.SM_DRILL));
    }

    public List<Setting> settings() {
        return List.of(Setting.number("max_takeover_s", "90", "seconds from stopping the master SM until the standby is MASTER, above which"
                + " the takeover is too slow (opensm polls the master every sminfo_polling_timeout, 10 s, and gives up after"
                + " polling_retry_number, 4, misses)"));
    }

    public void evaluate(Ctx c) {
        SmDrill d = c.data.fabric().smDrill();
        List<Evidence> ev = new ArrayList<>();
        for (io.ibaccept.model.DrillStep s : d.steps()) ev.add(Evidence.of(s.at() + " " + s.kind() + ": " + s.text(), s.ref()));
        List<String> sms = d.smNodes();
        Map<String, Object> v = new LinkedHashMap<>();
        String stopped = d.step("stop").map(s -> s.text().substring(0, Math.max(0, s.text().indexOf(':')))).orElse("the master's node");
        double max = c.number("max_takeover_s");
        v.put("stopped", stopped);
        v.put("standby", d.newMaster() == null ? "the standby" : d.newMaster());
        v.put("max", String.format(Locale.ROOT, "%.0f", max));
        if (d.step("refused").isPresent()) {
            c.problem(Status.WARN, sms, ev, "the SM failover drill was refused, nothing was tested: " + d.step("refused").get().text(), "refused", v);
            return;
        }
        if (d.step("stop").isEmpty() || d.step("stop").get().text().contains("failed") || d.step("stop").get().text().contains("not stopped")) {
            c.problem(Status.WARN, sms, ev, "the SM failover drill could not stop the master SM, nothing was tested: "
                    + d.step("stop").map(io.ibaccept.model.DrillStep::text).orElse("no stop step"), "refused", v);
            return;
        }
        boolean bad = false;
        if (!d.restored()) {
            bad = true;
            c.problem(Status.FAIL, List.of(stopped), ev, "the SM failover drill stopped opensm on " + stopped + " and could not start it again",
                    "restore", v);
        }
        if (d.takeoverSeconds() == null) {
            bad = true;
            c.problem(Status.FAIL, sms, ev, "no standby took over after the master SM on " + stopped + " was stopped: "
                    + d.step("takeover").map(io.ibaccept.model.DrillStep::text).orElse("the drill ended before"), "none", v);
        } else if (d.takeoverSeconds() > max) {
            bad = true;
            v.put("seconds", String.format(Locale.ROOT, "%.1f", d.takeoverSeconds()));
            c.problem(Status.WARN, sms, ev, String.format(Locale.ROOT, "%s took over from %s in %.1f s, more than %.0f s", v.get("standby"), stopped,
                    d.takeoverSeconds(), max), "slow", v);
        }
        if (!d.portsChanged().isEmpty()) {
            bad = true;
            v.put("changes", String.join("; ", d.portsChanged()));
            c.problem(Status.FAIL, d.checkedNodes(), ev, "ports changed across the SM takeover: " + String.join("; ", d.portsChanged()), "ports", v);
        }
        if (d.pairPassed().orElse(true) == Boolean.FALSE) {
            bad = true;
            v.put("pair", d.step("pair").get().text());
            c.problem(Status.FAIL, sms, ev, "RDMA traffic failed while " + v.get("standby") + " was master: " + d.step("pair").get().text(), "pair", v);
        }
        if (d.restored() && d.backSeconds() == null) {
            bad = true;
            c.problem(Status.WARN, List.of(stopped), ev, stopped + " runs opensm again but did not get its configured role back: "
                    + d.step("back").map(io.ibaccept.model.DrillStep::text).orElse("not checked"), "role", v);
        }
        if (!bad) c.pass(String.format(Locale.ROOT, "%s took over from %s in %.1f s (limit %.0f s); %s stayed Active with their LIDs and P_Keys;"
                        + " %s", d.newMaster(), stopped, d.takeoverSeconds(), max, d.step("ports_after").map(s -> s.text().split(";")[0]).orElse("ports"),
                d.step("back").map(io.ibaccept.model.DrillStep::text).map(t -> t.replaceFirst(" \\(configured: .*\\)$", " as configured")).orElse(""))
                + d.step("pair").map(s -> "; during the takeover " + s.text()).orElse("; no RDMA pair ran during it (--pair)"), sms, ev);
    }
}
