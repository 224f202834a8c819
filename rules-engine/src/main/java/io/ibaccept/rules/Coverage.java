package io.ibaccept.rules;

import java.util.List;

/**
 * What the checks required for acceptance really covered: per required check, how many of the objects in scope (hosts,
 * links, the fabric) it judged. declared: the requirement comes from an acceptance contract, so a gap makes the verdict
 * INCOMPLETE; otherwise the default set was required and a gap only limits what an ACCEPTED says.
 */
public record Coverage(boolean declared, boolean listed, List<Required> required) {
    public static final Coverage NONE = new Coverage(false, List.of());

    public Coverage {
        required = List.copyOf(required);
    }

    /** listed: the contract lists its required checks (else the default set was required). */
    public Coverage(boolean declared, List<Required> required) {
        this(declared, false, required);
    }

    /**
     * One required check. expected: objects in scope (hosts of the contract or the dump; 1 for a fabric-wide check),
     * covered: those the check judged; missing says what was not collected and hint how to collect it (both empty when
     * complete).
     */
    public record Required(String check, String title, int expected, int covered, String missing, String hint) {
        public boolean complete() {
            return covered >= expected && missing.isEmpty();
        }
    }

    public List<Required> gaps() {
        return required.stream().filter(r -> !r.complete()).toList();
    }

    public int completeCount() {
        return (int) required.stream().filter(Required::complete).count();
    }

    /** "coverage 23 of 31 required checks", or empty when nothing was required. */
    public String summary() {
        if (required.isEmpty()) return "";
        return "coverage " + completeCount() + " of " + required.size() + " required checks"
                + (listed ? " (from the contract)" : declared ? " (default set, with the contract)" : " (default set)");
    }

    /** One line per gap: "link.errors.window: no counter window (collect --window 10m)". */
    public List<String> gapLines() {
        return gaps().stream().map(g -> g.check() + ": " + g.missing() + (g.hint().isEmpty() ? "" : " (" + g.hint() + ")")).toList();
    }
}
