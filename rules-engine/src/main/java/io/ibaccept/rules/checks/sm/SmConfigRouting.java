package io.ibaccept.rules.checks.sm;

import io.ibaccept.rules.checks.SmCheck;
import io.ibaccept.dump.Cmd;
import io.ibaccept.fabric.Fabric;
import io.ibaccept.rules.Finding;
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
        return List.of(Setting.of("tree_engines", Setting.Type.LIST, "ftree,updn,ar_updn,ar_ftree,dfsssp,ar_dfsssp,sssp,nue,file",
                "routing engines fit for a fat tree (the first engine of routing_engine is judged; 'file' loads the site's own tables, which the routing checks judge)"));
    }

    public void evaluate(Ctx c) {
        Fabric f = c.fabric();
        int levels = f.maxLevel();
        boolean tree = levels >= 2 && f.switches().size() > 1;
        List<String> fit = c.list("tree_engines").stream().map(s -> s.toLowerCase(Locale.ROOT)).toList();
        boolean bad = false;
        List<String> ok = new ArrayList<>();
        // SM nodes with the same routing_engine (and the same engine run) are one finding: one configuration fault
        Map<String, List<Evidence>> evidence = new LinkedHashMap<>();
        Map<String, List<String>> byEngineHosts = new LinkedHashMap<>();
        for (SmFacts.Engine s : SmFacts.engines(c)) {
            String fell = s.fellBack() ? "; opensm.log shows " + s.ran() + " ran instead (" + s.configured()
                    + " failed on this topology and opensm fell back)" : "";
            String label = (s.unset() ? "not set (opensm uses minhop)" : s.value()) + fell;
            if (tree && !fit.contains(s.configured()) || s.fellBack()) {
                byEngineHosts.computeIfAbsent(label, k -> new ArrayList<>()).add(s.host());
                evidence.computeIfAbsent(label, k -> new ArrayList<>()).addAll(s.evidence());
            } else ok.add(s.host() + " " + (s.unset() ? "minhop (default)" : s.value()) + (s.ran() == null ? "" : ", ran " + s.ran()));
        }
        for (var e : byEngineHosts.entrySet()) {
            bad = true;
            List<String> hosts = e.getValue();
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("host", String.join(", ", hosts));
            v.put("engine", e.getKey());
            v.put("levels", levels);
            String topology = tree ? "a " + levels + "-level fat tree of " + f.switches().size() + " switches"
                    : "a fabric of " + f.switches().size() + " switches that is not a fat tree";
            v.put("topology", topology);
            Finding w = c.problem(Status.WARN, hosts, evidence.get(e.getKey()), String.join(", ", hosts) + ": routing_engine " + e.getKey()
                    + " on " + topology, e.getKey().contains("fell back") ? "fallback" : "", v);
            // the routes' own findings (imbalance, credit loops) are what this fallback did
            if (e.getKey().contains("fell back")) c.covers(w, List.of(SmFacts.ROUTING_FALLBACK));
        }
        if (!bad) c.pass((tree ? "fat tree of " + levels + " levels: " : "not a multi-level tree: ") + String.join("; ", ok), List.of(), List.of());
    }
}
