package io.ibaccept.report;

import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.stream.Collectors;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/** One row per finding, for spreadsheets and ticket systems. */
public final class CsvReport {
    private CsvReport() {}

    public static final String[] HEADER = {"check", "title", "status", "objects", "summary", "evidence", "cause", "fix"};

    public static void render(Report r, Writer out) {
        try (CSVPrinter p = new CSVPrinter(out, CSVFormat.DEFAULT.builder().setHeader(HEADER).get())) {
            for (Finding f : r.worstFirst()) {
                String ev = f.evidence().stream().map(e -> (e.where().isEmpty() ? "" : e.where() + " ") + e.text())
                        .collect(Collectors.joining(" | "));
                p.printRecord(f.check(), f.title(), f.status(), String.join(" ", f.objects()), f.summary(), ev, f.cause(), f.fix());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
