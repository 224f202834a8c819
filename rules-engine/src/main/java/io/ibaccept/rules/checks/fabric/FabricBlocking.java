package io.ibaccept.rules.checks.fabric;

import io.ibaccept.dump.Cmd;
import io.ibaccept.fabric.FatTree;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import java.util.List;

/** Blocking ratio per leaf and spine group (active downlink rate / active uplink rate), and leaves that lost uplinks. */
public final class FabricBlocking implements Check {
    public String id() {
        return "fabric.blocking";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBLINKINFO, Cmd.IBNETDISCOVER));
    }

    public List<Setting> settings() {
        return List.of(Setting.number("ratio", "1", "allowed downlink:uplink data-rate ratio per switch: 1 = 1:1 (non-blocking, as usually contracted), 2 = 2:1"));
    }

    public void evaluate(Ctx c) {
        FatTree.Result r = c.fatTree();
        Issues.report(c, r.blocking());
        appliances(c);
        if (r.blocking().isEmpty() && r.levels() >= 2) {
            double worst = r.loads().stream().filter(l -> !l.up().isEmpty()).mapToDouble(FatTree.Load::ratio).max().orElse(0);
            c.pass(r.leaves().size() + " leaves and their spines within " + ratio(c.number("ratio")) + " (worst " + ratio(worst) + ")", List.of(), List.of());
        } else if (r.levels() < 2) {
            c.pass("no switch-to-switch links: nothing is blocking", List.of(), List.of());
        }
    }

    /** The management appliances on the switches, named as such: their cables are no compute downlinks of the ratio. */
    private static void appliances(Ctx c) {
        io.ibaccept.fabric.Fabric f = c.fabric();
        List<String> where = new java.util.ArrayList<>();
        List<io.ibaccept.rules.Evidence> ev = new java.util.ArrayList<>();
        for (io.ibaccept.fabric.Fabric.Link l : f.links()) {
            if (f.linkClass(l) != io.ibaccept.fabric.Fabric.LinkClass.APPLIANCE) continue;
            io.ibaccept.fabric.Fabric.End sw = f.node(l.a().guid()).isSwitch() ? l.a() : l.b();
            String text = f.name(l.other(sw).guid()) + " on " + f.name(sw);
            where.add(text);
            if (ev.size() < 10) ev.add(io.ibaccept.rules.Evidence.of(text, l.refs().isEmpty() ? "" : l.refs().get(0).toString()));
        }
        if (where.isEmpty()) return;
        c.pass(where.size() + " management appliance cable(s), not counted as compute downlinks (nor held to the hosts' link rate): " + String.join(", ", where.subList(0, Math.min(6, where.size())))
                + (where.size() > 6 ? ", ..." : ""), where.stream().map(w -> w.substring(w.indexOf(" on ") + 4)).toList(), ev);
    }

    static String ratio(double r) {
        return (Math.abs(r - Math.rint(r)) < 0.01 ? String.valueOf((long) Math.rint(r)) : String.format(java.util.Locale.ROOT, "%.2f", r)) + ":1";
    }
}
