package io.ibaccept.model;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/** Slurm-style hostlist expressions: "node[01-04,07],gpu[1-2]-ib", nested products like "r[1-2]n[01-02]". */
public final class Hostlist {
    private Hostlist() {}

    /** More names than any cluster has: an expression that expands beyond it is refused before it is built. */
    public static final int MAX_HOSTS = 1_000_000;

    public static List<String> expand(String expr) {
        return expand(expr, MAX_HOSTS);
    }

    /** The names of expr; {@link TooMany} (before they are built) when they are more than max. */
    public static List<String> expand(String expr, int max) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (String part : splitTop(expr.trim())) {
            if (part.isBlank()) continue;
            try {
                out.addAll(expandOne(part.trim(), expr, max - out.size()));
            } catch (TooMany beyondWhatIsLeft) {
                throw tooMany(expr, max);
            }
            if (out.size() > max) throw tooMany(expr, max);
        }
        return new ArrayList<>(out);
    }

    /** An expression of more names than allowed. */
    public static final class TooMany extends IllegalArgumentException {
        TooMany(String message) {
            super(message);
        }
    }

    private static List<String> splitTop(String s) {
        List<String> parts = new ArrayList<>();
        int depth = 0, start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[') depth++;
            else if (c == ']') depth--;
            else if ((c == ',' || Character.isWhitespace(c)) && depth == 0) {
                parts.add(s.substring(start, i));
                start = i + 1;
            }
            if (depth < 0) throw new IllegalArgumentException("hostlist '" + s + "': unbalanced ']' at position " + (i + 1));
        }
        if (depth != 0) throw new IllegalArgumentException("hostlist '" + s + "': missing ']'");
        parts.add(s.substring(start));
        return parts;
    }

    private static TooMany tooMany(String expr, int max) {
        return new TooMany("hostlist '" + (expr.length() > 80 ? expr.substring(0, 80) + "..." : expr) + "': more than " + max + " names");
    }

    private static List<String> expandOne(String s, String whole, int max) {
        int open = s.indexOf('[');
        if (open < 0) return List.of(s);
        int close = s.indexOf(']', open);
        String prefix = s.substring(0, open);
        String body = s.substring(open + 1, close);
        List<String> rest = expandOne(s.substring(close + 1), whole, max);
        List<String> out = new ArrayList<>();
        for (String range : body.split(",")) {
            String r = range.trim();
            if (r.isEmpty()) throw new IllegalArgumentException("hostlist '" + whole + "': empty range in [" + body + "]");
            String[] ab = r.split("-", -1);
            if (ab.length > 2 || !ab[0].matches("\\d+") || ab.length == 2 && !ab[1].matches("\\d+"))
                throw new IllegalArgumentException("hostlist '" + whole + "': bad range '" + r + "'");
            long a = Long.parseLong(ab[0]), b = ab.length == 2 ? Long.parseLong(ab[1]) : a;
            if (b < a) throw new IllegalArgumentException("hostlist '" + whole + "': range '" + r + "' goes backwards");
            if (b - a > 100_000) throw new IllegalArgumentException("hostlist '" + whole + "': range '" + r + "' too large");
            int width = ab[0].length();
            if ((b - a + 1) * Math.max(1, rest.size()) + out.size() > max) throw tooMany(whole, max);
            for (long n = a; n <= b; n++) {
                String num = String.format("%0" + width + "d", n);
                for (String tail : rest) out.add(prefix + num + tail);
            }
        }
        return out;
    }
}
