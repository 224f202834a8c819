package io.ibaccept.parse;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small host-side outputs: {@code ulimit -l}, {@code ofed_info -s}, {@code ethtool -S}. */
public final class HostParsers {
    private HostParsers() {}

    /** Locked-memory limit in KiB as {@code ulimit -l} prints it; {@link Long#MAX_VALUE} for "unlimited". */
    public static long memlockKib(Text t) {
        List<String> lines = t.lines().stream().filter(l -> !l.isBlank()).toList();
        if (lines.isEmpty()) throw t.error(0, "empty output");
        String v = lines.get(lines.size() - 1).trim();
        if (v.equals("unlimited")) return Long.MAX_VALUE;
        int ln = t.lines().lastIndexOf(lines.get(lines.size() - 1)) + 1;
        return Nums.longValue(t, ln, v);
    }

    /** "MLNX_OFED_LINUX-5.8-1.0.1.1:" -> "MLNX_OFED_LINUX-5.8-1.0.1.1"; also accepts "rdma-core-44.0" style lines. */
    public static String ofedVersion(Text t) {
        List<String> lines = t.lines();
        for (int i = 0; i < lines.size(); i++) {
            String s = lines.get(i).trim();
            if (s.isEmpty()) continue;
            if (s.endsWith(":")) s = s.substring(0, s.length() - 1);
            if (!s.matches("[A-Za-z][\\w.+\\-]*\\d[\\w.+\\-]*")) throw t.error(i + 1, "unrecognised OFED version '" + s + "'");
            return s;
        }
        throw t.error(0, "empty output");
    }

    public static Map<String, Long> ethtoolStats(Text t) {
        Map<String, Long> out = new LinkedHashMap<>();
        List<String> lines = t.lines();
        boolean header = false;
        for (int i = 0; i < lines.size(); i++) {
            String s = lines.get(i).trim();
            if (s.isEmpty()) continue;
            if (s.equals("NIC statistics:")) {
                header = true;
                continue;
            }
            int c = s.lastIndexOf(':');
            if (c <= 0) throw t.error(i + 1, "expected 'counter: value', found '" + s + "'");
            out.put(s.substring(0, c).trim(), Nums.longValue(t, i + 1, s.substring(c + 1)));
        }
        if (!header) throw t.error(0, "not 'ethtool -S' output (no 'NIC statistics:' line)");
        return out;
    }
}
