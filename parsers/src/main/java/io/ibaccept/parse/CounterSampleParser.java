package io.ibaccept.parse;

import io.ibaccept.model.CounterSample;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A counter sample: the concatenated output of {@code perfquery -x LID P1,P2,..} and {@code perfquery LID P1,P2,..}
 * for every LID of the fabric (infiniband-diags perfquery.c prints one "# Port [extended ]counters: Lid N port P"
 * block per port, then "Name:.....value" lines). Blocks of the same port are merged; extended values win over the
 * 32-bit ones. Each unreadable header or field is one issue with its line; the rest of the file is kept.
 * Also {@code /proc/uptime} of a host. Plain string scanning (lines are bounded by {@link Text}).
 */
public final class CounterSampleParser {
    private CounterSampleParser() {}

    private static final String COUNTERS = "# Port counters: Lid ", EXTENDED = "# Port extended counters: Lid ";

    public static CounterSample parse(Text t, Issues issues) {
        Map<String, Acc> ports = new LinkedHashMap<>();
        Text.Cursor cursor = t.cursor();
        Acc cur = null;
        boolean ext = false;
        while (cursor.next()) {
            int ln = cursor.number();
            String line = cursor.line().trim();
            if (line.isEmpty()) continue;
            if (line.startsWith("#")) {
                cur = null;
                ext = line.startsWith(EXTENDED);
                int[] lidPort = header(line, ext ? EXTENDED.length() : COUNTERS.length());
                if (!ext && !line.startsWith(COUNTERS) || lidPort == null) {
                    issues.add(t, ln, "expected a '# Port counters: Lid N port N' header, found '" + Text.excerpt(line) + "'");
                    continue;
                }
                if (lidPort[1] == 255) continue; // aggregate of all ports, not one port
                int lid = lidPort[0], port = lidPort[1];
                cur = ports.computeIfAbsent(lid + ":" + port, k -> new Acc(lid, port, t.at(ln)));
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                issues.add(t, ln, "expected 'Name:....value', found '" + Text.excerpt(line) + "'");
                continue;
            }
            if (cur == null) continue; // fields of a skipped block were reported with its header
            String name = line.substring(0, colon).trim();
            if (name.equals("PortSelect") || name.startsWith("CounterSelect")) continue;
            int v0 = colon + 1;
            while (v0 < line.length() && line.charAt(v0) == '.') v0++;
            String value = line.substring(v0).trim();
            Acc acc = cur;
            boolean extended = ext;
            issues.record(() -> {
                long v = Nums.longValue(t, ln, value);
                if (extended || !acc.extended.contains(name)) {
                    acc.counters.put(name, v);
                    if (extended) acc.extended.add(name);
                }
                return v;
            });
        }
        if (ports.isEmpty()) throw t.error(0, "no '# Port counters: Lid N port N' block found");
        return new CounterSample(ports.values().stream()
                .map(a -> new CounterSample.Port(a.lid, a.port, a.counters, a.extended, a.ref)).toList());
    }

    /** "N port P" (and anything after) from position at of a header line, or null. */
    private static int[] header(String line, int at) {
        int[] lid = digits(line, at);
        if (lid == null || !line.startsWith(" port ", lid[1])) return null;
        int[] port = digits(line, lid[1] + 6);
        return port == null ? null : new int[] {lid[0], port[0]};
    }

    /** {value, end} of the decimal number starting at from (at most 9 digits), or null. */
    private static int[] digits(String s, int from) {
        int i = from, v = 0;
        while (i < s.length() && i - from < 9 && s.charAt(i) >= '0' && s.charAt(i) <= '9') v = v * 10 + (s.charAt(i++) - '0');
        return i == from ? null : new int[] {v, i};
    }

    private static final class Acc {
        final int lid, port;
        final SourceRef ref;
        final Map<String, Long> counters = new LinkedHashMap<>();
        final Set<String> extended = new HashSet<>();

        Acc(int lid, int port, SourceRef ref) {
            this.lid = lid;
            this.port = port;
            this.ref = ref;
        }
    }

    /** Seconds since boot: the first field of {@code /proc/uptime} ("350735.47 234388.90"). */
    public static double uptimeSeconds(Text t, Issues issues) {
        List<String> lines = t.lines();
        for (int i = 0; i < lines.size(); i++) {
            String s = lines.get(i).trim();
            if (s.isEmpty()) continue;
            int end = 0;
            while (end < s.length() && s.charAt(end) != ' ' && s.charAt(end) != '\t') end++;
            String first = s.substring(0, end);
            if (first.isEmpty() || first.charAt(0) < '0' || first.charAt(0) > '9' || !Nums.isDecimal(first)) throw t.error(i + 1, "expected /proc/uptime ('seconds idle'), found '" + Text.excerpt(s) + "'");
            return Nums.decimal(t, i + 1, first);
        }
        throw t.error(0, "empty output");
    }
}
