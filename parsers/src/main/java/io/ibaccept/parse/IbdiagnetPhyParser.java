package io.ibaccept.parse;

import io.ibaccept.model.CableModule;
import io.ibaccept.model.DiagPort;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The physical-layer files of an ibdiagnet run, each read forward (they grow with the fabric and may be streamed):
 * ibdiagnet2.cables (--get_cable_info: one block per port's module), ibdiagnet2.net_dump (per switch, its ports: state,
 * width, speed, FEC, neighbour) and ibdiagnet2.net_dump_ext (--get_phy_info: one ' : '-separated row per switch and CA
 * port with FEC and BER columns). Every record that can be read is kept; an unreadable one is one issue at its line.
 */
public final class IbdiagnetPhyParser {
    private IbdiagnetPhyParser() {}

    private static final Pattern PORT_LINE = Pattern.compile("^Port=(\\d+)\\s+Lid=(0x[0-9a-fA-F]+|\\d+)\\s+GUID=(0x[0-9a-fA-F]{1,16})(?:\\s+Port Name=(.*))?$");
    /** A lane reading ("7.242 mA", "-999.999 mW, 0.000 dBm", "inf mW, 65496.000 dBm") or N/A. */
    private static final Pattern READING = Pattern.compile("^(?:N/A|-?(?:\\d+(?:\\.\\d+)?|inf)\\s+m[AW](?:,.*)?)$");
    private static final Pattern LANE_KEY = Pattern.compile("^(?:RX|TX)\\d+ (?:Power|Bias)$");
    private static final Pattern SWITCH_LINE = Pattern.compile("^\"(.*)\",\\s*([^,]*),\\s*(0x[0-9a-fA-F]{1,16}),\\s*LID\\s+(\\d+)\\s*$");

    public static List<CableModule> cables(Text t) {
        return cables(t, Issues.strict());
    }

    public static List<CableModule> cables(Text t, Issues issues) {
        List<CableModule> out = new ArrayList<>();
        Text.Cursor c = t.cursor();
        Block b = null;
        boolean any = false;
        while (c.next()) {
            int ln = c.number();
            String line = c.line();
            String s = line.trim();
            if (s.isEmpty() || s.startsWith("#") || s.startsWith("---")) continue;
            if (s.startsWith("Port=")) {
                if (b != null) out.add(b.module(t));
                any = true;
                Matcher m = PORT_LINE.matcher(s);
                if (!m.matches()) {
                    issues.add(t, ln, "expected 'Port=N Lid=0x.. GUID=0x.. Port Name=..', found '" + Text.excerpt(s) + "'");
                    b = null;
                    continue;
                }
                String lid = m.group(2);
                b = new Block(Long.parseUnsignedLong(m.group(3).substring(2), 16), Integer.parseInt(m.group(1)),
                        lid.startsWith("0x") ? Integer.parseInt(lid.substring(2), 16) : Integer.parseInt(lid), m.group(4) == null ? "" : m.group(4).trim(), ln);
                continue;
            }
            if (b == null) {
                // the lines of a block whose Port= line was unreadable were reported with it
                if (!any) issues.add(t, ln, "expected a 'Port=N Lid=.. GUID=..' block, found '" + Text.excerpt(s) + "'");
                continue;
            }
            int colon = s.indexOf(':');
            if (colon <= 0) {
                issues.add(t, ln, "expected 'Key: value' in the module block of port " + b.port + ", found '" + Text.excerpt(s) + "'");
                continue;
            }
            String key = s.substring(0, colon).trim(), value = s.substring(colon + 1).trim();
            if (LANE_KEY.matcher(key).matches() && !READING.matcher(value).matches())
                issues.add(t, ln, key + ": expected a reading in mA/mW or N/A, found '" + Text.excerpt(value) + "'");
            b.fields.putIfAbsent(key, value);
            b.lines.putIfAbsent(key, ln);
        }
        if (b != null) out.add(b.module(t));
        if (!any) throw t.error(0, "no 'Port=N Lid=.. GUID=..' module block found (not an ibdiagnet2.cables file)");
        return out;
    }

    private static final class Block {
        final long guid;
        final int port, lid, line;
        final String portName;
        final Map<String, String> fields = new LinkedHashMap<>();
        final Map<String, Integer> lines = new HashMap<>();

        Block(long guid, int port, int lid, String portName, int line) {
            this.guid = guid;
            this.port = port;
            this.lid = lid;
            this.portName = portName;
            this.line = line;
        }

        CableModule module(Text t) {
            return new CableModule(guid, port, lid, portName, fields, lines, t.at(line));
        }
    }

    public static List<DiagPort> netDumpExt(Text t) {
        return netDumpExt(t, Issues.strict());
    }

    /** Header "Ty : # : #IB : GUID : LID : Sta : PhysSta : LWA : LSA : Conn LID (#) : FEC mode : RTR : Raw BER : ... : Node Desc". */
    public static List<DiagPort> netDumpExt(Text t, Issues issues) {
        List<DiagPort> out = new ArrayList<>();
        Text.Cursor c = t.cursor();
        Map<String, Integer> col = null;
        while (c.next()) {
            int ln = c.number();
            String s = c.line().trim();
            if (s.isEmpty() || s.startsWith("#")) continue;
            if (s.startsWith("Ty ") || s.startsWith("Ty:")) {
                col = columns(s);
                continue;
            }
            if (col == null) {
                issues.add(t, ln, "expected the 'Ty : # : #IB : GUID ...' header, found '" + Text.excerpt(s) + "'");
                continue;
            }
            Map<String, Integer> cols = col;
            DiagPort p = issues.record(() -> extRow(t, ln, s, cols));
            if (p != null) out.add(p);
        }
        if (col == null) throw t.error(0, "no 'Ty : # : #IB : GUID' header found (not an ibdiagnet2.net_dump_ext file)");
        return out;
    }

    private static DiagPort extRow(Text t, int ln, String s, Map<String, Integer> col) {
        String[] f = cells(s, col.size());
        if (f.length < col.size()) throw t.error(ln, "expected " + col.size() + " ':'-separated columns, found " + f.length);
        String type = get(f, col, "Ty");
        if (!type.equals("SW") && !type.equals("CA") && !type.equals("RT"))
            throw t.error(ln, "expected SW, CA or RT in column Ty, found '" + Text.excerpt(type) + "'");
        long guid = Nums.hex(t, ln, get(f, col, "GUID"));
        int port = Nums.integer(t, ln, get(f, col, "#IB"));
        int lid = leadingInt(get(f, col, "LID"));
        int nlid = leadingInt(get(f, col, "Conn LID (#)"));
        return new DiagPort(type.equals("SW"), guid, port, get(f, col, "#"), lid, get(f, col, "Sta"), get(f, col, "PhysSta"), get(f, col, "LWA"),
                get(f, col, "LSA"), get(f, col, "FEC mode"), get(f, col, "RTR"), 0, nlid, unquote(get(f, col, "Node Desc")),
                get(f, col, "Raw BER"), get(f, col, "Effective BER"), get(f, col, "Symbol BER"), t.at(ln));
    }

    public static List<DiagPort> netDump(Text t) {
        return netDump(t, Issues.strict());
    }

    /**
     * Per switch: '"DESC", Vendor, 0xGUID, LID N', then the header "# : IB# : Sta : PhysSta : MTU : LWA : LSA : FEC mode :
     * Retran : Neighbor Guid : N# : NLID : Neighbor Description" and one row per port.
     */
    public static List<DiagPort> netDump(Text t, Issues issues) {
        List<DiagPort> out = new ArrayList<>();
        Text.Cursor c = t.cursor();
        Map<String, Integer> col = null;
        long sw = 0;
        int swLid = -1;
        boolean any = false;
        while (c.next()) {
            int ln = c.number();
            String s = c.line().trim();
            boolean header = s.startsWith("#") && s.contains(" : ") && s.contains("IB#");
            if (s.isEmpty() || s.startsWith("#") && !header) continue;
            Matcher m = SWITCH_LINE.matcher(s);
            if (m.matches()) {
                any = true;
                sw = Long.parseUnsignedLong(m.group(3).substring(2), 16);
                swLid = Integer.parseInt(m.group(4));
                col = null;
                continue;
            }
            if (header) {
                col = columns(s);
                continue;
            }
            if (!any || col == null) {
                issues.add(t, ln, "expected '\"DESC\", Vendor, 0xGUID, LID N' or its port header, found '" + Text.excerpt(s) + "'");
                continue;
            }
            Map<String, Integer> cols = col;
            long g = sw;
            int l = swLid;
            DiagPort p = issues.record(() -> dumpRow(t, ln, s, cols, g, l));
            if (p != null) out.add(p);
        }
        if (!any) throw t.error(0, "no '\"DESC\", Vendor, 0xGUID, LID N' switch line found (not an ibdiagnet2.net_dump file)");
        return out;
    }

    private static DiagPort dumpRow(Text t, int ln, String s, Map<String, Integer> col, long sw, int lid) {
        String[] f = cells(s, col.size());
        if (f.length < col.size()) throw t.error(ln, "expected " + col.size() + " ':'-separated columns, found " + f.length);
        int port = Nums.integer(t, ln, get(f, col, "IB#"));
        String ng = get(f, col, "Neighbor Guid");
        long neighbor = ng.startsWith("0x") ? Nums.hex(t, ln, ng) : 0;
        return new DiagPort(true, sw, port, get(f, col, "#"), lid, get(f, col, "Sta"), get(f, col, "PhysSta"), get(f, col, "LWA"), get(f, col, "LSA"),
                get(f, col, "FEC mode"), get(f, col, "Retran"), neighbor, leadingInt(get(f, col, "NLID")),
                unquote(get(f, col, "Neighbor Description")), "", "", "", t.at(ln));
    }

    /** Column name -> index; names as printed, trimmed. */
    private static Map<String, Integer> columns(String header) {
        Map<String, Integer> m = new LinkedHashMap<>();
        String[] h = header.split(":");
        for (int i = 0; i < h.length; i++) m.putIfAbsent(h[i].trim(), i);
        return m;
    }

    /**
     * The row's cells: every column before the last holds no ':' (labels, GUIDs, LIDs, modes); the last, a node
     * description, may ("MF0;ib-switch-sequoia:MQM9700/U1"), so it takes the rest of the line.
     */
    private static String[] cells(String row, int n) {
        String[] f = row.split(":", n);
        for (int i = 0; i < f.length; i++) f[i] = f[i].trim();
        return f;
    }

    private static String get(String[] f, Map<String, Integer> col, String name) {
        Integer i = col.get(name);
        return i == null || i >= f.length ? "" : f[i];
    }

    /** "185  (0xb9 )" -> 185; -1 when blank or not a number. */
    private static int leadingInt(String v) {
        String d = v.trim().split("\\s+", 2)[0];
        return Nums.isDigits(d) && d.length() < 10 ? Integer.parseInt(d) : -1;
    }

    private static String unquote(String v) {
        String s = v.trim();
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }
}
