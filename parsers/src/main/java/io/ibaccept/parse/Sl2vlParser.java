package io.ibaccept.parse;

import io.ibaccept.model.SlToVlTables;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses what {@code smpquery sl2vl LID PORT} prints (infiniband-diags smpquery.c, sl2vl_table), one table after the
 * other: a "# SL2VL table: Lid N" heading, the "#  SL: | 0| 1|...|15|" ruler, then one line per input port,
 * "ports: in  I, out  O: | v0| v1|...|v15|". The collect script adds "# smpquery sl2vl LID PORT failed" where a query
 * failed (smpquery stops that table at the input port it could not read). A line that cannot be read is one input
 * finding; the others are kept.
 */
public final class Sl2vlParser {
    private Sl2vlParser() {}

    private static final Pattern HEAD = Pattern.compile("# SL2VL table: Lid (\\d{1,5})\\s*");
    private static final Pattern ROW = Pattern.compile("ports: in\\s+(\\d{1,3}), out\\s+(\\d{1,3}):\\s*\\|((?:\\s*\\d{1,2}\\|){16})\\s*");
    private static final Pattern FAILED = Pattern.compile("# smpquery sl2vl (\\d{1,5}) (\\d{1,3}) failed\\s*");

    public static SlToVlTables parse(Text t, Issues issues) {
        List<SlToVlTables.Entry> out = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        Integer lid = null;
        boolean skipping = false; // inside a table whose heading could not be read: one finding for the heading, not one per row
        Text.Cursor c = t.cursor();
        while (c.next()) {
            String line = c.line();
            // smpquery's own error line: the collect script's "failed" line after it names the port
            if (line.isBlank() || line.startsWith("#                 SL:") || line.startsWith("ibwarn:") || line.contains(": iberror: ")) continue;
            Matcher f = FAILED.matcher(line);
            if (f.matches()) {
                issues.add(t, c.number(), "smpquery could not read the SL-to-VL table of LID " + f.group(1) + " port " + f.group(2)
                        + ": what it printed of it is kept, the rest of that table is missing");
                continue;
            }
            Matcher h = HEAD.matcher(line);
            if (h.matches() && Integer.parseInt(h.group(1)) <= 0xffff) {
                lid = Integer.parseInt(h.group(1));
                skipping = false;
                continue;
            }
            if (line.startsWith("# SL2VL table:")) {
                // queried by directed route or GUID, or a damaged LID: the switch is not known by a LID here
                lid = null;
                skipping = true;
                issues.add(t, c.number(), "SL2VL table heading without a usable LID: '" + Text.excerpt(line) + "': its table is skipped");
                continue;
            }
            Matcher r = ROW.matcher(line);
            if (r.matches()) {
                if (skipping) continue;
                if (lid == null) {
                    issues.add(t, c.number(), "SL2VL line before any '# SL2VL table: Lid N' heading: '" + Text.excerpt(line) + "'");
                    continue;
                }
                int in = Integer.parseInt(r.group(1)), o = Integer.parseInt(r.group(2));
                List<Integer> vls = new ArrayList<>(16);
                for (String v : r.group(3).split("\\|")) if (!v.isBlank()) vls.add(Integer.parseInt(v.trim()));
                if (in > 254 || o > 254 || vls.stream().anyMatch(v -> v > 15)) {
                    issues.add(t, c.number(), "SL2VL line out of range (ports 0-254, VLs 0-15): '" + Text.excerpt(line) + "'");
                    continue;
                }
                if (!seen.add(((long) lid << 16) | (in << 8) | o)) {
                    issues.add(t, c.number(), "LID " + lid + " in " + in + " out " + o + " listed again: the first is kept");
                    continue;
                }
                out.add(new SlToVlTables.Entry(lid, in, o, vls, new SourceRef(t.name(), c.number())));
                continue;
            }
            issues.add(t, c.number(), "unrecognised SL2VL line: '" + Text.excerpt(line) + "'");
        }
        return new SlToVlTables(out);
    }
}
