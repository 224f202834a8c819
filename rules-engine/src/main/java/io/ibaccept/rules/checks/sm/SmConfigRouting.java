package io.ibaccept.rules.checks.sm;

import io.ibaccept.rules.checks.SmCheck;
import io.ibaccept.dump.Cmd;
import io.ibaccept.fabric.Fabric;
import io.ibaccept.model.SmConfig;
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
 * routing_engine fits the topology: on a fat tree (two or more switch levels in the fabric graph) an engine that knows
 * the tree (ftree, updn, ar_updn, dfsssp, ...) spreads the routes over the spines; minhop (opensm's default when
 * routing_engine is unset) does not balance them and can deadlock on loops. What opensm last logged as configured
 * is reported too: an engine that failed on this topology falls back to minhop.
 */
public final class SmConfigRouting implements SmCheck {
    public String id() {
        return "sm.config.routing";
    }

    public List<Input> inputs() {
        return List.of(SmFacts.config(), Input.of(Cmd.IBNETDISCOVER, Cmd.IBLINKINFO));
    }

    public List<Setting> settings() {
        return List.of(Setting.of("tree_engines", Setting.Type.LIST, "ftree,updn,ar_updn,ar_ftree,dfsssp,ar_dfsssp,sssp,nue",
                "routing engines fit for a fat tree (the first engine of routing_engine is judged)"));
    }

    public void evaluate(Ctx c) {
        Fabric f = c.fabric();
        int levels = f.maxLevel();
        boolean tree = levels >= 2 && f.switches().size() > 1;
        List<String> fit = c.list("tree_engines").stream().map(s -> s.toLowerCase(Locale.ROOT)).toList();
        boolean bad = false;
        List<String> ok = new ArrayList<>();
        // SM nodes with the same routing_engine (and the same engine run) are one finding: one configuration fault
        Map<String, List<SmConfig>> byEngine = new LinkedHashMap<>();
        Map<String, List<Evidence>> evidence = new LinkedHashMap<>();
        for (SmConfig s : SmFacts.configured(c).values()) {
            String value = s.option("routing_engine").map(SmConfig.Option::value).orElse("(null)");
            boolean unset = value.isBlank() || value.equals("(null)");
            String first = unset ? "minhop" : value.split(",")[0].trim().toLowerCase(Locale.ROOT);
            List<Evidence> ev = new ArrayList<>(List.of(SmFacts.evidence(s, "routing_engine", "(null): minhop")));
            String ran = null;
            if (s.log() != null)
                for (SmConfig.LogEvent e : s.log().events())
                    if (e.kind().equals("routing")) {
                        ran = e.message().substring(e.message().indexOf(':') + 1).trim().split("\\s+")[0];
                        ev.add(Evidence.of(s.host() + " opensm.log: " + e.message(), e.ref()));
                    }
            String fell = ran != null && !ran.equalsIgnoreCase(first) ? "; opensm.log shows " + ran + " ran instead (" + first
                    + " failed on this topology and opensm fell back)" : "";
            String label = (unset ? "not set (opensm uses minhop)" : value) + fell;
            if (tree && (!fit.contains(first) || !fell.isEmpty())) {
                byEngine.computeIfAbsent(label, k -> new ArrayList<>()).add(s);
                evidence.computeIfAbsent(label, k -> new ArrayList<>()).addAll(ev);
            } else ok.add(s.host() + " " + (unset ? "minhop (default)" : value) + (ran == null ? "" : ", ran " + ran));
        }
        for (var e : byEngine.entrySet()) {
            bad = true;
            List<String> hosts = e.getValue().stream().map(SmConfig::host).toList();
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("host", String.join(", ", hosts));
            v.put("engine", e.getKey());
            v.put("levels", levels);
            c.problem(Status.WARN, hosts, evidence.get(e.getKey()), String.join(", ", hosts) + ": routing_engine " + e.getKey()
                    + " on a " + levels + "-level fat tree of " + f.switches().size() + " switches", "", v);
        }
        if (!bad) c.pass((tree ? "fat tree of " + levels + " levels: " : "not a multi-level tree: ") + String.join("; ", ok), List.of(), List.of());
    }
}
