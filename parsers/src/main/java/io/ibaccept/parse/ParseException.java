package io.ibaccept.parse;

/** A parser could not make sense of its input. The message always names the file and line. */
public final class ParseException extends RuntimeException {
    private final SourceRef where;
    private final String reason;

    public ParseException(SourceRef where, String reason) {
        super(where + ": " + reason, null, false, false);
        this.where = where;
        this.reason = reason;
    }

    public SourceRef where() {
        return where;
    }

    public String reason() {
        return reason;
    }
}
