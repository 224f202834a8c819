package io.ibaccept.parse;

import java.util.List;

/**
 * What a parser made of a file: the value (null when nothing usable was found, then issues says why) and one issue
 * per record it could not read.
 */
public record Parsed<T>(T value, List<ParseException> issues) {
    public Parsed {
        issues = List.copyOf(issues);
    }
}
