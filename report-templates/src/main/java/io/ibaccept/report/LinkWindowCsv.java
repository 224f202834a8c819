package io.ibaccept.report;

import io.ibaccept.rules.counters.LinkWindowRow;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * linkwindow.csv: the per-link counter table (rules CounterWindowTable.rows), worst first: errors in the window,
 * rate, symbol BER, whether the link carried load, and errors from before the window. judged_on is "window" or
 * "snapshot" (one sample only: cumulative counts, no rate). Written through SafeCsv: node descriptions come from the
 * fabric and must stay text in a spreadsheet.
 */
public final class LinkWindowCsv {
    private LinkWindowCsv() {}

    public static final String[] HEADER = {"status", "link", "end_a", "end_b", "switch_to_switch", "errors_in_window",
            "errors_at_least", "errors_per_hour", "symbol_ber", "bits_received", "carried_load", "bytes_carried",
            "xmit_wait_per_s", "errors_before_window", "judged_on", "detail"};

    public static void render(List<LinkWindowRow> rows, Writer out) {
        try (SafeCsv csv = new SafeCsv(out, HEADER)) {
            for (LinkWindowRow r : sorted(rows))
                csv.row(r.status().name(), r.link(), r.a(), r.b(), r.switchToSwitch() ? "yes" : "no",
                        r.snapshotOnly() ? "" : r.errorsInWindow(), r.atLeast() ? "yes" : "no",
                        num(r.errorsPerHour(), "%.2f"), num(r.symbolBer(), "%.3e"), num(r.bitsReceived(), "%.0f"),
                        r.snapshotOnly() ? "" : r.carriedLoad() ? "yes" : "no", num(r.bytesCarried(), "%.0f"),
                        num(r.xmitWaitPerSecond(), "%.1f"), r.errorsBefore(), r.snapshotOnly() ? "snapshot" : "window", r.detail());
        }
    }

    static List<LinkWindowRow> sorted(List<LinkWindowRow> rows) {
        List<LinkWindowRow> sorted = new ArrayList<>(rows);
        sorted.sort(LinkWindowRow.WORST_FIRST);
        return sorted;
    }

    static String num(double v, String fmt) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "" : String.format(Locale.ROOT, fmt, v);
    }
}
