package io.ibaccept.parse;

import io.ibaccept.model.SlToVlTables;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses what {@code smpquery sl2vl LID PORT} prints (infiniband-diags smpquery.c, sl2vl_table), one table after the
 * other: a "# SL2VL table: Lid N" heading, the "#  SL: | 0| 1|...|15|" ruler, then one line per input port,
 * "ports: in  I, out  O: | v0| v1|...|v15|". A line that cannot be read is one input finding; the others are kept.
 */
public final class Sl2vlParser {
    private Sl2vlParser() {}

    private static final Pattern HEAD = Pattern.compile("# SL2VL table: Lid (\\d+)\\s*");
    private static final Pattern ROW = Pattern.compile("ports: in\\s+(\\d+), out\\s+(\\d+):\\s*\\|((?:\\s*\\d+\\|){16})\\s*");

    public static SlToVlTables parse(Text t, Issues issues) {
        List<SlToVlTables.Entry> out = new ArrayList<>();
        Integer lid = null;
        Text.Cursor c = t.cursor();
        while (c.next()) {
            String line = c.line();
            if (line.isBlank() || line.startsWith("#                 SL:") || line.startsWith("ibwarn:")) continue;
            Matcher h = HEAD.matcher(line);
            if (h.matches()) {
                lid = small(h.group(1));
                if (lid == null) issues.add(t, c.number(), "unreadable LID in '" + Text.excerpt(line) + "': its table is skipped");
                continue;
            }
            if (line.startsWith("# SL2VL table:")) {
                // queried by directed route or GUID: the switch is not known by a LID here
                lid = null;
                issues.add(t, c.number(), "SL2VL table not addressed by LID: '" + Text.excerpt(line) + "': its table is skipped");
                continue;
            }
            Matcher r = ROW.matcher(line);
            if (r.matches()) {
                if (lid == null) {
                    issues.add(t, c.number(), "SL2VL line before any '# SL2VL table: Lid N' heading: '" + Text.excerpt(line) + "'");
                    continue;
                }
                List<Integer> vls = new ArrayList<>(16);
                for (String v : r.group(3).split("\\|")) if (!v.isBlank()) vls.add(Integer.parseInt(v.trim()));
                Integer in = small(r.group(1)), o = small(r.group(2));
                if (in == null || o == null || vls.stream().anyMatch(v -> v > 15)) {
                    issues.add(t, c.number(), "unreadable SL2VL line '" + Text.excerpt(line) + "'");
                    continue;
                }
                out.add(new SlToVlTables.Entry(lid, in, o, vls, new SourceRef(t.name(), c.number())));
                continue;
            }
            issues.add(t, c.number(), "unrecognised SL2VL line: '" + Text.excerpt(line) + "'");
        }
        return new SlToVlTables(out);
    }

    // LIDs and ports are 16-bit and 8-bit: more digits is damage, not a number
    private static Integer small(String digits) {
        return digits.length() > 5 ? null : Integer.valueOf(digits);
    }
}
