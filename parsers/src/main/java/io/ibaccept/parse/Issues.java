package io.ibaccept.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The per-record problems of one parse. A parser reports an unreadable record here and goes on with the next one, so
 * one bad line never loses a file. {@link #strict()} throws at the first problem instead (unit tests, small inputs that
 * are one record). A collecting Issues keeps at most {@link #maxPerFile()} problems: a file of millions of garbage
 * lines is not millions of findings (nor their memory); the rest are counted and said in one last problem.
 */
public final class Issues {
    /** Default for the system property {@code ibaccept.max-issues-per-file}. */
    public static final int DEFAULT_MAX_PER_FILE = 1000;

    private final boolean strict;
    private final int max;
    private final List<ParseException> list = new ArrayList<>();
    private long dropped;
    private SourceRef firstDropped;

    private Issues(boolean strict, int max) {
        this.strict = strict;
        this.max = max;
    }

    public static Issues strict() {
        return new Issues(true, Integer.MAX_VALUE);
    }

    public static Issues collecting() {
        return new Issues(false, maxPerFile());
    }

    /** Keeps at most max problems (at least 1). */
    public static Issues collecting(int max) {
        return new Issues(false, Math.max(1, max));
    }

    /** The configured bound: system property {@code ibaccept.max-issues-per-file}, else {@value #DEFAULT_MAX_PER_FILE}. */
    public static int maxPerFile() {
        String v = System.getProperty("ibaccept.max-issues-per-file");
        if (v != null && !v.isBlank() && v.trim().length() < 10 && v.trim().chars().allMatch(Character::isDigit))
            return Math.max(1, Integer.parseInt(v.trim()));
        return DEFAULT_MAX_PER_FILE;
    }

    public void add(ParseException e) {
        if (strict) throw e;
        if (list.size() < max) {
            list.add(e);
        } else {
            if (dropped == 0) firstDropped = e.where();
            dropped++;
        }
    }

    public void add(Text t, int line, String message) {
        add(t.error(line, message));
    }

    /** Runs the reading of one record; a ParseException becomes an issue and the result is null. */
    public <R> R record(Supplier<R> read) {
        try {
            return read.get();
        } catch (ParseException e) {
            add(e);
            return null;
        }
    }

    /** The problems kept, then (when some were dropped) one that says how many more there were and from where. */
    public List<ParseException> list() {
        if (dropped == 0) return List.copyOf(list);
        List<ParseException> all = new ArrayList<>(list);
        all.add(new ParseException(firstDropped, String.format(java.util.Locale.ROOT,
                "%,d more problem(s) in this file from here on are not listed (at most %,d per file;"
                        + " -Dibaccept.max-issues-per-file=N): the file is damaged or not this tool's output", dropped, max)));
        return all;
    }
}
