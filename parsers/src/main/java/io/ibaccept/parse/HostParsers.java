package io.ibaccept.parse;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small host-side outputs: {@code ulimit -l}, {@code ofed_info -s}, {@code ethtool -S}. */
public final class HostParsers {
    private HostParsers() {}

    public static long memlockKib(Text t) {
        return memlockKib(t, Issues.strict());
    }

    /** Locked-memory limit in KiB as {@code ulimit -l} prints it; {@link Long#MAX_VALUE} for "unlimited". */
    public static long memlockKib(Text t, Issues issues) {
        List<String> lines = t.lines();
        for (int i = lines.size() - 1; i >= 0; i--) {
            String v = lines.get(i).trim();
            if (v.isEmpty()) continue;
            if (v.equals("unlimited")) return Long.MAX_VALUE;
            long k = Nums.longValue(t, i + 1, v);
            if (k < 0) throw t.error(i + 1, "negative memlock limit " + k);
            return k;
        }
        throw t.error(0, "empty output");
    }

    public static String ofedVersion(Text t) {
        return ofedVersion(t, Issues.strict());
    }

    /**
     * {@code ofed_info -s}: "MLNX_OFED_LINUX-5.8-1.0.1.1:", DOCA-Host's "OFED-internal-23.07-0.5.0:"; the long form's
     * first line "MLNX_OFED_LINUX-4.6-1.0.1.1 (OFED-4.6-1.0.1):" gives the part before the parenthesis.
     */
    public static String ofedVersion(Text t, Issues issues) {
        List<String> lines = t.lines();
        for (int i = 0; i < lines.size(); i++) {
            String s = lines.get(i).trim();
            if (s.isEmpty()) continue;
            if (s.endsWith(":")) s = s.substring(0, s.length() - 1).trim();
            int paren = s.indexOf(" (");
            if (paren > 0) s = s.substring(0, paren);
            if (!isVersionToken(s)) {
                issues.add(t, i + 1, "unrecognised OFED version '" + Text.excerpt(s) + "'");
                continue;
            }
            return s;
        }
        throw t.error(0, "no OFED version line");
    }

    /** A letter first, then letters, digits, '.', '_', '+', '-', with at least one digit; scanned, not matched. */
    static boolean isVersionToken(String s) {
        if (s.isEmpty() || s.length() > 200 || !Character.isLetter(s.charAt(0)) || s.charAt(0) > 'z') return false;
        boolean digit = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_'
                    || c == '+' || c == '-';
            if (!ok) return false;
            if (c >= '0' && c <= '9') digit = true;
        }
        return digit;
    }

    public static Map<String, Long> ethtoolStats(Text t) {
        return ethtoolStats(t, Issues.strict());
    }

    public static Map<String, Long> ethtoolStats(Text t, Issues issues) {
        Map<String, Long> out = new LinkedHashMap<>();
        List<String> lines = t.lines();
        boolean header = false;
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String s = lines.get(i).trim();
            if (s.isEmpty()) continue;
            if (s.equals("NIC statistics:")) {
                header = true;
                continue;
            }
            int c = s.lastIndexOf(':');
            if (c <= 0) {
                issues.add(t, ln, "expected 'counter: value', found '" + Text.excerpt(s) + "'");
                continue;
            }
            String name = s.substring(0, c).trim();
            Long v = issues.record(() -> Nums.counter(t, ln, name, s.substring(c + 1), 64));
            if (v != null) out.put(name, v);
        }
        if (!header) throw t.error(0, "not 'ethtool -S' output (no 'NIC statistics:' line)");
        return out;
    }
}
