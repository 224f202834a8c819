package io.ibaccept.rules;

/** Outcome of one check on one object. ERROR: the input needed for the check was broken or unreadable. */
public enum Status {
    FAIL, ERROR, WARN, SKIP, PASS;

    public boolean worseThan(Status o) {
        return ordinal() < o.ordinal();
    }
}
