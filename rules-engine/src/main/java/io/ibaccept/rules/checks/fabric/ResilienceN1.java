package io.ibaccept.rules.checks.fabric;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.Resilience;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * N-1 on the fabric's twin: with any one switch-to-switch cable (and, when they were run, any one switch) lost, the
 * subnet manager's re-routed tables still reach every destination, without forwarding loops or new credit loops. The
 * losses with the same outcome are told as one group; the critical ones are named, each with its fix.
 */
public final class ResilienceN1 implements Check {
    public String id() {
        return "resilience.n1";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.RESILIENCE));
    }

    public List<Setting> settings() {
        return List.of(Setting.number("max_critical_cables", "0", "switch-to-switch cables whose loss the fabric may not survive (a design with"
                + " single-uplink leaves by intent states how many)"));
    }

    public void evaluate(Ctx c) {
        Resilience r = c.data.fabric().resilience();
        List<Evidence> ev = new ArrayList<>();
        ev.add(Evidence.of("twin: " + r.header().getOrDefault("twin", ""), r.ref()));
        ev.add(Evidence.of("coverage: " + r.header().getOrDefault("coverage", "") + "; " + r.header().getOrDefault("time", ""), r.ref()));
        String twin = r.header().getOrDefault("twin", "");
        boolean bad = false;
        if (twin.startsWith("forwarding tables differ")) {
            bad = true;
            c.problem(Status.WARN, List.of("fabric"), ev, "the twin's opensm does not route as the fabric's SM did, so its N-1 answer is for the twin's routes: "
                    + twin, "twin_differs", Map.of("twin", twin));
        }
        List<Resilience.Loss> crit = r.critical();
        List<Resilience.Loss> cables = crit.stream().filter(l -> l.kind().equals("cable")).toList();
        List<Resilience.Loss> switches = crit.stream().filter(l -> l.kind().equals("switch")).toList();
        if (cables.size() > c.number("max_critical_cables") || !switches.isEmpty()) {
            bad = true;
            List<String> objects = new ArrayList<>();
            List<String> fixes = new ArrayList<>();
            for (Resilience.Loss l : crit) {
                objects.add(l.name());
                ev.add(Evidence.of("loss of " + l.name() + ": " + r.outcome(l), l.ref()));
                String f = l.name() + ": " + l.fix();
                if (!fixes.contains(f)) fixes.add(f);
            }
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("count", crit.size());
            v.put("fixes", String.join("; ", fixes.subList(0, Math.min(5, fixes.size()))) + (fixes.size() > 5 ? "; and " + (fixes.size() - 5) + " more" : ""));
            v.put("engine", r.header().getOrDefault("engine", ""));
            c.problem(Status.FAIL, objects, ev, r.pageOneLine() + ": " + String.join(", ", objects.subList(0, Math.min(8, objects.size())))
                    + (objects.size() > 8 ? " and " + (objects.size() - 8) + " more" : "") + "; " + groups(r), "critical", v);
        }
        if (!bad) c.pass(r.pageOneLine() + ": " + groups(r) + " (" + r.header().getOrDefault("engine", "") + ", " + r.header().getOrDefault("coverage", "") + ")",
                List.of("fabric"), ev);
    }

    /** The losses grouped by outcome: "10 loss(es) re-routed: worst uplink 4 destination(s) (healthy 3); 2 ...". */
    static String groups(Resilience r) {
        List<String> out = new ArrayList<>();
        for (Resilience.Group g : r.groups()) out.add(g.losses().size() + " loss(es) " + g.outcome());
        return out.isEmpty() ? "no loss was run" : String.join("; ", out);
    }
}
