package io.ibaccept.parse;

import io.ibaccept.model.Ibdiagnet;
import io.ibaccept.model.PortCounters;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Parses ibdiagnet2.log (-E-/-W- lines), ibdiagnet2.db_csv (START_X ... END_X CSV sections, with PM_INFO and PM_DELTA
 * read into port counters), ibdiagnet2.pm (per-port "Port=N Lid=.. GUID=.." blocks of "name=0x.." counters),
 * ibdiagnet2.sm (the SMs found, by state) and ibdiagnet2.pkey (the partitions and their member ports).
 */
public final class IbdiagnetParser {
    private IbdiagnetParser() {}

    public static Ibdiagnet.Log log(Text t) {
        return log(t, Issues.strict());
    }

    public static Ibdiagnet.Log log(Text t, Issues issues) {
        List<Ibdiagnet.Message> msgs = new ArrayList<>();
        String version = "";
        List<String> lines = t.lines();
        boolean sawIbdiag = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!sawIbdiag && line.toLowerCase(Locale.ROOT).contains("ibdiag")) sawIbdiag = true;
            if (version.isEmpty()) version = version(line);
            String s = line.trim();
            Ibdiagnet.Level level = s.startsWith("-E-") ? Ibdiagnet.Level.ERROR : s.startsWith("-W-") ? Ibdiagnet.Level.WARNING : null;
            if (level == null) continue;
            // detail lines (indented, e.g. "symbol_error_counter : 1234 (threshold=1)") belong to the message
            int first = i + 1;
            StringBuilder text = new StringBuilder(s.substring(3).trim());
            while (i + 1 < lines.size() && !lines.get(i + 1).isBlank() && Character.isWhitespace(lines.get(i + 1).charAt(0))) {
                text.append("; ").append(String.join(" ", Fields.split(lines.get(i + 1))));
                i++;
            }
            msgs.add(new Ibdiagnet.Message(level, text.toString(), t.at(first)));
        }
        if (!sawIbdiag && msgs.isEmpty()) throw t.error(0, "not an ibdiagnet log (no ibdiagnet banner, no -E-/-W- lines)");
        return new Ibdiagnet.Log(version, msgs);
    }

    /** "ibdiagnet v2.11.0", "ibdiagnet2 version 2.1", '"IBDIAGNET 2.10.0.MLNX20220720.cd746c3"' -> the version. */
    static String version(String line) {
        String lower = line.toLowerCase(Locale.ROOT);
        int k = lower.indexOf("ibdiagnet");
        if (k < 0 || lower.length() != line.length()) return "";
        int i = k + 9;
        while (i < line.length() && !Character.isWhitespace(line.charAt(i))) i++;
        while (i < line.length() && Character.isWhitespace(line.charAt(i))) i++;
        if (lower.startsWith("version", i)) {
            i += 7;
            while (i < line.length() && (Character.isWhitespace(line.charAt(i)) || line.charAt(i) == ':')) i++;
        }
        if (i < line.length() && lower.charAt(i) == 'v') i++;
        int st = i;
        while (i < line.length() && (Character.isLetterOrDigit(line.charAt(i)) || line.charAt(i) == '.'
                || line.charAt(i) == '-' || line.charAt(i) == '_')) i++;
        String v = line.substring(st, i);
        int dot = v.indexOf('.');
        if (dot <= 0 || !Nums.isDigits(v.substring(0, dot)) || dot + 1 >= v.length() || !Character.isDigit(v.charAt(dot + 1)))
            return "";
        return v;
    }

    public static Ibdiagnet.Db db(Text t) {
        return db(t, Issues.strict());
    }

    public static Ibdiagnet.Db db(Text t, Issues issues) {
        Map<String, Ibdiagnet.Section> sections = new LinkedHashMap<>();
        List<String> lines = t.lines();
        int i = 0;
        while (i < lines.size()) {
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) {
                i++;
                continue;
            }
            if (!line.startsWith("START_")) {
                issues.add(t, i + 1, "expected START_<SECTION>, found '" + Text.excerpt(line) + "'");
                i++;
                continue;
            }
            String name = Text.excerpt(line.substring(6));
            int startLine = i + 1;
            int j = i + 1;
            String end = "END_" + line.substring(6);
            while (j < lines.size() && !lines.get(j).trim().equals(end) && !lines.get(j).trim().startsWith("START_")) j++;
            if (j >= lines.size() || !lines.get(j).trim().equals(end))
                issues.add(t, startLine, "section " + name + " has no END_" + name + " (truncated file?)");
            sections.put(name, section(t, issues, name, lines, i + 1, j));
            i = j < lines.size() && lines.get(j).trim().equals(end) ? j + 1 : j;
        }
        if (sections.isEmpty()) throw t.error(0, "no START_/END_ sections found");
        Map<String, String> names = new HashMap<>();
        Ibdiagnet.Section nodes = sections.get("NODES");
        if (nodes != null) for (Ibdiagnet.Row r : nodes.rows()) names.put(r.get("NodeGUID").toLowerCase(Locale.ROOT), r.get("NodeDesc"));
        Map<String, String> lids = new HashMap<>();
        Ibdiagnet.Section ports = sections.get("PORTS");
        if (ports != null)
            for (Ibdiagnet.Row r : ports.rows()) lids.put(r.get("NodeGuid").toLowerCase(Locale.ROOT) + ":" + r.get("PortNum"), r.get("LID"));
        return new Ibdiagnet.Db(sections, counters(t, issues, sections.get("PM_INFO"), names, lids),
                counters(t, issues, sections.get("PM_DELTA"), names, lids));
    }

    private static Ibdiagnet.Section section(Text t, Issues issues, String name, List<String> lines, int from, int to) {
        List<String> header = null;
        List<Ibdiagnet.Row> rows = new ArrayList<>();
        CSVFormat fmt = CSVFormat.DEFAULT.builder().setIgnoreSurroundingSpaces(true).get();
        for (int k = from; k < to; k++) {
            String line = lines.get(k);
            if (line.isBlank()) continue;
            int ln = k + 1;
            List<String> rec;
            if (line.indexOf('"') < 0) {
                rec = splitComma(line);
            } else try (CSVParser p = CSVParser.parse(new StringReader(line), fmt)) {
                List<CSVRecord> recs = p.getRecords();
                if (recs.size() != 1) {
                    issues.add(t, ln, "malformed CSV row in section " + name);
                    continue;
                }
                rec = recs.get(0).toList();
            } catch (IOException | java.io.UncheckedIOException | IllegalStateException e) {
                issues.add(t, ln, "malformed CSV row in section " + name + " (unbalanced quotes?)");
                continue;
            }
            if (header == null) {
                header = new ArrayList<>(rec.size());
                for (String h : rec) header.add(h.trim());
                continue;
            }
            if (rec.size() != header.size()) {
                issues.add(t, ln, name + " row has " + rec.size() + " fields, header has " + header.size());
                continue;
            }
            Map<String, String> values = new LinkedHashMap<>();
            for (int c = 0; c < header.size(); c++) values.put(header.get(c), rec.get(c));
            rows.add(new Ibdiagnet.Row(values, t.at(ln)));
        }
        return new Ibdiagnet.Section(name, header == null ? List.of() : header, rows);
    }

    /** A CSV line without quotes: plain comma split, fields trimmed. */
    private static List<String> splitComma(String line) {
        List<String> out = new ArrayList<>();
        int st = 0;
        for (int i = 0; i <= line.length(); i++) {
            if (i == line.length() || line.charAt(i) == ',') {
                out.add(line.substring(st, i).trim());
                st = i + 1;
            }
        }
        return out;
    }

    /** PM_INFO / PM_DELTA rows -> one PortCounters per (NodeGUID, PortNumber). */
    private static List<PortCounters> counters(Text t, Issues issues, Ibdiagnet.Section s, Map<String, String> names,
                                               Map<String, String> lids) {
        List<PortCounters> out = new ArrayList<>();
        if (s == null) return out;
        for (Ibdiagnet.Row r : s.rows()) {
            int ln = r.ref().line();
            PortCounters pc = issues.record(() -> {
                String guidText = r.get("NodeGUID").isEmpty() ? r.get("NodeGuid") : r.get("NodeGUID");
                String portText = r.get("PortNumber").isEmpty() ? r.get("PortNum") : r.get("PortNumber");
                long guid = Nums.hex(t, ln, guidText);
                int port = Nums.integer(t, ln, portText);
                Map<String, Long> raw = new LinkedHashMap<>();
                for (Map.Entry<String, String> e : r.values().entrySet()) {
                    String k = e.getKey();
                    if (k.equals("NodeGUID") || k.equals("NodeGuid") || k.equals("PortGUID") || k.equals("PortGuid")
                            || k.equals("PortNumber") || k.equals("PortNum")) continue;
                    Long v = value(t, issues, ln, k, e.getValue());
                    if (v != null) raw.put(k, v);
                }
                String lid = lids.get(guidText.toLowerCase(Locale.ROOT) + ":" + port);
                // switch ports carry LID 0: the switch answers at its port 0 LID
                if (lid == null || lid.equals("0")) lid = lids.getOrDefault(guidText.toLowerCase(Locale.ROOT) + ":0", lid);
                int lidNum = lid != null && Nums.isDigits(lid) && lid.length() < 9 ? Integer.parseInt(lid) : -1;
                String pg = r.get("PortGUID").isEmpty() ? r.get("PortGuid") : r.get("PortGUID");
                long portGuid = pg.isEmpty() ? 0 : Nums.hex(t, ln, pg);
                return new PortCounters(guid, names.getOrDefault(guidText.toLowerCase(Locale.ROOT), ""), lidNum, port,
                        normalize(raw), r.ref(), portGuid);
            });
            if (pc != null) out.add(pc);
        }
        return out;
    }

    /**
     * ibdiagnet writes N/A, NA or -1 for a counter the port does not support, and in db_csv 0xfffffffffffffffe where
     * ibdiagnet2.pm says NA (retransmission_per_sec of ports without the feature): absent, not a problem.
     */
    private static Long value(Text t, Issues issues, int ln, String name, String v) {
        String s = v.trim();
        if (s.isEmpty() || s.equals("N/A") || s.equals("NA") || s.equals("-1") || s.equalsIgnoreCase("0xfffffffffffffffe")
                || s.equalsIgnoreCase("0xffffffffffffffff")) return null;
        return issues.record(() -> Nums.counter(t, ln, name, s, 64));
    }

    /**
     * Counters under their IBA names: "XExt"/"XExtended" (64-bit) folded into X as the larger of the two, so a
     * saturated 16-bit SymbolErrorCounter reads its real 64-bit count.
     */
    static Map<String, Long> normalize(Map<String, Long> raw) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (Map.Entry<String, Long> e : raw.entrySet()) {
            String k = e.getKey();
            String base = k.endsWith("Extended") ? k.substring(0, k.length() - 8) : k.endsWith("Ext") ? k.substring(0, k.length() - 3) : k;
            out.merge(base, e.getValue(), Math::max);
        }
        return out;
    }

    /** snake_case names of ibdiagnet2.pm that do not map to the IBA name by case alone. */
    private static final Map<String, String> PM_NAMES = Map.of("link_down_counter", "LinkDownedCounter",
            "port_xmit_discard", "PortXmitDiscards", "excessive_buffer_errors", "ExcessiveBufferOverrunErrors",
            "vl15_dropped", "VL15Dropped", "vl15_dropped_extended", "VL15DroppedExtended",
            "qp1_dropped_extended", "QP1DroppedExtended");

    public static List<PortCounters> pm(Text t) {
        return pm(t, Issues.strict());
    }

    /**
     * ibdiagnet2.pm (read forward: the file may be streamed): after a '#' header, per port a dashed line, "Port=1 Lid=0x00b4 GUID=0x.. Device=54002 Port
     * Name=...", a dashed line, then "name=0xVALUE" lines (NA when unsupported).
     */
    public static List<PortCounters> pm(Text t, Issues issues) {
        Map<PortCounters.Key, PortCounters> out = new LinkedHashMap<>();
        Text.Cursor cursor = t.cursor();
        Map<String, Long> raw = null;
        long guid = 0;
        int port = -1, lid = -1, start = 0;
        String name = "";
        while (cursor.next()) {
            int ln = cursor.number();
            String line = cursor.line().trim();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith("---")) continue;
            if (line.startsWith("Port=")) {
                if (raw != null) add(out, new PortCounters(guid, name, lid, port, normalize(raw), t.at(start)));
                raw = null;
                Map<String, String> kv = new HashMap<>();
                int pn = line.indexOf(" Port Name=");
                name = pn >= 0 ? line.substring(pn + 11).trim() : "";
                for (String f : Fields.split(pn >= 0 ? line.substring(0, pn) : line)) {
                    int eq = f.indexOf('=');
                    if (eq > 0) kv.put(f.substring(0, eq), f.substring(eq + 1));
                }
                Long g = kv.containsKey("GUID") ? issues.record(() -> Nums.hex(t, ln, kv.get("GUID"))) : null;
                Integer p = kv.containsKey("Port") ? issues.record(() -> Nums.integer(t, ln, kv.get("Port"))) : null;
                if (g == null || p == null) {
                    if (!kv.containsKey("GUID") || !kv.containsKey("Port"))
                        issues.add(t, ln, "expected 'Port=N Lid=.. GUID=0x..', found '" + Text.excerpt(line) + "'");
                    continue;
                }
                Integer l = kv.containsKey("Lid") ? issues.record(() -> Nums.integer(t, ln, kv.get("Lid"))) : null;
                guid = g;
                port = p;
                lid = l == null ? -1 : l;
                start = ln;
                raw = new LinkedHashMap<>();
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0 || raw == null) {
                issues.add(t, ln, "unrecognised ibdiagnet2.pm line: '" + Text.excerpt(line) + "'");
                continue;
            }
            String key = line.substring(0, eq).trim();
            String ibaName = PM_NAMES.getOrDefault(key, camel(key));
            Long v = value(t, issues, ln, ibaName, line.substring(eq + 1));
            if (v != null) raw.put(ibaName, v);
        }
        if (raw != null) add(out, new PortCounters(guid, name, lid, port, normalize(raw), t.at(start)));
        if (out.isEmpty()) throw t.error(0, "not ibdiagnet2.pm: no 'Port=N Lid=.. GUID=..' block");
        return new ArrayList<>(out.values());
    }

    /** A port listed again (files concatenated) is folded into its first record, which keeps its values. */
    private static void add(Map<PortCounters.Key, PortCounters> out, PortCounters pc) {
        out.merge(pc.key(), pc, (first, later) -> {
            Map<String, Long> c = new LinkedHashMap<>(later.counters());
            c.putAll(first.counters());
            return new PortCounters(first.nodeGuid(), first.nodeName().isEmpty() ? later.nodeName() : first.nodeName(),
                    first.lid() >= 0 ? first.lid() : later.lid(), first.port(), c, first.ref(), first.portGuid());
        });
    }

    private static String camel(String snake) {
        StringBuilder b = new StringBuilder(snake.length());
        boolean up = true;
        for (int i = 0; i < snake.length(); i++) {
            char c = snake.charAt(i);
            if (c == '_') {
                up = true;
                continue;
            }
            b.append(up ? Character.toUpperCase(c) : c);
            up = false;
        }
        return b.toString();
    }

    /**
     * ibdiagnet2.sm: after the '#' header, "ibdiagnet fabric SM report", then per state a line "  SM - master" and one
     * line per SM port in that state: "    Port=0 lid=0x00b4 guid=0xb0cf0e0300d33fc0 dev=54002 priority:12".
     */
    public static List<Ibdiagnet.Sm> sm(Text t, Issues issues) {
        List<Ibdiagnet.Sm> out = new ArrayList<>();
        List<String> lines = t.lines();
        boolean report = false;
        String state = null;
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) continue;
            if (line.equals("ibdiagnet fabric SM report")) {
                report = true;
                continue;
            }
            if (line.startsWith("SM - ")) {
                state = line.substring(5).trim();
                continue;
            }
            if (!line.startsWith("Port=") || state == null) {
                issues.add(t, ln, "unrecognised ibdiagnet2.sm line: '" + Text.excerpt(line) + "'");
                continue;
            }
            Map<String, String> kv = pairs(line);
            String st = state;
            Ibdiagnet.Sm sm = issues.record(() -> {
                for (String k : List.of("Port", "lid", "guid", "priority"))
                    if (!kv.containsKey(k)) throw t.error(ln, "ibdiagnet2.sm line without " + k + ": '" + Text.excerpt(line) + "'");
                return new Ibdiagnet.Sm(st, Nums.integer(t, ln, kv.get("Port")), Nums.integer(t, ln, kv.get("lid")),
                        Nums.hex(t, ln, kv.get("guid")), kv.containsKey("dev") ? Nums.integer(t, ln, kv.get("dev")) : -1,
                        Nums.integer(t, ln, kv.get("priority")), t.at(ln));
            });
            if (sm != null) out.add(sm);
        }
        if (!report && out.isEmpty()) throw t.error(0, "not ibdiagnet2.sm: no 'ibdiagnet fabric SM report' line");
        return out;
    }

    /**
     * ibdiagnet2.pkey: after the '#' header (and its port-label notes), per partition "GROUP PKey:0x7fff Hosts:272" and one
     * line per member port: "  Full is-north-7-compute-19/mlx5_10/B184D0F0/0/0/1 lid=0x010d guid=0x5c25730300e66cae
     * dev=4129". The name is everything between the membership word and the trailing lid=/guid=/dev= fields.
     */
    public static List<Ibdiagnet.PkeyGroup> pkey(Text t, Issues issues) {
        List<Ibdiagnet.PkeyGroup> out = new ArrayList<>();
        List<String> lines = t.lines();
        Integer pkey = null;
        int hosts = -1, start = 0;
        List<Ibdiagnet.PkeyMember> members = new ArrayList<>();
        boolean group = false;
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) continue;
            if (line.startsWith("GROUP ")) {
                group = true;
                if (pkey != null) out.add(new Ibdiagnet.PkeyGroup(pkey, hosts, members, t.at(start)));
                members = new ArrayList<>();
                Map<String, String> kv = new HashMap<>();
                for (String f : Fields.split(line.substring(6))) {
                    int colon = f.indexOf(':');
                    if (colon > 0) kv.put(f.substring(0, colon), f.substring(colon + 1));
                }
                pkey = kv.containsKey("PKey") ? issues.record(() -> (int) Nums.hex(t, ln, kv.get("PKey")) & 0xffff) : null;
                if (pkey == null && !kv.containsKey("PKey")) issues.add(t, ln, "ibdiagnet2.pkey group without PKey: '" + Text.excerpt(line) + "'");
                Integer h = kv.containsKey("Hosts") ? issues.record(() -> Nums.integer(t, ln, kv.get("Hosts"))) : null;
                hosts = h == null ? -1 : h;
                start = ln;
                continue;
            }
            if (pkey == null) {
                issues.add(t, ln, "ibdiagnet2.pkey line outside a GROUP: '" + Text.excerpt(line) + "'");
                continue;
            }
            Ibdiagnet.PkeyMember m = issues.record(() -> member(t, ln, line));
            if (m != null) members.add(m);
        }
        if (pkey != null) out.add(new Ibdiagnet.PkeyGroup(pkey, hosts, members, t.at(start)));
        if (!group) throw t.error(0, "not ibdiagnet2.pkey: no 'GROUP PKey:..' line");
        return out;
    }

    private static Ibdiagnet.PkeyMember member(Text t, int ln, String line) {
        int sp = line.indexOf(' ');
        int lid = line.lastIndexOf(" lid=");
        if (sp <= 0 || lid <= sp) throw t.error(ln, "expected 'Full|Limited NAME lid=.. guid=.. dev=..', found '" + Text.excerpt(line) + "'");
        String membership = line.substring(0, sp);
        if (!membership.equalsIgnoreCase("Full") && !membership.equalsIgnoreCase("Limited"))
            throw t.error(ln, "membership '" + Text.excerpt(membership) + "' is neither Full nor Limited");
        String name = line.substring(sp + 1, lid).trim();
        Map<String, String> kv = pairs(line.substring(lid));
        if (!kv.containsKey("lid") || !kv.containsKey("guid"))
            throw t.error(ln, "ibdiagnet2.pkey member without lid= and guid=: '" + Text.excerpt(line) + "'");
        int slash = name.lastIndexOf('/');
        String last = slash < 0 ? "" : name.substring(slash + 1);
        if (last.startsWith("P")) last = last.substring(1);
        int port = Nums.isDigits(last) && !last.isEmpty() && last.length() < 4 ? Integer.parseInt(last) : -1;
        return new Ibdiagnet.PkeyMember(membership, name, port, Nums.integer(t, ln, kv.get("lid")), Nums.hex(t, ln, kv.get("guid")),
                kv.containsKey("dev") ? Nums.integer(t, ln, kv.get("dev")) : -1, t.at(ln));
    }

    /** "key=value" and "key:value" fields of a line. */
    private static Map<String, String> pairs(String line) {
        Map<String, String> kv = new HashMap<>();
        for (String f : Fields.split(line)) {
            int eq = f.indexOf('=');
            if (eq < 0) eq = f.indexOf(':');
            if (eq > 0) kv.put(f.substring(0, eq), f.substring(eq + 1));
        }
        return kv;
    }
}
