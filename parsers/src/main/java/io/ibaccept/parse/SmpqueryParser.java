package io.ibaccept.parse;

import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.model.NodeInfo;
import io.ibaccept.model.PortInfo;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses {@code smpquery portinfo}, {@code smpquery pkeys} and {@code smpquery nodeinfo}. */
public final class SmpqueryParser {
    private SmpqueryParser() {}

    public static PortInfo portInfo(Text t) {
        DottedParser.Block b = single(t, "LinkState");
        LinkWidth width = LinkWidth.parse(b.get("LinkWidthActive")).orElse(null);
        LinkSpeed speed = null;
        String ext = b.get("LinkSpeedExtActive");
        if (ext != null && ext.endsWith("Gbps")) speed = LinkSpeed.parse(ext).orElse(null);
        if (speed == null && b.get("LinkSpeedActive") != null) speed = LinkSpeed.parse(b.get("LinkSpeedActive")).orElse(null);
        return new PortInfo(num(t, b, "Lid"), num(t, b, "SMLid"), num(t, b, "LocalPort"),
                str(b, "LinkWidthEnabled"), str(b, "LinkWidthSupported"), width, speed,
                str(b, "LinkState"), str(b, "PhysLinkState"), num(t, b, "NeighborMTU"), num(t, b, "MtuCap"),
                "1".equals(b.get("PartEnforceInb")), t.at(b.line() == 0 ? b.lineOf("LinkState") : b.line()));
    }

    public static NodeInfo nodeInfo(Text t) {
        DottedParser.Block b = single(t, "NodeType");
        return new NodeInfo(str(b, "NodeType"), num(t, b, "NumPorts"), hex(t, b, "SystemGuid"), hex(t, b, "Guid"),
                hex(t, b, "PortGuid"), num(t, b, "PartCap"), str(b, "DevId"), str(b, "Revision"), str(b, "VendorId"),
                t.at(b.lineOf("NodeType")));
    }

    private static final Pattern PKEY_ROW = Pattern.compile("^\\s*(\\d+):((?:\\s+0x[0-9a-fA-F]{4})+)\\s*$");

    /** Returns the non-zero P_Keys of the table, full-member bit included (e.g. 0xffff, 0x8001, 0x0001). */
    public static SortedSet<Integer> pkeys(Text t) {
        SortedSet<Integer> keys = new TreeSet<>();
        List<String> lines = t.lines();
        boolean sawRow = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.trim().startsWith("#") || line.contains("pkeys capacity")) continue;
            Matcher m = PKEY_ROW.matcher(line);
            if (!m.matches()) throw t.error(i + 1, "expected a P_Key table row 'N: 0x....', found '" + line.trim() + "'");
            sawRow = true;
            for (String k : m.group(2).trim().split("\\s+")) {
                int v = (int) Nums.hex(t, i + 1, k);
                if (v != 0) keys.add(v);
            }
        }
        if (!sawRow) throw t.error(0, "no P_Key table rows found");
        return keys;
    }

    private static DottedParser.Block single(Text t, String requiredKey) {
        for (DottedParser.Block b : DottedParser.parse(t)) if (b.get(requiredKey) != null) return b;
        throw t.error(0, "missing field '" + requiredKey + "' (not smpquery output, or truncated)");
    }

    private static String str(DottedParser.Block b, String key) {
        String v = b.get(key);
        return v == null ? "" : v;
    }

    private static int num(Text t, DottedParser.Block b, String key) {
        String v = b.get(key);
        return v == null || v.isEmpty() ? -1 : Nums.integer(t, b.lineOf(key), v);
    }

    private static long hex(Text t, DottedParser.Block b, String key) {
        String v = b.get(key);
        return v == null ? 0 : Nums.hex(t, b.lineOf(key), v);
    }
}
