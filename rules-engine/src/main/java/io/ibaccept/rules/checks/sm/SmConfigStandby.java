package io.ibaccept.rules.checks.sm;

import io.ibaccept.rules.checks.SmCheck;
import io.ibaccept.model.SmConfig;
import io.ibaccept.model.SmInfo;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** A standby SM for production: the SM nodes collected plus the SMs the fabric reports (sminfo). */
public final class SmConfigStandby implements SmCheck {
    public String id() {
        return "sm.config.standby";
    }

    public List<Input> inputs() {
        return List.of(SmFacts.config());
    }

    public List<Setting> settings() {
        return List.of(Setting.number("min_sms", "2", "subnet managers a production fabric needs (master + standby)"));
    }

    public void evaluate(Ctx c) {
        TreeSet<String> sms = new TreeSet<>();
        List<String> down = new ArrayList<>();
        List<Evidence> ev = new ArrayList<>();
        for (SmConfig s : SmFacts.configs(c).values()) {
            // a named SM node where no opensm runs is no standby (sm.failover names it)
            if (s.process() != null && !s.process().running()) {
                down.add(s.host());
                ev.add(Evidence.of(s.host() + ": no opensm process runs", s.process().ref()));
                continue;
            }
            sms.add(s.host());
            if (s.process() != null) ev.add(Evidence.of(s.host() + ": opensm pid " + s.process().pid(), s.process().ref()));
        }
        for (SmInfo s : SmFacts.liveSms(c)) {
            String h = SmFacts.host(c, s);
            sms.add(h);
            ev.add(Evidence.of(String.format("sminfo: SM lid %d guid 0x%x priority %d %s (%s)", s.lid(), s.guid(),
                    s.priority(), s.stateName(), h), s.ref()));
        }
        int min = (int) c.number("min_sms");
        if (sms.size() < min) {
            io.ibaccept.rules.Finding f = c.problem(Status.WARN, List.copyOf(sms), ev, sms.size() + " subnet manager(s) (" + String.join(", ", sms) + "), "
                    + min + " wanted: no standby SM takes over when " + (sms.isEmpty() ? "it" : sms.first()) + " fails", "",
                    Map.of("hosts", String.join(", ", sms), "min", min));
            if (!down.isEmpty()) c.explainedBy(f, down.stream().map(SmFacts::downKey).toList());
        } else c.pass(sms.size() + " subnet managers: " + String.join(", ", sms), List.copyOf(sms), ev);
    }
}
