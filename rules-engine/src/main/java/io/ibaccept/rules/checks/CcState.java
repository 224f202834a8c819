package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.fabric.Fabric;
import io.ibaccept.model.Ibdiagnet;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Congestion control as the switches and HCAs report it to 'ibdiagnet --congestion_control' (the CC_* sections of
 * ibdiagnet2.db_csv). Each configuration section is compared column by column among the nodes of one device type
 * (DeviceID from the NODES section), of the same port class for per-port rows (host-facing and switch-to-switch
 * ports from the fabric graph, configured apart by design) and of the same VL/SL for per-VL or per-SL rows: nodes that
 * differ from the majority are one WARN per section, since flows through them are marked or throttled differently from the rest.
 * Key columns (which node, port, VL or SL a row is about) and capability columns (what the hardware can do, not how it
 * is set) are not compared. The columns are taken from each section's own header, so any ibdiagnet version's set is
 * judged; whether the switches have CC on is reported as a fact (CC_SWITCH_GENERAL_SETTINGS 'en').
 */
final class CcState implements Check {
    public String id() {
        return "cc.state";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBDIAGNET_DB));
    }

    public List<Setting> settings() {
        return List.of(
                Setting.of("sections", Setting.Type.LIST, "CC_SWITCH_GENERAL_SETTINGS,CC_PORT_PROFILE_SETTINGS,CC_SL_MAPPING_SETTINGS,"
                        + "CC_HCA_GENERAL_SETTINGS,CC_HCA_RP_PARAMETERS,CC_HCA_NP_PARAMETERS,CC_HCA_ALGO_CONFIG,CC_HCA_ALGO_CONFIG_PARAMS",
                        "ibdiagnet2.db_csv sections holding congestion-control configuration (not counters)"),
                Setting.of("key_columns", Setting.Type.LIST, "NodeGUID,PortGUID,portNum,vl,sl",
                        "columns naming the node, port, VL or SL a row is about (case-insensitive); not compared"));
    }

    public void evaluate(Ctx c) {
        Ibdiagnet.Db db = c.data.fabric().diagDb();
        List<Ibdiagnet.Section> sections = new ArrayList<>();
        if (db != null)
            for (String name : c.list("sections")) {
                Ibdiagnet.Section s = db.section(name);
                if (s != null && !s.rows().isEmpty()) sections.add(s);
            }
        if (sections.isEmpty()) {
            c.skip("ibdiagnet2.db_csv has no congestion-control sections: ibdiagnet ran without --congestion_control "
                    + "(ibdiagnet 2.8 or later; 'ibaccept collect --ibdiagnet' adds it where the installed ibdiagnet has it)");
            return;
        }
        Set<String> keys = new LinkedHashSet<>();
        for (String k : c.list("key_columns")) keys.add(k.toLowerCase(Locale.ROOT));
        Map<String, String> deviceOf = deviceIds(db);
        int bad = 0;
        List<String> facts = new ArrayList<>();
        for (Ibdiagnet.Section s : sections) {
            Deviations d = deviations(c, s, keys, deviceOf);
            facts.add(s.name() + " " + s.rows().size() + " row(s)");
            if (d.nodes.isEmpty()) continue;
            bad++;
            List<String> nodes = List.copyOf(d.nodes);
            List<String> settings = List.copyOf(d.settings);
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("nodes", HostConfigs.hostlist(nodes));
            v.put("section", s.name());
            v.put("settings", String.join(", ", settings));
            c.problem(Status.WARN, nodes, HostConfigs.limit(d.evidence), nodes.size() + " node(s) " + HostConfigs.hostlist(nodes) + ": "
                    + s.name() + " differs from the majority of the same device type: " + String.join(", ", settings.stream().limit(6).toList())
                    + (settings.size() > 6 ? ", +" + (settings.size() - 6) + " more" : ""), "", v);
        }
        switchFact(c, db).ifPresent(f -> facts.add(0, f));
        c.pass((bad == 0 ? "congestion control configured alike per device type: " : "note: congestion control: ") + String.join("; ", facts),
                List.of(), List.of());
    }

    private record Deviations(Set<String> nodes, Set<String> settings, List<Evidence> evidence) {}

    /**
     * Rows grouped by device type and position (VL, SL); in each group and compared column, the rows off the majority
     * value. Settings are described as "column value (others majority)", with the position where there is one.
     */
    private static Deviations deviations(Ctx c, Ibdiagnet.Section s, Set<String> keys, Map<String, String> deviceOf) {
        List<String> position = new ArrayList<>(), compared = new ArrayList<>();
        String guidCol = null, portCol = null;
        for (String col : s.header()) {
            String lc = col.toLowerCase(Locale.ROOT);
            if (!keys.contains(lc)) {
                if (!capability(lc)) compared.add(col);
            } else if (lc.equals("nodeguid")) guidCol = col;
            else if (lc.startsWith("port")) portCol = lc.equals("portguid") ? portCol : col;
            else position.add(col);
        }
        // per-port rows: host-facing ports and switch-to-switch ports are configured apart by design
        Map<String, String> classOf = new LinkedHashMap<>();
        Map<String, List<Ibdiagnet.Row>> groups = new TreeMap<>();
        for (Ibdiagnet.Row r : s.rows()) {
            String cls = guidCol == null || portCol == null ? "" : portClass(c, r.get(guidCol), r.get(portCol));
            StringBuilder g = new StringBuilder(guidCol == null ? "" : deviceOf.getOrDefault(norm(r.get(guidCol)), ""));
            g.append('|').append(cls);
            for (String p : position) g.append('|').append(p).append(' ').append(r.get(p));
            groups.computeIfAbsent(g.toString(), k -> new ArrayList<>()).add(r);
            classOf.put(g.toString(), cls);
        }
        Deviations d = new Deviations(new java.util.TreeSet<>(), new LinkedHashSet<>(), new ArrayList<>());
        for (Map.Entry<String, List<Ibdiagnet.Row>> group : groups.entrySet()) {
            List<Ibdiagnet.Row> rows = group.getValue();
            String rowsOf = classOf.get(group.getKey()).isEmpty() ? " rows" : " " + classOf.get(group.getKey()) + " rows";
            for (String col : compared) {
                // N/A: the node does not support the attribute, which is not a setting to compare
                List<String> values = rows.stream().map(r -> r.get(col)).filter(v -> !notAvailable(v)).toList();
                if (values.size() < 2) continue;
                // on a tie the greater value is taken as the fabric's, so the nodes reported are the ones with less set
                String majority = Majority.of(values, Comparator.naturalOrder()).orElseThrow();
                long agree = values.stream().filter(majority::equals).count();
                if (agree == values.size()) continue;
                for (Ibdiagnet.Row r : rows) {
                    String value = r.get(col);
                    if (value.equals(majority) || notAvailable(value)) continue;
                    String where = position.stream().map(p -> p + " " + r.get(p)).reduce((a, b) -> a + " " + b).map(p -> " at " + p).orElse("");
                    String node = guidCol == null ? "row " + r.ref().line() : nodeName(c, r.get(guidCol));
                    d.nodes.add(node);
                    d.settings.add(col + " " + value + " (others " + majority + ")" + where);
                    d.evidence.add(Evidence.of(node + (portCol == null ? "" : " port " + r.get(portCol)) + where + ": " + col + "=" + value
                            + " (" + agree + " of " + values.size() + rowsOf + ": " + majority + ")", r.ref()));
                }
            }
        }
        return d;
    }

    private static boolean notAvailable(String value) {
        return value.isEmpty() || value.equalsIgnoreCase("N/A") || value.equalsIgnoreCase("NA");
    }

    /** "switch-to-switch" or "host link" from the fabric graph, "unlinked" for a port without a link in it. */
    private static String portClass(Ctx c, String guid, String port) {
        try {
            Fabric.End end = new Fabric.End(Long.parseUnsignedLong(norm(guid), 16), Integer.parseInt(port.trim()));
            return c.fabric().linkAt(end).map(l -> c.fabric().isSwitchToSwitch(l) ? "switch-to-switch" : "host link").orElse("unlinked");
        } catch (RuntimeException e) {
            return "";
        }
    }

    /** What the hardware supports rather than how it is configured (e.g. cap_total_buffer_size, ver0Supported). */
    private static boolean capability(String lowerCaseColumn) {
        return lowerCaseColumn.startsWith("cap_") || lowerCaseColumn.endsWith("supported") || lowerCaseColumn.contains("capability");
    }

    private static java.util.Optional<String> switchFact(Ctx c, Ibdiagnet.Db db) {
        Ibdiagnet.Section sw = db.section("CC_SWITCH_GENERAL_SETTINGS");
        if (sw == null || !sw.header().contains("en") || sw.rows().isEmpty()) return java.util.Optional.empty();
        long on = sw.rows().stream().filter(r -> r.get("en").equals("1")).count();
        return java.util.Optional.of("CC " + (on == 0 ? "disabled (en=0) on all " + sw.rows().size() + " switch(es)"
                : on == sw.rows().size() ? "enabled (en=1) on all " + on + " switch(es)" : "enabled (en=1) on " + on + " of " + sw.rows().size() + " switch(es)"));
    }

    private static Map<String, String> deviceIds(Ibdiagnet.Db db) {
        Map<String, String> m = new LinkedHashMap<>();
        Ibdiagnet.Section nodes = db.section("NODES");
        if (nodes == null || !nodes.header().contains("DeviceID")) return m;
        for (Ibdiagnet.Row r : nodes.rows()) m.put(norm(r.get("NodeGUID")), r.get("DeviceID"));
        return m;
    }

    private static String norm(String guid) {
        return guid.toLowerCase(Locale.ROOT).replaceFirst("^0x", "");
    }

    /** The fabric's name of a node given by a db_csv NodeGUID ("0x..."), the GUID itself where it is not a GUID. */
    static String nodeName(Ctx c, String guid) {
        try {
            return c.fabric().name(Long.parseUnsignedLong(norm(guid), 16));
        } catch (RuntimeException e) {
            return guid;
        }
    }
}
