package io.ibaccept.parse;

import io.ibaccept.model.HostConfig.IpLink;
import io.ibaccept.model.HostConfig.MlxDevice;
import io.ibaccept.model.HostConfig.TimeSync;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Host configuration outputs: iproute2's {@code ip -d addr show} (also {@code ip -d link show} and
 * {@code ip addr show}), {@code chronyc tracking} and {@code mlxconfig q}. Lines are scanned, never matched with a
 * regex; an unreadable record is one issue and the next record is read.
 */
public final class HostConfigParsers {
    private HostConfigParsers() {}

    // ---------------------------------------------------------------- iproute2

    /**
     * Interfaces as iproute2 prints them (ip/ipaddress.c print_linkinfo, ip/iplink_ipoib.c print_opt): a header
     * "19: mlx5_ib0: &lt;BROADCAST,MULTICAST,UP,LOWER_UP&gt; mtu 2044 qdisc mq state UP ...", then indented lines
     * "link/infiniband 00:00:11:79:fe:80:...:24:8a:07:03:00:a3:19:64 brd ...", "ipoib pkey  0xffff mode  datagram
     * umcast  0000 ...", "inet 10.10.0.254/16 brd ...", "altname ...", "valid_lft ...".
     */
    public static List<IpLink> ipLinks(Text t, Issues issues) {
        List<IpLink> out = new ArrayList<>();
        List<String> lines = t.lines();
        Builder cur = null;
        boolean skipping = false;
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String line = lines.get(i);
            if (line.isBlank()) continue;
            if (!Character.isWhitespace(line.charAt(0))) {
                if (cur != null) out.add(cur.build());
                cur = null;
                Builder b = issues.record(() -> header(t, ln, line));
                skipping = b == null;
                cur = b;
                continue;
            }
            if (skipping) continue; // detail lines of a header already reported
            if (cur == null) {
                issues.add(t, ln, "interface detail line before any interface header: '" + Text.excerpt(line.trim()) + "'");
                skipping = true;
                continue;
            }
            Builder b = cur;
            issues.record(() -> {
                detail(t, ln, Fields.split(line), b);
                return Boolean.TRUE;
            });
        }
        if (cur != null) out.add(cur.build());
        if (out.isEmpty()) throw t.error(0, "no network interface in the output (expected 'N: NAME: <FLAGS> mtu ...' lines)");
        return out;
    }

    private static final class Builder {
        String name, parent, master, state = "", linkType = "";
        List<String> flags = List.of();
        int mtu = -1;
        long portGuid;
        Integer pkey;
        String mode;
        final List<String> addresses = new ArrayList<>();
        SourceRef ref;

        IpLink build() {
            return new IpLink(name, parent, flags, mtu, state, linkType, portGuid, pkey, mode, addresses, ref, master);
        }
    }

    private static Builder header(Text t, int ln, String line) {
        int c1 = line.indexOf(": ");
        if (c1 <= 0 || !Nums.isDigits(line.substring(0, c1)))
            throw t.error(ln, "not an interface header ('N: NAME: <FLAGS> ...'): '" + Text.excerpt(line) + "'");
        int c2 = line.indexOf(": ", c1 + 2);
        if (c2 < 0) throw t.error(ln, "interface header without a name: '" + Text.excerpt(line) + "'");
        Builder b = new Builder();
        String name = line.substring(c1 + 2, c2).trim();
        int at = name.indexOf('@');
        b.name = at > 0 ? name.substring(0, at) : name;
        b.parent = at > 0 ? name.substring(at + 1) : null;
        if (b.name.isEmpty() || b.name.length() > 64) throw t.error(ln, "interface name missing or too long: '" + Text.excerpt(name) + "'");
        String rest = line.substring(c2 + 2).trim();
        if (rest.startsWith("<")) {
            int gt = rest.indexOf('>');
            if (gt < 0) throw t.error(ln, "interface flags not closed with '>': '" + Text.excerpt(rest) + "'");
            String f = rest.substring(1, gt);
            b.flags = f.isEmpty() ? List.of() : List.of(f.split(",", -1));
            rest = rest.substring(gt + 1);
        }
        List<String> tok = Fields.split(rest);
        for (int k = 0; k + 1 < tok.size(); k++) {
            switch (tok.get(k)) {
                case "mtu" -> b.mtu = Nums.integer(t, ln, tok.get(k + 1));
                case "state" -> b.state = tok.get(k + 1);
                case "master" -> b.master = tok.get(k + 1);
                default -> { }
            }
        }
        if (b.mtu < 0) throw t.error(ln, "interface " + b.name + ": no 'mtu N' in its header");
        b.ref = t.at(ln);
        return b;
    }

    private static void detail(Text t, int ln, List<String> tok, Builder b) {
        if (tok.isEmpty()) return;
        String first = tok.get(0);
        if (first.startsWith("link/")) {
            b.linkType = first.substring(5);
            if (b.linkType.equals("infiniband")) {
                if (tok.size() < 2) throw t.error(ln, b.name + ": link/infiniband without an address");
                b.portGuid = portGuid(t, ln, tok.get(1));
            }
        } else if (first.equals("inet") || first.equals("inet6")) {
            if (tok.size() < 2) throw t.error(ln, b.name + ": '" + first + "' without an address");
            b.addresses.add(tok.get(1));
        }
        // the IPoIB options follow the link line (same line or the next one, depending on the iproute2 version)
        for (int k = 0; k + 1 < tok.size(); k++) {
            if (!tok.get(k).equals("ipoib") || !tok.get(k + 1).equals("pkey")) continue;
            for (int j = k + 1; j + 1 < tok.size(); j++) {
                switch (tok.get(j)) {
                    case "pkey" -> {
                        long p = Nums.hex(t, ln, tok.get(j + 1));
                        if (p > 0xffff) throw t.error(ln, b.name + ": P_Key " + tok.get(j + 1) + " is wider than 16 bits");
                        b.pkey = (int) p;
                    }
                    case "mode" -> {
                        String m = tok.get(j + 1);
                        if (!m.equals("datagram") && !m.equals("connected"))
                            throw t.error(ln, b.name + ": unknown IPoIB mode '" + Text.excerpt(m) + "' (datagram or connected)");
                        b.mode = m;
                    }
                    default -> { }
                }
            }
            break;
        }
    }

    /** The port GUID: bytes 12..19 of the 20-byte IPoIB hardware address (flags+QPN, subnet prefix, GUID). */
    private static long portGuid(Text t, int ln, String addr) {
        String[] b = addr.split(":", -1);
        if (b.length != 20) throw t.error(ln, "IPoIB hardware address '" + Text.excerpt(addr) + "' is not 20 bytes");
        StringBuilder hex = new StringBuilder(16);
        for (int i = 12; i < 20; i++) {
            if (b[i].length() != 2) throw t.error(ln, "IPoIB hardware address '" + Text.excerpt(addr) + "' has a malformed byte");
            hex.append(b[i]);
        }
        return Nums.hex(t, ln, hex.toString());
    }

    // ---------------------------------------------------------------- chronyc

    /**
     * chronyc tracking (chrony's client.c process_cmd_tracking): "Key : value" lines, "System time : 0.000001501
     * seconds slow of NTP time" (slow = the clock is behind: negative), "Leap status : Normal|Insert second|Delete
     * second|Not synchronised".
     */
    public static TimeSync chronyTracking(Text t, Issues issues) {
        String refId = "", refName = "", leap = null;
        int stratum = -1;
        double system = Double.NaN, last = Double.NaN, rms = Double.NaN;
        SourceRef leapRef = null, offsetRef = null, first = null;
        List<String> lines = t.lines();
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String line = lines.get(i).trim();
            if (line.isEmpty()) continue;
            int colon = line.indexOf(':');
            if (colon <= 0) {
                issues.add(t, ln, "not a 'Key : value' line of chronyc tracking: '" + Text.excerpt(line) + "'");
                continue;
            }
            String key = line.substring(0, colon).trim();
            String value = line.substring(colon + 1).trim();
            if (first == null) first = t.at(ln);
            try {
                switch (key) {
                    case "Reference ID" -> {
                        List<String> tok = Fields.split(value);
                        refId = tok.isEmpty() ? "" : tok.get(0);
                        int open = value.indexOf('('), close = value.lastIndexOf(')');
                        refName = open >= 0 && close > open ? value.substring(open + 1, close) : "";
                    }
                    case "Stratum" -> stratum = Nums.integer(t, ln, value);
                    case "System time" -> {
                        List<String> tok = Fields.split(value);
                        if (tok.size() < 3 || !(tok.get(2).equals("fast") || tok.get(2).equals("slow")))
                            throw t.error(ln, "System time not as 'N seconds fast|slow of NTP time': '" + Text.excerpt(value) + "'");
                        double v = Nums.decimal(t, ln, tok.get(0));
                        system = tok.get(2).equals("slow") ? -v : v;
                        offsetRef = t.at(ln);
                    }
                    case "Last offset" -> {
                        last = seconds(t, ln, value);
                        if (offsetRef == null) offsetRef = t.at(ln);
                    }
                    case "RMS offset" -> rms = seconds(t, ln, value);
                    case "Leap status" -> {
                        leap = value;
                        leapRef = t.at(ln);
                    }
                    default -> { } // Ref time, Frequency, Skew, Root delay/dispersion, Update interval: not judged
                }
            } catch (ParseException e) {
                issues.add(e);
            }
        }
        if (leap == null) throw t.error(0, "no 'Leap status' line: not chronyc tracking output");
        return new TimeSync("chrony", refId, refName, stratum, system, last, rms, leap, first, leapRef,
                offsetRef == null ? leapRef : offsetRef);
    }

    /** The time-sync file: pmc's TIME_STATUS_NP answer where the host runs PTP, else chronyc tracking. */
    public static TimeSync timeSync(Text t, Issues issues) {
        for (String line : t.lines())
            if (line.contains("TIME_STATUS_NP")) return pmcTimeStatus(t, issues);
        return chronyTracking(t, issues);
    }

    /**
     * linuxptp's {@code pmc -u -b 0 'GET TIME_STATUS_NP'}: a "... RESPONSE MANAGEMENT TIME_STATUS_NP" line, then
     * tab-indented "name value" lines (master_offset in ns, gmPresent true|false, gmIdentity). The first response is
     * read. Returned as a TimeSync with source "ptp": systemTime = master_offset, leapStatus "gmPresent true|false" or
     * "grandmaster" (the host's own clock is the grandmaster), referenceId the grandmaster identity, referenceName the
     * host's own clock identity.
     */
    public static TimeSync pmcTimeStatus(Text t, Issues issues) {
        List<String> lines = t.lines();
        int start = -1;
        for (int i = 0; i < lines.size() && start < 0; i++)
            if (lines.get(i).contains("RESPONSE MANAGEMENT TIME_STATUS_NP")) start = i;
        if (start < 0) throw t.error(0, "no TIME_STATUS_NP response (ptp4l not running or not answering on its UDS socket)");
        double offset = Double.NaN;
        String gmPresent = null, gm = "";
        SourceRef offsetRef = null, presentRef = null;
        for (int i = start + 1; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty()) continue;
            if (line.contains("RESPONSE MANAGEMENT") || line.startsWith("sending:")) break;
            List<String> tok = Fields.split(line);
            if (tok.size() < 2) {
                issues.add(t, i + 1, "not a 'name value' line of TIME_STATUS_NP: '" + Text.excerpt(line) + "'");
                continue;
            }
            int ln = i + 1;
            switch (tok.get(0)) {
                case "master_offset" -> {
                    Long ns = Nums.parseDecimal(tok.get(1));
                    if (ns == null) issues.add(t, ln, "master_offset is not an integer: '" + Text.excerpt(tok.get(1)) + "'");
                    else {
                        offset = ns / 1e9;
                        offsetRef = t.at(ln);
                    }
                }
                case "gmPresent" -> {
                    gmPresent = tok.get(1);
                    presentRef = t.at(ln);
                }
                case "gmIdentity" -> gm = tok.get(1);
                default -> { }
            }
        }
        if (gmPresent == null) throw t.error(start + 1, "TIME_STATUS_NP response without gmPresent");
        // the responder's port identity ("123456.fffe.780102-0 seq 0 RESPONSE ..."): its clock identity before the '-'.
        // ptp4l reports gmPresent false when the grandmaster is its own clock: the real grandmaster, or a host that
        // lost its master and elected itself (told apart across hosts by whether any host follows it)
        String self = Fields.split(lines.get(start).trim()).get(0);
        int dash = self.lastIndexOf('-');
        if (dash > 0) self = self.substring(0, dash);
        String status = gmPresent.equals("false") && !gm.isEmpty() && gm.equalsIgnoreCase(self) ? "grandmaster" : "gmPresent " + gmPresent;
        return new TimeSync("ptp", gm, self, -1, offset, Double.NaN, Double.NaN, status, t.at(start + 1), presentRef,
                offsetRef == null ? presentRef : offsetRef);
    }

    private static double seconds(Text t, int ln, String value) {
        List<String> tok = Fields.split(value);
        if (tok.isEmpty()) throw t.error(ln, "offset without a value");
        return Nums.decimal(t, ln, tok.get(0));
    }

    // ---------------------------------------------------------------- mlxconfig

    /**
     * mlxconfig q (MFT): per device "Device #N:", a dashed line, "Device type:", "Name:", "Description:", "Device:",
     * then "Configurations:" with the column names (Next Boot; Default/Current/Next Boot with -e) and one indented
     * "NAME   VALUE..." line per setting ('*' marks a value changed from its default).
     */
    public static List<MlxDevice> mlxconfig(Text t, Issues issues) {
        List<MlxDevice> out = new ArrayList<>();
        List<String> lines = t.lines();
        String type = "", part = "", device = "";
        List<String> columns = List.of();
        Map<String, String> settings = new LinkedHashMap<>();
        Map<String, SourceRef> refs = new LinkedHashMap<>();
        SourceRef devRef = null;
        boolean inConfig = false;
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String raw = lines.get(i);
            String line = raw.trim();
            if (line.isEmpty() || line.chars().allMatch(c -> c == '-')) continue;
            if (line.startsWith("Device #") && line.endsWith(":")) {
                if (devRef != null) out.add(device(type, part, device, columns, settings, refs, devRef));
                type = part = device = "";
                columns = List.of();
                settings = new LinkedHashMap<>();
                refs = new LinkedHashMap<>();
                devRef = t.at(ln);
                inConfig = false;
                continue;
            }
            if (line.startsWith("-E-") || line.startsWith("-W-")) {
                issues.add(t, ln, "mlxconfig: " + Text.excerpt(line));
                continue;
            }
            if (line.startsWith("The '*' shows")) continue;
            if (!inConfig) {
                int colon = line.indexOf(':');
                if (colon <= 0) {
                    issues.add(t, ln, "unexpected line in the mlxconfig device header: '" + Text.excerpt(line) + "'");
                    continue;
                }
                String key = line.substring(0, colon).trim(), value = line.substring(colon + 1).trim();
                switch (key) {
                    case "Device type" -> type = value;
                    case "Name" -> part = value;
                    case "Device" -> device = value;
                    case "Configurations" -> {
                        columns = columns(value);
                        inConfig = true;
                    }
                    default -> { } // Description, PCI device, ...
                }
                if (devRef == null) devRef = t.at(ln); // output of a tool version without the "Device #1:" line
                continue;
            }
            if (line.startsWith("*")) line = line.substring(1).trim();
            List<String> tok = Fields.split(line);
            if (tok.size() < 2 || !isSettingName(tok.get(0))) {
                issues.add(t, ln, "not a 'NAME VALUE' setting line: '" + Text.excerpt(line) + "'");
                continue;
            }
            List<String> values = tok.subList(1, tok.size());
            int col = columns.indexOf("Current");
            String v = values.size() == columns.size() && col >= 0 ? values.get(col) : values.get(values.size() - 1);
            settings.put(tok.get(0), v);
            refs.put(tok.get(0), t.at(ln));
        }
        if (devRef != null) out.add(device(type, part, device, columns, settings, refs, devRef));
        out.removeIf(d -> d.settings().isEmpty() && d.deviceType().isEmpty());
        if (out.isEmpty()) throw t.error(0, "no device with configurations in the mlxconfig output");
        return out;
    }

    private static MlxDevice device(String type, String part, String device, List<String> columns,
                                    Map<String, String> settings, Map<String, SourceRef> refs, SourceRef ref) {
        int col = columns.indexOf("Current");
        String shown = col >= 0 ? "Current" : columns.isEmpty() ? "" : columns.get(columns.size() - 1);
        return new MlxDevice(type, part, device, shown, settings, refs, ref);
    }

    /** Column names separated by two or more spaces ("Next Boot" is one name). */
    private static List<String> columns(String s) {
        List<String> out = new ArrayList<>();
        String v = s.trim();
        int start = 0;
        for (int i = 0; i <= v.length(); i++) {
            boolean gap = i == v.length() || v.charAt(i) == ' ' && i + 1 < v.length() && v.charAt(i + 1) == ' ';
            if (!gap) continue;
            String part = v.substring(start, i).trim();
            if (!part.isEmpty()) out.add(part);
            while (i < v.length() && v.charAt(i) == ' ') i++;
            start = i;
        }
        return out;
    }

    private static boolean isSettingName(String s) {
        if (s.isEmpty() || s.length() > 100) return false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_')) return false;
        }
        return Character.isUpperCase(s.charAt(0)) || s.charAt(0) == '_';
    }
}
