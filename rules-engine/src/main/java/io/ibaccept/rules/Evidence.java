package io.ibaccept.rules;

/** A line of evidence and where it was read (dump-relative file:line; empty if derived). */
public record Evidence(String text, String where) {
    public static Evidence of(String text, Object where) {
        return new Evidence(text, where == null ? "" : where.toString());
    }
}
