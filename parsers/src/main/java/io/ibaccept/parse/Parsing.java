package io.ibaccept.parse;

import java.util.ArrayList;
import java.util.List;

/** The one place where record-level recovery happens: runs a parser and gathers every problem it met. */
public final class Parsing {
    private Parsing() {}

    /**
     * Runs parser on t. A streamed text that turns out unreadable (I/O error, binary, ...) throws
     * {@link Text.Unreadable}: that is the file's problem, not a record's, and the caller reports it.
     */
    public static <T> Parsed<T> run(Text t, Parser<T> parser) {
        Issues issues = Issues.collecting();
        boolean streamed = t.isStreamed();
        if (streamed) t.onOverlong((line, length) -> issues.add(t, line, overlong(length, t.lineLimit())));
        else for (int[] l : t.overlongLines()) issues.add(t, l[0], overlong(l[1], t.lineLimit()));
        T value = null;
        List<ParseException> fatal = new ArrayList<>();
        try {
            value = parser.parse(t, issues);
        } catch (ParseException e) {
            fatal.add(e);
        } catch (Text.Unreadable e) {
            throw e;
        } catch (RuntimeException e) {
            // a parser bug must not lose the report: name the file, not the Java exception
            fatal.add(t.error(0, "could not be read (internal parser error); please report this file"));
        } finally {
            t.close();
        }
        // a parser that asked a streamed text for its whole content saw the over-long lines only now
        if (streamed && !t.isStreamed()) for (int[] l : t.overlongLines()) issues.add(t, l[0], overlong(l[1], t.lineLimit()));
        List<ParseException> all = new ArrayList<>(issues.list());
        all.addAll(fatal);
        return new Parsed<>(value, all);
    }

    private static String overlong(long length, int limit) {
        return "line is " + length + " characters long (limit " + limit + "): not parsed";
    }
}
