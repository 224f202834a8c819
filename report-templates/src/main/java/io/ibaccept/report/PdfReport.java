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
import io.ibaccept.analysis.Analysis;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.Verdict;
import io.ibaccept.rules.Hostlists;
import io.ibaccept.rules.Waiver;
import io.ibaccept.rules.WaiverUse;
import java.util.ArrayList;
import java.util.List;
import java.awt.Color;
import java.io.OutputStream;
import java.util.Map;

/** PDF version of the report: verdict banner and cover page, per-check table, grouped failures with fixes, waivers, per node, inventory. */
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
            case WAIVED -> new Color(0x3d, 0x6f, 0x8f);
            case SKIP -> new Color(0x78, 0x82, 0x8c);
            case PASS -> new Color(0x1e, 0x7b, 0x34);
        };
    }

    static Color color(Verdict v) {
        return switch (v) {
            case REJECTED -> color(Status.FAIL);
            case INCOMPLETE -> new Color(0x8a, 0x5a, 0x00);
            case ACCEPTED_WITH_WAIVERS -> new Color(0x2b, 0x6a, 0x4a);
            case ACCEPTED_WITH_WARNINGS -> new Color(0x94, 0x62, 0x00);
            case ACCEPTED -> color(Status.PASS);
        };
    }

    public static void render(Analysis a, OutputStream out) {
        render(a, CoverInfo.NONE, ReportLayout.DEFAULT, out);
    }

    public static void render(Analysis a, CoverInfo cover, ReportLayout layout, OutputStream out) {
        render(new ReportFacts(a), cover, layout, out);
    }

    /** With the cabling plan comparison of 'analyze --expect' its work order gets a table. */
    static void render(ReportFacts facts, CoverInfo cover, ReportLayout layout, OutputStream out) {
        Report r = facts.report();
        Document doc = new Document(PageSize.A4.rotate(), 28, 28, 28, 28);
        FabricView fabric = facts.view();
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
            cover(doc, facts, cover);
            doc.newPage();

            doc.add(heading("Checks"));
            PdfPTable checks = table(new float[] {5, 1.2f, 1}, "Check", "Status", "Findings");
            Map<String, String> titles = ReportText.titles(r);
            Map<String, Long> problemCounts = ReportText.problemCounts(r);
            for (Map.Entry<String, Status> e : r.checkStatus().entrySet()) {
                checks.addCell(cell(titles.getOrDefault(e.getKey(), e.getKey()) + " (" + e.getKey() + ")", BODY));
                checks.addCell(status(e.getValue()));
                long n = problemCounts.getOrDefault(e.getKey(), 0L);
                checks.addCell(cell(n == 0 ? "-" : String.valueOf(n), BODY));
            }
            doc.add(checks);

            List<Finding> problems = new ArrayList<>(), waived = new ArrayList<>();
            for (Finding f : r.worstFirst()) {
                if (f.status() == Status.WAIVED) waived.add(f);
                else if (f.status() != Status.PASS && f.status() != Status.SKIP) problems.add(f);
            }
            doc.add(heading("Failures and warnings, with fixes"));
            PdfPTable probs = table(new float[] {0.8f, 1.6f, 3, 3.4f, 4}, "Status", "Check", "What", "Evidence", "Probable cause / fix");
            probs.setComplete(false);
            int shown = 0;
            for (ReportText.Group g : ReportText.groups(r, problems, layout)) {
                probs.addCell(status(g.status()));
                probs.addCell(cell(g.title(), BOLD));
                probs.addCell(cell(g.shownSummary() + (g.objects().isEmpty() ? "" : "\naffects: " + g.objects()), BODY));
                StringBuilder ev = new StringBuilder();
                for (Evidence e : g.evidence()) ev.append(e.where().isEmpty() ? "" : e.where() + "  ").append(e.text()).append('\n');
                if (g.moreEvidence() > 0) ev.append("... ").append(g.moreEvidence()).append(" more lines in findings.csv / findings.json");
                probs.addCell(cell(ev.toString().trim(), MONO));
                Phrase p = new Phrase();
                p.add(new Chunk(g.cause() + "\n", BODY));
                p.add(new Chunk("Fix: ", BOLD));
                p.add(new Chunk(g.fix(), MONO));
                PdfPCell c = new PdfPCell(p);
                c.setPadding(3);
                probs.addCell(c);
                if (++shown % 50 == 0) doc.add(probs);
            }
            if (shown == 0) {
                PdfPCell none = cell("No failures or warnings.", BODY);
                none.setColspan(5);
                probs.addCell(none);
            }
            probs.setComplete(true);
            doc.add(probs);

            if (!r.waivers().isEmpty() || !waived.isEmpty()) {
                doc.newPage();
                doc.add(heading("Waivers"));
                PdfPTable wt = table(new float[] {1.4f, 1.6f, 4, 1.4f, 1.1f, 1.4f, 0.8f}, "Check", "Objects", "Reason", "Owner", "Expires", "State", "Findings");
                for (WaiverUse u : r.waivers()) {
                    Waiver w = u.waiver();
                    for (String s : new String[] {w.check(), w.objects(), w.reason(), w.owner(), w.expires().toString()}) wt.addCell(cell(s, BODY));
                    wt.addCell(cell(u.expired() ? "EXPIRED: no longer applied" : "active", u.expired() ? BOLD : BODY));
                    wt.addCell(cell(String.valueOf(u.findings()), BODY));
                }
                doc.add(wt);
                if (!waived.isEmpty()) {
                    doc.add(heading("Waived findings"));
                    PdfPTable wf = table(new float[] {0.8f, 1.6f, 5, 4}, "Status", "Check", "What", "Waiver");
                    for (ReportText.Group g : ReportText.groups(r, waived, layout)) {
                        wf.addCell(status(g.status()));
                        wf.addCell(cell(g.title(), BOLD));
                        wf.addCell(cell(g.summary() + (g.objects().isEmpty() ? "" : "\naffects: " + g.objects()), BODY));
                        Waiver w = r.waiverFor(g.members().get(0));
                        wf.addCell(cell(w == null ? "" : ReportText.waiverText(w), BODY));
                    }
                    doc.add(wf);
                }
            }

            FabricSvg.addToPdf(doc, writer, facts);
            ExtraSections.pdf(doc, writer, facts, H2, BODY, MONO);
            doc.add(heading("Per node"));
            List<ReportText.NodeRow> rows = ReportText.problemNodeRows(r);
            List<String> clean = ReportText.cleanHosts(r, rows);
            boolean aggregate = rows.size() > layout.aggregateAbove();
            doc.add(new Paragraph(rows.size() + " of " + r.data().hosts().size() + " nodes have findings"
                    + (aggregate ? " (more than " + layout.aggregateAbove() + ": shown per check and per leaf; every node is in findings.csv)" : "")
                    + ". " + (clean.isEmpty() ? "" : clean.size() + " without findings: " + Hostlists.compress(clean)), BODY));
            if (aggregate) {
                PdfPTable ct = table(new float[] {3, 0.8f, 0.8f, 6}, "Check", "Worst", "Hosts", "Hostlist");
                for (ReportText.CheckAggregate a : ReportText.checkAggregates(r)) {
                    ct.addCell(cell(a.title() + " (" + a.check() + ")", BODY));
                    ct.addCell(status(a.worst()));
                    ct.addCell(cell(String.valueOf(a.hosts()), BODY));
                    ct.addCell(cell(a.hostlist(), MONO));
                }
                doc.add(ct);
                List<ReportText.LeafAggregate> leaves = ReportText.leafAggregates(r, fabric, rows);
                if (!leaves.isEmpty()) {
                    PdfPTable lt = table(new float[] {2, 0.8f, 1, 6}, "Leaf switch", "Hosts", "With problems", "Hosts with problems");
                    lt.setComplete(false);
                    int i = 0;
                    for (ReportText.LeafAggregate a : leaves) {
                        lt.addCell(cell(a.leaf(), BODY));
                        lt.addCell(cell(String.valueOf(a.hosts()), BODY));
                        lt.addCell(cell(String.valueOf(a.withProblems()), BODY));
                        lt.addCell(cell(a.problemHosts(), MONO));
                        if (++i % 100 == 0) doc.add(lt);
                    }
                    lt.setComplete(true);
                    doc.add(lt);
                }
            } else if (!rows.isEmpty()) {
                PdfPTable nodes = table(new float[] {1.4f, 0.8f, 3, 6}, "Node", "Worst", "Link", "Findings");
                // hand the table to the document in chunks, so layout and memory stay linear
                nodes.setComplete(false);
                int row = 0;
                for (ReportText.NodeRow n : rows) {
                    nodes.addCell(cell(n.host(), BOLD));
                    nodes.addCell(status(n.worst()));
                    nodes.addCell(cell(n.link(), BODY));
                    nodes.addCell(cell(String.join("\n", n.findings()), BODY));
                    if (++row % 100 == 0) doc.add(nodes);
                }
                nodes.setComplete(true);
                doc.add(nodes);
            }

            doc.add(heading("Inventory"));
            List<Inventory.Item> items = Inventory.items(facts);
            if (items.size() <= layout.aggregateAbove()) {
                PdfPTable it = table(new float[] {0.8f, 1.2f, 1.2f, 3, 1.2f, 1.2f, 1.4f, 1.8f, 1, 1.2f, 1.6f, 0.6f},
                        "Kind", "Host", "Device", "Description", "Type", "Firmware", "PSID", "GUID", "Device id", "Vendor", "Part number", "Ports");
                for (Inventory.Item i : items)
                    for (String s : new String[] {i.kind(), i.host(), i.device(), i.description(), i.type(), i.firmware(), i.psid(), i.guid(),
                            i.deviceId(), i.vendor(), i.partNumber(), i.ports() == null ? "" : String.valueOf(i.ports())})
                        it.addCell(cell(s, BODY));
                doc.add(it);
            } else {
                java.util.Map<String, List<String>> distinct = new java.util.TreeMap<>();
                for (Inventory.Item i : items) {
                    String key = i.kind() + " | " + String.join(" ", i.type(), i.firmware(), i.psid(), i.vendor(), i.partNumber()).trim().replaceAll("\\s+", " ");
                    distinct.computeIfAbsent(key, k -> new ArrayList<>()).add(i.host().isEmpty() ? i.device() : i.host());
                }
                doc.add(new Paragraph(items.size() + " items, grouped by kind, type, firmware and part number (every item is in inventory.csv):", BODY));
                for (var e : distinct.entrySet())
                    doc.add(new Paragraph(e.getKey() + ": " + e.getValue().size() + " (" + Hostlists.compress(e.getValue()) + ")", BODY));
            }

            doc.add(heading("Passed and skipped checks"));
            PdfPTable ok = table(new float[] {0.8f, 2.5f, 7}, "Status", "Check", "Result");
            for (ReportText.PassLine p : ReportText.passLines(r, layout)) {
                ok.addCell(status(p.status()));
                ok.addCell(cell(p.title(), BODY));
                ok.addCell(cell(p.text(), BODY));
            }
            doc.add(ok);
        } catch (DocumentException e) {
            throw new IllegalStateException("PDF rendering failed: " + e.getMessage(), e);
        } finally {
            doc.close();
        }
    }

    private static void cover(Document doc, ReportFacts facts, CoverInfo cover) {
        Report r = facts.report();
        doc.add(heading("Acceptance record"));
        PdfPTable t = new PdfPTable(new float[] {1.5f, 8});
        t.setWidthPercentage(100);
        for (String[] row : HtmlReport.coverRows(facts, cover)) {
            t.addCell(cell(row[1], BOLD));
            t.addCell(cell(row[2], row[0].equals("dump-id") ? MONO : BODY));
        }
        doc.add(t);
        doc.add(heading("Thresholds that differ from the defaults"));
        List<String> changed = ReportText.changedThresholds(r);
        if (changed.isEmpty()) doc.add(new Paragraph("none: all checks used the default thresholds", BODY));
        else for (String c : changed) doc.add(new Paragraph(c, MONO));
        doc.add(heading("Signatures"));
        PdfPTable s = table(new float[] {1.5f, 3, 2, 4}, "", "Name", "Date", "Signature");
        for (String who : new String[] {"Integrator", "Customer"}) {
            s.addCell(cell(who, BOLD));
            for (int i = 0; i < 3; i++) {
                PdfPCell c = cell(" ", BODY);
                c.setFixedHeight(36);
                s.addCell(c);
            }
        }
        doc.add(s);
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
