package io.ibaccept.fabric;

import io.ibaccept.fabric.Fabric.End;
import io.ibaccept.fabric.Fabric.Link;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.Perftest;
import io.ibaccept.model.PerftestRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What changed between two dumps of the same cluster (the accepted state and today): switches and hosts that appeared
 * or vanished, cables added/removed/moved, cable rate and state, HCA firmware and OFED per host, and perftest
 * regressions. Nodes and cables are matched by GUID, so renames do not count as changes. Pure; linear in both dumps.
 * Findings new/cleared need the two reports: see io.ibaccept.analysis.AnalysisDiff.
 */
public final class DumpDiff {
    private DumpDiff() {}

    /** One change; where = file:line in the new dump (or the old one for something that vanished). */
    public record Change(String category, String object, String before, String after, String where) {}

    /** perftest bandwidth may drop / latency rise by this fraction before it counts as a regression. */
    public static final double PERF_TOLERANCE = 0.10;

    /** fabricBefore/fabricAfter: each dump's fabric graph as its analysis built it, or null when it has none. */
    public static List<Change> compare(ClusterData before, Fabric fabricBefore, ClusterData after, Fabric fabricAfter) {
        List<Change> out = new ArrayList<>();
        if (fabricBefore != null && fabricAfter != null) topology(fabricBefore, fabricAfter, out);
        else if (fabricBefore != null || fabricAfter != null)
            out.add(new Change("topology", "fabric", fabricBefore != null ? "discovered" : "no usable topology",
                    fabricAfter != null ? "discovered" : "no usable topology", ""));
        hosts(before, after, out);
        perftests(before, after, out);
        return out;
    }

    static void topology(Fabric a, Fabric b, List<Change> out) {
        for (Fabric.Node n : a.nodes().values())
            if (b.node(n.guid()) == null) out.add(new Change(kind(n) + ".removed", n.name(), "present", "absent", String.valueOf(n.ref())));
        for (Fabric.Node n : b.nodes().values()) {
            Fabric.Node old = a.node(n.guid());
            if (old == null) out.add(new Change(kind(n) + ".added", n.name(), "absent", "present", String.valueOf(n.ref())));
        }
        Map<String, Link> oldLinks = new LinkedHashMap<>();
        for (Link l : a.links()) oldLinks.put(key(l), l);
        Map<String, Link> newLinks = new LinkedHashMap<>();
        for (Link l : b.links()) newLinks.put(key(l), l);
        for (Map.Entry<String, Link> e : oldLinks.entrySet()) {
            Link o = e.getValue(), n = newLinks.get(e.getKey());
            if (n == null) {
                // the cable may have moved: same end now goes elsewhere
                String now = b.node(o.a().guid()) == null ? "" : b.linkAt(o.a()).map(x -> "now to " + b.name(x.other(o.a()))).orElse("");
                out.add(new Change("cable.removed", a.name(o), o.rate() + (o.state().isEmpty() ? "" : " " + o.state()),
                        now.isEmpty() ? "absent" : now, ref(o)));
                continue;
            }
            if (!Objects.equals(o.width(), n.width()) || !Objects.equals(o.speed(), n.speed()))
                out.add(new Change("cable.rate", b.name(n), o.rate(), n.rate(), ref(n)));
            if (!o.state().isEmpty() && !n.state().isEmpty() && !o.state().equalsIgnoreCase(n.state()))
                out.add(new Change("cable.state", b.name(n), o.state(), n.state(), ref(n)));
        }
        for (Map.Entry<String, Link> e : newLinks.entrySet())
            if (!oldLinks.containsKey(e.getKey())) out.add(new Change("cable.added", b.name(e.getValue()), "absent", e.getValue().rate(), ref(e.getValue())));
    }

    static void hosts(ClusterData before, ClusterData after, List<Change> out) {
        for (HostData n : after.hosts().values()) {
            HostData o = before.hosts().get(n.host());
            if (o == null) continue;
            if (o.ofedVersion() != null && n.ofedVersion() != null && !o.ofedVersion().equals(n.ofedVersion()))
                out.add(new Change("ofed", n.host(), o.ofedVersion(), n.ofedVersion(), "nodes/" + n.host() + "/ofed_info.out"));
            Map<String, String> of = firmware(o), nf = firmware(n);
            nf.forEach((ca, fw) -> {
                String was = of.get(ca);
                if (was != null && !was.equals(fw)) out.add(new Change("firmware", n.host() + "/" + ca, was, fw, "nodes/" + n.host() + "/ibstat.out"));
            });
        }
    }

    static void perftests(ClusterData before, ClusterData after, List<Change> out) {
        Map<String, PerftestRun> old = new TreeMap<>();
        for (PerftestRun r : before.perftests()) old.put(r.test() + " " + r.client() + "->" + r.server(), r);
        for (PerftestRun r : after.perftests()) {
            String k = r.test() + " " + r.client() + "->" + r.server();
            PerftestRun o = old.get(k);
            if (o == null || o.result() == null || r.result() == null) continue;
            Perftest.Row ro = o.result().largest(), rn = r.result().largest();
            if (ro == null || rn == null) continue;
            String where = rn.ref() == null ? r.file() : rn.ref().toString();
            if (r.result().bandwidthTest()) {
                double bo = o.result().toGbps(ro.bwAverage()), bn = r.result().toGbps(rn.bwAverage());
                if (bn < bo * (1 - PERF_TOLERANCE)) out.add(new Change("perftest.bw", k, fmt(bo) + " Gb/s", fmt(bn) + " Gb/s", where));
            } else if (!Double.isNaN(ro.tTypical()) && !Double.isNaN(rn.tTypical()) && rn.tTypical() > ro.tTypical() * (1 + PERF_TOLERANCE)) {
                out.add(new Change("perftest.lat", k, fmt(ro.tTypical()) + " us", fmt(rn.tTypical()) + " us", where));
            }
        }
    }

    private static Map<String, String> firmware(HostData h) {
        Map<String, String> m = new TreeMap<>();
        if (h.ibstat() != null) for (Ibstat.Ca ca : h.ibstat()) if (ca.firmware() != null) m.put(ca.name(), ca.firmware());
        return m;
    }

    private static String key(Link l) {
        return key(l.a()) + "|" + key(l.b());
    }

    private static String key(End e) {
        return Long.toHexString(e.guid()) + ":" + e.port();
    }

    private static String kind(Fabric.Node n) {
        return switch (n.role()) {
            case SWITCH -> "switch";
            case HOST -> "host";
            case AGGREGATION_NODE -> "aggregation-node";
            case ROUTER -> "router";
        };
    }

    private static String ref(Link l) {
        return l.refs().isEmpty() ? "" : l.refs().get(l.refs().size() - 1).toString();
    }

    private static String fmt(double d) {
        return String.format(Locale.ROOT, "%.2f", d);
    }
}
