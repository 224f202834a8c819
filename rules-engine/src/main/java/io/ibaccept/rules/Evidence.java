package io.ibaccept.rules;

/** A line of evidence and where it was read (dump-relative file:line; empty if derived). */
public record Evidence(String text, String where) {
    public Evidence {
        text = io.ibaccept.safety.Printable.of(text); // quoted from a dump: see Finding
        where = io.ibaccept.safety.Printable.of(where);
    }

    public static Evidence of(String text, Object where) {
        return new Evidence(text, where == null ? "" : where.toString());
    }
}
