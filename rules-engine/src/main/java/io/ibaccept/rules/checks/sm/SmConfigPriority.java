package io.ibaccept.rules.checks.sm;

import io.ibaccept.rules.checks.SmCheck;
import io.ibaccept.model.SmConfig;
import io.ibaccept.model.SmInfo;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The SM pair as configured: distinct sm_priority on the SM nodes (15 primary, a lower one on the standby), and the
 * live master is the configured primary. Equal configured priorities are the root of sm.priority's live warning.
 */
public final class SmConfigPriority implements SmCheck {
    public String id() {
        return "sm.config.priority";
    }

    public List<Input> inputs() {
        return List.of(SmFacts.config());
    }

    public void evaluate(Ctx c) {
        Map<String, SmConfig> sms = SmFacts.configured(c);
        TreeMap<Integer, List<SmConfig>> byPrio = new TreeMap<>();
        for (SmConfig s : sms.values()) byPrio.computeIfAbsent(SmFacts.priority(s), k -> new ArrayList<>()).add(s);
        boolean bad = false;
        if (sms.size() > 1)
            for (var e : byPrio.entrySet()) {
                if (e.getValue().size() < 2) continue;
                bad = true;
                String hosts = e.getValue().stream().map(SmConfig::host).collect(Collectors.joining(", "));
                Finding f = c.problem(Status.WARN, e.getValue().stream().map(SmConfig::host).toList(),
                        e.getValue().stream().map(s -> SmFacts.evidence(s, "sm_priority", "0")).toList(),
                        "SM nodes " + hosts + " are all configured with sm_priority " + e.getKey()
                                + ": which one is master is decided by port GUID, not by design", "equal",
                        Map.of("hosts", hosts, "priority", e.getKey()));
                c.covers(f, List.of(SmFacts.PRIORITY_EQUAL));
            }
        // the intended master: the one highest configured priority
        int top = byPrio.isEmpty() ? 0 : byPrio.lastKey();
        List<SmConfig> primaries = byPrio.getOrDefault(top, List.of());
        Optional<SmInfo> master = SmFacts.liveMaster(c);
        if (primaries.size() == 1 && master.isPresent() && sms.size() > 1) {
            String intended = primaries.get(0).host();
            String actual = SmFacts.host(c, master.get());
            if (!actual.equals(intended)) {
                bad = true;
                List<Evidence> ev = new ArrayList<>();
                ev.add(SmFacts.evidence(primaries.get(0), "sm_priority", "0"));
                if (sms.containsKey(actual)) ev.add(SmFacts.evidence(sms.get(actual), "sm_priority", "0"));
                ev.add(Evidence.of(String.format("sminfo: master SM lid %d guid 0x%x priority %d (%s)", master.get().lid(),
                        master.get().guid(), master.get().priority(), actual), master.get().ref()));
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("intended", intended);
                v.put("actual", actual);
                v.put("priority", top);
                // a master outside the collected SM nodes (a switch or UFM SM) may be by design: confirm, do not fail
                Finding f = c.problem(sms.containsKey(actual) ? Status.FAIL : Status.WARN, List.of(actual, intended), ev, "master SM is " + actual + " (live priority " + master.get().priority()
                        + ") but the configured primary is " + intended + " (sm_priority " + top + ")", "master", v);
                // a standby took over (the primary's opensm is down or did not take its role back): sm.failover names it
                c.explainedBy(f, List.of(SmFacts.takeoverKey(actual)));
            }
        }
        if (!bad) {
            String list = sms.values().stream().map(s -> s.host() + " " + SmFacts.priority(s)).collect(Collectors.joining(", "));
            c.pass(sms.size() == 1 ? "one SM node configured (" + list + "); standby judged by sm.config.standby"
                    : "configured priorities distinct (" + list + ")" + master.map(m -> "; master " + SmFacts.host(c, m)).orElse(""),
                    List.of(), sms.values().stream().map(s -> SmFacts.evidence(s, "sm_priority", "0")).toList());
        }
    }
}
