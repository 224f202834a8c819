package io.ibaccept.rules;

import java.util.List;

/** The handover verdict derived from all findings. */
public enum Verdict {
    REJECTED("NOT ACCEPTED", "one or more checks failed"),
    INCOMPLETE("INCOMPLETE", "no check failed, but inputs were missing or broken: some checks could not run"),
    ACCEPTED_WITH_WAIVERS("ACCEPTED WITH WAIVERS", "no check failed except findings accepted by waivers"),
    ACCEPTED_WITH_WARNINGS("ACCEPTED WITH WARNINGS", "no check failed; warnings should be reviewed"),
    ACCEPTED("ACCEPTED", "no check failed or warned");

    private final String label;
    private final String meaning;

    Verdict(String label, String meaning) {
        this.label = label;
        this.meaning = meaning;
    }

    public String label() {
        return label;
    }

    public String meaning() {
        return meaning;
    }

    public static Verdict of(List<Finding> findings) {
        return of(findings, Coverage.NONE);
    }

    /** A required check of a contract that did not cover its scope makes the verdict INCOMPLETE (unless one failed). */
    public static Verdict of(List<Finding> findings, Coverage coverage) {
        boolean error = false, warn = false, waived = false;
        for (Finding f : findings) {
            switch (f.status()) {
                case FAIL -> { return REJECTED; }
                case ERROR -> error = true;
                case WARN -> warn = true;
                case WAIVED -> waived = true;
                default -> { }
            }
        }
        if (coverage.declared() && !coverage.gaps().isEmpty()) error = true;
        return error ? INCOMPLETE : waived ? ACCEPTED_WITH_WAIVERS : warn ? ACCEPTED_WITH_WARNINGS : ACCEPTED;
    }
}
