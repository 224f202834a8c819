package io.ibaccept.parse;

import io.ibaccept.model.SmConfig;
import io.ibaccept.model.SmConfig.Member;
import io.ibaccept.model.SmConfig.Membership;
import io.ibaccept.model.SmConfig.Partition;
import io.ibaccept.model.SmConfig.SyntaxError;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The subnet manager node's files: ibaccept's opensm-process record, opensm.conf as opensm writes it
 * ({@code opensm -c}), partitions.conf read the way opensm 3.3's osm_prtn_config.c reads it, and opensm.log lines.
 */
public final class SmConfigParser {
    private SmConfigParser() {}

    /** ibaccept's own record of the running opensm: "pid: N", "config: PATH", "partitions: PATH", "log: PATH", "arg: A". */
    public static SmConfig.Process process(Text t, Issues issues) {
        long pid = 0;
        String config = "", partitions = "", log = "";
        List<String> args = new ArrayList<>();
        boolean known = false;
        for (int i = 0; i < t.lines().size(); i++) {
            String line = t.lines().get(i);
            if (line.isBlank()) continue;
            int colon = line.indexOf(": ");
            if (colon < 0 && line.endsWith(":")) colon = line.length() - 1; // "pid:" with nothing after it
            String key = colon < 0 ? line.trim() : line.substring(0, colon);
            String value = colon < 0 || colon + 2 > line.length() ? "" : line.substring(colon + 2);
            switch (key) {
                case "pid" -> {
                    known = true;
                    // an empty pid is the record of a named SM node where no opensm runs
                    Long v = value.isBlank() ? Long.valueOf(0) : number(value);
                    if (v == null) issues.add(t, i + 1, "pid '" + Text.excerpt(value) + "' is not a number");
                    else pid = v;
                }
                case "config" -> config = value;
                case "partitions" -> partitions = value;
                case "log" -> log = value;
                case "arg" -> args.add(value);
                default -> issues.add(t, i + 1, "unrecognised opensm-process line: '" + Text.excerpt(line) + "'");
            }
        }
        if (!known && args.isEmpty() && config.isEmpty()) throw t.error(0, "no opensm process facts (pid, config, arg lines)");
        return new SmConfig.Process(pid, args, config, partitions, log, t.at(1));
    }

    /** opensm.conf: '#' comments, "key value" lines; a later line for the same key overrides an earlier one. */
    public static SmConfig.Conf conf(Text t, Issues issues) {
        Map<String, SmConfig.Option> out = new LinkedHashMap<>();
        List<String> lines = t.lines();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            int sp = 0;
            while (sp < line.length() && !Character.isWhitespace(line.charAt(sp))) sp++;
            String key = line.substring(0, sp);
            String value = line.substring(sp).strip();
            out.put(key, new SmConfig.Option(key, value, t.at(i + 1)));
        }
        if (out.isEmpty()) throw t.error(0, "no 'option value' line: not an opensm.conf");
        return new SmConfig.Conf(out, t.name());
    }

    /**
     * partitions.conf. Grammar (opensm man page, PARTITION CONFIGURATION; osm_prtn_config.c):
     * {@code Name=PKey[,ipoib][,mtu=N][,rate=N][,sl=N][,scope=N][,defmember=full|limited|both] : member[=full|limited|both], ... ;}
     * A definition may continue over several lines until ';'; '#' starts a comment. Members are ALL, ALL_CAS,
     * ALL_SWITCHES, ALL_ROUTERS, SELF or port GUIDs; a member without a flag gets the defmember (limited by default).
     * Like opensm, an error drops the rest of its line (including a ';' on it) and the reading goes on: each is one
     * {@link SyntaxError} with its line, not an input problem (it is a fault of the configuration, judged by the rules).
     */
    public static SmConfig.Partitions partitions(Text t, Issues issues) {
        List<Partition> done = new ArrayList<>();
        List<SyntaxError> errors = new ArrayList<>();
        Builder cur = null;
        List<String> lines = t.lines();
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String line = lines.get(i);
            int hash = line.indexOf('#');
            if (hash >= 0) line = line.substring(0, hash);
            int pos = 0;
            while (true) {
                while (pos < line.length() && Character.isWhitespace(line.charAt(pos))) pos++;
                if (pos >= line.length()) break;
                int semi = line.indexOf(';', pos);
                String seg = line.substring(pos, semi < 0 ? line.length() : semi);
                pos = semi < 0 ? line.length() : semi + 1;
                String members = seg;
                if (cur == null) {
                    int colon = seg.indexOf(':');
                    if (colon < 0) {
                        errors.add(err(t.at(ln), "no partition definition found (expected 'Name=PKey : members;'): '"
                                + Text.excerpt(seg.strip()) + "'"));
                        break;
                    }
                    cur = header(t, ln, seg.substring(0, colon), errors);
                    if (cur == null) break;
                    members = seg.substring(colon + 1);
                }
                if (!members(t, ln, members, cur, errors)) break;
                if (semi >= 0) {
                    done.add(cur.build());
                    cur = null;
                }
            }
        }
        if (cur != null) done.add(cur.build());
        if (done.isEmpty() && errors.isEmpty() && t.content().isBlank()) throw t.error(0, "empty partitions file");
        return new SmConfig.Partitions(done, errors, t.name());
    }

    /** A rejected line: opensm's "PARSE ERROR" messages. */
    private static final String[] REJECTED = {"no partition definition", "bad partition flags", "bad partition definition", "bad PortGUID"};

    private static SyntaxError err(io.ibaccept.parse.SourceRef ref, String message) {
        boolean rejected = false;
        for (String r : REJECTED) rejected |= message.startsWith(r);
        return new SyntaxError(ref, message, rejected);
    }

    private static final class Builder {
        String name;
        int pkey;
        boolean ipoib;
        Integer mtu, rate, sl;
        Membership defmember = Membership.LIMITED;
        boolean defmemberWritten;
        final List<Member> members = new ArrayList<>();
        io.ibaccept.parse.SourceRef ref;

        Partition build() {
            return new Partition(name, pkey, ipoib, mtu, rate, sl, defmember, defmemberWritten, members, ref);
        }
    }

    private static Builder header(Text t, int ln, String header, List<SyntaxError> errors) {
        String[] tokens = header.split(",", -1);
        Builder b = new Builder();
        b.ref = t.at(ln);
        String[] nameId = token(tokens[0]);
        String name = nameId[0], id = nameId[1];
        if (id == null && !name.isEmpty() && Character.isDigit(name.charAt(0))) {
            id = name;
            name = "";
        }
        b.name = name;
        for (int k = 1; k < tokens.length; k++) {
            String[] fv = token(tokens[k]);
            if (fv[0].isEmpty()) {
                errors.add(err(t.at(ln), "bad partition flags (an empty flag between commas) in '" + Text.excerpt(header.strip()) + "'"));
                return null;
            }
            flag(t, ln, b, fv[0], fv[1], errors);
        }
        if (id != null) {
            Long v = number(id);
            if (v == null) {
                errors.add(err(t.at(ln), "bad partition definition: P_Key '" + Text.excerpt(id) + "' of '" + Text.excerpt(name)
                        + "' is not a number (e.g. 0x0002)"));
                return null;
            }
            if (v > 0xffff) {
                errors.add(err(t.at(ln), String.format("P_Key %s of '%s' is wider than 16 bits: opensm keeps 0x%04x", Text.excerpt(id),
                        Text.excerpt(name), v & 0xffff)));
                v = v & 0xffff;
            }
            b.pkey = v.intValue();
        }
        return b;
    }

    /** opensm matches a flag when what is written is a prefix of the flag's name ('ipoib', 'ip', 'mtu'...). */
    private static boolean is(String written, String flag) {
        return !written.isEmpty() && flag.startsWith(written);
    }

    private static void flag(Text t, int ln, Builder b, String f, String v, List<SyntaxError> errors) {
        if (is(f, "mtu")) b.mtu = flagNumber(t, ln, "mtu", v, 1, 5, errors);
        else if (is(f, "rate")) b.rate = flagNumber(t, ln, "rate", v, 1, 22, errors);
        else if (is(f, "scope")) flagNumber(t, ln, "scope", v, 1, 15, errors);
        else if (f.equals("Q_Key") || f.equals("TClass") || f.equals("FlowLabel")) flagNumber(t, ln, f, v, 0, 0xfffff, errors);
        else if (is(f, "sl")) b.sl = flagNumber(t, ln, "sl", v, 0, 15, errors);
        else if (is(f, "ipoib")) b.ipoib = true;
        else if (f.equals("indx0")) { // newer opensm: put the key at index 0 of the P_Key tables
        }
        else if (is(f, "defmember")) {
            Membership m = v == null ? null : membership(v);
            if (m == null || v.isEmpty()) errors.add(err(t.at(ln), "flag 'defmember' needs full, limited or both (found '"
                    + (v == null ? "" : Text.excerpt(v)) + "'): opensm skips it and members stay limited"));
            else {
                b.defmember = m;
                b.defmemberWritten = true;
            }
        } else errors.add(err(t.at(ln), "unrecognised partition flag '" + Text.excerpt(f) + "': opensm ignores it"));
    }

    private static Integer flagNumber(Text t, int ln, String f, String v, int min, int max, List<SyntaxError> errors) {
        Long n = v == null ? null : number(v);
        if (n == null || n < min || n > max) {
            errors.add(err(t.at(ln), "flag '" + f + "' needs a value from " + min + " to " + max + " (found '"
                    + (v == null ? "" : Text.excerpt(v)) + "'): opensm skips it"));
            return null;
        }
        return n.intValue();
    }

    private static Membership membership(String v) {
        if (!v.isEmpty() && "full".startsWith(v)) return Membership.FULL;
        if (!v.isEmpty() && "both".startsWith(v)) return Membership.BOTH;
        if (!v.isEmpty() && "limited".startsWith(v)) return Membership.LIMITED;
        return null;
    }

    /** Members of one segment; false when a member was rejected (opensm drops the rest of the line). */
    private static boolean members(Text t, int ln, String seg, Builder b, List<SyntaxError> errors) {
        for (String tok : seg.split(",", -1)) {
            String[] nf = token(tok);
            String name = nf[0], flag = nf[1];
            if (name.isEmpty() || is(name, "NONE")) continue;
            if (name.equals("mgid")) return true; // a multicast group line: consumes the rest of the segment
            long guid = 0;
            String canonical;
            if (is(name, "ALL")) canonical = "ALL";
            else if (name.equals("ALL_CAS") || name.equals("ALL_SWITCHES") || name.equals("ALL_ROUTERS")) canonical = name;
            else if (is(name, "SELF")) canonical = "SELF";
            else {
                Long g = unsigned(name);
                if (g == null || g == 0) {
                    errors.add(err(t.at(ln), "bad PortGUID '" + Text.excerpt(name) + "'"
                            + (name.indexOf(':') >= 0 || tok.indexOf(':') >= 0 || (flag != null && Character.isDigit(flag.isEmpty() ? 'x' : flag.charAt(0)))
                            ? ": a partition header read as a member, is the ';' missing at the end of the previous definition?" : "")
                            + " (opensm drops the rest of this line)"));
                    return false;
                }
                guid = g;
                canonical = String.format("0x%016x", g);
            }
            Membership m = b.defmember;
            boolean written = flag != null;
            if (written) {
                Membership w = membership(flag);
                if (w == null) errors.add(err(t.at(ln), "membership '" + Text.excerpt(flag) + "' of " + Text.excerpt(name)
                        + " is not full, limited or both: opensm makes it limited"));
                m = w == null ? Membership.LIMITED : w;
            }
            b.members.add(new Member(canonical, guid, m, written, t.at(ln)));
        }
        return true;
    }

    /** "name=value" around the first '=', both trimmed; value null without '='. */
    private static String[] token(String s) {
        int eq = s.indexOf('=');
        if (eq < 0) return new String[] {s.strip(), null};
        return new String[] {s.substring(0, eq).strip(), s.substring(eq + 1).strip()};
    }

    /** strtoul with base 0: 0x hex, leading 0 octal, else decimal; null if not a whole number. */
    static Long number(String s) {
        Long v = unsigned(s);
        return v == null || v < 0 ? null : v;
    }

    private static Long unsigned(String s) {
        String v = s.strip();
        try {
            if (v.startsWith("0x") || v.startsWith("0X")) return v.length() > 2 && v.length() <= 18 ? Long.parseUnsignedLong(v.substring(2), 16) : null;
            if (v.length() > 1 && v.startsWith("0")) return Long.parseUnsignedLong(v.substring(1), 8);
            return v.isEmpty() ? null : Long.parseUnsignedLong(v);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** What opensm.log lines are counted as, by the text opensm 3.3 prints (osm_state_mgr.c, osm_prtn_config.c, ...). */
    private static final String[][] LOG_KINDS = {
            {"SM port is down", "sm-port-down"},
            // osm_node_info_rcv.c: "ERR 0D15: Duplicate Port GUID 0x...! Found by the two directed routes:" and
            // "ERR 0D1C: No physical port found for node GUID ... Might be duplicate port GUID"
            {"Duplicate Port GUID", "duplicate-guid"},
            {"duplicate port GUID", "duplicate-guid"},
            {"Duplicate GUID", "duplicate-guid"},
            {"duplicate GUID", "duplicate-guid"},
            {"Found duplicated", "duplicate-guid"},
            {"PARSE ERROR", "partitions-parse-error"},
            {"retrying with default config", "partitions-ignored"},
            // osm_sminfo_rcv.c: an SM with another sm_key is ignored, so both may be MASTER (split brain)
            {"that doesn't match our local sm_key", "smkey-mismatch"},
            {"with non-matching sm_key", "smkey-mismatch"},
            // osm_sm_mad_ctrl.c: a standby polling its master, or a master polling the other SMs, got no answer
            {"Timeout while getting attribute 0x20 (SMInfo)", "sminfo-timeout"},
            {"Entering MASTER state", "master"},
            {"Entering STANDBY state", "standby"},
            {"Entering DISCOVERING state", "discovering"},
            {"Exiting SM", "exit"},
            {"eavy sweep", "heavy-sweep"},
            {"EAVY SWEEP", "heavy-sweep"},
            {"SUBNET UP", "subnet-up"},
            {" tables configured on all switches", "routing"},
            // osm_ucast_mgr.c / osm_ucast_ftree.c: the configured engine gave up and the next one (in the end minhop) ran
            {"cannot build lid matrices", "routing-failed"},
            {"cannot build fwd tables", "routing-failed"},
            {"hasn't been identified as FatTree", "routing-failed"},
            {"No routing engine able to successfully configure", "routing-failed"},
            // osm_ucast_dfsssp.c / osm_ucast_lash.c: how many VLs (layers of SLs) the engine needed to break the
            // credit loops of its routes, and how many the fabric offers; nue on one VL when QoS is off
            {"Virtual Lanes available: ", "vl-available"},
            {"Virtual Lanes needed: ", "vl-needed"},
            // dfsssp's paths per layer before it spreads the layers over the free VLs: which SLs hold one layer
            {"Paths per VL (before balancing)", "vl-paths-before"},
            {"paths per VL (after balancing)", "vl-paths-after"},
            {". lane: ", "vl-lane"},
            {"Lanes needed: ", "vl-needed"},
            {"using nue_max_num_vls ", "vl-needed"},
            {"log_trap_info:", "trap"},
    };

    /**
     * opensm.log: "Mon DD HH:MM:SS USEC [THREAD] 0xLEVEL -> function: message". A line naming a known event gets its
     * kind; any other line logged at the error level (0x01) or with an "ERR XXXX:" code is kind "error" (with the
     * code or function in the message); the other lines are only counted. Events are kept from the last start of
     * opensm in the tail on.
     */
    /** ibaccept's collection of the routing files opensm names: "### KEY PATH", then the file's text ("### unreadable": not readable there). */
    public static SmConfig.RoutingFiles routingFiles(Text t, Issues issues) {
        Map<String, SmConfig.RoutingFile> out = new LinkedHashMap<>();
        List<String> lines = t.lines();
        String key = null, path = null;
        int at = 0;
        StringBuilder text = new StringBuilder();
        boolean unreadable = false;
        for (int i = 0; i <= lines.size(); i++) {
            String line = i < lines.size() ? lines.get(i) : null;
            boolean head = line != null && line.startsWith("### ") && !line.equals("### unreadable");
            if ((line == null || head) && key != null) {
                out.put(key, new SmConfig.RoutingFile(key, path, unreadable ? null : text.toString(), t.at(at)));
                key = null;
            }
            if (line == null) break;
            if (head) {
                String[] kp = line.substring(4).split(" ", 2);
                if (kp.length < 2) {
                    issues.add(t, i + 1, "routing file heading without a path: '" + Text.excerpt(line) + "'");
                    continue;
                }
                key = kp[0];
                path = kp[1];
                at = i + 1;
                text.setLength(0);
                unreadable = false;
            } else if (key != null) {
                if (line.equals("### unreadable")) unreadable = true;
                else text.append(line).append('\n');
            } else if (!line.isBlank()) issues.add(t, i + 1, "text before the first routing file heading: '" + Text.excerpt(line) + "'");
        }
        if (out.isEmpty()) throw t.error(0, "no routing file ('### KEY PATH')");
        return new SmConfig.RoutingFiles(out);
    }

    public static SmConfig.Log log(Text t, Issues issues) {
        List<SmConfig.LogEvent> events = new ArrayList<>();
        List<String> lines = t.lines();
        int n = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) continue;
            n++;
            int arrow = line.indexOf(" -> ");
            String msg = (arrow >= 0 ? line.substring(arrow + 4) : line).strip();
            String level = "";
            if (arrow > 0) {
                int sp = line.lastIndexOf(' ', arrow - 1);
                level = line.substring(sp + 1, arrow);
            }
            // opensm prints its banner ("OpenSM 3.3.23", SYS level 0x03) when it starts: what an earlier run logged (a
            // duplicate GUID since fixed, a partitions.conf since corrected) does not describe the running SM
            if (level.equals("0x03") && msg.startsWith("OpenSM ")) events.clear();
            String kind = null;
            for (String[] k : LOG_KINDS)
                if (msg.contains(k[0])) {
                    kind = k[1];
                    break;
                }
            int err = msg.indexOf("ERR ");
            boolean errCode = err >= 0 && err + 8 <= msg.length() && isHex(msg.substring(err + 4, err + 8));
            boolean errLevel = level.equals("0x01"); // OSM_LOG_ERROR; 0x03 is the SYS banner
            if (kind == null && (errCode || errLevel)) kind = "error";
            // opensm's messages run long ("... do not have any shared PKeys"): kept up to 400 characters
            if (kind != null) events.add(new SmConfig.LogEvent(kind, msg.length() > 400 ? msg.substring(0, 397) + "..." : msg, t.at(i + 1),
                    stamp(line)));
        }
        return new SmConfig.Log(events, n, t.name());
    }

    private static final java.util.List<String> MONTHS = List.of("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec");

    /** "Dec 04 05:18:05 064286 [...]": the line's time within its year (opensm's stamp has no year), null when unreadable. */
    static SmConfig.Stamp stamp(String line) {
        if (line.length() < 22 || line.charAt(3) != ' ' || line.charAt(6) != ' ' || line.charAt(9) != ':' || line.charAt(12) != ':'
                || line.charAt(15) != ' ') return null;
        int month = MONTHS.indexOf(line.substring(0, 3));
        try {
            int day = Integer.parseInt(line.substring(4, 6).trim()), h = Integer.parseInt(line.substring(7, 9)),
                    m = Integer.parseInt(line.substring(10, 12)), sec = Integer.parseInt(line.substring(13, 15));
            int sp = line.indexOf(' ', 16);
            long usec = sp > 16 ? Long.parseLong(line.substring(16, sp)) : 0;
            if (month < 0 || day < 1 || day > 31 || h > 23 || m > 59 || sec > 60 || usec < 0 || usec > 999_999) return null;
            long millis = ((java.time.LocalDate.of(2000, month + 1, 1).getDayOfYear() + day - 2L) * 86_400 + h * 3600L + m * 60L + sec) * 1000 + usec / 1000;
            return new SmConfig.Stamp(line.substring(0, 15), millis);
        } catch (NumberFormatException | java.time.DateTimeException e) {
            return null;
        }
    }

    private static boolean isHex(String s) {
        for (int i = 0; i < s.length(); i++) if (Character.digit(s.charAt(i), 16) < 0) return false;
        return true;
    }
}
