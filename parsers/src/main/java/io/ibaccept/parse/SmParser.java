package io.ibaccept.parse;

import io.ibaccept.model.SmInfo;
import io.ibaccept.model.SmPort;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses {@code sminfo} (one line per queried SM) and {@code saquery -s}. */
public final class SmParser {
    private SmParser() {}

    private static final Pattern SMINFO = Pattern.compile(
            "^sminfo: sm lid (\\d+) sm guid (0x[0-9a-fA-F]+), activity count (\\d+) priority (\\d+) state (\\d+) (\\S+)\\s*$");

    public static List<SmInfo> sminfo(Text t) {
        List<SmInfo> out = new ArrayList<>();
        List<String> lines = t.lines();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) continue;
            Matcher m = SMINFO.matcher(line);
            if (!m.matches()) throw t.error(i + 1, "unrecognised sminfo line: '" + line + "'");
            out.add(new SmInfo(Integer.parseInt(m.group(1)), Nums.hex(t, i + 1, m.group(2)),
                    Long.parseLong(m.group(3)), Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)),
                    m.group(6), t.at(i + 1)));
        }
        return out;
    }

    private static final Pattern FIELD = Pattern.compile("^(\\w+)\\.{2,}(.*)$");

    public static List<SmPort> saquerySm(Text t) {
        List<SmPort> out = new ArrayList<>();
        List<String> lines = t.lines();
        boolean disabled = false;
        boolean sawSection = false;
        int lid = -1, port = -1, start = 0;
        long cap = 0;
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String line = lines.get(i).trim();
            if (line.isEmpty()) continue;
            if (line.equals("IsSM ports") || line.equals("IsSMdisabled ports")) {
                if (lid >= 0) out.add(new SmPort(lid, port, cap, disabled, t.at(start)));
                lid = -1;
                disabled = line.equals("IsSMdisabled ports");
                sawSection = true;
                continue;
            }
            if (line.equals("PortInfoRecord dump:")) {
                if (lid >= 0) out.add(new SmPort(lid, port, cap, disabled, t.at(start)));
                lid = -1;
                start = ln;
                continue;
            }
            Matcher m = FIELD.matcher(line);
            if (!m.matches()) throw t.error(ln, "unrecognised saquery line: '" + line + "'");
            switch (m.group(1)) {
                case "EndPortLid" -> lid = Nums.integer(t, ln, m.group(2));
                case "PortNum" -> port = Nums.integer(t, ln, m.group(2));
                case "capability_mask" -> cap = Nums.hex(t, ln, m.group(2));
                default -> { }
            }
        }
        if (lid >= 0) out.add(new SmPort(lid, port, cap, disabled, t.at(start)));
        if (!sawSection && out.isEmpty()) throw t.error(0, "not 'saquery -s' output (no 'IsSM ports' section)");
        return out;
    }
}
