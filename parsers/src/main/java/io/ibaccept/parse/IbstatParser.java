package io.ibaccept.parse;

import io.ibaccept.model.Ibstat;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@code ibstat} output (one or more "CA 'name'" blocks, as infiniband-diags' ibstat.c prints them). Each CA is
 * a record: an unreadable field or a CA cut short is an issue, the other CAs are kept. Rates are printed as an integer,
 * "2.5" for SDR 1X, and with the speed name for FDR10 ("Rate: 40 (FDR10)").
 */
public final class IbstatParser {
    private IbstatParser() {}

    public static List<Ibstat.Ca> parse(Text t) {
        return parse(t, Issues.strict());
    }

    public static List<Ibstat.Ca> parse(Text t, Issues issues) {
        List<String> lines = t.lines();
        List<Ibstat.Ca> cas = new ArrayList<>();
        CaBuilder ca = null;
        PortBuilder port = null;
        ParseException aborted = null;
        Redactions redacted = new Redactions();
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String line = lines.get(i).trim();
            if (line.isEmpty()) continue;
            if (aborted(line)) {
                // ibstat stops at the first CA it cannot read (IBPANIC): its stderr, kept with the output, says which
                if (aborted == null) aborted = t.error(ln, "ibstat aborted: '" + Text.excerpt(line) + "': the CAs from there on"
                        + " are not listed, so this host's HCAs are incompletely known (not a host without ports)");
                continue;
            }
            if (line.startsWith("CA '") && line.endsWith("'") && line.length() > 5) {
                if (ca != null) cas.add(ca.build(t, port, issues));
                ca = new CaBuilder(line.substring(4, line.length() - 1), t.at(ln));
                port = null;
                continue;
            }
            if (ca == null) {
                issues.add(t, ln, "expected \"CA '<name>'\" header, found '" + Text.excerpt(line) + "'");
                continue;
            }
            if (line.startsWith("Port ") && line.endsWith(":") && Nums.isDigits(line.substring(5, line.length() - 1))) {
                if (port != null) ca.ports.add(port.build());
                Integer n = issues.record(() -> Nums.integer(t, ln, line.substring(5, line.length() - 1)));
                port = new PortBuilder(n == null ? -1 : n, t.at(ln));
                continue;
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                issues.add(t, ln, "expected 'Key: value', found '" + Text.excerpt(line) + "'");
                continue;
            }
            String key = line.substring(0, colon).trim();
            String val = line.substring(colon + 1).trim();
            final PortBuilder p = port;
            final CaBuilder c = ca;
            issues.record(() -> {
                if (p != null) p.set(t, ln, key, val, redacted);
                else c.set(t, ln, key, val, redacted);
                return null;
            });
        }
        if (ca != null) cas.add(ca.build(t, port, issues));
        if (cas.isEmpty()) throw aborted != null ? aborted : t.error(0, "no CA found (not ibstat output)");
        if (aborted != null) issues.add(aborted);
        redacted.report(t, issues, "; the HCAs are known by their names");
        return cas;
    }

    /**
     * The abort of an infiniband-diags tool: libibmad's ibpanic() ("ibpanic: [PID] FUNCTION: MESSAGE: ERRNO TEXT") or
     * ibdiag_common's iberror() ("ibstat: iberror: failed: MESSAGE").
     */
    static boolean aborted(String line) {
        return line.startsWith("ibpanic: [") || line.contains(": iberror: ");
    }

    /** A rate as ibstat prints it: the number (rounded down) and the speed name in parentheses, if any. */
    record Rate(int gbps, String name) {}

    /** "40 (FDR10)" -> (40, "FDR10"); "2.5" -> (2, ""); "100" -> (100, ""). */
    static Rate rate(Text t, int ln, String val) {
        String num = val;
        String name = "";
        int open = val.indexOf('(');
        if (open >= 0) {
            int close = val.indexOf(')', open);
            if (close < 0) throw t.error(ln, "cannot read rate '" + Text.excerpt(val) + "'");
            name = val.substring(open + 1, close).trim();
            num = val.substring(0, open).trim();
        }
        double r = Nums.decimal(t, ln, num);
        if (r < 0 || r > 100_000) throw t.error(ln, "rate " + Text.excerpt(num) + " is out of range");
        return new Rate((int) r, name);
    }

    private static final class CaBuilder {
        final String name;
        final SourceRef ref;
        String type = "", fw = "", hw = "";
        int numPorts = -1;
        long nodeGuid, sysGuid;
        final List<Ibstat.Port> ports = new ArrayList<>();

        CaBuilder(String name, SourceRef ref) {
            this.name = name;
            this.ref = ref;
        }

        void set(Text t, int ln, String key, String val, Redactions redacted) {
            switch (key) {
                case "CA type" -> type = val;
                case "Number of ports" -> numPorts = Nums.integer(t, ln, val);
                case "Firmware version" -> fw = val;
                case "Hardware version" -> hw = val;
                case "Node GUID" -> nodeGuid = redacted.hex(t, ln, val);
                case "System image GUID" -> sysGuid = redacted.hex(t, ln, val);
                default -> { }
            }
        }

        Ibstat.Ca build(Text t, PortBuilder last, Issues issues) {
            if (last != null) ports.add(last.build());
            if (numPorts >= 0 && ports.size() < numPorts)
                issues.add(t, ref.line(), "CA '" + Text.excerpt(name) + "' announces " + numPorts + " port(s) but lists "
                        + ports.size() + " (truncated output?)");
            return new Ibstat.Ca(name, type, numPorts, fw, hw, nodeGuid, sysGuid, ports, ref);
        }
    }

    private static final class PortBuilder {
        final int num;
        final SourceRef ref;
        String state = "", phys = "", linkLayer = "", rateName = "";
        int rate = -1, lid, lmc, smLid;
        long capMask, guid;

        PortBuilder(int num, SourceRef ref) {
            this.num = num;
            this.ref = ref;
        }

        void set(Text t, int ln, String key, String val, Redactions redacted) {
            switch (key) {
                case "State" -> state = val;
                case "Physical state" -> phys = val;
                case "Rate" -> {
                    Rate r = rate(t, ln, val);
                    rate = r.gbps();
                    rateName = r.name();
                }
                case "Base lid" -> lid = Nums.integer(t, ln, val);
                case "LMC" -> lmc = Nums.integer(t, ln, val);
                case "SM lid" -> smLid = Nums.integer(t, ln, val);
                case "Capability mask" -> capMask = Nums.hex(t, ln, val);
                case "Port GUID" -> guid = redacted.hex(t, ln, val);
                case "Link layer" -> linkLayer = val;
                default -> { /* newer ibstat versions add fields */ }
            }
        }

        Ibstat.Port build() {
            return new Ibstat.Port(num, state, phys, rate, rateName, null, lid, lmc, smLid, capMask, guid, linkLayer, ref);
        }
    }
}
