package io.ibaccept.report;

import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.analysis.Analysis;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.Waiver;
import io.ibaccept.rules.WaiverUse;
import io.ibaccept.rules.Hostlists;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * Fills the report.html template. Size grows linearly and stays small: findings sharing check, cause and fix are one
 * row with their hosts as a hostlist, per-node rows only for nodes with a problem (aggregates above a threshold),
 * passing results one line per check. CSV/JSON keep the full list.
 */
public final class HtmlReport {
    private HtmlReport() {}

    public static String render(Analysis a) {
        return render(a, CoverInfo.NONE, ReportLayout.DEFAULT);
    }

    public static String render(Analysis a, CoverInfo cover, ReportLayout layout) {
        return render(new ReportFacts(a), cover, layout);
    }

    /** With the cabling plan comparison of 'analyze --expect' its work order becomes a section. */
    static String render(ReportFacts facts, CoverInfo cover, ReportLayout layout) {
        Report r = facts.report();
        Document doc = template();
        FabricView fabric = facts.view();
        ReportCounts counts = facts.counts();
        Element banner = doc.getElementById("banner");
        banner.addClass(r.verdict().name());
        doc.getElementById("verdict").text(r.verdictLine());
        doc.getElementById("verdict-meaning").text(ReportText.headline(r));
        doc.getElementById("banner-counts").text(counts.checksLine() + " | " + counts.findingsLine());
        doc.getElementById("meta").text(ReportText.meta(r));
        doc.title("IB acceptance: " + r.data().manifest().cluster() + " - " + r.verdictLine());
        cover(doc, facts, cover);

        Element countsDiv = doc.getElementById("counts");
        Element checkRow = countsDiv.appendElement("div").attr("id", "check-counts").appendText("Checks (each once, by its own status): ");
        for (Map.Entry<String, Long> e : counts.checkCounts().entrySet())
            checkRow.appendElement("span").attr("data-state", e.getKey()).appendElement("span").addClass("st").addClass(e.getKey()).text(e.getKey())
                    .parent().appendText(" " + e.getValue());
        Element findingRow = countsDiv.appendElement("div").attr("id", "finding-counts").appendText("Root findings: ");
        for (Map.Entry<Status, Long> e : counts.findings().entrySet())
            findingRow.appendElement("span").attr("data-state", e.getKey().name()).appendElement("span").addClass("st").addClass(e.getKey().name())
                    .text(e.getKey().name()).parent().appendText(" " + e.getValue());
        countsDiv.appendElement("div").attr("id", "consequence-count").attr("data-count", String.valueOf(counts.consequences()))
                .text("Consequences listed under their root findings (not counted again): " + counts.consequences());

        Element checks = doc.selectFirst("#check-table tbody");
        for (ReportCounts.CheckCount c : counts.checks()) {
            Element tr = checks.appendElement("tr").attr("data-check", c.check()).attr("data-status", c.status()).attr("data-worst", c.worst().name());
            tr.appendElement("td").text(c.title() + " (" + c.check() + ")");
            tr.appendElement("td").appendElement("span").addClass("st").addClass(c.status()).text(c.status());
            tr.appendElement("td").text(c.problems() == 0 ? "-" : String.valueOf(c.problems()));
            tr.appendElement("td").text(consequenceText(c));
        }

        List<Finding> problems = new ArrayList<>(), waived = new ArrayList<>();
        for (Finding f : r.worstFirst()) {
            if (f.status() == Status.WAIVED) waived.add(f);
            else if (f.status() != Status.PASS && f.status() != Status.SKIP) problems.add(f);
        }
        Element probs = doc.selectFirst("#problem-table tbody");
        for (ReportText.Group g : ReportText.groups(r, problems, layout)) {
            Element tr = probs.appendElement("tr").addClass("finding").attr("data-check", g.check()).attr("data-status", g.status().name())
                    .attr("data-count", String.valueOf(g.size()));
            if (g.consequence()) tr.addClass("consequence").attr("data-root", g.rootCheck());
            status(tr.appendElement("td"), g.status());
            tr.appendElement("td").text(g.title());
            Element what = tr.appendElement("td");
            what.appendElement("div").addClass("summary").text(g.shownSummary());
            if (!g.objects().isEmpty()) what.appendElement("div").addClass("ev").text("affects: " + g.objects());
            Element ev = tr.appendElement("td");
            for (Evidence e : g.evidence()) {
                Element d = ev.appendElement("div").addClass("ev");
                if (!e.where().isEmpty()) {
                    // a link into the dump when it sits next to the report; plain text otherwise
                    String href = facts.evidenceHref(e.where());
                    Element w = href == null ? d.appendElement("span") : d.appendElement("a").attr("href", href);
                    w.addClass("where").text(e.where());
                    d.appendText("  ");
                }
                d.appendText(e.text());
            }
            if (g.moreEvidence() > 0) ev.appendElement("div").addClass("ev").text("... " + g.moreEvidence() + " more lines in findings.csv / findings.json");
            Element fx = tr.appendElement("td");
            fx.appendElement("div").addClass("cause").text(g.cause());
            if (!g.fix().isEmpty()) fx.appendElement("div").addClass("fix").appendElement("code").text(g.fix());
        }
        if (probs.children().isEmpty()) probs.appendElement("tr").appendElement("td").attr("colspan", "5").text("No failures or warnings.");

        waivers(doc, r, waived, layout);
        nodes(doc, r, fabric, layout);
        inventory(doc, facts, layout);

        Element passed = doc.selectFirst("#pass-table tbody");
        for (ReportText.PassLine p : ReportText.passLines(r, layout)) {
            Element tr = passed.appendElement("tr").addClass("finding").attr("data-check", p.check()).attr("data-status", p.status().name())
                    .attr("data-count", String.valueOf(p.findings()));
            status(tr.appendElement("td"), p.status());
            tr.appendElement("td").text(p.title());
            tr.appendElement("td").text(p.text());
        }
        FabricSvg.appendSection(doc, facts);
        ExtraSections.html(doc, facts);
        contents(doc);
        return doc.outerHtml();
    }

    /** A table of contents after the banner: every section with a heading, by its anchor. */
    private static void contents(Document doc) {
        Element nav = new Element("nav").attr("id", "toc");
        Element ul = nav.appendElement("ul");
        for (Element s : doc.select("section[id]")) {
            Element h = s.selectFirst("h2");
            if (h != null) ul.appendElement("li").appendElement("a").attr("href", "#" + s.id()).text(h.text());
        }
        Element banner = doc.getElementById("banner");
        if (banner != null && !ul.children().isEmpty()) banner.after(nav);
    }

    private static void cover(Document doc, ReportFacts facts, CoverInfo cover) {
        Report r = facts.report();
        Element t = doc.selectFirst("#cover-table tbody");
        for (String[] row : coverRows(facts, cover, FirstPage.DEFAULT))
            t.appendElement("tr").attr("data-field", row[0]).appendElement("th").text(row[1]).parent().appendElement("td").text(row[2]);
        Element contract = doc.getElementById("contract");
        FirstPage.contract(facts.contract()).forEach(l -> contract.appendElement("li").text(l));
        Element uniform = doc.getElementById("facts");
        FirstPage.facts(facts.uniformFacts()).forEach(l -> uniform.appendElement("li").text(l));
        Element ul = doc.getElementById("thresholds");
        if (ReportText.changedThresholds(r).isEmpty()) ul.appendElement("li").text("none: all checks used the default thresholds");
        else FirstPage.thresholds(r).forEach(c -> ul.appendElement("li").appendElement("code").text(c));
        List<String> coverage = FirstPage.coverage(r.coverage());
        if (coverage.isEmpty()) doc.getElementById("coverage-block").remove();
        else {
            Element cl = doc.getElementById("coverage");
            coverage.forEach(l -> cl.appendElement("li").text(l));
        }
        Element fails = doc.getElementById("root-failures");
        FirstPage.rootFailures(r).forEach(l -> fails.appendElement("li").text(l));
        String n1 = FirstPage.resilience(facts.analysis());
        if (n1 != null) fails.after(new Element("p").attr("id", "resilience").text(n1)).after(new Element("h3").text("N-1 on the fabric's twin"));
        Element wt = doc.selectFirst("#waivers-in-force tbody");
        List<String[]> inForce = FirstPage.waiversInForce(r);
        for (String[] w : inForce.subList(0, Math.min(inForce.size(), FirstPage.DEFAULT.waiverRows()))) {
            Element tr = wt.appendElement("tr").attr("data-check", w[0]);
            for (String s : w) tr.appendElement("td").text(s);
        }
        String more = FirstPage.moreWaiversLine(inForce, FirstPage.DEFAULT);
        if (inForce.isEmpty()) wt.appendElement("tr").appendElement("td").attr("colspan", "5").text("none");
        else if (more != null) wt.appendElement("tr").appendElement("td").attr("colspan", "5").text(more);
    }

    /** "2 FAIL, 1 WARN under port.state" style: the check's findings listed under another check's root. */
    static String consequenceText(ReportCounts.CheckCount c) {
        if (c.consequences() == 0) return "-";
        return c.consequences() + " (worst " + c.worstConsequence() + ")" + (c.rootChecks().isEmpty() ? "" : " under " + String.join(", ", c.rootChecks()));
    }

    /** Field id, label, value: the cover page's facts, shared with the PDF. */
    static List<String[]> coverRows(ReportFacts facts, CoverInfo cover, FirstPage.Bounds b) {
        List<String[]> rows = coverRows(facts, cover);
        for (String[] row : rows) row[2] = FirstPage.recordValue(row[2], b);
        return rows;
    }

    private static List<String[]> coverRows(ReportFacts facts, CoverInfo cover) {
        Report r = facts.report();
        var m = r.data().manifest();
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"customer", "Customer", cover.customer().isEmpty() ? "(not given)" : cover.customer()});
        rows.add(new String[] {"cluster", "Cluster", m.cluster()});
        rows.add(new String[] {"site", "Site", cover.site().isEmpty() ? "(not given)" : cover.site()});
        rows.add(new String[] {"operator", "Run by", cover.operator().isEmpty() ? "(not given)" : cover.operator()});
        rows.add(new String[] {"nodes", "Nodes", r.data().hosts().size() + (r.data().hosts().isEmpty() ? "" : ": " + Hostlists.compress(r.data().hosts().keySet()))});
        rows.add(new String[] {"collected", "Collected", (m.created().isEmpty() ? "(unknown)" : ReportText.time(m.created())) + (m.fabricNode().isEmpty() ? "" : " from " + m.fabricNode())
                + (m.collector().isEmpty() ? "" : " by " + m.collector())});
        if (!m.toolVersions().isEmpty())
            rows.add(new String[] {"tools", "Tools", new java.util.TreeMap<>(m.toolVersions()).entrySet().stream()
                    .map(e -> e.getKey() + ": " + e.getValue()).collect(java.util.stream.Collectors.joining("; "))});
        rows.add(new String[] {"dump-id", "Dump id", facts.dumpId()});
        rows.add(new String[] {"tool-version", "ibaccept version", ReportText.toolVersion()});
        rows.add(new String[] {"generated", "Report generated", ReportText.time(facts.generated())});
        rows.add(new String[] {"verdict", "Verdict", r.verdictLine() + " - " + ReportText.headline(r)});
        return rows;
    }

    private static void waivers(Document doc, Report r, List<Finding> waived, ReportLayout layout) {
        Element section = doc.getElementById("waivers");
        if (r.waivers().isEmpty() && waived.isEmpty()) {
            section.remove();
            return;
        }
        Element t = doc.selectFirst("#waiver-table tbody");
        for (WaiverUse u : ReportText.waiversToList(r)) {
            Waiver w = u.waiver();
            Element tr = t.appendElement("tr").attr("data-check", w.check()).attr("data-expired", String.valueOf(u.expired()));
            for (String s : new String[] {w.check(), w.objects(), w.reason(), w.owner(), w.expires().toString(),
                    u.expired() ? "EXPIRED: no longer applied" : "active", String.valueOf(u.findings())})
                tr.appendElement("td").text(ReportText.clip(s, ReportText.MAX_TEXT));
        }
        String more = ReportText.moreWaiversLine(r);
        if (more != null) t.appendElement("tr").addClass("more").appendElement("td").attr("colspan", "7").text(more);
        Element wt = doc.selectFirst("#waived-table tbody");
        for (ReportText.Group g : ReportText.groups(r, waived, layout)) {
            Element tr = wt.appendElement("tr").addClass("finding").attr("data-check", g.check()).attr("data-status", g.status().name())
                    .attr("data-count", String.valueOf(g.size()));
            status(tr.appendElement("td"), g.status());
            tr.appendElement("td").text(g.title());
            tr.appendElement("td").text(g.summary() + (g.objects().isEmpty() ? "" : " (affects: " + g.objects() + ")"));
            Waiver w = r.waiverFor(g.members().get(0));
            tr.appendElement("td").addClass("waiver").text(w == null ? "" : ReportText.waiverText(w));
        }
    }

    private static void nodes(Document doc, Report r, FabricView fabric, ReportLayout layout) {
        List<ReportText.NodeRow> rows = ReportText.problemNodeRows(r);
        List<String> clean = ReportText.cleanHosts(r, rows);
        boolean aggregate = rows.size() > layout.aggregateAbove();
        doc.getElementById("node-summary").text(rows.size() + " of " + r.data().hosts().size() + " nodes have findings"
                + (aggregate ? " (more than " + layout.aggregateAbove() + ": shown per check and per leaf; every node is in findings.csv)" : "")
                + ". " + (clean.isEmpty() ? "" : clean.size() + " without findings: " + Hostlists.compress(clean)));
        if (aggregate) {
            doc.getElementById("node-table").remove();
            Element ct = doc.selectFirst("#check-aggregate tbody");
            for (ReportText.CheckAggregate a : ReportText.checkAggregates(r)) {
                Element tr = ct.appendElement("tr").attr("data-check", a.check());
                tr.appendElement("td").text(a.title() + " (" + a.check() + ")");
                status(tr.appendElement("td"), a.worst());
                tr.appendElement("td").text(String.valueOf(a.hosts()));
                tr.appendElement("td").addClass("ev").text(a.hostlist());
            }
            List<ReportText.LeafAggregate> leaves = ReportText.leafAggregates(r, fabric, rows);
            if (leaves.isEmpty()) doc.getElementById("leaf-aggregate").remove();
            Element lt = doc.selectFirst("#leaf-aggregate tbody");
            if (lt != null)
                for (ReportText.LeafAggregate a : leaves) {
                    Element tr = lt.appendElement("tr").attr("data-leaf", a.leaf());
                    tr.appendElement("td").text(a.leaf());
                    tr.appendElement("td").text(String.valueOf(a.hosts()));
                    tr.appendElement("td").text(String.valueOf(a.withProblems()));
                    tr.appendElement("td").addClass("ev").text(a.problemHosts());
                }
            return;
        }
        doc.getElementById("check-aggregate").remove();
        doc.getElementById("leaf-aggregate").remove();
        Element nodes = doc.selectFirst("#node-table tbody");
        for (ReportText.NodeRow n : rows) {
            Element tr = nodes.appendElement("tr").attr("data-node", n.host()).attr("data-status", n.worst().name());
            tr.appendElement("td").text(n.host());
            status(tr.appendElement("td"), n.worst());
            tr.appendElement("td").text(n.link());
            tr.appendElement("td").text(String.join("; ", n.findings()));
        }
    }

    private static void inventory(Document doc, ReportFacts facts, ReportLayout layout) {
        List<Inventory.Item> items = facts.inventory();
        Element summary = doc.getElementById("inventory-summary");
        if (items.size() <= layout.aggregateAbove()) {
            summary.text(items.size() + " items (also in inventory.csv).");
            Element t = doc.selectFirst("#inventory-table tbody");
            for (Inventory.Item i : items) {
                Element tr = t.appendElement("tr").attr("data-kind", i.kind());
                for (String s : new String[] {i.kind(), i.host(), i.device(), i.description(), i.type(), i.firmware(), i.psid(), i.guid(),
                        i.deviceId(), i.vendor(), i.partNumber(), i.ports() == null ? "" : String.valueOf(i.ports())})
                    tr.appendElement("td").text(s == null ? "" : s);
            }
            return;
        }
        // large clusters: one line per distinct kind / type / firmware / part number, with the hosts as a hostlist
        doc.getElementById("inventory-table").remove();
        Map<String, List<String>> distinct = new TreeMap<>();
        for (Inventory.Item i : items) {
            String what = String.join(" ", i.type(), i.firmware(), i.psid(), i.vendor(), i.partNumber()).trim().replaceAll("\\s+", " ");
            // without ibdiagnet or mlxlink data nothing but the kind is known
            String key = i.kind() + " | " + (what.isEmpty() ? "type, firmware and part number not collected" : what);
            distinct.computeIfAbsent(key, k -> new ArrayList<>()).add(Inventory.member(i));
        }
        summary.text(items.size() + " items, grouped by kind, type, firmware and part number (every item is in inventory.csv):");
        Element ul = summary.after("<ul id=\"inventory-groups\"></ul>").nextElementSibling();
        distinct.forEach((k, hosts) -> ul.appendElement("li").text(k + ": " + hosts.size() + " (" + Hostlists.compress(hosts.stream().distinct().toList()) + ")"));
    }

    private static void status(Element td, Status s) {
        td.appendElement("span").addClass("st").addClass(s.name()).text(s.name());
    }

    /** Parses the template and serialises it once: loads and compiles the HTML writer's path (see ReportWriter.warmUp). */
    static void warmUp() {
        template().outerHtml();
    }

    static Document template() {
        try (InputStream in = HtmlReport.class.getResourceAsStream("report.html")) {
            return Jsoup.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
