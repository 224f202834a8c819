package io.ibaccept.report;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * The one CSV writer of the project. Every text cell is neutralised against formula injection as OWASP recommends: a
 * cell whose first character, or first character after leading whitespace, is = + - @ TAB or CR gets a leading single
 * quote, so a spreadsheet shows it as text. Cells passed as numbers (Long, Integer, Double) are numeric columns and are
 * written as they are: a negative counter stays a number. A number that arrives as text (e.g. "-5") is text and is
 * neutralised, since its origin is untrusted.
 */
public final class SafeCsv implements Closeable {
    private final CSVPrinter printer;

    public SafeCsv(Writer out, String... header) {
        try {
            printer = new CSVPrinter(out, CSVFormat.DEFAULT.builder().setHeader(header).get());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void row(Object... cells) {
        Object[] safe = new Object[cells.length];
        for (int i = 0; i < cells.length; i++) safe[i] = cell(cells[i]);
        try {
            printer.printRecord(safe);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Object cell(Object v) {
        if (v == null) return "";
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Double || v instanceof Float) return v;
        return neutralise(v.toString());
    }

    public static String neutralise(String s) {
        int i = 0;
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\n' || s.charAt(i) == '\u00a0')) i++;
        if (i == s.length()) return s;
        char c = s.charAt(i);
        return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r' ? "'" + s : s;
    }

    /** Flushes; the writer stays open (it belongs to the caller). */
    @Override
    public void close() {
        try {
            printer.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
