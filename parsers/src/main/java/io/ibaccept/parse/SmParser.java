package io.ibaccept.parse;

import io.ibaccept.model.SmInfo;
import io.ibaccept.model.SmPort;
import java.util.ArrayList;
import java.util.List;

/** Parses {@code sminfo} (one line per queried SM) and {@code saquery -s}. */
public final class SmParser {
    private SmParser() {}

    private static final String PREFIX = "sminfo: sm lid ";

    public static List<SmInfo> sminfo(Text t) {
        return sminfo(t, Issues.strict());
    }

    /** "sminfo: sm lid 1 sm guid 0x100001, activity count 698 priority 14 state 3 SMINFO_MASTER". */
    public static List<SmInfo> sminfo(Text t, Issues issues) {
        List<SmInfo> out = new ArrayList<>();
        List<String> lines = t.lines();
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) continue;
            SmInfo s = issues.record(() -> {
                List<String> f = Fields.split(line.replace(",", " "));
                // sminfo: sm lid N sm guid G activity count A priority P state S NAME
                if (!line.startsWith(PREFIX) || f.size() != 15 || !f.get(4).equals("sm") || !f.get(5).equals("guid")
                        || !f.get(7).equals("activity") || !f.get(10).equals("priority") || !f.get(12).equals("state"))
                    throw t.error(ln, "unrecognised sminfo line: '" + Text.excerpt(line) + "'");
                return new SmInfo(Nums.integer(t, ln, f.get(3)), Nums.hex(t, ln, f.get(6)),
                        Nums.counter(t, ln, "activity count", f.get(9), 64), Nums.integer(t, ln, f.get(11)),
                        Nums.integer(t, ln, f.get(13)), f.get(14), t.at(ln));
            });
            if (s != null) out.add(s);
        }
        if (out.isEmpty()) throw t.error(0, "no 'sminfo: sm lid ...' line");
        return out;
    }

    public static List<SmPort> saquerySm(Text t) {
        return saquerySm(t, Issues.strict());
    }

    public static List<SmPort> saquerySm(Text t, Issues issues) {
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
            int dots = line.indexOf("..");
            if (dots <= 0) {
                issues.add(t, ln, "unrecognised saquery line: '" + Text.excerpt(line) + "'");
                continue;
            }
            String key = line.substring(0, dots);
            int v = dots;
            while (v < line.length() && line.charAt(v) == '.') v++;
            String val = line.substring(v);
            switch (key) {
                case "EndPortLid" -> lid = orMinus1(issues.record(() -> Nums.integer(t, ln, val)));
                case "PortNum" -> port = orMinus1(issues.record(() -> Nums.integer(t, ln, val)));
                case "capability_mask" -> {
                    Long c = issues.record(() -> Nums.hex(t, ln, val));
                    cap = c == null ? 0 : c;
                }
                default -> { }
            }
        }
        if (lid >= 0) out.add(new SmPort(lid, port, cap, disabled, t.at(start)));
        if (!sawSection && out.isEmpty()) throw t.error(0, "not 'saquery -s' output (no 'IsSM ports' section)");
        return out;
    }

    private static int orMinus1(Integer v) {
        return v == null ? -1 : v;
    }
}
