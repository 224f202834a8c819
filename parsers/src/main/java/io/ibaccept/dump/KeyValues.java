package io.ibaccept.dump;

import io.ibaccept.parse.ParseException;
import io.ibaccept.parse.Text;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The "key: value" format of manifest.txt and the .meta files; '#' starts a comment line. */
public final class KeyValues {
    private KeyValues() {}

    public static Map<String, String> parse(Text t) {
        Map<String, String> out = new LinkedHashMap<>();
        List<String> lines = t.lines();
        for (int i = 0; i < lines.size(); i++) {
            String s = lines.get(i).trim();
            if (s.isEmpty() || s.startsWith("#")) continue;
            int c = s.indexOf(':');
            if (c <= 0) throw new ParseException(t.at(i + 1), "expected 'key: value', found '" + Text.excerpt(s) + "'");
            out.put(s.substring(0, c).trim(), s.substring(c + 1).trim());
        }
        return out;
    }

    public static String format(Map<String, String> values) {
        StringBuilder sb = new StringBuilder();
        values.forEach((k, v) -> sb.append(k).append(": ").append(v.replace('\n', ' ')).append('\n'));
        return sb.toString();
    }
}
