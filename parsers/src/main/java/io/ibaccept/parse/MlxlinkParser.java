package io.ibaccept.parse;

import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.model.Mlxlink;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses mlxlink's "Section / ---- / Label : value" report, colour codes and all, including the PCIe form
 * ("Link Speed Active (Enabled) : 2.5G-Gen 1 (16G-Gen 4)", "Link Width Active (Enabled) : 4X (16X)"). Scanned, no
 * backtracking patterns; a value that cannot be read is one issue, the other fields stay.
 */
public final class MlxlinkParser {
    private MlxlinkParser() {}

    public static Mlxlink parse(Text t) {
        return parse(t, Issues.strict());
    }

    public static Mlxlink parse(Text t, Issues issues) {
        Map<String, String> v = new HashMap<>();
        Map<String, SourceRef> refs = new HashMap<>();
        List<String> lines = t.lines();
        for (int i = 0; i < lines.size(); i++) {
            String line = stripAnsi(lines.get(i)).trim();
            int colon = line.indexOf(':');
            if (line.isEmpty() || colon <= 0) continue;
            String key = line.substring(0, colon).trim();
            if (!key.isEmpty() && !v.containsKey(key)) {
                v.put(key, line.substring(colon + 1).trim());
                refs.put(key, t.at(i + 1));
            }
        }
        if (!v.containsKey("State") && !v.containsKey("Link Speed Active (Enabled)"))
            throw t.error(0, "not mlxlink output: no 'State' or 'Link Speed Active (Enabled)' field");
        LinkSpeed speed = null;
        if (v.containsKey("Speed")) {
            List<String> f = Fields.split(v.get("Speed"));
            speed = f.isEmpty() ? null : LinkSpeed.parse(f.get(0)).orElse(null);
        }
        LinkWidth width = v.containsKey("Width") ? LinkWidth.parse(v.get("Width")).orElse(null) : null;
        Integer genActive = null, genEnabled = null, wActive = null, wEnabled = null;
        String ps = v.get("Link Speed Active (Enabled)");
        if (ps != null) {
            int g1 = gen(ps, 0);
            genActive = g1 < 0 ? null : digitAfterGen(ps, g1);
            int g2 = g1 < 0 ? -1 : gen(ps, g1 + 3);
            genEnabled = g2 < 0 ? null : digitAfterGen(ps, g2);
            if (genActive == null) issues.add(t, refs.get("Link Speed Active (Enabled)").line(), "cannot read PCIe generation from '" + Text.excerpt(ps) + "'");
        }
        String pw = v.get("Link Width Active (Enabled)");
        if (pw != null) {
            // "4X (16X)" or "16X"
            List<String> f = Fields.split(pw.replace("(", " ").replace(")", " "));
            Integer a = f.isEmpty() ? null : lanes(f.get(0));
            if (a == null) {
                issues.add(t, refs.get("Link Width Active (Enabled)").line(), "cannot read PCIe width from '" + Text.excerpt(pw) + "'");
            } else {
                wActive = a;
                wEnabled = f.size() > 1 ? lanes(f.get(1)) : null;
            }
        }
        return new Mlxlink(v.get("State"), v.get("Physical state"), speed, width, v.get("FEC"),
                intOrNull(t, issues, v, refs, "Status Opcode"), v.get("Recommendation"), v.get("Firmware Version"),
                berOrNull(t, issues, v, refs, "Raw Physical BER"), berOrNull(t, issues, v, refs, "Effective Physical BER"),
                longOrNull(t, issues, v, refs, "Link Down Counter"), longOrNull(t, issues, v, refs, "Link Error Recovery Counter"),
                genActive, genEnabled, wActive, wEnabled, v.get("Vendor Name"), v.get("Vendor Part Number"), refs, v);
    }

    private static String stripAnsi(String s) {
        if (s.indexOf('\u001B') < 0) return s;
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\u001B' && i + 1 < s.length() && s.charAt(i + 1) == '[') {
                int j = i + 2;
                while (j < s.length() && (Character.isDigit(s.charAt(j)) || s.charAt(j) == ';')) j++;
                i = j; // skip the final letter too
                continue;
            }
            b.append(c);
        }
        return b.toString();
    }

    private static int gen(String s, int from) {
        return s.indexOf("Gen", from);
    }

    private static Integer digitAfterGen(String s, int at) {
        int i = at + 3;
        while (i < s.length() && s.charAt(i) == ' ') i++;
        return i < s.length() && s.charAt(i) >= '1' && s.charAt(i) <= '9' ? s.charAt(i) - '0' : null;
    }

    private static Integer lanes(String s) {
        String x = s.endsWith("X") || s.endsWith("x") ? s.substring(0, s.length() - 1) : null;
        return x != null && Nums.isDigits(x) && x.length() <= 2 ? Integer.parseInt(x) : null;
    }

    private static Integer intOrNull(Text t, Issues is, Map<String, String> v, Map<String, SourceRef> refs, String key) {
        String s = v.get(key);
        if (s == null || s.equals("N/A")) return null;
        return is.record(() -> Nums.integer(t, refs.get(key).line(), s));
    }

    private static Long longOrNull(Text t, Issues is, Map<String, String> v, Map<String, SourceRef> refs, String key) {
        String s = v.get(key);
        if (s == null || s.equals("N/A")) return null;
        return is.record(() -> Nums.counter(t, refs.get(key).line(), key, s, 64));
    }

    private static Double berOrNull(Text t, Issues is, Map<String, String> v, Map<String, SourceRef> refs, String key) {
        String s = v.get(key);
        if (s == null || s.equals("N/A")) return null;
        return is.record(() -> Nums.decimal(t, refs.get(key).line(), s));
    }
}
