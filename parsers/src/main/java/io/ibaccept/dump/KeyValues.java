package io.ibaccept.dump;

import io.ibaccept.parse.ParseException;
import io.ibaccept.parse.Text;
import java.util.LinkedHashMap;
import java.util.Map;

/** The "key: value" format of manifest.txt and the .meta files; '#' starts a comment line. */
public final class KeyValues {
    private KeyValues() {}

    /**
     * The lines as {@link Text#lines()} splits them (an over-long line is skipped, as it reads as empty there), read in
     * place from the content: a dump has a .meta file per command, 17,000 at 2,000 nodes.
     */
    public static Map<String, String> parse(Text t) {
        Map<String, String> out = new LinkedHashMap<>();
        String c = t.content();
        Text.eachLine(c, (number, from, to) -> {
            if (to - from <= t.lineLimit()) entry(t, c, from, to, number, out);
        });
        return out;
    }

    /** One line c[from, to): "key: value" trimmed as String.trim() does, blank and '#' lines skipped. */
    private static void entry(Text t, String c, int from, int to, int number, Map<String, String> out) {
        while (from < to && c.charAt(from) <= ' ') from++;
        while (to > from && c.charAt(to - 1) <= ' ') to--;
        if (from == to || c.charAt(from) == '#') return;
        int colon = c.indexOf(':', from);
        if (colon < 0 || colon >= to || colon == from)
            throw new ParseException(t.at(number), "expected 'key: value', found '" + Text.excerpt(c.substring(from, to)) + "'");
        out.put(c.substring(from, colon).trim(), c.substring(colon + 1, to).trim());
    }

    public static String format(Map<String, String> values) {
        StringBuilder sb = new StringBuilder();
        values.forEach((k, v) -> sb.append(k).append(": ").append(v.replace('\n', ' ')).append('\n'));
        return sb.toString();
    }
}
