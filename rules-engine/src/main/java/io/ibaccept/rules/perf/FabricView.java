package io.ibaccept.rules.perf;

import io.ibaccept.model.ClusterData;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.fabric.Fabric;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The topology questions the performance rules ask, answered from the fabric graph (io.ibaccept.fabric): which leaf
 * switch a host is cabled to, which switch-to-switch links (uplinks) leave a leaf, and, where the forwarding tables
 * were collected, which switch-to-switch ports the traffic between two hosts crosses.
 */
public final class FabricView {
    /** A switch-to-switch link seen from the leaf; width/speed null when ibnetdiscover did not print them. */
    public record Uplink(String leaf, int port, String remote, int remotePort, LinkWidth width, LinkSpeed speed, String where) {
        @Override
        public String toString() {
            return leaf + " port " + port + " <-> " + remote + " port " + remotePort
                    + (width != null && speed != null ? " (" + width + " " + speed + ")" : "");
        }
    }

    private final Map<String, String> leafOfHost = new TreeMap<>();
    private final Map<String, List<Uplink>> uplinks = new HashMap<>();
    private final java.util.function.BiFunction<String, String, List<String>> route;
    private final Map<String, String> shortNames;

    public FabricView(Map<String, String> leafOfHost, Map<String, List<Uplink>> uplinks) {
        this(leafOfHost, uplinks, null);
    }

    /** route: the switch-to-switch cables from one host to another ("leaf01 port 33 <-> spine01 port 1"), null when unknown. */
    public FabricView(Map<String, String> leafOfHost, Map<String, List<Uplink>> uplinks, java.util.function.BiFunction<String, String, List<String>> route) {
        this(leafOfHost, uplinks, route, Map.of());
    }

    // shortNames: filled by route as it names cables
    private FabricView(Map<String, String> leafOfHost, Map<String, List<Uplink>> uplinks, java.util.function.BiFunction<String, String, List<String>> route,
                       Map<String, String> shortNames) {
        this.leafOfHost.putAll(leafOfHost);
        this.uplinks.putAll(uplinks);
        this.route = route;
        this.shortNames = shortNames;
    }

    /** Whether the routes between hosts are known (forwarding tables collected). */
    public boolean knowsRoutes() {
        return route != null;
    }

    /**
     * The switch-to-switch cables the traffic of a pair crosses, both ways ("leaf01 port 33 <-> spine01 port 1"); empty
     * when not known (no tables, a host without LID, a route that does not arrive).
     */
    public List<String> isls(String a, String b) {
        if (route == null) return List.of();
        java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>(route.apply(a, b));
        out.addAll(route.apply(b, a));
        return List.copyOf(out);
    }

    /** A cable of {@link #isls} with its switches' short names, for a picture; the name itself where none is known. */
    public String shortName(String isl) {
        return shortNames.getOrDefault(isl, isl);
    }

    public static FabricView empty() {
        return new FabricView(Map.of(), Map.of());
    }

    /**
     * Leaf of each host = the switch at the other end of its CA's link (CA matched by the node GUIDs ibstat prints,
     * else by the first word of the node description, "node07 HCA-1"); uplinks = a switch's switch-to-switch links.
     */
    public static FabricView of(Fabric f, ClusterData d) {
        return of(f, d, null);
    }

    /** With the routes between hosts, when the forwarding tables were walked (routing may be null). */
    public static FabricView of(Fabric f, ClusterData d, io.ibaccept.fabric.Routing routing) {
        Map<Long, String> hostByGuid = new HashMap<>();
        for (HostData h : d.hosts().values())
            if (h.ibstat() != null) for (Ibstat.Ca ca : h.ibstat()) hostByGuid.put(ca.nodeGuid(), h.host());
        Map<String, String> leafOf = new TreeMap<>();
        Map<String, Long> switchOf = new HashMap<>(), caOf = new HashMap<>();
        for (Fabric.Node ca : f.hosts()) {
            String host = hostByGuid.getOrDefault(ca.guid(), Fabric.hostPart(ca.description()));
            if (host.isEmpty()) continue;
            caOf.putIfAbsent(host, ca.guid());
            for (Fabric.Link l : f.linksOf(ca.guid())) {
                Fabric.Node sw = f.node(l.other(l.endAt(ca.guid())).guid());
                if (sw != null && sw.isSwitch()) {
                    leafOf.putIfAbsent(host, sw.name());
                    switchOf.putIfAbsent(host, sw.guid());
                }
            }
        }
        Map<String, List<Uplink>> ups = new HashMap<>();
        for (Fabric.Node sw : f.switches())
            for (Fabric.Link l : f.linksOf(sw.guid())) {
                if (!f.isSwitchToSwitch(l)) continue;
                Fabric.End mine = l.endAt(sw.guid()), other = l.other(mine);
                ups.computeIfAbsent(sw.name(), k -> new ArrayList<>()).add(new Uplink(sw.name(), mine.port(), f.name(other.guid()),
                        other.port(), l.width(), l.speed(), l.refs().isEmpty() ? "" : l.refs().get(0).toString()));
            }
        if (routing == null || !routing.judged()) return new FabricView(leafOf, ups);
        Map<String, List<String>> cache = new java.util.concurrent.ConcurrentHashMap<>();
        Map<String, String> shortNames = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.function.BiFunction<String, String, List<String>> route = (a, b) -> cache.computeIfAbsent(a + " " + b, k -> {
            // the destination's LID as the forwarding tables know it: its CA's first routed LID
            Long from = switchOf.get(a), to = caOf.get(b);
            int lid = to == null ? 0 : routing.lidOfNode(to);
            if (from == null || lid == 0) return List.of();
            List<String> isl = new ArrayList<>();
            for (io.ibaccept.fabric.Routing.Hop h : routing.path(from, lid)) {
                Fabric.End e = new Fabric.End(h.switchGuid(), h.port());
                // by cable: a pair's traffic crosses it one way, its replies the other
                f.linkAt(e).filter(f::isSwitchToSwitch).ifPresent(l -> {
                    isl.add(f.name(l));
                    shortNames.putIfAbsent(f.name(l), f.shortName(l));
                });
            }
            return isl;
        });
        return new FabricView(leafOf, ups, route, shortNames);
    }

    public Optional<String> leafOf(String host) {
        return Optional.ofNullable(leafOfHost.get(host));
    }

    public boolean knowsLeaves() {
        return !leafOfHost.isEmpty();
    }

    /** Switch-to-switch links of a leaf, in port order. */
    public List<Uplink> uplinks(String leaf) {
        List<Uplink> l = new ArrayList<>(uplinks.getOrDefault(leaf, List.of()));
        l.sort(java.util.Comparator.comparingInt(Uplink::port));
        return l;
    }

    /** Hosts grouped by leaf (leaf name order), hosts not in the topology under "" last. */
    public Map<String, List<String>> groupByLeaf(List<String> hosts) {
        Map<String, List<String>> g = new TreeMap<>();
        List<String> unknown = new ArrayList<>();
        for (String h : hosts) {
            String l = leafOfHost.get(h);
            if (l == null) unknown.add(h);
            else g.computeIfAbsent(l, k -> new ArrayList<>()).add(h);
        }
        g.values().forEach(java.util.Collections::sort);
        java.util.Collections.sort(unknown);
        Map<String, List<String>> out = new java.util.LinkedHashMap<>(g);
        if (!unknown.isEmpty()) out.put("", unknown);
        return out;
    }
}
