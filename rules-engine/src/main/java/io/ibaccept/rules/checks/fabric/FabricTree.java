package io.ibaccept.rules.checks.fabric;

import io.ibaccept.dump.Cmd;
import io.ibaccept.fabric.Fabric;
import io.ibaccept.fabric.FatTree;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Status;
import java.util.List;
import java.util.Map;

/** Fat-tree structure (what ibdiagnet --ft checks): levels, links inside a level, hosts on spines, uplinks per leaf. */
public final class FabricTree implements Check {
    public String id() {
        return "fabric.tree";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBNETDISCOVER, Cmd.IBLINKINFO));
    }

    public List<Setting> settings() {
        return List.of(Setting.number("switches_expected", "0", "number of switches the fabric is designed with; 0 = not checked"),
                Setting.number("hosts_tolerance", "1", "hosts a leaf may have more or fewer than the usual leaf"));
    }

    public void evaluate(Ctx c) {
        Fabric f = c.fabric();
        // a node-name-map line that cannot be read: the names it would give are missing from the report
        c.names().ifPresent(m -> m.problems().forEach(p -> c.problem(Status.WARN, List.of(p.ref().file()), List.of(Evidence.of(p.message(), p.ref())),
                "node-name-map " + p.ref() + ": " + p.message(), "names_input", Map.of("where", p.ref().toString()))));
        FatTree.Result r = c.fatTree();
        Issues.report(c, r.tree());
        int loops = loopbacks(c, f);
        if (r.tree().isEmpty() && loops == 0)
            c.pass(describe(f, r), List.of(), List.of());
    }

    /**
     * A cable looped back onto its own switch (port 1 <-> port 2) carries no traffic and holds two ports: one WARN per
     * switch naming the ports (a loopback plug left from a port test, or a cable plugged into the wrong switch).
     */
    private static int loopbacks(Ctx c, Fabric f) {
        Map<Long, List<Fabric.Link>> bySwitch = new java.util.TreeMap<>();
        for (Fabric.Link l : f.links())
            if (f.linkClass(l) == Fabric.LinkClass.LOOPBACK) bySwitch.computeIfAbsent(l.a().guid(), g -> new java.util.ArrayList<>()).add(l);
        bySwitch.forEach((guid, links) -> {
            String sw = f.name(guid);
            List<String> pairs = links.stream().map(l -> "port " + l.a().port() + " <-> port " + l.b().port()).toList();
            List<Evidence> ev = links.stream().limit(10).map(l -> Evidence.of(sw + " port " + l.a().port() + " <-> port " + l.b().port(),
                    l.refs().isEmpty() ? "" : l.refs().get(0).toString())).toList();
            List<String> objs = new java.util.ArrayList<>();
            for (Fabric.Link l : links) {
                objs.add(sw + " port " + l.a().port());
                objs.add(sw + " port " + l.b().port());
            }
            c.problem(Status.WARN, objs, ev, sw + ": " + links.size() + " cable(s) looped back onto the switch itself (" + String.join(", ", pairs) + ")",
                    "loopback", Map.of("switch", sw, "ports", String.join(", ", pairs)));
        });
        return bySwitch.size();
    }

    static String describe(Fabric f, FatTree.Result r) {
        if (r.levels() < 2) return f.switches().size() + " switch(es), " + f.hosts().size() + " hosts: no spine level, not a fat tree (structure not validated)";
        StringBuilder sb = new StringBuilder(r.levels() + "-level fat tree: ");
        for (int l = r.levels(); l >= 1; l--) sb.append(f.atLevel(l).size()).append(' ').append(l == 1 ? "leaves" : l == 2 ? "spines" : "level-" + l).append(", ");
        return sb.append(f.hosts().size()).append(" hosts; theoretical bisection bandwidth ")
                .append(String.format(java.util.Locale.ROOT, "%.0f Gb/s", r.bisectionGbps())).toString();
    }
}
