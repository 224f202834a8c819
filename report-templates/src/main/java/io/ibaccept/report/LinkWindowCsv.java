package io.ibaccept.report;

import io.ibaccept.rules.counters.LinkWindowRow;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * links-window.csv: the per-link counter table (rules CounterWindowTable.rows), worst first: errors in the window,
 * rate, symbol BER, whether the link carried load, and errors from before the window. judged_on is "window" or
 * "snapshot" (one sample only: cumulative counts, no rate). Cells that a spreadsheet would run as a formula are
 * prefixed with a quote.
 */
public final class LinkWindowCsv {
    private LinkWindowCsv() {}

    public static final String[] HEADER = {"status", "link", "end_a", "end_b", "switch_to_switch", "errors_in_window",
            "errors_at_least", "errors_per_hour", "symbol_ber", "bits_received", "carried_load", "bytes_carried",
            "xmit_wait_per_s", "errors_before_window", "judged_on", "detail"};

    public static void render(List<LinkWindowRow> rows, Writer out) {
        List<LinkWindowRow> sorted = new ArrayList<>(rows);
        sorted.sort(LinkWindowRow.WORST_FIRST);
        try (CSVPrinter p = new CSVPrinter(out, CSVFormat.DEFAULT.builder().setHeader(HEADER).get())) {
            for (LinkWindowRow r : sorted) {
                p.printRecord(r.status(), cell(r.link()), cell(r.a()), cell(r.b()), r.switchToSwitch() ? "yes" : "no",
                        r.snapshotOnly() ? "" : String.valueOf(r.errorsInWindow()), r.atLeast() ? "yes" : "no",
                        num(r.errorsPerHour(), "%.2f"), num(r.symbolBer(), "%.3e"), num(r.bitsReceived(), "%.0f"),
                        r.snapshotOnly() ? "" : r.carriedLoad() ? "yes" : "no", num(r.bytesCarried(), "%.0f"),
                        num(r.xmitWaitPerSecond(), "%.1f"), r.errorsBefore(), r.snapshotOnly() ? "snapshot" : "window", cell(r.detail()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String num(double v, String fmt) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "" : String.format(Locale.ROOT, fmt, v);
    }

    /** Node descriptions come from the fabric: "=HYPERLINK(...)" must stay text in Excel/LibreOffice. */
    static String cell(String s) {
        if (s == null || s.isEmpty()) return "";
        char c = s.charAt(0);
        return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r' ? "'" + s : s;
    }
}
