package io.ibaccept.parse;

import io.ibaccept.model.CounterSample;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A counter sample: the concatenated output of {@code perfquery -x LID P1,P2,..} and {@code perfquery LID P1,P2,..}
 * for every LID of the fabric (infiniband-diags perfquery.c prints one "# Port [extended ]counters: Lid N port P"
 * block per port). Blocks of the same port are merged; extended values win over the 32-bit ones.
 * Also {@code /proc/uptime} of a host.
 */
public final class CounterSampleParser {
    private CounterSampleParser() {}

    private static final Pattern HEADER = Pattern.compile("^# Port (extended )?counters: Lid (\\d+) port (\\d+).*");

    public static CounterSample parse(Text t) {
        Map<String, Acc> ports = new LinkedHashMap<>();
        List<CounterSample.Unreadable> unreadable = new ArrayList<>();
        List<String> lines = t.lines();
        Acc cur = null;
        boolean ext = false;
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String line = lines.get(i).trim();
            if (line.isEmpty()) continue;
            if (line.startsWith("#")) {
                Matcher m = HEADER.matcher(line);
                cur = null;
                if (!m.matches()) {
                    unreadable.add(new CounterSample.Unreadable(t.at(ln), "expected a '# Port counters: Lid N port N' header, found '" + line + "'"));
                    continue;
                }
                ext = m.group(1) != null;
                int lid = Integer.parseInt(m.group(2)), port = Integer.parseInt(m.group(3));
                if (port == 255) continue; // aggregate of all ports, not one port
                cur = ports.computeIfAbsent(lid + ":" + port, k -> new Acc(lid, port, t.at(ln)));
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                unreadable.add(new CounterSample.Unreadable(t.at(ln), "expected 'Name:....value', found '" + line + "'"));
                continue;
            }
            if (cur == null) continue; // fields of a skipped block were reported with its header
            String name = line.substring(0, colon).trim();
            String value = line.substring(colon + 1).replaceFirst("^\\.+", "").trim();
            if (name.equals("PortSelect") || name.startsWith("CounterSelect")) continue;
            try {
                long v = Nums.longValue(t, ln, value);
                if (!ext && cur.extended.contains(name)) continue;
                cur.counters.put(name, v);
                if (ext) cur.extended.add(name);
            } catch (ParseException pe) {
                unreadable.add(new CounterSample.Unreadable(pe.where(), name + ": " + pe.reason()));
            }
        }
        if (ports.isEmpty()) throw t.error(0, "no '# Port counters: Lid N port N' block found");
        return new CounterSample(ports.values().stream()
                .map(a -> new CounterSample.Port(a.lid, a.port, a.counters, a.extended, a.ref)).toList(), unreadable);
    }

    private static final class Acc {
        final int lid, port;
        final io.ibaccept.parse.SourceRef ref;
        final Map<String, Long> counters = new LinkedHashMap<>();
        final Set<String> extended = new HashSet<>();

        Acc(int lid, int port, SourceRef ref) {
            this.lid = lid;
            this.port = port;
            this.ref = ref;
        }
    }

    /** Seconds since boot: the first field of {@code /proc/uptime} ("350735.47 234388.90"). */
    public static double uptimeSeconds(Text t) {
        List<String> lines = t.lines();
        for (int i = 0; i < lines.size(); i++) {
            String s = lines.get(i).trim();
            if (s.isEmpty()) continue;
            String first = s.split("\\s+")[0];
            if (!first.matches("\\d+(\\.\\d+)?")) throw t.error(i + 1, "expected /proc/uptime ('seconds idle'), found '" + s + "'");
            return Double.parseDouble(first);
        }
        throw t.error(0, "empty output");
    }
}
