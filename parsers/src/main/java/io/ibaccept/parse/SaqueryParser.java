package io.ibaccept.parse;

import io.ibaccept.model.McGroup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code saquery -g} (infiniband-diags saquery.c dump_multicast_group_record): per group a line
 * "MCMemberRecord group dump:" then tab-indented "MGID....value", "Mlid....0xC000", "Mtu....0x84", "pkey....0xFFFF",
 * "Rate....0x83", "SL....0x0" (no colon after the dotted key).
 */
public final class SaqueryParser {
    private SaqueryParser() {}

    private static final String HEADER = "MCMemberRecord group dump:";
    private static final Pattern FIELD = Pattern.compile("([A-Za-z][A-Za-z0-9_]*)\\.{2,}(.*)");

    public static List<McGroup> groups(Text t) {
        return groups(t, Issues.strict());
    }

    public static List<McGroup> groups(Text t, Issues issues) {
        List<McGroup> out = new ArrayList<>();
        List<String> lines = t.lines();
        int start = 0;
        Map<String, DottedParser.Field> f = null;
        boolean sawHeader = false;
        for (int i = 0; i <= lines.size(); i++) {
            String line = i < lines.size() ? lines.get(i).trim() : HEADER; // a sentinel header closes the last record
            int ln = i + 1;
            if (line.isEmpty()) continue;
            if (line.equals(HEADER)) {
                if (f != null) {
                    McGroup g = record(t, issues, start, f);
                    if (g != null) out.add(g);
                }
                if (i < lines.size()) sawHeader = true;
                start = ln;
                f = new LinkedHashMap<>();
                continue;
            }
            Matcher m = FIELD.matcher(line);
            if (f == null || !m.matches()) {
                issues.add(t, ln, "expected '" + HEADER + "' or a 'Name....value' field, found '" + Text.excerpt(line) + "'");
                continue;
            }
            f.put(m.group(1), new DottedParser.Field(m.group(2).trim(), ln));
        }
        if (!sawHeader) throw t.error(0, "no '" + HEADER + "' record (not saquery -g output)");
        return out;
    }

    private static McGroup record(Text t, Issues issues, int line, Map<String, DottedParser.Field> f) {
        for (String k : List.of("MGID", "Mtu", "pkey"))
            if (!f.containsKey(k)) {
                issues.add(t, line, "multicast group record without '" + k + "': record skipped");
                return null;
            }
        return issues.record(() -> {
            int mtu = (int) hex(t, f.get("Mtu"));
            int rate = f.containsKey("Rate") ? (int) hex(t, f.get("Rate")) : -1;
            return new McGroup(f.get("MGID").value(), f.containsKey("Mlid") ? (int) hex(t, f.get("Mlid")) : -1,
                    (mtu >> 6) & 3, mtu & 0x3f, (int) hex(t, f.get("pkey")) & 0xffff,
                    rate < 0 ? -1 : (rate >> 6) & 3, rate < 0 ? -1 : rate & 0x3f,
                    f.containsKey("SL") ? (int) hex(t, f.get("SL")) : -1, t.at(line));
        });
    }

    private static long hex(Text t, DottedParser.Field fl) {
        return Nums.hex(t, fl.line(), fl.value());
    }
}
