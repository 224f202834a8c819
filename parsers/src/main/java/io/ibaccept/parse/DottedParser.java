package io.ibaccept.parse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The "Key:.........value" dump format shared by smpquery, perfquery, saquery and ibportstate. Capability-name
 * continuation lines (indented words without a colon) are attached to the previous key; any other line without a
 * colon is one issue.
 */
public final class DottedParser {
    private DottedParser() {}

    public record Field(String value, int line) {}

    /** A "# ..." comment line starts a new block; returns the blocks in order, each keeping its header line. */
    public record Block(String header, int line, Map<String, Field> fields) {
        public String get(String key) {
            Field f = fields.get(key);
            return f == null ? null : f.value();
        }

        public int lineOf(String key) {
            Field f = fields.get(key);
            return f == null ? line : f.line();
        }
    }

    public static List<Block> parse(Text t) {
        return parse(t, Issues.strict());
    }

    public static List<Block> parse(Text t, Issues issues) {
        List<Block> blocks = new ArrayList<>();
        eachBlock(t, issues, blocks::add);
        return blocks;
    }

    /** The blocks one by one as the text is read forward (a streamed file is never held whole). */
    public static void eachBlock(Text t, Issues issues, java.util.function.Consumer<Block> sink) {
        String header = "";
        int headerLine = 0;
        Map<String, Field> fields = new LinkedHashMap<>();
        Text.Cursor c = t.cursor();
        while (c.next()) {
            int ln = c.number();
            String raw = c.line();
            String line = raw.trim();
            if (line.isEmpty()) continue;
            if (line.startsWith("#")) {
                if (!fields.isEmpty() || !header.isEmpty()) sink.accept(new Block(header, headerLine, fields));
                header = line;
                headerLine = ln;
                fields = new LinkedHashMap<>();
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                if (Character.isWhitespace(raw.charAt(0)) && !fields.isEmpty()) continue; // capability names
                issues.add(t, ln, "expected 'Name:....value', found '" + Text.excerpt(line) + "'");
                continue;
            }
            String key = line.substring(0, colon).trim();
            int v = colon + 1;
            while (v < line.length() && line.charAt(v) == '.') v++;
            fields.put(key, new Field(line.substring(v).trim(), ln));
        }
        if (!fields.isEmpty() || !header.isEmpty()) sink.accept(new Block(header, headerLine, fields));
    }
}
