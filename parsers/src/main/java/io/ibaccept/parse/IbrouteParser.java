package io.ibaccept.parse;

import io.ibaccept.model.Lft;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ibroute's unicast table (infiniband-diags ibroute.c): "Unicast lids [0x0-0xe] of switch Lid 4 guid 0x... (leaf01):",
 * two heading lines, one "0x0001 001 : (Channel Adapter portguid 0x...: 'node01 HCA-1')" line per valid LID, then "N
 * valid lids dumped". A LID whose destination is gone reads "(unknown node and type)": still routed, kept.
 */
public final class IbrouteParser {
    private IbrouteParser() {}

    private static final Pattern HEAD = Pattern.compile("^Unicast lids \\[\\S+\\] of switch Lid (\\d+) guid (0x[0-9a-fA-F]+) \\((.*)\\):\\s*$");
    private static final Pattern ENTRY = Pattern.compile("^(0x[0-9a-fA-F]+) (\\d{3}) : .*$");

    public static Lft parse(Text t, Issues issues) {
        Integer lid = null;
        long guid = 0;
        String name = "";
        TreeMap<Integer, Integer> ports = new TreeMap<>();
        for (int i = 0; i < t.lines().size(); i++) {
            String line = t.lines().get(i);
            if (line.isBlank() || line.trim().startsWith("Lid  Out") || line.trim().startsWith("Port     Info") || line.contains("valid lids dumped")
                    || line.startsWith("ibwarn:")) continue;
            Matcher h = HEAD.matcher(line);
            if (h.matches()) {
                lid = Integer.parseInt(h.group(1));
                guid = Long.parseUnsignedLong(h.group(2).substring(2), 16);
                name = h.group(3);
                continue;
            }
            Matcher e = ENTRY.matcher(line);
            if (e.matches()) {
                try {
                    ports.put(Integer.parseInt(e.group(1).substring(2), 16), Integer.parseInt(e.group(2)));
                } catch (NumberFormatException bad) {
                    issues.add(t, i + 1, "unreadable LFT entry: '" + Text.excerpt(line) + "'");
                }
            } else issues.add(t, i + 1, "unrecognised ibroute line: '" + Text.excerpt(line) + "'");
        }
        if (lid == null) throw t.error(0, "no 'Unicast lids ... of switch Lid N' heading");
        return new Lft(lid, guid, name, ports);
    }
}
