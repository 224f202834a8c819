package io.ibaccept.report;

import io.ibaccept.analysis.Analysis;
import io.ibaccept.fabric.Fabric;
import io.ibaccept.fabric.Routing;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The report's routing section: what the three routing checks concluded (every path works, no deadlock, how evenly the
 * routes spread), and a picture of the spread: per switch, one bar per uplink (or per parallel downlink) with the
 * number of destination LIDs routed out of it. The switches routing.balance named come first, their ports above the
 * group's mean in the problem colour; then others, so an even fabric shows what even looks like.
 */
final class RoutingSection {
    private RoutingSection() {}

    static final int MAX_CHARTS = 8;
    static final String[] CHECKS = {"routing.reachability", "routing.credit_loops", "routing.balance"};

    /** Findings listed per check before "and N more". */
    static final int PER_CHECK = 5;

    /** The routing checks' lines: "PASS routing.reachability: every switch reaches ...", a consequence with its root. */
    static List<String> lines(Analysis an) {
        List<String> out = new ArrayList<>();
        for (String check : CHECKS) {
            List<Finding> mine = an.report().findings().stream().filter(f -> f.check().equals(check)).toList();
            for (Finding f : mine.subList(0, Math.min(PER_CHECK, mine.size())))
                out.add(f.status().name() + " " + check + ": " + f.summary() + (f.parent() == null ? "" : " (under " + f.parent() + ")"));
            if (mine.size() > PER_CHECK) out.add("... and " + (mine.size() - PER_CHECK) + " more " + check + " findings (findings.csv)");
        }
        return out;
    }

    /** Switches the balance check named as uneven. */
    private static Set<String> uneven(Analysis an) {
        Set<String> out = new LinkedHashSet<>();
        for (Finding f : an.report().findings())
            if (f.check().equals("routing.balance") && (f.status() == Status.WARN || f.status() == Status.FAIL)) out.addAll(f.objects());
        return out;
    }

    /** The spread picture, or "" when there is nothing to draw (no tables, not a tree). */
    static String svg(Analysis an) {
        Routing r = an.routing();
        Fabric f = an.fabric();
        if (r == null || f == null || r.spreads().isEmpty()) return "";
        Set<String> named = uneven(an);
        List<Routing.Spread> pick = new ArrayList<>();
        for (Routing.Spread s : r.spreads()) if (pick.size() < MAX_CHARTS && named.contains(f.name(s.switchGuid()))) pick.add(s);
        for (Routing.Spread s : r.spreads()) if (pick.size() < MAX_CHARTS && !pick.contains(s) && s.kind().equals("uplinks")) pick.add(s);
        for (Routing.Spread s : r.spreads()) if (pick.size() < MAX_CHARTS && !pick.contains(s)) pick.add(s);
        int cols = 4, cw = 230, ch = 150, rows = (pick.size() + cols - 1) / cols;
        int top = pick.stream().mapToInt(Routing.Spread::max).max().orElse(1);
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"routing-spread\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\">",
                cols * cw, rows * ch + 24, cols * cw, rows * ch + 24));
        sb.append("<text x=\"4\" y=\"14\" font-size=\"12\" font-weight=\"bold\">Destination LIDs routed out of each port (")
                .append(r.spreads().size()).append(" switch port groups; ").append(pick.size()).append(" shown")
                .append(named.isEmpty() ? "" : ", uneven first").append(")</text>");
        for (int i = 0; i < pick.size(); i++) {
            Routing.Spread s = pick.get(i);
            boolean bad = named.contains(f.name(s.switchGuid()));
            int x0 = (i % cols) * cw + 8, y0 = (i / cols) * ch + 24;
            String label = f.name(s.switchGuid()) + (s.kind().equals("uplinks") ? " uplinks" : " to " + f.name(s.peer()));
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"11\"%s>%s</text>", x0, y0 + 12,
                    bad ? " fill=\"#b00020\" font-weight=\"bold\"" : "", PerfSvg.esc(label.length() > 34 ? label.substring(0, 33) + "~" : label)));
            int n = s.ports().size(), plotW = cw - 24, plotH = ch - 52, bw = Math.max(2, Math.min(16, plotW / Math.max(1, n) - 2));
            double mean = s.mean();
            int base = y0 + 20 + plotH;
            for (int k = 0; k < n; k++) {
                Routing.PortLoad p = s.ports().get(k);
                int h = (int) Math.round(plotH * (double) p.lids() / Math.max(1, top));
                String fill = bad && p.lids() > mean ? "#b00020" : p.lids() == 0 ? "#bbbbbb" : "#4a78a8";
                sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>port %d: %d LIDs</title></rect>",
                        x0 + k * (bw + 2), base - h, bw, Math.max(h, 1), fill, p.port(), p.lids()));
            }
            int my = base - (int) Math.round(plotH * mean / Math.max(1, top));
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333333\" stroke-dasharray=\"3,2\"/>", x0, my,
                    x0 + n * (bw + 2), my));
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"10\">%d ports, %d-%d LIDs, mean %.1f</text>", x0, base + 14, n,
                    s.min(), s.max(), mean));
        }
        return sb.append("</svg>").toString();
    }

    static String html(Analysis an) {
        List<String> lines = lines(an);
        if (lines.isEmpty()) return "";
        StringBuilder sb = new StringBuilder("<section id=\"routing\"><h2>Routing</h2><ul class=\"routing-lines\">");
        for (String l : lines) sb.append("<li>").append(PerfSvg.esc(l)).append("</li>");
        sb.append("</ul>");
        String svg = svg(an);
        if (!svg.isEmpty()) sb.append("<figure id=\"routing-spread\">").append(svg).append("<figcaption>")
                .append("Per switch, the destination LIDs its forwarding table sends out of each uplink (or each of its parallel cables to one lower switch); "
                        + "the dashed line is the mean. Even bars: the routes spread over the spines.").append("</figcaption></figure>");
        return sb.append("</section>").toString();
    }
}
