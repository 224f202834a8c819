package io.ibaccept.rules.checks.routing;

import io.ibaccept.fabric.Fabric;
import io.ibaccept.fabric.Routing;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every CA LID is reached from every switch by following the forwarding tables (what ibdiagnet --routing and
 * ibdmchk check): a table without an entry, an entry to the switch itself or to a port without an active cable, an
 * entry that delivers to another CA, a forwarding loop; LIDs no switch routes; on a fat tree, paths that cross more
 * switches than the tree needs. One finding per switch and cause, naming the destinations.
 */
public final class RoutingReachability implements RoutingCheck {
    public String id() {
        return "routing.reachability";
    }


    public void evaluate(Ctx c) {
        Routing r = RoutingCheck.walked(c);
        if (r == null) return;
        Fabric f = c.fabric();
        boolean bad = false;
        if (!r.unroutedLids().isEmpty()) {
            bad = true;
            c.problem(Status.FAIL, List.of(), List.of(Evidence.of("no table of the " + (f.switches().size() - r.switchesWithoutTable().size())
                    + " switches read routes them", "")), r.unroutedLids().size() + " CA LID(s) are routed by no switch: "
                    + RoutingFacts.destinations(c, r, r.unroutedLids()), "unrouted", Map.of("lids", RoutingFacts.destinations(c, r, r.unroutedLids())));
        }
        for (Routing.DeadEnd e : r.deadEnds()) {
            bad = true;
            String sw = f.name(e.switchGuid());
            String port = e.port() > 0 ? sw + " port " + e.port() : sw;
            String dests = RoutingFacts.destinations(c, r, e.lids(), e.count());
            String what = switch (e.cause()) {
                case NO_ENTRY -> "has no entry for";
                case TO_ITSELF -> "sends to itself (port 0)";
                case PORT_DOWN -> "sends out of port " + e.port() + ", which has no active cable,";
                case WRONG_NODE -> "sends out of port " + e.port() + " to " + f.name(e.reached()) + ", not the destination,";
            };
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("switch", sw);
            v.put("port", port);
            v.put("lids", dests);
            v.put("count", e.count());
            c.problem(Status.FAIL, List.of(port), List.of(Evidence.of(sw + "'s forwarding table", e.ref())),
                    sw + "'s forwarding table " + what + " " + e.count() + " destination(s): " + dests, e.cause().name().toLowerCase(java.util.Locale.ROOT), v);
        }
        for (Routing.Loop l : r.loops()) {
            bad = true;
            List<String> ports = l.cycle().stream().map(h -> RoutingFacts.hop(f, h)).toList();
            String dests = RoutingFacts.destinations(c, r, l.lids(), l.count());
            c.problem(Status.FAIL, ports, RoutingFacts.tables(f, r, l.cycle().stream().map(Routing.Hop::switchGuid).toList()),
                    "forwarding loop for " + l.count() + " destination(s) (" + dests + "): " + RoutingFacts.cycle(f, l.cycle()), "loop",
                    Map.of("cycle", RoutingFacts.cycle(f, l.cycle()), "lids", dests));
        }
        if (!r.longPaths().isEmpty()) {
            bad = true;
            int worst = r.longPaths().stream().mapToInt(Routing.LongPath::hops).max().orElse(0);
            int lids = r.longPaths().stream().mapToInt(Routing.LongPath::count).sum();
            List<String> switches = r.longPaths().stream().map(p -> f.name(p.switchGuid())).toList();
            String list = RoutingFacts.listed(r.longPaths(), p -> f.name(p.switchGuid()) + " (" + p.count() + " LID(s), up to " + p.hops() + " switches, a "
                    + f.maxLevel() + "-level tree needs " + p.bound() + ")");
            c.problem(Status.WARN, switches, RoutingFacts.tables(f, r, r.longPaths().stream().map(Routing.LongPath::switchGuid).toList()), r.longPaths().size() + " switch(es) route " + lids + " destination(s) over more switches than a "
                    + f.maxLevel() + "-level fat tree needs (up to " + worst + "): " + list + RoutingFacts.engine(c), "long",
                    Map.of("switches", list, "levels", f.maxLevel()));
        }
        if (!r.switchesWithoutTable().isEmpty()) {
            List<String> names = r.switchesWithoutTable().stream().map(f::name).toList();
            c.problem(Status.WARN, names, List.of(), "the forwarding tables of " + names.size() + " switch(es) are not in the dump, so paths through them are not judged: "
                    + RoutingFacts.listed(names, n -> n), "no_table", Map.of("switches", RoutingFacts.listed(names, n -> n)));
            bad = true;
        }
        if (!r.tablesOfUnknownSwitches().isEmpty()) {
            List<String> names = r.tablesOfUnknownSwitches().stream().map(t -> io.ibaccept.safety.Printable.of(t.switchName()) + " (0x"
                    + Long.toHexString(t.switchGuid()) + ")").toList();
            c.problem(Status.WARN, List.of("fabric"), List.of(Evidence.of("dump_fts", r.tablesOfUnknownSwitches().get(0).ref())),
                    "dump_fts holds the tables of " + names.size() + " switch(es) the fabric scan does not have, which are not walked (collected"
                            + " at another time than ibnetdiscover, or from another subnet): " + RoutingFacts.listed(names, n -> n), "unknown_tables",
                    Map.of("switches", RoutingFacts.listed(names, n -> n)));
            bad = true;
        }
        if (!bad) c.pass("every switch reaches all " + r.destinations() + " CA LID(s): " + r.pathsWalked() + " switch-to-destination paths, at most "
                + r.maxHops() + " switch(es) on a path" + (r.unresolvedLids() > 0 ? "; " + r.unresolvedLids() + " routed LID(s) name no node and were not walked" : "")
                + RoutingFacts.engine(c), List.of(), List.of());
    }
}
