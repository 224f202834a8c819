package io.ibaccept.report;

import com.lowagie.text.Chunk;
import com.lowagie.text.Document;
import com.lowagie.text.DocumentException;
import com.lowagie.text.Element;
import com.lowagie.text.Font;
import com.lowagie.text.PageSize;
import com.lowagie.text.Paragraph;
import com.lowagie.text.Phrase;
import com.lowagie.text.pdf.PdfPCell;
import com.lowagie.text.pdf.PdfPTable;
import com.lowagie.text.pdf.PdfWriter;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.Verdict;
import java.awt.Color;
import java.io.OutputStream;
import java.util.Map;

/** PDF version of the report: verdict banner, per-check table in colour, failures with fixes, per-node table. */
public final class PdfReport {
    private PdfReport() {}

    private static final Font H1 = new Font(Font.HELVETICA, 22, Font.BOLD, Color.WHITE);
    private static final Font H1S = new Font(Font.HELVETICA, 11, Font.NORMAL, Color.WHITE);
    private static final Font H2 = new Font(Font.HELVETICA, 14, Font.BOLD);
    private static final Font BODY = new Font(Font.HELVETICA, 8.5f);
    private static final Font BOLD = new Font(Font.HELVETICA, 8.5f, Font.BOLD);
    private static final Font MONO = new Font(Font.COURIER, 7.5f);
    private static final Font ST = new Font(Font.HELVETICA, 8, Font.BOLD, Color.WHITE);

    static Color color(Status s) {
        return switch (s) {
            case FAIL -> new Color(0xb3, 0x26, 0x1e);
            case ERROR -> new Color(0x6a, 0x1b, 0x9a);
            case WARN -> new Color(0xc7, 0x77, 0x00);
            case SKIP -> new Color(0x78, 0x82, 0x8c);
            case PASS -> new Color(0x1e, 0x7b, 0x34);
        };
    }

    static Color color(Verdict v) {
        return switch (v) {
            case REJECTED -> color(Status.FAIL);
            case INCOMPLETE -> new Color(0x8a, 0x5a, 0x00);
            case ACCEPTED_WITH_WARNINGS -> new Color(0x94, 0x62, 0x00);
            case ACCEPTED -> color(Status.PASS);
        };
    }

    public static void render(Report r, OutputStream out) {
        Document doc = new Document(PageSize.A4.rotate(), 28, 28, 28, 28);
        try {
            PdfWriter writer = PdfWriter.getInstance(doc, out);
            doc.addTitle("InfiniBand acceptance report - " + r.data().manifest().cluster());
            doc.open();
            PdfPTable banner = new PdfPTable(1);
            banner.setWidthPercentage(100);
            PdfPCell b = new PdfPCell();
            b.setBackgroundColor(color(r.verdict()));
            b.setBorder(0);
            b.setPadding(10);
            b.addElement(new Paragraph(r.verdict().label(), H1));
            b.addElement(new Paragraph(ReportText.headline(r), H1S));
            b.addElement(new Paragraph(ReportText.meta(r), H1S));
            banner.addCell(b);
            doc.add(banner);

            doc.add(heading("Checks"));
            PdfPTable checks = table(new float[] {5, 1.2f, 1}, "Check", "Status", "Findings");
            for (Map.Entry<String, Status> e : r.checkStatus().entrySet()) {
                checks.addCell(cell(ReportText.titleOf(r, e.getKey()) + " (" + e.getKey() + ")", BODY));
                checks.addCell(status(e.getValue()));
                long n = r.findings().stream().filter(f -> f.check().equals(e.getKey()) && f.status() != Status.PASS).count();
                checks.addCell(cell(n == 0 ? "-" : String.valueOf(n), BODY));
            }
            doc.add(checks);

            doc.add(heading("Failures and warnings, with fixes"));
            PdfPTable probs = table(new float[] {0.8f, 1.6f, 3, 3.4f, 4}, "Status", "Check", "What", "Evidence", "Probable cause / fix");
            int shown = 0;
            for (Finding f : r.worstFirst()) {
                if (f.status() == Status.PASS || f.status() == Status.SKIP) continue;
                shown++;
                probs.addCell(status(f.status()));
                probs.addCell(cell(f.title(), BOLD));
                probs.addCell(cell(f.summary() + (f.objects().isEmpty() ? "" : "\naffects: " + String.join(", ", f.objects())), BODY));
                StringBuilder ev = new StringBuilder();
                for (Evidence e : f.evidence()) ev.append(e.where().isEmpty() ? "" : e.where() + "  ").append(e.text()).append('\n');
                probs.addCell(cell(ev.toString().trim(), MONO));
                Phrase p = new Phrase();
                p.add(new Chunk(f.cause() + "\n", BODY));
                p.add(new Chunk("Fix: ", BOLD));
                p.add(new Chunk(f.fix(), MONO));
                PdfPCell c = new PdfPCell(p);
                c.setPadding(3);
                probs.addCell(c);
            }
            if (shown == 0) {
                PdfPCell none = cell("No failures or warnings.", BODY);
                none.setColspan(5);
                probs.addCell(none);
            }
            doc.add(probs);

            FabricSvg.addToPdf(doc, writer, r);
            doc.add(heading("Per node"));
            PdfPTable nodes = table(new float[] {1.4f, 0.8f, 3, 6}, "Node", "Worst", "Link", "Findings");
            // large clusters: hand the table to the document in chunks, so layout and memory stay linear
            nodes.setComplete(false);
            int row = 0;
            for (ReportText.NodeRow n : ReportText.nodeRows(r)) {
                nodes.addCell(cell(n.host(), BOLD));
                nodes.addCell(status(n.worst()));
                nodes.addCell(cell(n.link(), BODY));
                nodes.addCell(cell(n.findings().isEmpty() ? "-" : String.join("\n", n.findings()), BODY));
                if (++row % 100 == 0) doc.add(nodes);
            }
            nodes.setComplete(true);
            doc.add(nodes);

            doc.add(heading("Passed and skipped checks"));
            PdfPTable ok = table(new float[] {0.8f, 2.5f, 7}, "Status", "Check", "Result");
            for (Finding f : r.worstFirst()) {
                if (f.status() != Status.PASS && f.status() != Status.SKIP) continue;
                ok.addCell(status(f.status()));
                ok.addCell(cell(f.title(), BODY));
                ok.addCell(cell(f.summary(), BODY));
            }
            doc.add(ok);
        } catch (DocumentException e) {
            throw new IllegalStateException("PDF rendering failed: " + e.getMessage(), e);
        } finally {
            doc.close();
        }
    }

    private static Paragraph heading(String s) {
        Paragraph p = new Paragraph(s, H2);
        p.setSpacingBefore(12);
        p.setSpacingAfter(6);
        return p;
    }

    private static PdfPTable table(float[] widths, String... headers) {
        PdfPTable t = new PdfPTable(widths);
        t.setWidthPercentage(100);
        t.setHeaderRows(1);
        for (String h : headers) {
            PdfPCell c = cell(h, BOLD);
            c.setBackgroundColor(new Color(0xee, 0xf1, 0xf5));
            t.addCell(c);
        }
        return t;
    }

    private static PdfPCell cell(String s, Font f) {
        PdfPCell c = new PdfPCell(new Phrase(s, f));
        c.setPadding(3);
        return c;
    }

    private static PdfPCell status(Status s) {
        PdfPCell c = new PdfPCell(new Phrase(s.name(), ST));
        c.setBackgroundColor(color(s));
        c.setHorizontalAlignment(Element.ALIGN_CENTER);
        c.setPadding(3);
        return c;
    }
}
