package io.ibaccept.rules.checks.fabric;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.DrillStep;
import io.ibaccept.model.IslDrill;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The ISL drill's record: with one switch-to-switch link disabled the subnet manager routes around it in time, and the
 * link comes back Active at the width and speed it had.
 */
public final class FabricIslDrill implements Check {
    public String id() {
        return "fabric.isl_drill";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.ISL_DRILL));
    }

    public List<Setting> settings() {
        return List.of(Setting.number("max_reroute_s", "60", "seconds from disabling a switch-to-switch port until no LID is routed out of"
                + " either end, above which the re-route is too slow (opensm sweeps on the port's trap, else every sweep_interval, 10 s)"));
    }

    public void evaluate(Ctx c) {
        IslDrill d = c.data.fabric().islDrill();
        List<Evidence> ev = new ArrayList<>();
        for (DrillStep s : d.steps()) ev.add(Evidence.of(s.at() + " " + s.kind() + ": " + s.text(), s.ref()));
        List<String> objects = d.link().isEmpty() ? List.of("fabric") : List.of(d.link());
        double max = c.number("max_reroute_s");
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("link", d.link().isEmpty() ? "the link" : d.link());
        v.put("max", String.format(Locale.ROOT, "%.0f", max));
        if (d.step("refused").isPresent() || d.step("disable").map(s -> s.text().contains("failed")).orElse(true)) {
            c.problem(Status.WARN, objects, ev, "the ISL drill did not disable the link, nothing was tested: "
                    + d.step("refused").or(() -> d.step("disable")).map(DrillStep::text).orElse("no disable step"), "refused", v);
            return;
        }
        boolean bad = false;
        if (!d.restored()) {
            bad = true;
            c.problem(Status.FAIL, objects, ev, "the ISL drill disabled " + d.link() + " and could not enable it again", "restore", v);
        }
        if (d.rerouteSeconds() == null) {
            bad = true;
            c.problem(Status.FAIL, objects, ev, "the subnet manager did not route around the disabled link " + d.link() + ": "
                    + d.step("rerouted").map(DrillStep::text).orElse("the drill ended before"), "none", v);
        } else if (d.rerouteSeconds() > max) {
            bad = true;
            c.problem(Status.WARN, objects, ev, String.format(Locale.ROOT, "the subnet manager routed around %s after %.1f s, more than %.0f s",
                    d.link(), d.rerouteSeconds(), max), "slow", v);
        }
        if (d.pairPassed().orElse(true) == Boolean.FALSE) {
            bad = true;
            c.problem(Status.FAIL, objects, ev, "RDMA traffic failed while " + d.link() + " was down: " + d.step("pair").get().text(), "pair", v);
        }
        if (d.restored() && (d.backSeconds() == null || d.degraded())) {
            bad = true;
            c.problem(Status.FAIL, objects, ev, d.link() + " " + (d.backSeconds() == null ? "did not come back after the enable: " : "came back degraded: ")
                    + d.step("back").map(DrillStep::text).orElse("not checked"), "back", v);
        }
        if (!bad) c.pass(String.format(Locale.ROOT, "%s disabled: no LID routed over it %.1f s later (limit %.0f s); enabled again, back %s",
                d.link(), d.rerouteSeconds(), max, d.step("back").map(DrillStep::text).orElse(""))
                + d.step("pair").map(s -> "; while it was down " + s.text()).orElse("; no RDMA pair ran while it was down (--pair)"), objects, ev);
    }
}
