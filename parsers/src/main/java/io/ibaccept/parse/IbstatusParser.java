package io.ibaccept.parse;

import io.ibaccept.model.Ibstat;
import io.ibaccept.model.LinkWidth;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses {@code ibstatus} (the sysfs reader script of infiniband-diags) into the ibstat model, as a fallback where
 * ibstat is missing: "Infiniband device 'mlx4_0' port 1 status:" then "state: 4: ACTIVE", "rate: 56 Gb/sec (4X FDR)".
 * It has no firmware, CA type or GUIDs (except the GID's interface id), so firmware checks cannot use it.
 */
public final class IbstatusParser {
    private IbstatusParser() {}

    private static final String HEAD = "Infiniband device '";
    private static final String[] STATES = {"???", "Down", "Initializing", "Armed", "Active"};

    public static List<Ibstat.Ca> parse(Text t) {
        return parse(t, Issues.strict());
    }

    public static List<Ibstat.Ca> parse(Text t, Issues issues) {
        Map<String, List<Ibstat.Port>> ports = new LinkedHashMap<>();
        Map<String, SourceRef> refs = new LinkedHashMap<>();
        List<String> lines = t.lines();
        String dev = null;
        Port p = null;
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String line = lines.get(i).trim();
            if (line.isEmpty()) continue;
            if (line.startsWith(HEAD) && line.endsWith(" status:")) {
                int q = line.indexOf('\'', HEAD.length());
                String rest = q < 0 ? "" : line.substring(q + 1, line.length() - " status:".length()).trim();
                if (q < 0 || !rest.startsWith("port ") || !Nums.isDigits(rest.substring(5))) {
                    issues.add(t, ln, "cannot read ibstatus header '" + Text.excerpt(line) + "'");
                    dev = null;
                    continue;
                }
                if (p != null) ports.get(p.dev).add(p.build());
                dev = line.substring(HEAD.length(), q);
                refs.putIfAbsent(dev, t.at(ln));
                ports.computeIfAbsent(dev, k -> new ArrayList<>());
                String num = rest.substring(5);
                p = new Port(dev, num.length() > 6 ? -1 : Integer.parseInt(num), t.at(ln));
                continue;
            }
            int colon = line.indexOf(':');
            if (p == null || colon < 0) {
                issues.add(t, ln, "unrecognised ibstatus line '" + Text.excerpt(line) + "'");
                continue;
            }
            String key = line.substring(0, colon).trim();
            String val = line.substring(colon + 1).trim();
            final Port port = p;
            issues.record(() -> {
                port.set(t, ln, key, val);
                return null;
            });
        }
        if (p != null) ports.get(p.dev).add(p.build());
        if (ports.isEmpty()) throw t.error(0, "not ibstatus output: no \"Infiniband device '...' port N status:\" line");
        List<Ibstat.Ca> out = new ArrayList<>();
        ports.forEach((d, ps) -> out.add(new Ibstat.Ca(d, "", -1, "", "", 0, 0, ps, refs.get(d))));
        return out;
    }

    private static final class Port {
        final String dev;
        final int num;
        final SourceRef ref;
        String state = "", phys = "", linkLayer = "", rateName = "";
        LinkWidth width;
        int rate = -1, lid, smLid;
        long guid;

        Port(String dev, int num, SourceRef ref) {
            this.dev = dev;
            this.num = num;
            this.ref = ref;
        }

        void set(Text t, int ln, String key, String val) {
            switch (key) {
                case "state" -> state = named(t, ln, val, true);
                case "phys state" -> phys = named(t, ln, val, false);
                case "base lid" -> lid = Nums.integer(t, ln, val);
                case "sm lid" -> smLid = Nums.integer(t, ln, val);
                case "link_layer" -> linkLayer = val;
                case "default gid" -> {
                    // the port GUID is the GID's interface id: its last four groups
                    String[] g = val.split(":", -1);
                    if (g.length == 8) guid = Nums.hex(t, ln, g[4] + g[5] + g[6] + g[7]);
                }
                case "rate" -> {
                    // "56 Gb/sec (4X FDR)", "2.5 Gb/sec (1X SDR)", "100 Gb/sec (2X HDR)"
                    int sp = val.indexOf(' ');
                    rate = (int) Nums.decimal(t, ln, sp < 0 ? val : val.substring(0, sp));
                    int open = val.indexOf('(');
                    int close = val.indexOf(')');
                    if (open >= 0 && close > open) {
                        List<String> f = Fields.split(val.substring(open + 1, close));
                        if (!f.isEmpty()) width = LinkWidth.parse(f.get(0)).orElse(null);
                        if (f.size() > 1) rateName = f.get(1);
                    }
                }
                default -> { }
            }
        }

        /** "4: ACTIVE" -> "Active" (ibstat's wording); "5: LinkUp" -> "LinkUp". */
        private static String named(Text t, int ln, String val, boolean state) {
            int c = val.indexOf(':');
            String name = c < 0 ? val : val.substring(c + 1).trim();
            if (state && c > 0 && Nums.isDigits(val.substring(0, c).trim())) {
                int n = Nums.integer(t, ln, val.substring(0, c).trim());
                if (n >= 0 && n < STATES.length) return STATES[n];
            }
            return name;
        }

        Ibstat.Port build() {
            return new Ibstat.Port(num, state, phys, rate, rateName, width, lid, 0, smLid, 0, guid, linkLayer, ref);
        }
    }
}
