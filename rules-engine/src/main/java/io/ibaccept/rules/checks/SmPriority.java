package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibdiagnet;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.InputProblem;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.Perftest;
import io.ibaccept.model.PerftestRun;
import io.ibaccept.model.SmInfo;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.FabricIndex;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Distinct subnet manager priorities, so failover order is deliberate. */
final class SmPriority implements SmCheck {
    public String id() {
        return "sm.priority";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.SMINFO, Cmd.IBDIAGNET_SM));
    }

    public void evaluate(Ctx c) {
        List<SmInfo> sms = SmCount.dedupe(c.data.fabric().smsOrIbdiagnet());
        if (sms.isEmpty()) {
            c.skip("sminfo listed no SM");
            return;
        }
        if (sms.size() == 1) {
            c.pass("single SM (priority " + sms.get(0).priority() + "); no standby SM to fail over to", List.of(), List.of());
            return;
        }
        Map<Integer, List<SmInfo>> byPrio = sms.stream().collect(Collectors.groupingBy(SmInfo::priority, TreeMap::new, Collectors.toList()));
        boolean bad = false;
        for (var e : byPrio.entrySet()) {
            if (e.getValue().size() < 2) continue;
            bad = true;
            String names = e.getValue().stream().map(s -> "lid " + s.lid()).collect(Collectors.joining(", "));
            Finding f = c.problem(Status.WARN, e.getValue().stream().map(s -> "SM lid " + s.lid()).toList(),
                    e.getValue().stream().map(s -> Evidence.of(SmCount.describe(s), s.ref())).toList(),
                    e.getValue().size() + " SMs share priority " + e.getKey(), "", Map.of("sms", names, "priority", e.getKey()));
            // the SM nodes' opensm.conf, where collected, is the root (sm.config.priority)
            c.explainedBy(f, List.of(io.ibaccept.rules.checks.sm.SmFacts.PRIORITY_EQUAL));
        }
        if (!bad) c.pass(sms.size() + " SMs with distinct priorities " + byPrio.keySet(), List.of(), List.of());
    }
}
