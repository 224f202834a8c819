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
    /**
     * As infiniband-diags' iblinkinfo print_port() writes it: "(%3s %18s %6s/%8s)" for up ports, where the speed may be
     * "10.0 Gbps (FDR10)", and either 'LID PORT[ext] "remote" (could-be hints)' or '"Port not available"' after "==>".
     */
    private static final Pattern PORT = Pattern.compile(
            "^(?:(?<guid>0x[0-9a-fA-F]+)\\s+)?(?<lid>\\d+)\\s+(?<port>\\d+)\\[[^\\]]*\\]\\s+==\\(\\s*"
                    + "(?:(?<width>\\d+X)\\s+(?<speed>[\\d.]+ Gbps)(?<fdr10>\\s*\\(FDR10\\))?\\s+)?"
                    + "(?<state>\\S+)/\\s*(?<phys>\\S+)\\s*\\)==>\\s*"
                    + "(?:(?:(?<rlid>\\d+)\\s+(?<rport>\\d+))?\\[[^\\]]*\\]\\s+\"(?<rname>[^\"]*)\"\\s*\\((?<hint>.*)\\)|\"Port not available\")\\s*$");

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
            long portGuid = pm.group("guid") == null ? guid : Nums.hex(t, ln, pm.group("guid"));
            LinkWidth w = pm.group("width") == null ? null : LinkWidth.parse(pm.group("width"))
                    .orElseThrow(() -> t.error(ln, "unknown width '" + pm.group("width") + "'"));
            LinkSpeed s = pm.group("speed") == null ? null : pm.group("fdr10") != null ? LinkSpeed.FDR10
                    : LinkSpeed.parse(pm.group("speed")).orElseThrow(() -> t.error(ln, "unknown speed '" + pm.group("speed") + "'"));
            int rLid = pm.group("rlid") == null ? -1 : Integer.parseInt(pm.group("rlid"));
            int rPort = pm.group("rport") == null ? -1 : Integer.parseInt(pm.group("rport"));
            out.add(new LinkInfo(isSwitch, portGuid, name, Integer.parseInt(pm.group("lid")), Integer.parseInt(pm.group("port")),
                    w, s, pm.group("state"), pm.group("phys"), rLid, rPort, pm.group("rname") == null ? "" : pm.group("rname"),
                    pm.group("hint") == null ? "" : pm.group("hint").trim(), t.at(ln)));
        }
        if (out.isEmpty()) throw t.error(0, "no port lines found in iblinkinfo output");
        return out;
    }
}
