package io.ibaccept.report;

import io.ibaccept.fabric.DumpDiff;
import io.ibaccept.analysis.Analysis;
import io.ibaccept.rules.Report;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * 'ibaccept diff OLD NEW': what changed since the accepted state (topology, link rate, firmware, OFED, perftest
 * regressions, findings new/cleared) as diff.csv, diff.html and diff.pdf, for a warranty ticket's "since handover".
 */
public final class DiffReport {
    private DiffReport() {}

    public static final String[] HEADER = {"category", "object", "before", "after", "where"};

    public static void csv(List<DumpDiff.Change> changes, Writer out) {
        try (SafeCsv csv = new SafeCsv(out, HEADER)) {
            for (DumpDiff.Change c : changes) csv.row(c.category(), c.object(), c.before(), c.after(), c.where());
        }
    }

    static String title(Analysis before, Analysis after) {
        return "Changes since " + label(before.report()) + ": " + label(after.report());
    }

    private static String label(Report r) {
        var m = r.data().manifest();
        return m.cluster() + " " + (m.created().isEmpty() ? "(collection time unknown)" : ReportText.time(m.created())) + " [" + r.verdictLine() + "]";
    }

    public static String html(Analysis before, Analysis after, List<DumpDiff.Change> changes) {
        Document doc = Document.createShell("");
        doc.title("IB acceptance diff: " + after.data().manifest().cluster());
        doc.head().appendElement("meta").attr("charset", "utf-8");
        doc.head().appendElement("style").appendText("body{font-family:Helvetica,Arial,sans-serif;margin:24px;color:#1d2733}"
                + "table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccd;padding:3px 6px;font-size:13px;text-align:left;vertical-align:top}"
                + "th{background:#eef1f5}tr[data-category^=finding\\.new] td{background:#fbe4e2}tr[data-category^=finding\\.cleared] td{background:#e3f3e6}");
        Element body = doc.body();
        body.appendElement("h1").text(title(before, after));
        Element facts = body.appendElement("table").attr("id", "diff-dumps");
        facts.appendElement("tr").appendElement("th").text("").parent().appendElement("th").text("before").parent().appendElement("th").text("after");
        row(facts, "Dump", before.data().source(), after.data().source());
        row(facts, "Dump id", before.dumpId(), after.dumpId());
        row(facts, "Collected", ReportText.time(before.data().manifest().created()), ReportText.time(after.data().manifest().created()));
        row(facts, "Nodes", String.valueOf(before.data().hosts().size()), String.valueOf(after.data().hosts().size()));
        row(facts, "Verdict", before.report().verdictLine(), after.report().verdictLine());
        Map<String, Integer> perCategory = new TreeMap<>();
        changes.forEach(c -> perCategory.merge(c.category(), 1, Integer::sum));
        List<String> parts = new ArrayList<>();
        perCategory.forEach((k, v) -> parts.add(k + " " + v));
        body.appendElement("p").attr("id", "diff-summary").text(changes.isEmpty() ? "No changes." : changes.size() + " changes: " + String.join(", ", parts)
                + " (all in diff.csv).");
        Element t = body.appendElement("table").attr("id", "diff-table");
        Element hr = t.appendElement("thead").appendElement("tr");
        for (String h : HEADER) hr.appendElement("th").text(h);
        Element tb = t.appendElement("tbody");
        for (DumpDiff.Change c : changes) {
            Element tr = tb.appendElement("tr").attr("data-category", c.category());
            for (String s : new String[] {c.category(), c.object(), c.before(), c.after(), c.where()})
                tr.appendElement("td").text(ReportText.clip(s == null ? "" : s, ReportText.MAX_TEXT));
        }
        return doc.outerHtml();
    }

    private static void row(Element t, String label, String a, String b) {
        t.appendElement("tr").appendElement("th").text(label).parent().appendElement("td").text(a == null ? "" : a).parent()
                .appendElement("td").text(b == null ? "" : b);
    }

    public static void pdf(Analysis before, Analysis after, List<DumpDiff.Change> changes, OutputStream out) {
        com.lowagie.text.Document doc = new com.lowagie.text.Document(com.lowagie.text.PageSize.A4.rotate(), 28, 28, 28, 28);
        var h = PdfFonts.bold(14);
        var body = PdfFonts.sans(8.5f);
        try {
            com.lowagie.text.pdf.PdfWriter.getInstance(doc, out);
            doc.open();
            doc.add(new com.lowagie.text.Paragraph(title(before, after), h));
            doc.add(new com.lowagie.text.Paragraph(changes.size() + " changes (all in diff.csv)", body));
            var t = new com.lowagie.text.pdf.PdfPTable(new float[] {1.4f, 3, 3, 3, 2});
            t.setWidthPercentage(100);
            t.setHeaderRows(1);
            for (String s : HEADER) t.addCell(new com.lowagie.text.Phrase(s, body));
            for (DumpDiff.Change c : changes)
                for (String s : new String[] {c.category(), c.object(), c.before(), c.after(), c.where()})
                    t.addCell(new com.lowagie.text.Phrase(ReportText.clip(s == null ? "" : s, ReportText.MAX_TEXT), body));
            doc.add(t);
        } catch (com.lowagie.text.DocumentException e) {
            throw new IllegalStateException("PDF rendering failed: " + e.getMessage(), e);
        } finally {
            doc.close();
        }
    }

    /** Writes diff.csv, diff.html and diff.pdf as one set: all three replace the previous ones, or none does (errors say why). */
    public static ReportWriter.Written write(Analysis before, Analysis after, List<DumpDiff.Change> changes, Path dir) {
        List<String> errors = new ArrayList<>();
        List<String> names = List.of("diff.csv", "diff.html", "diff.pdf");
        try (io.ibaccept.safety.OutputSet set = ReportWriter.openSet(dir, names)) {
            write(set, "diff.csv", out -> {
                Writer w = new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8);
                csv(changes, w);
                w.flush();
            }, errors);
            write(set, "diff.html", out -> out.write(html(before, after, changes).getBytes(StandardCharsets.UTF_8)), errors);
            write(set, "diff.pdf", out -> pdf(before, after, changes, out), errors);
            return ReportWriter.finish(set, names, errors);
        }
    }

    private interface Render {
        void to(OutputStream out) throws IOException;
    }

    private static void write(io.ibaccept.safety.OutputSet set, String name, Render r, List<String> errors) {
        try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(set.file(name)))) {
            r.to(out);
        } catch (IOException e) {
            errors.add(set.dir().resolve(name) + ": " + io.ibaccept.safety.IoMessages.why(e));
        } catch (RuntimeException e) {
            errors.add(set.dir().resolve(name) + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
        }
    }
}
