package io.ibaccept.parse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The text of one input file with the name it is reported under (relative path inside the dump), split into lines
 * once. A line longer than {@link #maxLineChars()} is never handed to a parser: it reads as an empty line (so line
 * numbers stay right) and is listed in {@link #overlongLines()}, which {@link Parsing} reports as one problem each.
 */
public final class Text {
    /** Default bound on one line; real tool output stays far below (an ibdiagnet2.db_csv row is ~1,000 characters). */
    public static final int DEFAULT_MAX_LINE_CHARS = 65_536;

    private final String name;
    private final String content;
    private final List<String> lines;
    private final List<int[]> overlong;
    private final int maxLine;

    public Text(String name, String content) {
        this(name, content, maxLineChars());
    }

    public Text(String name, String content, int maxLineChars) {
        if (name == null) throw new IllegalArgumentException("name");
        this.name = name;
        this.content = content == null ? "" : content;
        this.maxLine = maxLineChars;
        List<String> out = new ArrayList<>();
        List<int[]> longLines = new ArrayList<>();
        String c = this.content;
        int n = c.length();
        int start = 0;
        while (start < n) {
            int end = start;
            while (end < n && c.charAt(end) != '\n' && c.charAt(end) != '\r') end++;
            if (end - start > maxLineChars) {
                longLines.add(new int[] {out.size() + 1, end - start});
                out.add("");
            } else {
                out.add(c.substring(start, end));
            }
            if (end < n && c.charAt(end) == '\r' && end + 1 < n && c.charAt(end + 1) == '\n') end++;
            start = end + 1;
        }
        this.lines = Collections.unmodifiableList(out);
        this.overlong = List.copyOf(longLines);
    }

    /** The configured line bound: system property {@code ibaccept.maxLineChars}, else {@link #DEFAULT_MAX_LINE_CHARS}. */
    public static int maxLineChars() {
        String v = System.getProperty("ibaccept.maxLineChars");
        if (v != null && !v.isBlank() && v.trim().chars().allMatch(Character::isDigit) && v.trim().length() < 10)
            return Math.max(80, Integer.parseInt(v.trim()));
        return DEFAULT_MAX_LINE_CHARS;
    }

    public String name() {
        return name;
    }

    public String content() {
        return content;
    }

    /** Lines without terminators; index i is line number i + 1. Over-long lines read as "". */
    public List<String> lines() {
        return lines;
    }

    /** The line bound this text was split with. */
    public int lineLimit() {
        return maxLine;
    }

    /** {line number, length} of each line that was too long to parse. */
    public List<int[]> overlongLines() {
        return overlong;
    }

    public SourceRef at(int lineNumber) {
        return new SourceRef(name, lineNumber);
    }

    public ParseException error(int lineNumber, String message) {
        return new ParseException(at(lineNumber), message);
    }

    /** A line shortened for a message: hostile input never ends up whole in a report. */
    public static String excerpt(String s) {
        return s.length() > 120 ? s.substring(0, 117) + "..." : s;
    }
}
