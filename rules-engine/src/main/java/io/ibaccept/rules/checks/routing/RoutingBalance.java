package io.ibaccept.rules.checks.routing;

import io.ibaccept.fabric.Fabric;
import io.ibaccept.fabric.Routing;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.checks.sm.SmFacts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The routes spread over the spines: per switch below the top of a fat tree, how many CA LIDs leave by each uplink,
 * and per switch above, by each of the parallel cables to one lower switch ("check the path distribution"). A port
 * carrying more than max_ratio times the mean of its group, or none while the others carry routes, is uneven: all
 * traffic to those destinations crowds onto it. Judged per group, reported as one finding per kind of group.
 */
public final class RoutingBalance implements RoutingCheck {
    public String id() {
        return "routing.balance";
    }


    public List<Setting> settings() {
        return List.of(Setting.number("max_ratio", "1.5", "most destinations on one port of a group over the group's mean"));
    }

    public void evaluate(Ctx c) {
        Routing r = RoutingCheck.walked(c);
        if (r == null) return;
        Fabric f = c.fabric();
        if (r.spreads().isEmpty()) {
            c.skip(f.maxLevel() >= 2 ? "no switch has two or more uplinks or parallel downlinks: nothing to spread over"
                    : "not a multi-level fat tree: the spread over uplinks is not judged");
            return;
        }
        double max = c.number("max_ratio");
        boolean bad = false;
        for (String kind : List.of("uplinks", "downlinks")) {
            List<Routing.Spread> group = r.spreads().stream().filter(s -> s.kind().equals(kind)).toList();
            List<Routing.Spread> uneven = new ArrayList<>(group.stream().filter(s -> uneven(s, max)).toList());
            if (uneven.isEmpty()) continue;
            bad = true;
            uneven.sort(Comparator.comparingDouble((Routing.Spread s) -> -s.ratio()));
            Routing.Spread worst = uneven.get(0);
            String list = RoutingFacts.listed(uneven, s -> describe(f, s));
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("kind", kind);
            v.put("switches", list);
            v.put("worst", f.name(worst.switchGuid()));
            v.put("max_ratio", max);
            v.put("engine", SmFacts.routingEngine(c).map(SmFacts.Engine::effective).orElse("the SM's routing engine"));
            Finding w = c.problem(Status.WARN, uneven.stream().map(s -> f.name(s.switchGuid())).distinct().toList(),
                    RoutingFacts.tables(f, r, uneven.stream().map(Routing.Spread::switchGuid).toList()),
                    uneven.size() + " of " + group.size() + " switch(es) spread destinations unevenly over their " + (kind.equals("uplinks") ? "uplinks" : "parallel downlinks")
                            + ": " + list + RoutingFacts.engine(c), kind, v);
            c.explainedBy(w, List.of(SmFacts.ROUTING_FALLBACK));
        }
        if (!bad) c.pass(summary(r) + RoutingFacts.engine(c), List.of(), List.of());
    }

    /** More than max times the mean (and more than one LID above it, so 2 LIDs on 4 ports are not uneven), or an idle port. */
    static boolean uneven(Routing.Spread s, double max) {
        double mean = s.mean();
        if (mean == 0) return false;
        return s.max() > max * mean && s.max() > Math.ceil(mean) + 1 || s.min() == 0 && mean >= 1;
    }

    private static String describe(Fabric f, Routing.Spread s) {
        List<String> loads = s.ports().stream().map(p -> String.valueOf(p.lids())).toList();
        String to = s.kind().equals("downlinks") ? " to " + f.name(s.peer()) : "";
        return f.name(s.switchGuid()) + to + " (" + String.join("/", loads) + " LIDs on ports "
                + String.join(",", s.ports().stream().map(p -> String.valueOf(p.port())).toList()) + String.format(Locale.ROOT, ", %.2f x the mean)", s.ratio());
    }

    /** How even it is: per kind, the range of LIDs per port and the worst ratio. */
    private static String summary(Routing r) {
        List<String> parts = new ArrayList<>();
        for (String kind : List.of("uplinks", "downlinks")) {
            List<Routing.Spread> g = r.spreads().stream().filter(s -> s.kind().equals(kind)).toList();
            if (g.isEmpty()) continue;
            int lo = g.stream().mapToInt(Routing.Spread::min).min().orElse(0), hi = g.stream().mapToInt(Routing.Spread::max).max().orElse(0);
            double worst = g.stream().mapToDouble(Routing.Spread::ratio).max().orElse(1);
            parts.add(g.size() + " switch(es)' " + (kind.equals("uplinks") ? "uplinks" : "parallel downlink groups") + " carry " + lo + "-" + hi
                    + String.format(Locale.ROOT, " destination LID(s) per port (most loaded port at most %.2f x its group's mean)", worst));
        }
        return "routes spread evenly: " + String.join("; ", parts);
    }
}
