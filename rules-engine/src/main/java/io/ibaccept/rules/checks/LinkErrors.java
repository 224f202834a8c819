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
                Setting.number("other_warn", "0", "receive/discard/integrity errors above this warn"));
    }

    private static final List<String> OTHER = List.of("PortRcvErrors", "PortRcvRemotePhysicalErrors",
            "LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors", "PortXmitDiscards");

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
        int bad = 0;
        for (PortCounters pc : recs) {
            long down = pc.get("LinkDownedCounter"), rec = pc.get("LinkErrorRecoveryCounter"), sym = pc.get("SymbolErrorCounter");
            List<String> parts = new ArrayList<>();
            List<String> what = new ArrayList<>();
            Status st = null;
            if (down > downMax) {
                parts.add("LinkDownedCounter=" + down);
                what.add("flapping (went down " + down + " times)");
                st = Status.FAIL;
            }
            if (rec > recMax) {
                parts.add("LinkErrorRecoveryCounter=" + rec);
                what.add("retraining (" + rec + " error recoveries)");
                st = Status.FAIL;
            }
            if (sym > symWarn) {
                parts.add("SymbolErrorCounter=" + sym);
                what.add("seeing symbol errors");
                if (sym > symFail) st = Status.FAIL;
                else if (st == null) st = Status.WARN;
            }
            for (String o : OTHER) {
                if (pc.get(o) > otherWarn) {
                    parts.add(o + "=" + pc.get(o));
                    if (st == null) st = Status.WARN;
                    if (what.isEmpty()) what.add("dropping or corrupting packets");
                }
            }
            if (st == null) continue;
            bad++;
            String obj = pc.nodeName() + " port " + pc.port();
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("counters", String.join(", ", parts));
            v.put("a", obj);
            v.put("what", String.join(" and ", what));
            v.put("lid", pc.lid() > 0 ? String.valueOf(pc.lid())
                    : c.index.lidOfName(pc.nodeName()).map(String::valueOf).orElse("<lid of " + pc.nodeName() + ">"));
            v.put("port", pc.port());
            c.problem(st, List.of(obj), List.of(Evidence.of(String.join(" ", parts), pc.ref())),
                    obj + ": " + String.join(", ", parts), "", v);
        }
        if (bad == 0) c.pass("no port has error counters above thresholds (" + recs.size() + " port records read)", List.of(), List.of());
    }
}
