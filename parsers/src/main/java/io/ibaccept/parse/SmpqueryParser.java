package io.ibaccept.parse;

import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.model.NodeInfo;
import io.ibaccept.model.PortInfo;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Parses {@code smpquery portinfo} (also the same dump that ibportstate prints, with its "# MLNX ext Port info"
 * block), {@code smpquery pkeys} and {@code smpquery nodeinfo}.
 */
public final class SmpqueryParser {
    private SmpqueryParser() {}

    public static PortInfo portInfo(Text t) {
        return portInfo(t, Issues.strict());
    }

    public static PortInfo portInfo(Text t, Issues issues) {
        List<DottedParser.Block> blocks = DottedParser.parse(t, issues);
        DottedParser.Block b = null, ext = null;
        // ibportstate prints the PortInfo before and after a change: the last one is the current state
        for (DottedParser.Block x : blocks) {
            if (x.get("LinkState") != null) b = x;
            if (x.header().startsWith("# MLNX ext Port info")) ext = x;
        }
        if (b == null) throw t.error(0, "missing field 'LinkState' (not smpquery portinfo output, or truncated)");
        final DottedParser.Block pi = b;
        LinkWidth width = LinkWidth.parse(b.get("LinkWidthActive")).orElse(null);
        int mlnxSup = ext == null ? -1 : mask(t, issues, ext, "LinkSpeedSupported");
        int mlnxEn = ext == null ? -1 : mask(t, issues, ext, "LinkSpeedEnabled");
        int mlnxAct = ext == null ? -1 : mask(t, issues, ext, "LinkSpeedActive");
        LinkSpeed speed = null;
        String extActive = b.get("LinkSpeedExtActive");
        if (extActive != null && extActive.endsWith("Gbps")) speed = LinkSpeed.parse(extActive).orElse(null);
        if (speed == null && mlnxAct > 0 && (mlnxAct & 1) != 0) speed = LinkSpeed.FDR10;
        if (speed == null && b.get("LinkSpeedActive") != null) speed = LinkSpeed.parse(b.get("LinkSpeedActive")).orElse(null);
        return new PortInfo(num(t, issues, pi, "Lid"), num(t, issues, pi, "SMLid"), num(t, issues, pi, "LocalPort"),
                str(b, "LinkWidthEnabled"), str(b, "LinkWidthSupported"), width, speed,
                str(b, "LinkState"), str(b, "PhysLinkState"), num(t, issues, pi, "NeighborMTU"), num(t, issues, pi, "MtuCap"),
                "1".equals(b.get("PartEnforceInb")), t.at(b.line() == 0 ? b.lineOf("LinkState") : b.line()),
                str(b, "LinkSpeedSupported"), str(b, "LinkSpeedEnabled"), str(b, "LinkSpeedActive"),
                str(b, "LinkSpeedExtSupported"), str(b, "LinkSpeedExtEnabled"), str(b, "LinkSpeedExtActive"),
                mlnxSup, mlnxEn, mlnxAct, "1".equals(b.get("PartEnforceOutb")));
    }

    public static NodeInfo nodeInfo(Text t) {
        return nodeInfo(t, Issues.strict());
    }

    public static NodeInfo nodeInfo(Text t, Issues issues) {
        DottedParser.Block b = single(t, issues, "NodeType");
        return new NodeInfo(str(b, "NodeType"), num(t, issues, b, "NumPorts"), hex(t, issues, b, "SystemGuid"),
                hex(t, issues, b, "Guid"), hex(t, issues, b, "PortGuid"), num(t, issues, b, "PartCap"), str(b, "DevId"),
                str(b, "Revision"), str(b, "VendorId"), t.at(b.lineOf("NodeType")));
    }

    public static SortedSet<Integer> pkeys(Text t) {
        return pkeys(t, Issues.strict());
    }

    /** Returns the non-zero P_Keys of the table, full-member bit included (e.g. 0xffff, 0x8001, 0x0001). */
    public static SortedSet<Integer> pkeys(Text t, Issues issues) {
        SortedSet<Integer> keys = new TreeSet<>();
        List<String> lines = t.lines();
        boolean sawRow = false;
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#") || line.contains("pkeys capacity")) continue;
            int colon = line.indexOf(':');
            List<String> f = colon > 0 ? Fields.split(line.substring(colon + 1)) : List.of();
            if (colon <= 0 || !Nums.isDigits(line.substring(0, colon)) || f.isEmpty()
                    || !f.stream().allMatch(k -> k.length() == 6 && k.startsWith("0x"))) {
                issues.add(t, ln, "expected a P_Key table row 'N: 0x....', found '" + Text.excerpt(line) + "'");
                continue;
            }
            for (String k : f) {
                Long v = issues.record(() -> Nums.hex(t, ln, k));
                if (v == null) continue;
                sawRow = true;
                if (v != 0) keys.add(v.intValue());
            }
        }
        if (!sawRow) throw t.error(0, "no P_Key table rows found");
        return keys;
    }

    private static DottedParser.Block single(Text t, Issues issues, String requiredKey) {
        for (DottedParser.Block b : DottedParser.parse(t, issues)) if (b.get(requiredKey) != null) return b;
        throw t.error(0, "missing field '" + requiredKey + "' (not smpquery output, or truncated)");
    }

    private static String str(DottedParser.Block b, String key) {
        String v = b.get(key);
        return v == null ? "" : v;
    }

    private static int num(Text t, Issues issues, DottedParser.Block b, String key) {
        String v = b.get(key);
        if (v == null || v.isEmpty()) return -1;
        Integer r = issues.record(() -> Nums.integer(t, b.lineOf(key), v));
        return r == null ? -1 : r;
    }

    private static int mask(Text t, Issues issues, DottedParser.Block b, String key) {
        String v = b.get(key);
        if (v == null || v.isEmpty()) return -1;
        Long r = issues.record(() -> Nums.hex(t, b.lineOf(key), v));
        return r == null ? -1 : (int) (r & 0xffff);
    }

    private static long hex(Text t, Issues issues, DottedParser.Block b, String key) {
        String v = b.get(key);
        if (v == null) return 0;
        Long r = issues.record(() -> Nums.hex(t, b.lineOf(key), v));
        return r == null ? 0 : r;
    }
}
