package io.ibaccept.parse;

import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.model.Mlxlink;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses mlxlink's "Section / ---- / Label : value" report, colour codes and all. */
public final class MlxlinkParser {
    private MlxlinkParser() {}

    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*[A-Za-z]");
    private static final Pattern KV = Pattern.compile("^([^:]+?)\\s*:\\s*(.*)$");
    private static final Pattern GEN = Pattern.compile("Gen\\s*(\\d)");
    private static final Pattern PCIE_WIDTH = Pattern.compile("(\\d+)X\\s*(?:\\((\\d+)X\\))?", Pattern.CASE_INSENSITIVE);

    public static Mlxlink parse(Text t) {
        Map<String, String> v = new HashMap<>();
        Map<String, SourceRef> refs = new HashMap<>();
        List<String> lines = t.lines();
        for (int i = 0; i < lines.size(); i++) {
            String line = ANSI.matcher(lines.get(i)).replaceAll("").trim();
            if (line.isEmpty() || line.matches("-+") || !line.contains(":")) continue;
            Matcher m = KV.matcher(line);
            if (!m.matches()) continue;
            String key = m.group(1).trim();
            if (!v.containsKey(key)) {
                v.put(key, m.group(2).trim());
                refs.put(key, t.at(i + 1));
            }
        }
        if (!v.containsKey("State") && !v.containsKey("Link Speed Active (Enabled)"))
            throw t.error(0, "not mlxlink output: no 'State' or 'Link Speed Active (Enabled)' field");
        LinkSpeed speed = v.containsKey("Speed") ? LinkSpeed.parse(v.get("Speed").split("\\s")[0]).orElse(null) : null;
        LinkWidth width = v.containsKey("Width") ? LinkWidth.parse(v.get("Width")).orElse(null) : null;
        Integer genActive = null, genEnabled = null, wActive = null, wEnabled = null;
        String ps = v.get("Link Speed Active (Enabled)");
        if (ps != null) {
            Matcher g = GEN.matcher(ps);
            if (g.find()) genActive = Integer.parseInt(g.group(1));
            if (g.find()) genEnabled = Integer.parseInt(g.group(1));
            if (genActive == null) throw t.error(refs.get("Link Speed Active (Enabled)").line(), "cannot read PCIe generation from '" + ps + "'");
        }
        String pw = v.get("Link Width Active (Enabled)");
        if (pw != null) {
            Matcher w = PCIE_WIDTH.matcher(pw);
            if (!w.find()) throw t.error(refs.get("Link Width Active (Enabled)").line(), "cannot read PCIe width from '" + pw + "'");
            wActive = Integer.parseInt(w.group(1));
            wEnabled = w.group(2) == null ? null : Integer.parseInt(w.group(2));
        }
        return new Mlxlink(v.get("State"), v.get("Physical state"), speed, width, v.get("FEC"),
                intOrNull(t, v, refs, "Status Opcode"), v.get("Recommendation"), v.get("Firmware Version"),
                berOrNull(t, v, refs, "Raw Physical BER"), berOrNull(t, v, refs, "Effective Physical BER"),
                longOrNull(t, v, refs, "Link Down Counter"), longOrNull(t, v, refs, "Link Error Recovery Counter"),
                genActive, genEnabled, wActive, wEnabled, v.get("Vendor Name"), v.get("Vendor Part Number"), refs);
    }

    private static Integer intOrNull(Text t, Map<String, String> v, Map<String, SourceRef> refs, String key) {
        String s = v.get(key);
        if (s == null || s.equals("N/A")) return null;
        return Nums.integer(t, refs.get(key).line(), s);
    }

    private static Long longOrNull(Text t, Map<String, String> v, Map<String, SourceRef> refs, String key) {
        String s = v.get(key);
        if (s == null || s.equals("N/A")) return null;
        return Nums.longValue(t, refs.get(key).line(), s);
    }

    private static Double berOrNull(Text t, Map<String, String> v, Map<String, SourceRef> refs, String key) {
        String s = v.get(key);
        if (s == null || s.equals("N/A")) return null;
        return Nums.decimal(t, refs.get(key).line(), s);
    }
}
