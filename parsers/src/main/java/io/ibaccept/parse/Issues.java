package io.ibaccept.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The per-record problems of one parse. A parser reports an unreadable record here and goes on with the next one, so
 * one bad line never loses a file. {@link #strict()} throws at the first problem instead (unit tests, small inputs that
 * are one record).
 */
public final class Issues {
    private final boolean strict;
    private final List<ParseException> list = new ArrayList<>();

    private Issues(boolean strict) {
        this.strict = strict;
    }

    public static Issues strict() {
        return new Issues(true);
    }

    public static Issues collecting() {
        return new Issues(false);
    }

    public void add(ParseException e) {
        if (strict) throw e;
        list.add(e);
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

    public List<ParseException> list() {
        return List.copyOf(list);
    }
}
