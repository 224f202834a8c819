package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.Ibdiagnet;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Congestion control as the switches and HCAs report it to 'ibdiagnet --congestion_control' (the CC_* sections of
 * ibdiagnet2.db_csv). Each configuration section is compared column by column among the rows of one device type
 * (DeviceID from the NODES section), of one port class for per-port rows (host links apart from switch-to-switch
 * links, configured apart by design) and of one VL/SL for per-VL or per-SL rows: rows off the value most of their group
 * holds are one WARN per section, since flows through those nodes are marked or throttled differently from the rest.
 * Key columns (which node, port, VL or SL a row is about), capability columns (what the hardware can do, not how it is
 * set) and N/A (not supported) are not compared; nor is a column where no value is held by most rows and there are
 * more than two values (a per-node value, not a fabric-wide setting). The columns come from each section's own header,
 * so any ibdiagnet version's set is judged; whether the switches have CC on is a fact (CC_SWITCH_GENERAL_SETTINGS 'en').
 */
final class CcState implements Check {
    /** Rows quoted per WARN, distinct settings named in its text. */
    private static final int MAX_ROWS = 10, MAX_SETTINGS = 6;

    public String id() {
        return "cc.state";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBDIAGNET_DB));
    }

    public List<Setting> settings() {
        return List.of(
                Setting.of("sections", Setting.Type.LIST, "CC_SWITCH_GENERAL_SETTINGS,CC_PORT_PROFILE_SETTINGS,CC_SL_MAPPING_SETTINGS,"
                        + "CC_HCA_GENERAL_SETTINGS,CC_HCA_RP_PARAMETERS,CC_HCA_NP_PARAMETERS",
                        "ibdiagnet2.db_csv sections holding congestion-control configuration (counters are not compared). CC_HCA_ALGO_CONFIG and"
                        + " CC_HCA_ALGO_CONFIG_PARAMS hold one row per port and algorithm slot: add them together with their slot column in"
                        + " key_columns, once a capture shows its name, or their slots are compared with each other"),
                Setting.of("key_columns", Setting.Type.LIST, "NodeGUID,PortGUID,portNum,vl,sl",
                        "columns naming the node, port, VL or SL a row is about (case-insensitive; not compared): rows are compared per device"
                        + " type, port class (host link or switch-to-switch) and VL/SL"));
    }

    public void evaluate(Ctx c) {
        Ibdiagnet.Db db = c.data.fabric().diagDb();
        List<Ibdiagnet.Section> sections = new ArrayList<>();
        if (db != null)
            for (String name : new LinkedHashSet<>(c.list("sections"))) {
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
        DiagNodes nodes = DiagNodes.of(db);
        int bad = 0;
        List<String> facts = new ArrayList<>();
        for (Ibdiagnet.Section s : sections) {
            Deviations d = deviations(c, s, keys, nodes);
            facts.add(s.name() + " " + s.rows().size() + " row(s)");
            if (d.nodes.isEmpty()) continue;
            bad++;
            List<String> off = List.copyOf(d.nodes);
            String settings = String.join(", ", d.settings.stream().limit(MAX_SETTINGS).toList())
                    + (d.settings.size() > MAX_SETTINGS ? ", +" + (d.settings.size() - MAX_SETTINGS) + " more" : "");
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("nodes", HostConfigs.hostlist(off));
            v.put("section", s.name());
            v.put("settings", settings);
            c.problem(Status.WARN, off, d.evidence, off.size() + " node(s) " + HostConfigs.hostlist(off) + ": " + s.name()
                    + " differs from the majority of the same device type: " + settings, "", v);
        }
        switchFact(db).ifPresent(f -> facts.add(0, f));
        c.pass((bad == 0 ? "congestion control configured alike per device type: " : "note: congestion control: ") + String.join("; ", facts),
                List.of(), List.of());
    }

    private record Deviations(Set<String> nodes, Set<String> settings, List<Evidence> evidence) {}

    /** Rows compared with each other: same device type, port class and VL/SL ("vl 0 sl 3"; "" for rows without). */
    private record Group(String device, String portClass, String position) {}

    private static Deviations deviations(Ctx c, Ibdiagnet.Section s, Set<String> keys, DiagNodes nodes) {
        List<String> position = new ArrayList<>(), compared = new ArrayList<>();
        String guidCol = null, portCol = null;
        for (String col : new LinkedHashSet<>(s.header())) {
            String lc = col.toLowerCase(Locale.ROOT);
            if (!keys.contains(lc)) {
                if (!capability(lc)) compared.add(col);
            } else if (lc.equals("nodeguid")) guidCol = col;
            else if (lc.startsWith("port")) portCol = lc.equals("portguid") ? portCol : col;
            else position.add(col);
        }
        String guid = guidCol, port = portCol;
        Map<Group, List<Ibdiagnet.Row>> groups = new TreeMap<>(Comparator.comparing(Group::device).thenComparing(Group::portClass)
                .thenComparing(Group::position));
        for (Ibdiagnet.Row r : s.rows()) {
            Group g = new Group(guid == null ? "" : nodes.device(r.get(guid)), guid == null || port == null ? "" : nodes.portClass(c, r.get(guid), r.get(port)),
                    position.stream().map(p -> p + " " + r.get(p)).collect(Collectors.joining(" ")));
            groups.computeIfAbsent(g, k -> new ArrayList<>()).add(r);
        }
        Deviations d = new Deviations(new TreeSet<>(), new LinkedHashSet<>(), new ArrayList<>());
        for (Map.Entry<Group, List<Ibdiagnet.Row>> group : groups.entrySet()) {
            List<Ibdiagnet.Row> rows = group.getValue();
            String rowsOf = group.getKey().portClass().isEmpty() ? " rows" : " " + group.getKey().portClass() + " rows";
            String where = group.getKey().position().isEmpty() ? "" : " at " + group.getKey().position();
            for (String col : compared) {
                List<String> values = rows.stream().map(r -> r.get(col)).filter(v -> !notAvailable(v)).toList();
                long distinct = values.stream().distinct().count();
                if (distinct < 2) continue;
                // the value most rows hold; on a tie the numerically greater one (the one with more set)
                String reference = Majority.of(values, CcState::compareValues).orElseThrow();
                long agree = values.stream().filter(reference::equals).count();
                boolean split = agree * 2 <= values.size();
                if (split && distinct > 2) continue;
                String others = split ? "the other half " + reference : "others " + reference;
                for (Ibdiagnet.Row r : rows) {
                    String value = r.get(col);
                    if (value.equals(reference) || notAvailable(value)) continue;
                    String node = guid == null || r.get(guid).isBlank() ? "row " + r.ref().line() : nodes.name(c, r.get(guid));
                    d.nodes.add(node);
                    d.settings.add(col + " " + value + " (" + others + ")" + where);
                    if (d.evidence.size() < MAX_ROWS)
                        d.evidence.add(Evidence.of(node + (port == null ? "" : " port " + r.get(port)) + where + ": " + col + "=" + value
                                + " (" + agree + " of " + values.size() + rowsOf + ": " + reference + ")", r.ref()));
                }
            }
        }
        return d;
    }

    /** Numbers (decimal or 0x hex) by value, anything else as text. */
    private static int compareValues(String a, String b) {
        BigInteger x = number(a), y = number(b);
        return x != null && y != null ? x.compareTo(y) : a.compareTo(b);
    }

    private static BigInteger number(String v) {
        try {
            return v.startsWith("0x") || v.startsWith("0X") ? new BigInteger(v.substring(2), 16) : new BigInteger(v);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static boolean notAvailable(String value) {
        return value.isEmpty() || value.equalsIgnoreCase("N/A") || value.equalsIgnoreCase("NA");
    }

    /** What the hardware supports rather than how it is configured (e.g. cap_total_buffer_size, ver0Supported). */
    private static boolean capability(String lowerCaseColumn) {
        return lowerCaseColumn.startsWith("cap_") || lowerCaseColumn.endsWith("supported") || lowerCaseColumn.contains("capability");
    }

    private static java.util.Optional<String> switchFact(Ibdiagnet.Db db) {
        Ibdiagnet.Section sw = db.section("CC_SWITCH_GENERAL_SETTINGS");
        if (sw == null || !sw.header().contains("en") || sw.rows().isEmpty()) return java.util.Optional.empty();
        long on = sw.rows().stream().filter(r -> r.get("en").equals("1")).count();
        return java.util.Optional.of("CC " + (on == 0 ? "disabled (en=0) on all " + sw.rows().size() + " switch(es)"
                : on == sw.rows().size() ? "enabled (en=1) on all " + on + " switch(es)" : "enabled (en=1) on " + on + " of " + sw.rows().size() + " switch(es)"));
    }
}
