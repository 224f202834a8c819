package io.ibaccept.rules;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Slurm-style hostlist compression: {@code node0001..node2000} becomes {@code node[0001-2000]}. The last run of digits
 * in a name is the index; names differing only there are merged, keeping zero padding (node09,node10 is node[09-10];
 * node9,node10 is node[9-10]; node9 and node09 stay apart). Names without digits are kept as they are.
 * The output is sorted by prefix/suffix, then by index, and expands back to exactly the input set.
 */
public final class Hostlists {
    private Hostlists() {}

    /** Index digits beyond this are not treated as a number (a GUID-like name stays one name). */
    private static final int MAX_DIGITS = 18;

    private record Key(String prefix, String suffix) {}

    private static final class Run {
        final String first;
        String last;
        final long start;
        long end;
        /** width all members must have; 0 when the run is unpadded and may grow (9, 10, 11). */
        final int width;

        Run(String digits, long value) {
            first = last = digits;
            start = end = value;
            width = padded(digits) ? digits.length() : 0;
        }

        boolean accepts(String digits, long value) {
            if (value != end + 1) return false;
            return width > 0 ? digits.length() == width : !padded(digits);
        }

        @Override
        public String toString() {
            return start == end ? first : first + "-" + last;
        }
    }

    private static boolean padded(String digits) {
        return digits.length() > 1 && digits.charAt(0) == '0';
    }

    public static String compress(Collection<String> names) {
        Map<Key, List<String>> groups = new TreeMap<>((a, b) -> a.prefix.equals(b.prefix)
                ? a.suffix.compareTo(b.suffix) : a.prefix.compareTo(b.prefix));
        List<String> plain = new ArrayList<>();
        for (String n : new LinkedHashSet<>(names)) {
            int end = n.length();
            while (end > 0 && !Character.isDigit(n.charAt(end - 1))) end--;
            int start = end;
            while (start > 0 && isAsciiDigit(n.charAt(start - 1))) start--;
            if (start == end || end - start > MAX_DIGITS || !isAsciiDigit(n.charAt(end - 1))) {
                plain.add(n);
                continue;
            }
            groups.computeIfAbsent(new Key(n.substring(0, start), n.substring(end)), k -> new ArrayList<>()).add(n.substring(start, end));
        }
        List<String> parts = new ArrayList<>();
        plain.stream().sorted().forEach(parts::add);
        for (Map.Entry<Key, List<String>> g : groups.entrySet()) {
            List<Run> runs = runs(g.getValue());
            Key k = g.getKey();
            if (runs.size() == 1 && runs.get(0).start == runs.get(0).end) {
                parts.add(k.prefix + runs.get(0).first + k.suffix);
                continue;
            }
            StringBuilder sb = new StringBuilder(k.prefix).append('[');
            for (int i = 0; i < runs.size(); i++) sb.append(i == 0 ? "" : ",").append(runs.get(i));
            parts.add(sb.append(']').append(k.suffix).toString());
        }
        return String.join(",", parts);
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static List<Run> runs(List<String> digits) {
        List<String> sorted = new ArrayList<>(digits);
        sorted.sort((a, b) -> {
            int c = Long.compare(Long.parseLong(a), Long.parseLong(b));
            return c != 0 ? c : Integer.compare(a.length(), b.length());
        });
        List<Run> runs = new ArrayList<>();
        Map<Long, List<Run>> open = new HashMap<>(); // runs by the next value they could take
        for (String d : sorted) {
            long v = Long.parseLong(d);
            List<Run> candidates = open.getOrDefault(v, List.of());
            Run joined = null;
            for (Run r : candidates) if (r.accepts(d, v)) { joined = r; break; }
            if (joined != null) {
                candidates.remove(joined);
                joined.end = v;
                joined.last = d;
            } else {
                joined = new Run(d, v);
                runs.add(joined);
            }
            open.computeIfAbsent(v + 1, k -> new ArrayList<>()).add(joined);
        }
        runs.sort((a, b) -> {
            int c = Long.compare(a.start, b.start);
            return c != 0 ? c : Integer.compare(a.first.length(), b.first.length());
        });
        return runs;
    }
}
