package io.ibaccept.rules.counters;

import io.ibaccept.rules.Status;
import java.util.Comparator;

/**
 * One link (both ends) of the counter-window table the report shows: errors during the window, their rate, the
 * symbol-error BER, whether the link carried load (data counters moved by at least the configured amount), and the
 * errors that had accumulated before the window. snapshotOnly: there was no second sample, values are cumulative and
 * rates/BER are unknown (NaN). atLeast: a saturated or reset counter makes the error count a lower bound.
 * bitsReceived: the bits behind the worst BER when there were symbol errors, else the fewer bits of the two directions
 * (what a zero-error BER proof rests on).
 */
public record LinkWindowRow(String a, String b, boolean switchToSwitch, long errorsInWindow, boolean atLeast,
                            double errorsPerHour, double symbolBer, double bitsReceived, boolean carriedLoad,
                            double bytesCarried, double xmitWaitPerSecond, long errorsBefore, boolean snapshotOnly,
                            Status status, String detail) {
    public String link() {
        return b == null || b.isEmpty() ? a : a + " <-> " + b;
    }

    /** Worst first: status, then error rate, then errors before the window. */
    public static final Comparator<LinkWindowRow> WORST_FIRST = Comparator.comparing(LinkWindowRow::status)
            .thenComparing(r -> Double.isNaN(r.errorsPerHour()) ? -1 : r.errorsPerHour(), Comparator.reverseOrder())
            .thenComparing(LinkWindowRow::errorsInWindow, Comparator.reverseOrder())
            .thenComparing(LinkWindowRow::errorsBefore, Comparator.reverseOrder())
            .thenComparing(LinkWindowRow::link);
}
