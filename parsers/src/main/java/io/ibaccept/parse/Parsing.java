package io.ibaccept.parse;

import java.util.ArrayList;
import java.util.List;

/** The one place where record-level recovery happens: runs a parser and gathers every problem it met. */
public final class Parsing {
    private Parsing() {}

    public static <T> Parsed<T> run(Text t, Parser<T> parser) {
        Issues issues = Issues.collecting();
        for (int[] l : t.overlongLines())
            issues.add(t, l[0], "line is " + l[1] + " characters long (limit " + t.lineLimit() + "): not parsed");
        T value = null;
        List<ParseException> fatal = new ArrayList<>();
        try {
            value = parser.parse(t, issues);
        } catch (ParseException e) {
            fatal.add(e);
        } catch (RuntimeException e) {
            // a parser bug must not lose the report: name the file, not the Java exception
            fatal.add(t.error(0, "could not be read (internal parser error); please report this file"));
        }
        List<ParseException> all = new ArrayList<>(issues.list());
        all.addAll(fatal);
        return new Parsed<>(value, all);
    }
}
