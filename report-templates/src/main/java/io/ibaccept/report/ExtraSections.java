package io.ibaccept.report;

import com.lowagie.text.Document;
import com.lowagie.text.DocumentException;
import com.lowagie.text.Font;
import com.lowagie.text.Image;
import com.lowagie.text.Paragraph;
import com.lowagie.text.pdf.PdfPCell;
import com.lowagie.text.pdf.PdfPTable;
import io.ibaccept.fabric.PlanDiff;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.counters.LinkWindowRow;
import java.io.Writer;
import java.util.List;
import org.jsoup.nodes.Element;

/**
 * The report sections that exist only when the dump (or the command) has their data: RDMA performance (heat maps,
 * sweeps, command lines), the counter-window link table and the cabling work order. Shared by HTML and PDF.
 */
final class ExtraSections {
    private ExtraSections() {}

    /** Link rows shown in HTML/PDF; linkwindow.csv has all of them. */
    static final int MAX_LINK_ROWS = 300;

    static final String[] LINK_HEADER = {"Status", "Link", "Errors in window", "Errors/h", "Symbol BER", "Carried load", "Errors before", "Judged on", "Detail"};

    static String[] linkCells(LinkWindowRow x) {
        return new String[] {x.status().name(), x.link() + (x.switchToSwitch() ? " (switch-to-switch)" : ""),
                x.snapshotOnly() ? "-" : x.errorsInWindow() + (x.atLeast() ? " (at least)" : ""), blank(LinkWindowCsv.num(x.errorsPerHour(), "%.2f")),
                blank(LinkWindowCsv.num(x.symbolBer(), "%.2e")), x.snapshotOnly() ? "-" : x.carriedLoad() ? "yes" : x.switchToSwitch() ? "no: not exercised" : "no",
                String.valueOf(x.errorsBefore()), x.snapshotOnly() ? "snapshot (one sample)" : "window", x.detail()};
    }

    private static String blank(String s) {
        return s.isEmpty() ? "-" : s;
    }

    static void html(org.jsoup.nodes.Document doc, ReportFacts facts) {
        // after the findings, before the fabric picture and the per-node table
        Element anchor = doc.getElementById("fabric") != null ? doc.getElementById("fabric") : doc.getElementById("nodes");
        String perf = PerfSection.html(facts.perfFigures(), facts.perfCommands());
        if (!perf.isEmpty()) insert(doc, anchor, perf);
        String routing = RoutingSection.html(facts.analysis());
        if (!routing.isEmpty()) insert(doc, anchor, routing);
        String ports = PortMapSection.html(facts.analysis());
        if (!ports.isEmpty()) insert(doc, anchor, ports);
        List<String> n1 = resilienceLines(facts.analysis());
        if (!n1.isEmpty()) {
            Element s = new Element("section").attr("id", "resilience-section");
            s.appendElement("h2").text("N-1 on the fabric's twin");
            Element ul = s.appendElement("ul");
            n1.forEach(l -> ul.appendElement("li").text(l));
            insert(doc, anchor, s.outerHtml());
        }
        PlanDiff.Result plan = facts.plan();
        List<LinkWindowRow> rows = facts.linkWindow();
        if (!rows.isEmpty()) {
            Element s = new Element("section").attr("id", "link-window");
            s.appendElement("h2").text("Error counters per link");
            long snapshot = rows.stream().filter(LinkWindowRow::snapshotOnly).count();
            s.appendElement("p").text(rows.size() + " links, worst first" + (rows.size() > MAX_LINK_ROWS ? " (first " + MAX_LINK_ROWS + " shown)" : "")
                    + "; all in linkwindow.csv." + (snapshot > 0 ? " " + snapshot + " judged on a single snapshot (cumulative counts, no rate): marked 'snapshot'." : ""));
            Element t = s.appendElement("table").attr("id", "link-window-table").addClass("sortable");
            Element hr = t.appendElement("thead").appendElement("tr");
            for (String h : LINK_HEADER) hr.appendElement("th").text(h);
            Element tb = t.appendElement("tbody");
            for (LinkWindowRow x : LinkWindowCsv.sorted(rows).subList(0, Math.min(rows.size(), MAX_LINK_ROWS))) {
                Element tr = tb.appendElement("tr").attr("data-status", x.status().name()).attr("data-judged", x.snapshotOnly() ? "snapshot" : "window");
                if (x.snapshotOnly()) tr.addClass("snapshot");
                if (x.switchToSwitch() && !x.snapshotOnly() && !x.carriedLoad()) tr.addClass("not-exercised");
                String[] c = linkCells(x);
                Element st = tr.appendElement("td");
                st.appendElement("span").addClass("st").addClass(x.status().name()).text(c[0]);
                for (int i = 1; i < c.length; i++) tr.appendElement("td").text(c[i]);
            }
            insert(doc, anchor, s.outerHtml());
        }
        if (plan != null) {
            Element s = new Element("section").attr("id", "work-order");
            s.appendElement("h2").text("Cabling work order");
            s.appendElement("p").text(plan.planned() + " planned cables, " + plan.matched() + " as planned, " + plan.workOrder().size()
                    + " step(s) for the data-centre technician (also in workorder.csv)" + (plan.planProblems().isEmpty() ? "."
                    : "; " + plan.planProblems().size() + " plan line(s) could not be read (see the fabric.plan finding)."));
            Element t = s.appendElement("table").attr("id", "work-order-table");
            Element hr = t.appendElement("thead").appendElement("tr");
            for (String h : WORK_HEADER) hr.appendElement("th").text(h);
            Element tb = t.appendElement("tbody");
            for (PlanDiff.Work w : plan.workOrder()) {
                Element tr = tb.appendElement("tr").attr("data-action", w.action());
                for (String c : workCells(w)) tr.appendElement("td").text(c);
            }
            if (plan.workOrder().isEmpty()) tb.appendElement("tr").appendElement("td").attr("colspan", String.valueOf(WORK_HEADER.length))
                    .text("Nothing to do: every cable is where the plan says.");
            insert(doc, anchor, s.outerHtml());
        }
    }

    /** Losses named per outcome group in the section; the record has them all. */
    static final int MAX_NAMED_LOSSES = 12;

    /**
     * The resilience run's section: the twin and its coverage, then each group of losses with the same outcome (the
     * critical ones first, each with its fix); empty without a run.
     */
    static List<String> resilienceLines(io.ibaccept.analysis.Analysis a) {
        io.ibaccept.model.Resilience r = a.data() == null || a.data().fabric() == null ? null : a.data().fabric().resilience();
        if (r == null) return List.of();
        List<String> out = new java.util.ArrayList<>();
        out.add(r.pageOneLine());
        out.add("routing engine: " + r.header().getOrDefault("engine", "?") + "; " + r.header().getOrDefault("sm", ""));
        out.add("twin: " + r.header().getOrDefault("twin", "?"));
        out.add("coverage: " + r.header().getOrDefault("coverage", "?") + "; " + r.header().getOrDefault("time", ""));
        for (io.ibaccept.model.Resilience.Group g : r.groups()) {
            List<String> names = g.losses().stream().map(l -> l.name() + (l.fix().isEmpty() ? "" : " (fix: " + l.fix() + ")")).toList();
            out.add(g.losses().size() + " loss(es) " + g.outcome() + ": " + String.join("; ", names.subList(0, Math.min(MAX_NAMED_LOSSES, names.size())))
                    + (names.size() > MAX_NAMED_LOSSES ? "; and " + (names.size() - MAX_NAMED_LOSSES) + " more (fabric/resilience.out)" : ""));
        }
        return out;
    }

    private static void insert(org.jsoup.nodes.Document doc, Element anchor, String html) {
        if (anchor != null) anchor.before(html);
        else doc.body().append(html);
    }

    /** An SVG drawn as PDF vectors, at most the page's width and this share of its height. */
    private static void figure(Document doc, com.lowagie.text.pdf.PdfWriter writer, String svg, Font body, float height) throws DocumentException {
        try {
            Image img = Image.getInstance(PerfPdf.render(svg, writer.getDirectContent()));
            img.scaleToFit(doc.getPageSize().getWidth() - doc.leftMargin() - doc.rightMargin(),
                    (doc.getPageSize().getHeight() - doc.topMargin() - doc.bottomMargin()) * height);
            doc.add(img);
        } catch (RuntimeException e) {
            doc.add(new Paragraph("(the figure could not be drawn: " + io.ibaccept.safety.IoMessages.why(e) + ")", body));
        }
    }

    static final String[] WORK_HEADER = {"Step", "Action", "Device", "Port", "Peer device", "Peer port", "Cable id", "Reason", "Done"};

    static String[] workCells(PlanDiff.Work w) {
        return new String[] {String.valueOf(w.step()), w.action(), nz(w.a()), w.aPort() > 0 ? String.valueOf(w.aPort()) : "", nz(w.b()),
                w.bPort() > 0 ? String.valueOf(w.bPort()) : "", nz(w.cableId()), nz(w.reason()), ""};
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    /** workorder.csv: one row per cable to connect, move or check, with an empty "done" column to tick. */
    static void workOrderCsv(PlanDiff.Result plan, Writer out) {
        try (SafeCsv csv = new SafeCsv(out, "step", "action", "device", "port", "peer_device", "peer_port", "cable_id", "reason", "done")) {
            for (PlanDiff.Work w : plan.workOrder())
                csv.row(w.step(), w.action(), w.a(), w.aPort() > 0 ? w.aPort() : "", w.b(), w.bPort() > 0 ? w.bPort() : "", w.cableId(), w.reason(), "");
        }
    }

    static void pdf(Document doc, com.lowagie.text.pdf.PdfWriter writer, ReportFacts facts, Font h2, Font body, Font mono)
            throws DocumentException {
        PlanDiff.Result plan = facts.plan();
        List<String> routing = RoutingSection.lines(facts.analysis());
        if (!routing.isEmpty()) {
            doc.newPage();
            doc.add(new Paragraph("Routing", h2));
            for (String l : routing) doc.add(new Paragraph(l, body));
            String svg = RoutingSection.svg(facts.analysis());
            if (!svg.isEmpty()) figure(doc, writer, svg, body, 0.6f);
        }
        List<String> n1 = resilienceLines(facts.analysis());
        if (!n1.isEmpty()) {
            doc.newPage();
            doc.add(new Paragraph("N-1 on the fabric's twin", h2));
            for (String l : n1) doc.add(new Paragraph(l, body));
        }
        String map = PortMapSection.svg(facts.analysis());
        if (!map.isEmpty()) {
            doc.newPage();
            doc.add(new Paragraph("Switch ports", h2));
            figure(doc, writer, map, body, 0.75f);
            doc.add(new Paragraph("One cell per switch port: green for a host cable, dark green for a switch-to-switch cable, grey when empty; "
                    + "orange or red when a WARN or FAIL finding names the port or its cable.", body));
            String worst = PortMapSection.worstLinks(facts.linkWindow());
            if (!worst.isEmpty()) figure(doc, writer, worst, body, 0.35f);
        }
        List<PerfSection.Figure> figs = facts.perfFigures();
        if (!figs.isEmpty()) {
            doc.newPage();
            doc.add(new Paragraph("RDMA performance", h2));
            for (PerfSection.Figure f : figs) {
                try {
                    Image img = Image.getInstance(PerfPdf.render(f.svg(), writer.getDirectContent()));
                    float maxW = doc.getPageSize().getWidth() - doc.leftMargin() - doc.rightMargin();
                    float maxH = (doc.getPageSize().getHeight() - doc.topMargin() - doc.bottomMargin()) * 0.8f;
                    img.scaleToFit(maxW, maxH);
                    doc.add(img);
                } catch (RuntimeException e) {
                    doc.add(new Paragraph("(figure " + f.name() + " could not be drawn: " + io.ibaccept.safety.IoMessages.why(e) + ")", body));
                }
                doc.add(new Paragraph(f.caption(), body));
            }
            facts.perfCommands().forEach((test, lines) -> {
                if (lines.isEmpty()) return;
                try {
                    doc.add(new Paragraph(test + ": command lines (rerun a pair by hand; server first)", body));
                    for (String l : lines.subList(0, Math.min(lines.size(), 10))) doc.add(new Paragraph(l, mono));
                } catch (DocumentException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        List<LinkWindowRow> rows = facts.linkWindow();
        if (!rows.isEmpty()) {
            doc.add(new Paragraph("Error counters per link", h2));
            doc.add(new Paragraph(rows.size() + " links, worst first" + (rows.size() > MAX_LINK_ROWS ? " (first " + MAX_LINK_ROWS + ")" : "")
                    + "; all in linkwindow.csv; 'snapshot' rows had one counter sample only.", body));
            PdfPTable t = new PdfPTable(new float[] {0.8f, 4, 1.2f, 1, 1.2f, 1.4f, 1, 1.4f, 4});
            t.setWidthPercentage(100);
            t.setHeaderRows(1);
            for (String h : LINK_HEADER) t.addCell(new PdfPCell(new Paragraph(h, body)));
            for (LinkWindowRow x : LinkWindowCsv.sorted(rows).subList(0, Math.min(rows.size(), MAX_LINK_ROWS))) {
                String[] c = linkCells(x);
                for (String s : c) {
                    PdfPCell cell = new PdfPCell(new Paragraph(s, body));
                    if (x.status() == Status.FAIL) cell.setBackgroundColor(new java.awt.Color(0xfb, 0xe4, 0xe2));
                    t.addCell(cell);
                }
            }
            doc.add(t);
        }
        if (plan != null) {
            doc.add(new Paragraph("Cabling work order", h2));
            doc.add(new Paragraph(plan.planned() + " planned cables, " + plan.matched() + " as planned, " + plan.workOrder().size()
                    + " step(s) (also in workorder.csv)", body));
            if (!plan.workOrder().isEmpty()) {
                PdfPTable t = new PdfPTable(new float[] {0.6f, 1, 2, 0.7f, 2, 0.7f, 1.2f, 4, 0.6f});
                t.setWidthPercentage(100);
                t.setHeaderRows(1);
                for (String h : WORK_HEADER) t.addCell(new PdfPCell(new Paragraph(h, body)));
                for (PlanDiff.Work w : plan.workOrder()) for (String s : workCells(w)) t.addCell(new PdfPCell(new Paragraph(s, body)));
                doc.add(t);
            }
        }
    }
}
