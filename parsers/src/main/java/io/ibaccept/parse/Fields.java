package io.ibaccept.parse;

import java.util.ArrayList;
import java.util.List;

/** Whitespace splitting by scanning (no regex per line). */
final class Fields {
    private Fields() {}

    static List<String> split(String s) {
        List<String> out = new ArrayList<>();
        int i = 0, n = s.length();
        while (i < n) {
            while (i < n && Character.isWhitespace(s.charAt(i))) i++;
            int st = i;
            while (i < n && !Character.isWhitespace(s.charAt(i))) i++;
            if (i > st) out.add(s.substring(st, i));
        }
        return out;
    }
}
