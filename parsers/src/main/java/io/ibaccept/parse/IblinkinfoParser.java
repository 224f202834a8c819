package io.ibaccept.parse;

import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@code iblinkinfo} output: "Switch: guid name:" / "CA: name:" headers followed by port lines as
 * infiniband-diags' print_port() writes them: {@code [guid] LID PORT[ext] ==(WIDTH SPEED STATE/PHYS)==> remote}, where
 * the speed may read "10.0 Gbps (FDR10)", older versions print "Active/ LinkUp", down ports print only the state, and
 * the remote is 'LID PORT[ext] "name" (hint)' or '"Port not available"'. Lines are scanned by position (no
 * backtracking pattern); an unreadable port line is one issue, the others are kept.
 */
public final class IblinkinfoParser {
    private IblinkinfoParser() {}

    public static List<LinkInfo> parse(Text t) {
        return parse(t, Issues.strict());
    }

    public static List<LinkInfo> parse(Text t, Issues issues) {
        List<String> lines = t.lines();
        List<LinkInfo> out = new ArrayList<>();
        boolean isSwitch = false;
        long guid = 0;
        String name = null;
        Redactions redacted = new Redactions();
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String line = lines.get(i).trim();
            if (line.isEmpty()) continue;
            if (line.startsWith("Switch:") && line.endsWith(":") && line.indexOf("==(") < 0) {
                List<String> f = Fields.split(line.substring(7, line.length() - 1));
                Long g = f.isEmpty() ? null : issues.record(() -> redacted.hex(t, ln, f.get(0)));
                if (g == null) {
                    if (f.isEmpty()) issues.add(t, ln, "cannot read switch header '" + Text.excerpt(line) + "'");
                    name = null;
                    continue;
                }
                isSwitch = true;
                guid = g;
                String rest = line.substring(7, line.length() - 1).trim();
                name = rest.substring(f.get(0).length()).trim();
                continue;
            }
            if (line.startsWith("CA:") && line.endsWith(":") && line.indexOf("==(") < 0) {
                isSwitch = false;
                guid = 0;
                name = line.substring(3, line.length() - 1).trim();
                continue;
            }
            if (name == null) {
                issues.add(t, ln, line.indexOf("==(") >= 0 ? "port line before any 'Switch:' or 'CA:' header"
                        : "unrecognised iblinkinfo line: '" + Text.excerpt(line) + "'");
                continue;
            }
            final boolean sw = isSwitch;
            final long g = guid;
            final String n = name;
            LinkInfo li = issues.record(() -> port(t, ln, line, sw, g, n, redacted));
            if (li != null) out.add(li);
        }
        redacted.report(t, issues, "; switches and CAs are told apart by their LIDs");
        if (out.isEmpty()) throw t.error(0, "no port lines found in iblinkinfo output");
        return out;
    }

    private static LinkInfo port(Text t, int ln, String line, boolean isSwitch, long nodeGuid, String name, Redactions redacted) {
        int open = line.indexOf("==(");
        int close = open < 0 ? -1 : line.indexOf(")==>", open);
        if (open < 0 || close < 0) throw t.error(ln, "unrecognised iblinkinfo line: '" + Text.excerpt(line) + "'");
        // left: [0xGUID] LID PORT[ext]
        String left = line.substring(0, open);
        int bracket = left.indexOf('[');
        List<String> lf = Fields.split(bracket < 0 ? left : left.substring(0, bracket));
        if (lf.size() < 2 || lf.size() > 3) throw t.error(ln, "unrecognised iblinkinfo line: '" + Text.excerpt(line) + "'");
        long portGuid = lf.size() == 3 ? redacted.hex(t, ln, lf.get(0)) : nodeGuid;
        int lid = Nums.integer(t, ln, lf.get(lf.size() - 2));
        int port = Nums.integer(t, ln, lf.get(lf.size() - 1));
        // middle: [WIDTH SPEED...] STATE/ PHYS
        String mid = line.substring(open + 3, close);
        int slash = mid.lastIndexOf('/');
        if (slash < 0) throw t.error(ln, "expected 'State/Phys' in '" + Text.excerpt(mid) + "'");
        List<String> mf = Fields.split(mid.substring(0, slash));
        String phys = mid.substring(slash + 1).trim();
        if (mf.isEmpty() || phys.isEmpty()) throw t.error(ln, "expected 'State/Phys' in '" + Text.excerpt(mid) + "'");
        String state = mf.get(mf.size() - 1);
        LinkWidth w = null;
        LinkSpeed s = null;
        if (mf.size() >= 3) {
            // libibmad prints a width or speed PortInfo does not give as "undefined (N)", a speed of 0 as "Extended
            // speed" (a port still in Init may report them so): not reported, not unreadable
            boolean noWidth = mf.get(0).equals("undefined");
            int from = noWidth && mf.get(1).startsWith("(") ? 2 : 1;
            w = noWidth ? null : LinkWidth.parse(mf.get(0)).orElseThrow(() -> t.error(ln, "unknown width '" + Text.excerpt(mf.get(0)) + "'"));
            String speed = String.join(" ", mf.subList(Math.min(from, mf.size() - 1), mf.size() - 1));
            s = speed.isEmpty() || speed.startsWith("undefined") || speed.equals("Extended speed") ? null
                    : LinkSpeed.parse(speed).orElseThrow(() -> t.error(ln, "unknown speed '" + Text.excerpt(speed) + "'"));
        } else if (mf.size() == 2) {
            throw t.error(ln, "cannot read width/speed in '" + Text.excerpt(mid) + "'");
        }
        // right: 'LID PORT[ext] "name" (hint)' | '[ ] "" ( )' | '"Port not available"'
        String right = line.substring(close + 4).trim();
        int rLid = -1, rPort = -1;
        String rName = "", hint = "";
        if (!right.equals("\"Port not available\"")) {
            int rb = right.indexOf('[');
            int q1 = right.indexOf('"');
            int q2 = q1 < 0 ? -1 : right.indexOf('"', q1 + 1);
            if (rb < 0 || q1 < rb || q2 < 0) throw t.error(ln, "cannot read the remote end '" + Text.excerpt(right) + "'");
            List<String> rf = Fields.split(right.substring(0, rb));
            if (rf.size() == 2) {
                rLid = Nums.integer(t, ln, rf.get(0));
                rPort = Nums.integer(t, ln, rf.get(1));
            } else if (!rf.isEmpty()) {
                throw t.error(ln, "cannot read the remote end '" + Text.excerpt(right) + "'");
            }
            rName = right.substring(q1 + 1, q2);
            String tail = right.substring(q2 + 1).trim();
            if (tail.startsWith("(") && tail.endsWith(")")) hint = tail.substring(1, tail.length() - 1).trim();
        }
        return new LinkInfo(isSwitch, portGuid, name, lid, port, w, s, state, phys, rLid, rPort, rName, hint, t.at(ln));
    }
}
