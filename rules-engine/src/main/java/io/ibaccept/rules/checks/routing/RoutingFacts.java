package io.ibaccept.rules.checks.routing;

import io.ibaccept.fabric.Fabric;
import io.ibaccept.fabric.Routing;
import io.ibaccept.rules.Ctx;
import java.util.ArrayList;
import java.util.List;

/** How the routing checks name what the forwarding tables route. */
final class RoutingFacts {
    private RoutingFacts() {}

    /** Names listed in a finding before "and N more". */
    static final int LISTED = 10;

    /** "node13 HCA-1 (LID 0x0013)". */
    static String destination(Ctx c, Routing r, int lid) {
        long g = r.nodeOfLid(lid);
        return (g == 0 ? "" : c.fabric().name(g) + " ") + String.format("(LID 0x%04x)", lid);
    }

    /** The first destinations by name, then "and N more" (count: how many there are, lids: the first of them). */
    static String destinations(Ctx c, Routing r, List<Integer> lids) {
        return destinations(c, r, lids, lids.size());
    }

    static String destinations(Ctx c, Routing r, List<Integer> lids, int count) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < Math.min(LISTED, lids.size()); i++) names.add(destination(c, r, lids.get(i)));
        return String.join(", ", names) + (count > names.size() ? " and " + (count - names.size()) + " more" : "");
    }

    /** "leaf01 port 33". */
    static String hop(Fabric f, Routing.Hop h) {
        return f.name(new Fabric.End(h.switchGuid(), h.port()));
    }

    /** "spine01 port 1 -> leaf01 port 33 -> back to spine01". */
    static String cycle(Fabric f, List<Routing.Hop> cycle) {
        List<String> parts = new ArrayList<>();
        for (Routing.Hop h : cycle) parts.add(hop(f, h));
        return String.join(" -> ", parts) + " -> back to " + f.name(cycle.get(0).switchGuid());
    }

    static <T> String listed(List<T> items, java.util.function.Function<T, String> name) {
        List<String> names = items.stream().limit(LISTED).map(name).toList();
        return String.join(", ", names) + (items.size() > LISTED ? " and " + (items.size() - LISTED) + " more" : "");
    }

    /** The tables of these switches as evidence, each once, where they start in dump_fts. */
    static List<io.ibaccept.rules.Evidence> tables(Fabric f, Routing r, java.util.Collection<Long> switches) {
        List<io.ibaccept.rules.Evidence> out = new ArrayList<>();
        for (long g : new java.util.LinkedHashSet<>(switches)) {
            if (out.size() == LISTED) break;
            var ref = r.tableRef(g);
            if (ref != null) out.add(io.ibaccept.rules.Evidence.of(f.name(g) + "'s forwarding table", ref));
        }
        return out;
    }

    /** "(routed by ftree per node01's opensm.log)" or "" when the engine is not known. */
    static String engine(Ctx c) {
        return io.ibaccept.rules.checks.sm.SmFacts.routingEngine(c)
                .map(e -> " (routes of " + e.effective() + (e.ran() != null ? ", per " + e.host() + "'s opensm.log" : ", as configured on " + e.host()) + ")")
                .orElse("");
    }
}
