package io.ibaccept.rules.checks.routing;

import io.ibaccept.fabric.Fabric;
import io.ibaccept.fabric.Routing;
import io.ibaccept.model.SlToVlTables;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.checks.sm.SmFacts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The routes cannot deadlock: the channel dependency graph of the switch-to-switch ports (a port's traffic waits for
 * the buffers of the next port on its way, for every route from a switch with CAs to every CA LID) has no cycle, with
 * all routes on one VL. An engine that breaks such cycles by putting routes on several SLs (dfsssp, lash, nue) logs
 * how many it needed; its cycles over all VLs together are expected, and what is judged is whether its SLs reach
 * separate VLs on every switch-to-switch link (the SL-to-VL tables): opensm does not check that, and a table that
 * maps them onto one VL undoes the layering.
 */
public final class RoutingCreditLoops implements RoutingCheck {
    public String id() {
        return "routing.credit_loops";
    }


    public List<Setting> settings() {
        return List.of(Setting.of("vl_engines", Setting.Type.LIST, "lash,dfsssp,ar_dfsssp,torus-2qos,nue",
                "routing engines that separate routes over VLs to avoid credit loops (a cycle over all VLs is not judged for them)"),
                Setting.number("max_listed", "20", "credit loops reported one by one; the others are counted in the last"));
    }

    public void evaluate(Ctx c) {
        Routing r = RoutingCheck.walked(c);
        if (r == null) return;
        Fabric f = c.fabric();
        Optional<SmFacts.Engine> engine = SmFacts.routingEngine(c);
        String eng = engine.map(SmFacts.Engine::effective).orElse("");
        boolean vl = !eng.isEmpty() && c.list("vl_engines").stream().anyMatch(e -> e.equalsIgnoreCase(eng.toLowerCase(Locale.ROOT)));
        List<Routing.CreditLoop> loops = r.creditLoops();
        SlToVlTables tables = c.data.fabric() == null ? null : c.data.fabric().sl2vl();
        SlToVl sl2vl = tables == null ? null : SlToVl.of(f, tables);
        boolean dropped = sl2vl != null && sl0OnVl15(c, sl2vl);
        if (loops.isEmpty() && dropped) return;
        if (loops.isEmpty()) {
            c.pass("no credit loop: the routes over " + r.channels() + " switch-to-switch ports have no cyclic dependency (all routes counted on one VL)"
                    + RoutingFacts.engine(c), List.of(), List.of());
            return;
        }
        Optional<SmFacts.Layers> layers = vl ? SmFacts.layers(c, engine.get()) : Optional.empty();
        if (vl && layers.map(l -> l.needed() > 1).orElse(true)) {
            layered(c, r, eng, layers, sl2vl, loops.size());
            return;
        }
        // one VL: what the engine logged, else SL0 (the path SL when no QoS level gives another) where the tables put it
        String onVl = "all routes on one VL";
        java.util.SortedSet<Integer> sl0 = sl2vl == null ? java.util.Collections.emptySortedSet() : sl2vl.vlsOf(0);
        if (layers.isPresent()) onVl = eng + " logged that its routes need 1 VL";
        else if (sl0.size() == 1)
            onVl = "all routes counted on one VL: SL0, the path SL unless QoS levels give another, is on VL" + sl0.first() + " at every switch-to-switch port";
        int max = (int) c.number("max_listed");
        for (int i = 0; i < loops.size() && i < max; i++) {
            Routing.CreditLoop l = loops.get(i);
            List<String> ports = l.cycle().stream().map(h -> RoutingFacts.hop(f, h)).toList();
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("cycle", RoutingFacts.cycle(f, l.cycle()));
            v.put("channels", l.channels());
            v.put("engine", eng.isEmpty() ? "the SM's routing engine" : eng);
            String more = i == max - 1 && loops.size() > max ? "; " + (loops.size() - max) + " more cycle(s) not listed" : "";
            List<Evidence> ev = new ArrayList<>(RoutingFacts.tables(f, r, l.cycle().stream().map(Routing.Hop::switchGuid).toList()));
            layers.ifPresent(x -> ev.addAll(x.evidence()));
            Finding w = c.problem(Status.FAIL, ports, ev,
                    "credit loop: " + RoutingFacts.cycle(f, l.cycle()) + " (" + l.channels() + " switch-to-switch ports depend on each other, " + onVl + ")"
                            + RoutingFacts.engine(c) + more, "", v);
            c.explainedBy(w, List.of(SmFacts.ROUTING_FALLBACK));
        }
    }

    /**
     * SL 0, the SL of every path unless QoS levels give another, mapped to VL15 on switch-to-switch ports: VL15 carries
     * only subnet management packets, so the data of every such route is dropped at that port whatever the routes are.
     * Unused SLs on VL15 are a way to refuse them and are not judged.
     */
    private static boolean sl0OnVl15(Ctx c, SlToVl sl2vl) {
        java.util.Set<String> ports = new java.util.LinkedHashSet<>();
        SlToVlTables.Entry first = null;
        for (SlToVlTables.Entry e : sl2vl.entries())
            if (e.vl(0) == 15) {
                ports.add(sl2vl.port(e));
                if (first == null) first = e;
            }
        if (first == null) return false;
        int[] cov = sl2vl.coverage();
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("ports", RoutingFacts.listed(List.copyOf(ports), p -> p));
        c.problem(Status.FAIL, List.copyOf(ports), List.of(Evidence.of("the SL-to-VL table of " + sl2vl.port(first) + " from port " + first.inPort(), first.ref())),
                "SL 0 is mapped to VL15 (subnet management only: data there is dropped) at " + ports.size() + " of " + cov[0]
                        + " switch-to-switch ports: " + RoutingFacts.listed(List.copyOf(ports), p -> p), "sl0_vl15", v);
        return true;
    }

    /**
     * An engine that breaks the cycles of its routes by putting them on several SLs: the cycles over all VLs together
     * are expected; what can be judged is whether its layers of SLs reach separate VLs on every switch-to-switch link.
     * Which SL each path has the SA hands out per pair, and only traffic that asks for it uses the layers: that is not
     * in the dump, so a fabric whose tables keep the layers apart is a WARN saying so, not a PASS.
     */
    private void layered(Ctx c, Routing r, String eng, Optional<SmFacts.Layers> layers, SlToVl sl2vl, int cycles) {
        String all = " (over all VLs together " + cycles + " cycle(s) of " + r.channels() + " switch-to-switch ports, which " + eng + " breaks by SL)";
        if (layers.isEmpty()) {
            c.skip("routed by " + eng + ", which puts routes on several SLs to break cycles; its opensm.log does not say how many it used, so whether they reach separate VLs is not judged" + all);
            return;
        }
        SmFacts.Layers l = layers.get();
        String sls = "SL " + SlToVl.range(l.all());
        String logged = eng + " logged " + l.needed() + " layer(s) needed" + (l.available() > 0 ? " of " + l.available() + " VLs available" : "")
                + " and routes on " + sls;
        if (sl2vl == null || sl2vl.entries().isEmpty()) {
            c.skip(logged + "; the SL-to-VL tables of the switch-to-switch ports are not in the dump (smpquery-sl2vl), so whether these SLs reach separate VLs is not judged" + all);
            return;
        }
        List<SlToVl.Meeting> meetings = sl2vl.meetings(l.sls());
        List<Evidence> ev = new ArrayList<>(l.evidence());
        int[] cov = sl2vl.coverage();
        String covered = cov[0] < cov[1] ? cov[0] + " of the " + cov[1] + " switch-to-switch ports (the others' tables are not in the dump)"
                : "all " + cov[1] + " switch-to-switch ports";
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("engine", eng);
        v.put("sls", sls);
        v.put("layers", l.needed());
        if (meetings.isEmpty()) {
            ev.add(Evidence.of("the SL-to-VL table of " + sl2vl.port(sl2vl.entries().get(0)), sl2vl.entries().get(0).ref()));
            v.put("ports", covered);
            c.problem(Status.WARN, List.of(), ev, "deadlock-free only for traffic on the SLs " + eng + " hands out: " + logged + ", and the SL-to-VL tables keep its layers on separate VLs at "
                    + covered + all + "; each path's SL comes from the SA path record and is not in the dump", "path_sl", v);
            return;
        }
        java.util.Set<String> ports = new java.util.LinkedHashSet<>();
        meetings.forEach(m -> ports.add(sl2vl.port(m.first())));
        meetings.stream().limit(3).forEach(m -> ev.add(Evidence.of("the SL-to-VL table of " + sl2vl.port(m.first()) + " from port " + m.first().inPort(), m.first().ref())));
        SlToVl.Meeting first = meetings.get(0);
        v.put("ports", RoutingFacts.listed(List.copyOf(ports), p -> p));
        // without dfsssp's paths per layer in the log, SLs that share a VL may belong to one layer
        c.problem(l.exact() ? Status.FAIL : Status.WARN, List.copyOf(ports), ev, (l.exact() ? "credit loops possible" : "credit loops possible if these SLs are different layers")
                + ": the layers of SLs " + eng + " routes on do not stay on separate VLs at " + ports.size() + " of " + cov[0]
                + " switch-to-switch ports (" + sl2vl.port(first.first()) + ": " + first.how() + "); " + logged + all, "layers_merged", v);
    }
}
