package io.ibaccept.report;

import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Wording shared by the HTML, PDF and CSV renderers, so all three say the same thing. */
final class ReportText {
    private ReportText() {}

    record NodeRow(String host, Status worst, String link, List<String> findings) {}

    static String headline(Report r) {
        Map<Status, Long> c = r.counts();
        return r.verdict().meaning() + ": " + c.get(Status.FAIL) + " failed, " + c.get(Status.ERROR) + " input errors, "
                + c.get(Status.WARN) + " warnings, " + c.get(Status.PASS) + " passed, " + c.get(Status.SKIP) + " skipped";
    }

    static String meta(Report r) {
        var m = r.data().manifest();
        return "Cluster " + m.cluster() + " | " + r.data().hosts().size() + " nodes | collected " + (m.created().isEmpty() ? "(unknown)" : m.created())
                + (m.fabricNode().isEmpty() ? "" : " from " + m.fabricNode()) + " | dump " + r.data().source();
    }

    static String titleOf(Report r, String check) {
        return r.findings().stream().filter(f -> f.check().equals(check)).map(Finding::title).findFirst().orElse(check);
    }

    static List<NodeRow> nodeRows(Report r) {
        List<NodeRow> rows = new ArrayList<>();
        Map<String, List<Finding>> byHost = r.byHost();
        for (HostData h : r.data().hosts().values()) {
            Status worst = Status.PASS;
            List<String> fs = new ArrayList<>();
            for (Finding f : byHost.getOrDefault(h.host(), List.of())) {
                // skipped checks are listed in their own section; a node's row shows what is wrong with it
                if (f.status() == Status.PASS || f.status() == Status.SKIP) continue;
                if (f.status().worseThan(worst)) worst = f.status();
                fs.add(f.status() + " " + f.check() + ": " + f.summary());
            }
            rows.add(new NodeRow(h.host(), worst, link(h), fs));
        }
        return rows;
    }

    private static String link(HostData h) {
        if (h.ibstat() == null) return "ibstat unavailable";
        List<String> parts = new ArrayList<>();
        for (Ibstat.Ca ca : h.ibstat())
            for (Ibstat.Port p : ca.ports())
                parts.add(ca.name() + "/" + p.number() + " " + p.state() + (p.rate() > 0 && p.isActive() ? " " + p.rate() + "G" : "") + " lid " + p.baseLid());
        return String.join(", ", parts);
    }
}
