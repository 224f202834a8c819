package io.ibaccept.parse;

import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses {@code iblinkinfo} output: "Switch: guid name:" / "CA: name:" headers followed by port lines. */
public final class IblinkinfoParser {
    private IblinkinfoParser() {}

    private static final Pattern SWITCH = Pattern.compile("^Switch:\\s+(0x[0-9a-fA-F]+)\\s+(.*):$");
    private static final Pattern CA = Pattern.compile("^CA:\\s+(.*):$");
    private static final Pattern PORT = Pattern.compile(
            "^(?:(0x[0-9a-fA-F]+)\\s+)?(\\d+)\\s+(\\d+)\\[[^\\]]*\\]\\s+==\\(\\s*(?:(\\d+X)\\s+([\\d.]+ Gbps)\\s+)?"
                    + "(\\S+)/\\s*(\\S+)\\s*\\)==>\\s*(?:(\\d+)\\s+(\\d+))?\\[[^\\]]*\\]\\s+\"([^\"]*)\"\\s*\\((.*)\\)\\s*$");

    public static List<LinkInfo> parse(Text t) {
        List<String> lines = t.lines();
        List<LinkInfo> out = new ArrayList<>();
        boolean isSwitch = false;
        long guid = 0;
        String name = null;
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String line = lines.get(i).trim();
            if (line.isEmpty()) continue;
            Matcher m = SWITCH.matcher(line);
            if (m.matches()) {
                isSwitch = true;
                guid = Nums.hex(t, ln, m.group(1));
                name = m.group(2).trim();
                continue;
            }
            m = CA.matcher(line);
            if (m.matches()) {
                isSwitch = false;
                guid = 0;
                name = m.group(1).trim();
                continue;
            }
            Matcher pm = PORT.matcher(line);
            if (!pm.matches()) throw t.error(ln, "unrecognised iblinkinfo line: '" + line + "'");
            if (name == null) throw t.error(ln, "port line before any 'Switch:' or 'CA:' header");
            long portGuid = pm.group(1) == null ? guid : Nums.hex(t, ln, pm.group(1));
            LinkWidth w = pm.group(4) == null ? null : LinkWidth.parse(pm.group(4))
                    .orElseThrow(() -> t.error(ln, "unknown width '" + pm.group(4) + "'"));
            LinkSpeed s = pm.group(5) == null ? null : LinkSpeed.parse(pm.group(5))
                    .orElseThrow(() -> t.error(ln, "unknown speed '" + pm.group(5) + "'"));
            int rLid = pm.group(8) == null ? -1 : Integer.parseInt(pm.group(8));
            int rPort = pm.group(9) == null ? -1 : Integer.parseInt(pm.group(9));
            out.add(new LinkInfo(isSwitch, portGuid, name, Integer.parseInt(pm.group(2)), Integer.parseInt(pm.group(3)),
                    w, s, pm.group(6), pm.group(7), rLid, rPort, pm.group(10), pm.group(11).trim(), t.at(ln)));
        }
        if (out.isEmpty()) throw t.error(0, "no port lines found in iblinkinfo output");
        return out;
    }
}
