package io.ibaccept.report;

import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.Waiver;
import java.io.Writer;
import java.util.stream.Collectors;

/** One row per finding, for spreadsheets and ticket systems: the full list, never aggregated. */
public final class CsvReport {
    private CsvReport() {}

    public static final String[] HEADER = {"check", "title", "status", "objects", "summary", "evidence", "cause", "fix", "waiver", "id", "parent"};

    public static void render(Report r, Writer out) {
        try (SafeCsv csv = new SafeCsv(out, HEADER)) {
            for (Finding f : r.worstFirst()) {
                String ev = f.evidence().stream().map(e -> (e.where().isEmpty() ? "" : e.where() + " ") + e.text())
                        .collect(Collectors.joining(" | "));
                Waiver w = r.waiverFor(f);
                csv.row(f.check(), f.title(), f.status(), String.join(" ", f.objects()), f.summary(), ev, f.cause(), f.fix(),
                        w == null ? "" : ReportText.waiverText(w), f.id(), f.parent() == null ? "" : f.parent());
            }
        }
    }
}
