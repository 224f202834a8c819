package io.ibaccept.fabric;

import io.ibaccept.dump.Cmd;
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
 * or vanished (a host still collected but out of the fabric is down, not removed), cables added/removed/moved, cable
 * rate and state, per host OFED, HCA firmware, PCIe link and cable serial, and perftest regressions. Nodes and cables are matched by GUID, so renames do not count as changes. Pure; linear in both dumps.
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
        if (fabricBefore != null && fabricAfter != null) topology(fabricBefore, fabricAfter, after, out);
        else if (fabricBefore != null || fabricAfter != null)
            out.add(new Change("topology", "fabric", fabricBefore != null ? "discovered" : "no usable topology",
                    fabricAfter != null ? "discovered" : "no usable topology", ""));
        hosts(before, after, out);
        perftests(before, after, out);
        return out;
    }

    /**
     * How many node GUIDs two fabrics share. None while both have nodes: the two dumps are of different clusters (or the
     * whole fabric was replaced), and every change listed is meaningless as "since handover".
     */
    public static int sharedGuids(Fabric a, Fabric b) {
        if (a == null || b == null) return -1;
        int n = 0;
        for (Long g : a.nodes().keySet()) if (b.node(g) != null) n++;
        return n;
    }

    static void topology(Fabric a, Fabric b, ClusterData after, List<Change> out) {
        // a host CA missing from the later fabric whose host was still collected (its ibstat names the CA) is down, not removed
        Map<Long, HostData> collected = new java.util.HashMap<>();
        for (HostData h : after.hosts().values()) for (Ibstat.Ca ca : h.cas()) collected.put(ca.nodeGuid(), h);
        for (Fabric.Node n : a.nodes().values()) {
            if (b.node(n.guid()) != null) continue;
            HostData h = n.isHost() ? collected.get(n.guid()) : null;
            if (h != null) out.add(new Change("host.down", n.name(), "in the fabric", "collected, but its HCA is not in the fabric: " + portState(h, n.guid()),
                    Cmd.IBSTAT.path(h.host())));
            else out.add(new Change(kind(n) + ".removed", n.name(), "present", "absent", String.valueOf(n.ref())));
        }
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

    private static String portState(HostData h, long nodeGuid) {
        for (Ibstat.Ca ca : h.cas())
            if (ca.nodeGuid() == nodeGuid)
                for (Ibstat.Port p : ca.ports()) return "port " + p.number() + " " + p.state() + (p.physicalState() == null ? "" : " (" + p.physicalState() + ")");
        return "port state unknown";
    }

    /** Per host: OFED, HCA firmware, and the hardware the HCA sits in or on: PCIe link, cable serial number and part. */
    static void hosts(ClusterData before, ClusterData after, List<Change> out) {
        for (HostData n : after.hosts().values()) {
            HostData o = before.hosts().get(n.host());
            if (o == null) continue;
            if (o.mlxlinkPcie() != null && n.mlxlinkPcie() != null) {
                String was = pcie(o.mlxlinkPcie()), now = pcie(n.mlxlinkPcie());
                if (was != null && now != null && !was.equals(now))
                    out.add(new Change("pcie", n.host(), was, now, where(n.mlxlinkPcie(), "Link Speed Active (Enabled)", Cmd.MLXLINK_PCIE.path(n.host()))));
            }
            if (o.mlxlink() != null && n.mlxlink() != null) {
                String was = cable(o.mlxlink()), now = cable(n.mlxlink());
                if (was != null && now != null && !was.equals(now))
                    out.add(new Change("cable.serial", n.host(), was, now, where(n.mlxlink(), "Vendor Serial Number", Cmd.MLXLINK.path(n.host()))));
            }
            if (o.ofedVersion() != null && n.ofedVersion() != null && !o.ofedVersion().equals(n.ofedVersion()))
                out.add(new Change("ofed", n.host(), o.ofedVersion(), n.ofedVersion(), Cmd.OFED_INFO.path(n.host())));
            Map<String, String> of = firmware(o), nf = firmware(n);
            nf.forEach((ca, fw) -> {
                String was = of.get(ca);
                if (was != null && !was.equals(fw)) out.add(new Change("firmware", n.host() + "/" + ca, was, fw, Cmd.IBSTAT.path(n.host())));
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

    /** "Gen4 x16", or null when mlxlink printed no active PCIe link. */
    private static String pcie(io.ibaccept.model.Mlxlink m) {
        return m.pcieGenActive() == null ? null : "Gen" + m.pcieGenActive() + (m.pcieWidthActive() == null ? "" : " x" + m.pcieWidthActive());
    }

    /** "serial MT2130... (MCP1650-H002E26)", or null without a serial number. */
    private static String cable(io.ibaccept.model.Mlxlink m) {
        String serial = m.cableSerial();
        return serial == null || serial.isBlank() || serial.equalsIgnoreCase("N/A") ? null
                : "serial " + serial + (m.cablePartNumber() == null ? "" : " (" + m.cablePartNumber() + ")");
    }

    private static String where(io.ibaccept.model.Mlxlink m, String label, String file) {
        return m.ref(label) == null ? file : m.ref(label).toString();
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
            case APPLIANCE -> "appliance";
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
