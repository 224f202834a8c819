package io.ibaccept.parse;

import java.util.List;

/** The text of one input file with the name it is reported under (relative path inside the dump). */
public record Text(String name, String content) {
    public Text {
        if (name == null) throw new IllegalArgumentException("name");
        content = content == null ? "" : content;
    }

    /** Lines without terminators; index i is line number i + 1. */
    public List<String> lines() {
        return content.lines().toList();
    }

    public SourceRef at(int lineNumber) {
        return new SourceRef(name, lineNumber);
    }

    public ParseException error(int lineNumber, String message) {
        return new ParseException(at(lineNumber), message);
    }
}
