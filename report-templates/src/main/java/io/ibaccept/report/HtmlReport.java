package io.ibaccept.report;

import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.Status;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/** Fills the report.html template with a report's findings. Rendering never depends on the findings' count. */
public final class HtmlReport {
    private HtmlReport() {}

    public static String render(Report r) {
        Document doc = template();
        Element banner = doc.getElementById("banner");
        banner.addClass(r.verdict().name());
        doc.getElementById("verdict").text(r.verdict().label());
        doc.getElementById("verdict-meaning").text(ReportText.headline(r));
        doc.getElementById("meta").text(ReportText.meta(r));
        doc.title("IB acceptance: " + r.data().manifest().cluster() + " - " + r.verdict().label());

        Element counts = doc.getElementById("counts");
        for (Map.Entry<Status, Long> e : r.counts().entrySet())
            counts.appendElement("span").appendElement("span").addClass("st").addClass(e.getKey().name()).text(e.getKey().name())
                    .parent().appendText(" " + e.getValue());

        Element checks = doc.selectFirst("#check-table tbody");
        for (Map.Entry<String, Status> e : r.checkStatus().entrySet()) {
            Element tr = checks.appendElement("tr").attr("data-check", e.getKey()).attr("data-status", e.getValue().name());
            tr.appendElement("td").text(ReportText.titleOf(r, e.getKey()) + " (" + e.getKey() + ")");
            status(tr.appendElement("td"), e.getValue());
            long n = r.findings().stream().filter(f -> f.check().equals(e.getKey()) && f.status() != Status.PASS).count();
            tr.appendElement("td").text(n == 0 ? "-" : String.valueOf(n));
        }

        Element probs = doc.selectFirst("#problem-table tbody");
        Element passed = doc.selectFirst("#pass-table tbody");
        for (Finding f : r.worstFirst()) {
            if (f.status() == Status.PASS || f.status() == Status.SKIP) {
                Element tr = passed.appendElement("tr").addClass("finding").attr("data-check", f.check()).attr("data-status", f.status().name());
                status(tr.appendElement("td"), f.status());
                tr.appendElement("td").text(f.title());
                tr.appendElement("td").text(f.summary());
                continue;
            }
            Element tr = probs.appendElement("tr").addClass("finding").attr("data-check", f.check()).attr("data-status", f.status().name());
            status(tr.appendElement("td"), f.status());
            tr.appendElement("td").text(f.title());
            Element what = tr.appendElement("td");
            what.appendElement("div").addClass("summary").text(f.summary());
            if (!f.objects().isEmpty()) what.appendElement("div").addClass("ev").text("affects: " + String.join(", ", f.objects()));
            Element ev = tr.appendElement("td");
            for (Evidence e : f.evidence()) {
                Element d = ev.appendElement("div").addClass("ev");
                if (!e.where().isEmpty()) d.appendElement("span").addClass("where").text(e.where() + "  ");
                d.appendText(e.text());
            }
            Element fx = tr.appendElement("td");
            fx.appendElement("div").addClass("cause").text(f.cause());
            if (!f.fix().isEmpty()) fx.appendElement("div").addClass("fix").appendElement("code").text(f.fix());
        }
        if (probs.children().isEmpty()) probs.appendElement("tr").appendElement("td").attr("colspan", "5").text("No failures or warnings.");

        Element nodes = doc.selectFirst("#node-table tbody");
        for (ReportText.NodeRow n : ReportText.nodeRows(r)) {
            Element tr = nodes.appendElement("tr").attr("data-node", n.host()).attr("data-status", n.worst().name());
            tr.appendElement("td").text(n.host());
            status(tr.appendElement("td"), n.worst());
            tr.appendElement("td").text(n.link());
            tr.appendElement("td").text(n.findings().isEmpty() ? "-" : String.join("; ", n.findings()));
        }
        FabricSvg.appendSection(doc, r);
        return doc.outerHtml();
    }

    private static void status(Element td, Status s) {
        td.appendElement("span").addClass("st").addClass(s.name()).text(s.name());
    }

    private static Document template() {
        try (InputStream in = HtmlReport.class.getResourceAsStream("report.html")) {
            return Jsoup.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
