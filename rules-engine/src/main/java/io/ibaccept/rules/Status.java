package io.ibaccept.rules;

/**
 * Outcome of one check on one object. ERROR: the input needed for the check was broken or unreadable. WAIVED: a FAIL
 * or WARN that a signed waiver accepts (see {@link Waivers}); it ranks below WARN, so it never hides a warning.
 */
public enum Status {
    FAIL, ERROR, WARN, WAIVED, SKIP, PASS;

    public boolean worseThan(Status o) {
        return ordinal() < o.ordinal();
    }
}
