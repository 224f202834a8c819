package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.PortCounters;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.FabricIndex;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Error counters per port (ibqueryerrors, perfquery, ibdiagnet2 PM_INFO) against thresholds. */
final class LinkErrors implements Check {
    public String id() {
        return "link.errors";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBQUERYERRORS, Cmd.PERFQUERY, Cmd.IBDIAGNET_DB));
    }

    public List<Setting> settings() {
        return List.of(Setting.number("link_downed_max", "0", "LinkDownedCounter above this fails"),
                Setting.number("link_recovery_max", "0", "LinkErrorRecoveryCounter above this fails"),
                Setting.number("symbol_warn", "10", "SymbolErrorCounter above this warns"),
                Setting.number("symbol_fail", "100", "SymbolErrorCounter above this fails"),
                Setting.number("other_warn", "0", "receive/discard/integrity/constraint errors above this warn"),
                Setting.number("xmit_wait_warn", "1000000", "PortXmitWait (ticks waiting to send) above this warns of congestion"));
    }

    /** Further counters that point at the cable (link-level integrity); the rest are judged by what they mean. */
    private static final List<String> CABLE_OTHER = List.of("PortRcvErrors", "LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors");

    /** ibdiagnet2.db_csv column -> the perfquery counter name the thresholds use. */
    static final Map<String, String> PM_COLUMNS = Map.of(
            "port_symbol_error_counter", "SymbolErrorCounter",
            "port_link_downed_counter", "LinkDownedCounter",
            "port_link_error_recovery_counter", "LinkErrorRecoveryCounter",
            "port_rcv_errors", "PortRcvErrors",
            "port_rcv_remote_physical_errors", "PortRcvRemotePhysicalErrors",
            "port_xmit_discard", "PortXmitDiscards",
            "local_link_integrity_errors", "LocalLinkIntegrityErrors",
            "excessive_buffer_overrun_errors", "ExcessiveBufferOverrunErrors");

    /** PM_INFO rows of ibdiagnet2.db_csv for ports not already reported by ibqueryerrors/perfquery. */
    static List<PortCounters> fromIbdiagnet(Ctx c, Map<String, Boolean> seen) {
        List<PortCounters> out = new ArrayList<>();
        io.ibaccept.model.Ibdiagnet.Db db = c.data.fabric().diagDb();
        if (db == null || db.section("PM_INFO") == null) return out;
        Map<String, String> names = new java.util.HashMap<>();
        if (db.section("NODES") != null)
            for (var row : db.section("NODES").rows()) names.put(row.get("NodeGUID").toLowerCase(java.util.Locale.ROOT), row.get("NodeDesc"));
        for (var row : db.section("PM_INFO").rows()) {
            String guid = row.get("NodeGUID").toLowerCase(java.util.Locale.ROOT);
            String name = names.getOrDefault(guid, guid);
            int port;
            try {
                port = Integer.parseInt(row.get("PortNumber").trim());
            } catch (NumberFormatException e) {
                continue;
            }
            if (seen.containsKey(name + ":" + port)) continue;
            Map<String, Long> counters = new LinkedHashMap<>();
            PM_COLUMNS.forEach((col, counter) -> {
                String v = row.get(col).trim();
                if (v.matches("\\d+")) counters.put(counter, Long.parseLong(v));
            });
            seen.put(name + ":" + port, true);
            out.add(new PortCounters(0, name, -1, port, counters, row.ref()));
        }
        return out;
    }

    public void evaluate(Ctx c) {
        if (io.ibaccept.rules.counters.ErrorsWindowCheck.judgesWindow(c.data)) {
            c.pass("the dump has a counter window: errors are judged on what changed during it (link.errors.window), not on the cumulative snapshot", List.of(), List.of());
            return;
        }
        List<PortCounters> recs = new ArrayList<>();
        Map<String, Boolean> seen = new LinkedHashMap<>();
        if (c.data.fabric().errorCounters() != null)
            for (PortCounters pc : c.data.fabric().errorCounters()) {
                seen.put(pc.nodeName() + ":" + pc.port(), true);
                recs.add(pc);
            }
        if (c.data.fabric().perfCounters() != null)
            for (PortCounters pc : c.data.fabric().perfCounters()) {
                String name = c.index.nameOfLid(pc.lid()).orElse("lid " + pc.lid());
                if (seen.containsKey(name + ":" + pc.port())) continue;
                recs.add(new PortCounters(pc.nodeGuid(), name, pc.lid(), pc.port(), pc.counters(), pc.ref()));
            }
        recs.addAll(fromIbdiagnet(c, seen));
        double downMax = c.number("link_downed_max"), recMax = c.number("link_recovery_max");
        double symWarn = c.number("symbol_warn"), symFail = c.number("symbol_fail"), otherWarn = c.number("other_warn");
        double waitWarn = c.number("xmit_wait_warn");
        // physical-layer counters point at the cable: one finding per cable, both ends named
        Map<Object, CableFault> cables = new LinkedHashMap<>();
        int bad = 0;
        for (PortCounters pc : recs) {
            long down = pc.get("LinkDownedCounter"), rec = pc.get("LinkErrorRecoveryCounter"), sym = pc.get("SymbolErrorCounter");
            String obj = pc.nodeName() + " port " + pc.port();
            Optional<FabricIndex.Link> link = c.index.linkAt(pc.nodeGuid(), pc.lid(), pc.nodeName(), pc.port());
            CableFault cf = new CableFault(link.orElse(null), obj);
            if (down > downMax) cf.add(Status.FAIL, "LinkDownedCounter=" + down, "flapping (went down " + down + " times)");
            if (rec > recMax) cf.add(Status.FAIL, "LinkErrorRecoveryCounter=" + rec, "retraining (" + rec + " error recoveries)");
            if (sym > symWarn) cf.add(sym > symFail ? Status.FAIL : Status.WARN, "SymbolErrorCounter=" + sym, "seeing symbol errors");
            for (String o : CABLE_OTHER)
                if (pc.get(o) > otherWarn) cf.add(Status.WARN, o + "=" + pc.get(o), "dropping or corrupting packets");
            if (cf.status != null) {
                cf.ev.add(Evidence.of(obj + ": " + String.join(" ", cf.parts), pc.ref()));
                cf.ends.add(obj);
                cf.lid = pc.lid() > 0 ? String.valueOf(pc.lid()) : c.index.lidOfName(pc.nodeName()).map(String::valueOf).orElse("<lid>");
                cf.port = pc.port();
                cf.clear.add("'perfquery -R " + cf.lid + " " + pc.port() + "'");
                Object key = link.isPresent() ? link.get() : obj;
                cables.merge(key, cf, CableFault::merge);
            }
            // the other counters say something about traffic, not about this port's cable
            bad += other(c, pc, obj, link, "congestion", Map.of("PortXmitDiscards", otherWarn, "PortXmitWait", waitWarn));
            bad += other(c, pc, obj, link, "upstream", Map.of("PortRcvRemotePhysicalErrors", otherWarn));
            bad += other(c, pc, obj, link, "constraint", Map.of("PortXmitConstraintErrors", otherWarn, "PortRcvConstraintErrors", otherWarn));
            bad += other(c, pc, obj, link, "relay", Map.of("PortRcvSwitchRelayErrors", otherWarn));
        }
        for (CableFault cf : cables.values()) {
            bad++;
            String a = cf.link != null ? FabricIndex.Link.end(cf.link.a()) : cf.ends.get(0);
            String b = cf.link == null ? "" : cf.link.b() != null ? FabricIndex.Link.end(cf.link.b()) : "\"" + cf.link.a().remoteName() + "\" port " + cf.link.a().remotePort();
            List<String> objs = new ArrayList<>(cf.ends);
            for (String e : new String[] {a, b}) if (!e.isEmpty() && !objs.contains(e) && !e.startsWith("\"")) objs.add(e);
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("counters", String.join(", ", cf.parts));
            v.put("a", cf.ends.get(0));
            v.put("ends", b.isEmpty() ? a : a + " <-> " + b);
            v.put("what", String.join(" and ", cf.what));
            v.put("lid", cf.lid);
            v.put("port", cf.port);
            v.put("clear", String.join(" and ", cf.clear));
            String where = cf.ends.size() > 1 ? String.join("; ", cf.evTexts()) : cf.ends.get(0) + ": " + String.join(", ", cf.parts);
            c.problem(cf.status, objs, cf.ev, where + (b.isEmpty() ? "" : " (cable " + a + " <-> " + b + ")"), "", v);
        }
        if (bad == 0) c.pass("no port has error counters above thresholds (" + recs.size() + " port records read)", List.of(), List.of());
    }

    /** Counters of one class over the threshold on one port: one finding with that class's cause. */
    private static int other(Ctx c, PortCounters pc, String obj, Optional<FabricIndex.Link> link, String variant, Map<String, Double> max) {
        List<String> parts = new ArrayList<>();
        for (String k : new java.util.TreeMap<>(max).keySet()) if (pc.get(k) > max.get(k)) parts.add(k + "=" + pc.get(k));
        if (parts.isEmpty()) return 0;
        String peer = link.map(l -> l.a() != null && (FabricIndex.Link.end(l.a())).equals(obj)
                ? (l.b() != null ? FabricIndex.Link.end(l.b()) : l.a().remoteName()) : FabricIndex.Link.end(l.a())).orElse("its peer");
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("counters", String.join(", ", parts));
        v.put("a", obj);
        v.put("peer", peer);
        v.put("lid", pc.lid() > 0 ? String.valueOf(pc.lid()) : c.index.lidOfName(pc.nodeName()).map(String::valueOf).orElse("<lid>"));
        v.put("port", pc.port());
        c.problem(Status.WARN, List.of(obj), List.of(Evidence.of(String.join(" ", parts), pc.ref())), obj + ": " + String.join(", ", parts),
                variant, v);
        return 1;
    }

    /** Physical-layer errors of one cable, from one or both ends. */
    private static final class CableFault {
        final FabricIndex.Link link;
        final List<String> ends = new ArrayList<>();
        final List<String> parts = new ArrayList<>();
        final List<String> what = new ArrayList<>();
        final List<Evidence> ev = new ArrayList<>();
        final List<String> clear = new ArrayList<>();
        Status status;
        String lid;
        int port;

        CableFault(FabricIndex.Link link, String end) {
            this.link = link;
        }

        void add(Status st, String part, String w) {
            parts.add(part);
            if (!what.contains(w)) what.add(w);
            if (status == null || st.worseThan(status)) status = st;
        }

        List<String> evTexts() {
            return ev.stream().map(Evidence::text).toList();
        }

        CableFault merge(CableFault o) {
            ends.addAll(o.ends);
            parts.addAll(o.parts);
            for (String w : o.what) if (!what.contains(w)) what.add(w);
            ev.addAll(o.ev);
            clear.addAll(o.clear);
            if (o.status.worseThan(status)) status = o.status;
            return this;
        }
    }
}
