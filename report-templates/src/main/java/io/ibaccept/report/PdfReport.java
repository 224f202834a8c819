package io.ibaccept.report;

import com.lowagie.text.Chunk;
import com.lowagie.text.Document;
import com.lowagie.text.DocumentException;
import com.lowagie.text.Element;
import com.lowagie.text.Font;
import com.lowagie.text.PageSize;
import com.lowagie.text.Paragraph;
import com.lowagie.text.Phrase;
import com.lowagie.text.pdf.BaseFont;
import com.lowagie.text.pdf.PdfContentByte;
import com.lowagie.text.pdf.PdfPCell;
import com.lowagie.text.pdf.PdfPageEventHelper;
import com.lowagie.text.pdf.PdfTemplate;
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

    private static final Font H1 = PdfFonts.bold(20, Color.WHITE);
    private static final Font H1S = PdfFonts.sans(11, Color.WHITE);
    private static final Font H2 = PdfFonts.bold(14);
    private static final Font BODY = PdfFonts.sans(8.5f);
    private static final Font BOLD = PdfFonts.bold(8.5f);
    private static final Font MONO = PdfFonts.mono(7.5f);
    private static final Font ST = PdfFonts.bold(8, Color.WHITE);
    private static final Font H1M = PdfFonts.sans(8.5f, Color.WHITE);
    private static final Font H3 = PdfFonts.bold(10);
    private static final Font BODY_S = PdfFonts.sans(7.5f);
    private static final Font BOLD_S = PdfFonts.bold(7.5f);
    private static final Font MONO_S = PdfFonts.mono(7);

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
        Document doc = new Document(PageSize.A4.rotate(), 28, 28, 28, 40);
        FabricView fabric = facts.view();
        ReportCounts counts = facts.counts();
        try {
            PdfWriter writer = PdfWriter.getInstance(doc, out);
            writer.setPageEvent(new Footer(r.data().manifest().cluster(), facts.dumpId()));
            doc.addTitle("InfiniBand acceptance report - " + r.data().manifest().cluster());
            doc.open();
            PdfPTable banner = new PdfPTable(1);
            banner.setWidthPercentage(100);
            PdfPCell b = new PdfPCell();
            b.setBackgroundColor(color(r.verdict()));
            b.setBorder(0);
            b.setPadding(8);
            b.addElement(new Paragraph(r.verdictLine(), H1));
            b.addElement(new Paragraph(ReportText.headline(r), H1S));
            b.addElement(new Paragraph(counts.checksLine() + "\n" + counts.findingsLine(), H1M));
            b.addElement(new Paragraph(ReportText.clip(ReportText.meta(r), ReportCounts.MAX_LINE), H1M));
            banner.addCell(b);
            doc.add(banner);
            cover(doc, writer, facts, cover);
            doc.newPage();

            doc.add(heading("Checks"));
            doc.add(new Paragraph(counts.checksLine() + ". A check's status is the worst of its own root findings; findings that follow "
                    + "from another check's root finding are counted there (CONSEQUENCE: a check with consequences only).", BODY));
            PdfPTable checks = table(new float[] {5, 1.3f, 1, 3}, "Check", "Status", "Root findings", "Consequences (counted at their root)");
            for (ReportCounts.CheckCount c : counts.checks()) {
                checks.addCell(cell(c.title() + " (" + c.check() + ")", BODY));
                checks.addCell(status(c.status()));
                checks.addCell(cell(c.problems() == 0 ? "-" : String.valueOf(c.problems()), BODY));
                checks.addCell(cell(HtmlReport.consequenceText(c), BODY));
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
                wt.setComplete(false);
                int rows = 0;
                for (WaiverUse u : ReportText.waiversToList(r)) {
                    Waiver w = u.waiver();
                    for (String s : new String[] {w.check(), w.objects(), w.reason(), w.owner(), w.expires().toString()})
                        wt.addCell(cell(ReportText.clip(s, ReportText.MAX_TEXT), BODY));
                    wt.addCell(cell(u.expired() ? "EXPIRED: no longer applied" : "active", u.expired() ? BOLD : BODY));
                    wt.addCell(cell(String.valueOf(u.findings()), BODY));
                    if (++rows % 50 == 0) doc.add(wt); // written out as it grows
                }
                String more = ReportText.moreWaiversLine(r);
                if (more != null) {
                    PdfPCell c = cell(more, BODY);
                    c.setColspan(7);
                    wt.addCell(c);
                }
                wt.setComplete(true);
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
            List<Inventory.Item> items = facts.inventory();
            if (items.size() <= layout.aggregateAbove()) {
                // the columns of inventory.csv a reader checks against the bill of materials; a GUID on one line, never wrapped
                PdfPTable it = table(new float[] {0.7f, 1.1f, 1, 1.9f, 0.9f, 1.1f, 1.1f, 2.6f, 0.8f, 0.9f, 1.3f, 1.3f, 0.5f},
                        "Kind", "Host", "Device", "Description", "Type", "Firmware", "PSID", "GUID", "Device id", "Vendor", "Part number", "Serial", "Ports");
                for (Inventory.Item i : items) {
                    String[] row = {i.kind(), i.host(), i.device(), i.description(), i.type(), i.firmware(), i.psid(), i.guid(),
                            i.deviceId(), i.vendor(), i.partNumber(), i.serial(), i.ports() == null ? "" : String.valueOf(i.ports())};
                    for (int k = 0; k < row.length; k++) {
                        PdfPCell c = cell(row[k], k == GUID_COLUMN ? MONO : BODY);
                        c.setNoWrap(k == GUID_COLUMN);
                        it.addCell(c);
                    }
                }
                doc.add(it);
            } else {
                java.util.Map<String, List<String>> distinct = new java.util.TreeMap<>();
                for (Inventory.Item i : items) {
                    String key = i.kind() + " | " + String.join(" ", i.type(), i.firmware(), i.psid(), i.vendor(), i.partNumber()).trim().replaceAll("\\s+", " ");
                    distinct.computeIfAbsent(key, k -> new ArrayList<>()).add(Inventory.member(i));
                }
                doc.add(new Paragraph(items.size() + " items, grouped by kind, type, firmware and part number (every item is in inventory.csv):", BODY));
                for (var e : distinct.entrySet())
                    doc.add(new Paragraph(e.getKey() + ": " + e.getValue().size() + " (" + Hostlists.compress(e.getValue().stream().distinct().toList()) + ")", BODY));
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

    /**
     * Page 1, the page that is signed: the acceptance record and the contract beside the coverage, the root failures
     * and the waivers in force; then the signatures beside a box for remarks and conditions. The lists step down
     * through FirstPage.LEVELS until the whole page, signatures included, fits below the banner: what is left out is
     * "and N more" naming the section that has it, never a signature block pushed to page 2.
     */
    private static void cover(Document doc, PdfWriter writer, ReportFacts facts, CoverInfo cover) {
        float width = doc.right() - doc.left(), room = writer.getVerticalPosition(false) - doc.bottom();
        PdfPTable bottom = signatures();
        float rest = room - height(bottom, width) - bottom.spacingBefore() - 2;
        PdfPTable grid = null;
        for (FirstPage.Bounds b : FirstPage.LEVELS) {
            grid = grid(facts, cover, b, 0);
            if (height(grid, width) + grid.spacingBefore() <= rest) break;
        }
        if (height(grid, width) + grid.spacingBefore() > rest) // still too tall: the record is cut at the page, the signatures stay
            grid = grid(facts, cover, FirstPage.LEVELS.get(FirstPage.LEVELS.size() - 1), rest - grid.spacingBefore());
        doc.add(grid);
        doc.add(bottom);
    }

    /** The table's height at the page's width (the width it is added at). */
    private static float height(PdfPTable t, float width) {
        t.setTotalWidth(width);
        t.setLockedWidth(true);
        return t.getTotalHeight();
    }

    /** The acceptance record beside coverage, failures and waivers; fixedHeight 0: as tall as they are. */
    private static PdfPTable grid(ReportFacts facts, CoverInfo cover, FirstPage.Bounds bounds, float fixedHeight) {
        Report r = facts.report();
        PdfPTable grid = new PdfPTable(new float[] {1, 1});
        grid.setWidthPercentage(100);
        grid.setSpacingBefore(4);
        PdfPCell left = new PdfPCell();
        left.setBorder(0);
        left.setPaddingRight(8);
        if (fixedHeight > 0) left.setFixedHeight(fixedHeight);
        left.addElement(small("Acceptance record"));
        PdfPTable t = new PdfPTable(new float[] {1.6f, 6});
        t.setWidthPercentage(100);
        for (String[] row : HtmlReport.coverRows(facts, cover, bounds)) {
            t.addCell(cell(row[1], BOLD_S, 2));
            t.addCell(cell(row[2], row[0].equals("dump-id") ? MONO_S : BODY_S, 2));
        }
        left.addElement(t);
        left.addElement(small("Contract"));
        for (String l : FirstPage.contract(facts.contract(), bounds)) left.addElement(line(l, BODY_S));
        left.addElement(small("Facts every host shares (hold them against what was bought)"));
        for (String l : FirstPage.facts(facts.uniformFacts(), bounds)) left.addElement(line(l, BODY_S));
        left.addElement(small("Thresholds that differ from the defaults"));
        for (String c : FirstPage.thresholds(r, bounds)) left.addElement(line(c, ReportText.changedThresholds(r).isEmpty() ? BODY_S : MONO_S));
        grid.addCell(left);

        PdfPCell right = new PdfPCell();
        right.setBorder(0);
        right.setPaddingLeft(8);
        if (fixedHeight > 0) right.setFixedHeight(fixedHeight);
        List<String> coverage = FirstPage.coverage(r.coverage(), bounds);
        if (!coverage.isEmpty()) {
            right.addElement(small("Coverage"));
            for (String l : coverage) right.addElement(line(l, BODY_S));
        }
        right.addElement(small("Failures (root findings, as the console prints them)"));
        for (String l : FirstPage.rootFailures(r, bounds)) right.addElement(line(l, BODY_S));
        String n1 = FirstPage.resilience(facts.analysis());
        if (n1 != null) {
            right.addElement(small("N-1 on the fabric's twin"));
            right.addElement(line(n1, BODY_S));
        }
        right.addElement(small("Waivers in force"));
        List<String[]> inForce = FirstPage.waiversInForce(r, bounds);
        if (inForce.isEmpty()) right.addElement(line("none", BODY_S));
        else {
            PdfPTable w = new PdfPTable(new float[] {1.4f, 1.4f, 3, 1.3f, 1.1f});
            w.setWidthPercentage(100);
            for (String h : new String[] {"Check", "Objects", "Reason", "Owner", "Expires"}) w.addCell(cell(h, BOLD_S, 2));
            for (String[] row : inForce.subList(0, Math.min(inForce.size(), bounds.waiverRows())))
                for (String v : row) w.addCell(cell(v, BODY_S, 2));
            right.addElement(w);
            String more = FirstPage.moreWaiversLine(inForce, bounds);
            if (more != null) right.addElement(line(more, BODY_S));
        }
        grid.addCell(right);
        return grid;
    }

    /** The signatures beside the box for remarks and conditions: always on page 1. */
    private static PdfPTable signatures() {
        PdfPTable bottom = new PdfPTable(new float[] {1.2f, 1});
        bottom.setWidthPercentage(100);
        bottom.setSpacingBefore(6);
        bottom.setKeepTogether(true);
        PdfPCell sign = new PdfPCell();
        sign.setBorder(0);
        sign.setPaddingRight(8);
        sign.addElement(small("Signatures"));
        PdfPTable s = new PdfPTable(new float[] {1.3f, 3, 1.6f, 3});
        s.setWidthPercentage(100);
        for (String h : new String[] {"", "Name", "Date", "Signature"}) s.addCell(cell(h, BOLD_S, 2));
        for (String who : new String[] {"Integrator", "Customer"}) {
            s.addCell(cell(who, BOLD_S, 2));
            for (int i = 0; i < 3; i++) {
                PdfPCell c = cell(" ", BODY_S, 2);
                c.setFixedHeight(30);
                s.addCell(c);
            }
        }
        sign.addElement(s);
        bottom.addCell(sign);
        PdfPCell remarks = new PdfPCell();
        remarks.setBorder(0);
        remarks.setPaddingLeft(8);
        remarks.addElement(small("Remarks / conditions"));
        PdfPTable box = new PdfPTable(1);
        box.setWidthPercentage(100);
        PdfPCell empty = cell(" ", BODY_S, 2);
        empty.setFixedHeight(74);
        box.addCell(empty);
        remarks.addElement(box);
        bottom.addCell(remarks);
        return bottom;
    }

    private static Paragraph small(String s) {
        Paragraph p = new Paragraph(s, H3);
        p.setSpacingBefore(5);
        p.setSpacingAfter(2);
        return p;
    }

    private static Paragraph line(String s, Font f) {
        Paragraph p = new Paragraph(s, f);
        p.setLeading(f.getSize() * 1.2f);
        return p;
    }

    /**
     * "page X of Y | cluster | dump id" at the foot of every page: Y is a template filled in when the document closes,
     * the standard way, so the pages are written once.
     */
    static final class Footer extends PdfPageEventHelper {
        private static final float SIZE = 7;
        private final String right;
        private PdfTemplate total;
        private BaseFont font;

        Footer(String cluster, String dumpId) {
            this.right = "cluster " + cluster + "  |  dump " + dumpId;
        }

        @Override
        public void onOpenDocument(PdfWriter writer, Document document) {
            total = writer.getDirectContent().createTemplate(40, SIZE + 3);
            font = PdfFonts.SANS;
        }

        @Override
        public void onEndPage(PdfWriter writer, Document document) {
            PdfContentByte cb = writer.getDirectContent();
            String left = "page " + writer.getPageNumber() + " of ";
            float y = document.bottom() - 20;
            cb.saveState();
            cb.beginText();
            cb.setFontAndSize(font, SIZE);
            cb.setTextMatrix(document.left(), y);
            cb.showText(left);
            cb.endText();
            cb.addTemplate(total, document.left() + font.getWidthPoint(left, SIZE), y);
            cb.beginText();
            cb.setFontAndSize(font, SIZE);
            cb.showTextAligned(PdfContentByte.ALIGN_RIGHT, right, document.right(), y, 0);
            cb.endText();
            cb.restoreState();
        }

        @Override
        public void onCloseDocument(PdfWriter writer, Document document) {
            total.beginText();
            total.setFontAndSize(font, SIZE);
            total.setTextMatrix(0, 0);
            total.showText(String.valueOf(writer.getPageNumber() - 1));
            total.endText();
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

    private static final int GUID_COLUMN = 7;

    private static PdfPCell cell(String s, Font f) {
        return cell(s, f, 3);
    }

    private static PdfPCell cell(String s, Font f, float padding) {
        PdfPCell c = new PdfPCell(new Phrase(s, f));
        c.setPadding(padding);
        return c;
    }

    private static final Color CONSEQUENCE = new Color(0xaa, 0xb3, 0xbc);

    /** A check's status: a Status name or CONSEQUENCE. */
    private static PdfPCell status(String state) {
        PdfPCell c = new PdfPCell(new Phrase(state, ST));
        c.setBackgroundColor(ReportCounts.CONSEQUENCE.equals(state) ? CONSEQUENCE : color(Status.valueOf(state)));
        c.setHorizontalAlignment(Element.ALIGN_CENTER);
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
