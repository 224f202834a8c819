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
 * 'ibaccept diff OLD NEW': what changed since the accepted state (hardware: PCIe, firmware, cable serial, link rate;
 * topology, OFED, perftest regressions, findings new/cleared) as diff.csv, diff.html and diff.pdf, for a warranty
 * ticket's "since handover", on the main report's page, styles, fonts and footer.
 */
public final class DiffReport {
    private DiffReport() {}

    public static final String[] HEADER = {"category", "object", "before", "after", "where"};

    public static void csv(List<DumpDiff.Change> changes, Writer out) {
        try (SafeCsv csv = new SafeCsv(out, HEADER)) {
            for (DumpDiff.Change c : changes) csv.row(c.category(), c.object(), c.before(), c.after(), c.where());
        }
    }

    /** Hardware first (what an RMA or a warranty ticket asks about), then topology, versions, performance, findings. */
    private static final List<String> ORDER = List.of("pcie", "firmware", "cable.serial", "cable.rate", "cable.state", "host.down", "host.removed",
            "host.added", "switch.removed", "switch.added", "cable.removed", "cable.added", "topology", "ofed", "perftest.bw", "perftest.lat",
            "finding.new", "finding.status", "finding.cleared", "contract", "contract.coverage");

    public static List<DumpDiff.Change> ordered(List<DumpDiff.Change> changes) {
        List<DumpDiff.Change> out = new ArrayList<>(changes);
        out.sort(java.util.Comparator.comparingInt(c -> {
            int i = ORDER.indexOf(c.category());
            return i < 0 ? ORDER.size() : i;
        }));
        return out;
    }

    /** "15 changes since 2026-12-02 14:04:08 UTC" */
    static String headline(Analysis before, List<DumpDiff.Change> changes) {
        String created = before.data().manifest().created();
        return (changes.isEmpty() ? "No changes" : changes.size() + (changes.size() == 1 ? " change" : " changes")) + " since "
                + (created.isEmpty() ? "the earlier dump (collection time unknown)" : ReportText.time(created));
    }

    /** The warning when the two dumps cannot be of one cluster: both have a fabric and no node GUID is in both. */
    public static String unrelated(Analysis before, Analysis after) {
        int shared = DumpDiff.sharedGuids(before.fabric(), after.fabric());
        return shared == 0 ? "The two dumps share no node GUID: they are not of the same fabric (another cluster, or every switch and HCA replaced), "
                + "so these changes do not describe one cluster over time." : null;
    }

    private static String meaning(Analysis before, Analysis after) {
        return "before: " + before.report().verdictLine() + " (" + before.data().manifest().cluster() + ")  |  now: " + after.report().verdictLine()
                + " (" + after.data().manifest().cluster() + ")";
    }

    /** diff.html: the main report's page and styles (banner in the later verdict's colour, sections as cards). */
    public static String html(Analysis before, Analysis after, List<DumpDiff.Change> changes) {
        Document doc = HtmlReport.template();
        doc.title("InfiniBand acceptance diff - " + after.data().manifest().cluster());
        Element banner = doc.getElementById("banner");
        banner.addClass(after.report().verdict().name());
        doc.getElementById("verdict").text(headline(before, changes));
        doc.getElementById("verdict-meaning").text(meaning(before, after));
        Map<String, Integer> perCategory = new TreeMap<>();
        changes.forEach(c -> perCategory.merge(c.category(), 1, Integer::sum));
        List<String> parts = new ArrayList<>();
        perCategory.forEach((k, v) -> parts.add(k + " " + v));
        doc.getElementById("banner-counts").text(changes.isEmpty() ? "nothing changed" : String.join(", ", parts) + " (all in diff.csv)");
        doc.getElementById("meta").text("before: " + before.data().source() + "  |  now: " + after.data().source());
        Element main = doc.selectFirst("main");
        main.empty();
        doc.select("nav#toc").remove();
        String warning = unrelated(before, after);
        if (warning != null)
            main.appendElement("section").attr("id", "diff-warning").attr("style", "border-left:6px solid #b3261e").appendElement("p")
                    .appendElement("strong").text(warning);
        Element dumps = main.appendElement("section").attr("id", "diff-dumps-section");
        dumps.appendElement("h2").text("Dumps compared");
        Element facts = dumps.appendElement("table").attr("id", "diff-dumps");
        facts.appendElement("tr").appendElement("th").text("").parent().appendElement("th").text("before").parent().appendElement("th").text("now");
        row(facts, "Dump", before.data().source(), after.data().source());
        row(facts, "Dump id", before.dumpId(), after.dumpId());
        row(facts, "Collected", ReportText.time(before.data().manifest().created()), ReportText.time(after.data().manifest().created()));
        row(facts, "Nodes", String.valueOf(before.data().hosts().size()), String.valueOf(after.data().hosts().size()));
        row(facts, "Verdict", before.report().verdictLine(), after.report().verdictLine());
        Element sec = main.appendElement("section").attr("id", "diff-changes");
        sec.appendElement("h2").text("Changes");
        sec.appendElement("p").attr("id", "diff-summary").text(changes.isEmpty() ? "No changes." : changes.size() + " changes: " + String.join(", ", parts)
                + " (all in diff.csv). Hardware first: PCIe, firmware, cable serial, link rate.");
        Element t = sec.appendElement("table").attr("id", "diff-table");
        Element hr = t.appendElement("thead").appendElement("tr");
        for (String h : HEADER) hr.appendElement("th").text(h);
        Element tb = t.appendElement("tbody");
        for (DumpDiff.Change c : ordered(changes)) {
            Element tr = tb.appendElement("tr").attr("data-category", c.category());
            for (String x : new String[] {c.category(), c.object(), c.before(), c.after(), c.where()})
                tr.appendElement("td").text(ReportText.clip(x == null ? "" : x, ReportText.MAX_TEXT));
        }
        doc.head().appendElement("style").appendText("tr[data-category^=finding\\.new] td{background:#fbe4e2}tr[data-category^=finding\\.cleared] td{background:#e3f3e6}"
                + "#diff-table td{overflow-wrap:break-word}#diff-table td:first-child,#diff-table td:last-child{white-space:nowrap}");
        return doc.outerHtml();
    }

    private static void row(Element t, String label, String a, String b) {
        t.appendElement("tr").appendElement("th").text(label).parent().appendElement("td").text(a == null ? "" : a).parent()
                .appendElement("td").text(b == null ? "" : b);
    }

    /** diff.pdf: the main report's banner, fonts and footer, then the warning, the dumps and the changes. */
    public static void pdf(Analysis before, Analysis after, List<DumpDiff.Change> changes, OutputStream out) {
        com.lowagie.text.Document doc = new com.lowagie.text.Document(com.lowagie.text.PageSize.A4.rotate(), 28, 28, 28, 40);
        var body = PdfFonts.sans(8.5f);
        try {
            com.lowagie.text.pdf.PdfWriter writer = com.lowagie.text.pdf.PdfWriter.getInstance(doc, out);
            writer.setPageEvent(new PdfReport.Footer(after.data().manifest().cluster(), after.dumpId()));
            doc.addTitle("InfiniBand acceptance diff - " + after.data().manifest().cluster());
            doc.open();
            com.lowagie.text.pdf.PdfPTable banner = new com.lowagie.text.pdf.PdfPTable(1);
            banner.setWidthPercentage(100);
            com.lowagie.text.pdf.PdfPCell b = new com.lowagie.text.pdf.PdfPCell();
            b.setBackgroundColor(PdfReport.color(after.report().verdict()));
            b.setBorder(0);
            b.setPadding(8);
            b.addElement(new com.lowagie.text.Paragraph(headline(before, changes), PdfFonts.bold(20, java.awt.Color.WHITE)));
            b.addElement(new com.lowagie.text.Paragraph(meaning(before, after), PdfFonts.sans(11, java.awt.Color.WHITE)));
            banner.addCell(b);
            banner.setSpacingAfter(8);
            doc.add(banner);
            String warning = unrelated(before, after);
            if (warning != null) {
                com.lowagie.text.Paragraph w = new com.lowagie.text.Paragraph(warning, PdfFonts.bold(10, PdfReport.color(io.ibaccept.rules.Status.FAIL)));
                w.setSpacingAfter(8);
                doc.add(w);
            }
            com.lowagie.text.Paragraph dumps = new com.lowagie.text.Paragraph("before: " + before.data().source() + " (" + before.dumpId() + ")\nnow: "
                    + after.data().source() + " (" + after.dumpId() + ")", body);
            dumps.setSpacingAfter(6);
            doc.add(dumps);
            com.lowagie.text.Paragraph count = new com.lowagie.text.Paragraph(changes.size() + " changes (all in diff.csv); hardware first", body);
            count.setSpacingAfter(6);
            doc.add(count);
            var t = new com.lowagie.text.pdf.PdfPTable(new float[] {1.4f, 3, 3, 3, 2});
            t.setWidthPercentage(100);
            t.setHeaderRows(1);
            for (String h : HEADER) t.addCell(new com.lowagie.text.Phrase(h, PdfFonts.bold(8.5f)));
            for (DumpDiff.Change c : ordered(changes))
                for (String x : new String[] {c.category(), c.object(), c.before(), c.after(), c.where()})
                    t.addCell(new com.lowagie.text.Phrase(ReportText.clip(x == null ? "" : x, ReportText.MAX_TEXT), body));
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
            errors.add(set.dir().resolve(name) + ": " + io.ibaccept.safety.IoMessages.why(e));
        }
    }
}
