package io.ibaccept.report;

import io.ibaccept.analysis.Analysis;
import io.ibaccept.fabric.Fabric;
import io.ibaccept.rules.Ref;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.counters.LinkWindowRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Per switch, one cell per port, coloured by what is cabled to it and by the worst finding that names the port or its
 * cable (a switch-side view of every port and link check at once); and, with a counter window, the worst links by
 * error rate. Switches with a problem come first; the map stops after MAX_SWITCHES rows and says how many it left out.
 */
final class PortMapSection {
    private PortMapSection() {}

    static final int MAX_SWITCHES = 40, TOP_LINKS = 15;
    static final String EMPTY = "#e4e4e4", HOST = "#9cc79c", ISL = "#4f8f4f", OTHER = "#7fa7c9", WARN = "#f0a000", FAIL = "#d00000";

    /** The worst FAIL/WARN naming the switch's port (findings name a switch by its name or its description), or null. */
    private static Status at(Map<String, Analysis.PartProblem> problems, Fabric.Node sw, int port) {
        Analysis.PartProblem a = problems.get(new Ref.Port(sw.name(), port).key()), b = problems.get(new Ref.Port(sw.description(), port).key());
        return a == null && b == null ? null : a != null ? a.worse(b).status() : b.status();
    }

    /** The port map, or "" without a fabric graph. */
    static String svg(Analysis an) {
        Fabric f = an.fabric();
        if (f == null || f.switches().isEmpty()) return "";
        Map<String, Analysis.PartProblem> problems = an.problemsByRef(0);
        record Row(Fabric.Node sw, int ports, int bad) {}
        List<Row> rows = new ArrayList<>();
        for (Fabric.Node sw : f.switches()) {
            int top = f.topPort(sw.guid()), bad = 0;
            for (int p = 1; p <= top; p++) if (at(problems, sw, p) != null) bad++;
            rows.add(new Row(sw, top, bad));
        }
        rows.sort(Comparator.comparingInt((Row r) -> -r.bad()).thenComparing(r -> -r.sw().level()).thenComparing(r -> r.sw().name()));
        List<Row> shown = rows.subList(0, Math.min(MAX_SWITCHES, rows.size()));
        int maxPorts = shown.stream().mapToInt(Row::ports).max().orElse(1);
        // the names people use (node-name-map name, or "A09-P1-IBLEAF-01-02" of a managed switch's "MF0;A09-P1-IBLEAF-01-02:MQM9701/U1");
        // switches that share one (vendor defaults) are told apart by the end of their GUID
        Map<String, Integer> sameName = new HashMap<>();
        for (Row r : rows) sameName.merge(r.sw().shortName(), 1, Integer::sum);
        Map<Row, String> names = new HashMap<>();
        int longest = 0;
        for (Row r : shown) {
            String suffix = sameName.get(r.sw().shortName()) > 1 ? String.format(" ..%06x", r.sw().guid() & 0xffffff) : "";
            int room = MAX_NAME - suffix.length();
            String n = r.sw().shortName();
            names.put(r, (n.length() > room ? n.substring(0, room - 1) + "~" : n) + suffix);
            longest = Math.max(longest, names.get(r).length());
        }
        String heading = "Switch ports: what is cabled and what the checks found (" + rows.size() + " switches"
                + (rows.size() > shown.size() ? ", " + shown.size() + " shown, problems first" : "") + ")";
        // the SVG is as wide as its widest part: the ports, the legend, the title (bold 12 px: at most 7 px a character)
        int cw = 9, chh = 11, label = Math.max(100, 12 + (int) Math.ceil(longest * CHAR_W)), height = 36 + shown.size() * (chh + 2) + 40;
        int width = Math.max(label + maxPorts * cw + 10, Math.max(legendWidth(), 8 + heading.length() * 7));
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"port-map\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\">",
                width, height, width, height));
        sb.append("<text x=\"4\" y=\"14\" font-size=\"12\" font-weight=\"bold\">").append(PerfSvg.esc(heading)).append("</text>");
        for (int p = 1; p <= maxPorts; p++)
            if (p == 1 || p % 8 == 0)
                sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"30\" font-size=\"9\">%d</text>", label + (p - 1) * cw, p));
        for (int i = 0; i < shown.size(); i++) {
            Row r = shown.get(i);
            int y = 36 + i * (chh + 2);
            String name = names.get(r);
            sb.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"%d\" font-size=\"10\"%s>%s</text>", y + chh - 2, r.bad() > 0 ? " font-weight=\"bold\"" : "",
                    PerfSvg.esc(name)));
            // runs of ports alike are one rectangle (a healthy leaf is three: hosts, uplinks, empty); a port a finding names
            // is its own, with what is cabled to it
            int runStart = 1;
            String runFill = null, runWhat = null;
            for (int p = 1; p <= r.ports() + 1; p++) {
                String fill = null, what = null, title = null;
                if (p <= r.ports()) {
                    Fabric.End e = new Fabric.End(r.sw().guid(), p);
                    var link = f.linkAt(e);
                    fill = EMPTY;
                    what = "empty";
                    if (link.isPresent() && link.get().isUp()) {
                        Fabric.LinkClass k = f.linkClass(link.get());
                        fill = k == Fabric.LinkClass.HOST ? HOST : f.isSwitchToSwitch(link.get()) ? ISL : OTHER;
                        what = k == Fabric.LinkClass.HOST ? "host cables" : f.isSwitchToSwitch(link.get()) ? "switch-to-switch cables" : "other cables";
                    }
                    Status s = at(problems, r.sw(), p);
                    if (s != null) {
                        fill = s == Status.FAIL ? FAIL : WARN;
                        title = r.sw().name() + " port " + p + ": " + (link.isPresent() ? f.name(link.get().other(e)) + " " + link.get().rate() : "no cable") + ", " + s.name();
                    }
                }
                boolean extends_ = title == null && runFill != null && fill != null && fill.equals(runFill) && what.equals(runWhat);
                if (runFill != null && !extends_) {
                    String ports = runStart == p - 1 ? "port " + runStart : "ports " + runStart + "-" + (p - 1);
                    sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>%s</title></rect>",
                            label + (runStart - 1) * cw, y, (p - runStart) * cw - 1, chh, runFill, PerfSvg.esc(r.sw().name() + " " + ports + ": " + runWhat)));
                    runFill = null;
                }
                if (title != null) {
                    sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>%s</title></rect>",
                            label + (p - 1) * cw, y, cw - 1, chh, fill, PerfSvg.esc(title)));
                } else if (fill != null && runFill == null) {
                    runStart = p;
                    runFill = fill;
                    runWhat = what;
                }
            }
        }
        int ly = 36 + shown.size() * (chh + 2) + 12;
        int lx = 4;
        for (String[] k : LEGEND) {
            sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\" font-size=\"10\">%s</text>",
                    lx, ly, k[0], lx + 14, ly + 9, k[1]));
            lx += legendItem(k[1]);
        }
        if (rows.size() > shown.size())
            sb.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"%d\" font-size=\"10\">%d more switches not drawn (%d of them with a problem)</text>", ly + 26,
                    rows.size() - shown.size(), rows.subList(shown.size(), rows.size()).stream().filter(r -> r.bad() > 0).count()));
        return sb.append("</svg>").toString();
    }

    /** Longest switch name drawn (a longer one ends in "~"; the tooltip of its cells has it whole). */
    static final int MAX_NAME = 32;
    /** Width of a character of the 10 px sans-serif labels, generous (capitals and digits are the widest). */
    static final double CHAR_W = 6.2;
    static final String[][] LEGEND = {{HOST, "host"}, {ISL, "switch-to-switch"}, {OTHER, "other"}, {EMPTY, "empty"}, {WARN, "WARN"}, {FAIL, "FAIL"}};

    /** One legend entry: swatch, gap, its text, space before the next. */
    private static int legendItem(String text) {
        return 14 + (int) Math.ceil(text.length() * CHAR_W) + 16;
    }

    private static int legendWidth() {
        int w = 4;
        for (String[] k : LEGEND) w += legendItem(k[1]);
        return w;
    }

    /** The worst links of the counter window by error rate (bars), or "" without a window with errors. */
    static String worstLinks(List<LinkWindowRow> window) {
        List<LinkWindowRow> rows = window.stream().filter(r -> !r.snapshotOnly() && r.errorsPerHour() > 0)
                .sorted(Comparator.comparingDouble(LinkWindowRow::errorsPerHour).reversed()).limit(TOP_LINKS).toList();
        if (rows.isEmpty()) return "";
        double max = rows.get(0).errorsPerHour();
        int label = 330, bar = 300, h = 16, height = 24 + rows.size() * h + 8;
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"worst-links\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\">",
                label + bar + 120, height, label + bar + 120, height));
        sb.append("<text x=\"4\" y=\"14\" font-size=\"12\" font-weight=\"bold\">Worst links of the counter window: errors per hour</text>");
        for (int i = 0; i < rows.size(); i++) {
            LinkWindowRow r = rows.get(i);
            int y = 24 + i * h;
            String name = r.link().length() > 52 ? r.link().substring(0, 51) + "~" : r.link();
            int w = (int) Math.max(1, Math.round(bar * r.errorsPerHour() / max));
            String fill = r.status() == Status.FAIL ? FAIL : r.status() == Status.WARN ? WARN : OTHER;
            sb.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"%d\" font-size=\"10\">%s</text>", y + 11, PerfSvg.esc(name)));
            sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>", label, y + 2, w, h - 4, fill));
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"10\">%s/h%s</text>", label + w + 4, y + 11, fmt(r.errorsPerHour()),
                    Double.isNaN(r.symbolBer()) || r.symbolBer() <= 0 ? "" : String.format(Locale.ROOT, ", BER %.1e", r.symbolBer())));
        }
        return sb.append("</svg>").toString();
    }

    private static String fmt(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2g", v);
    }

    static String html(Analysis an) {
        String map = svg(an);
        if (map.isEmpty()) return "";
        StringBuilder sb = new StringBuilder("<section id=\"port-map\"><h2>Switch ports</h2><figure>").append(map)
                .append("<figcaption>One cell per switch port: green for a host cable, dark green for a switch-to-switch cable, grey when empty; "
                        + "orange or red when a WARN or FAIL finding names the port or its cable (the findings table says which).</figcaption></figure>");
        String worst = worstLinks(an.linkWindow());
        if (!worst.isEmpty()) sb.append("<figure>").append(worst).append("<figcaption>The links with the highest error rate in the counter window "
                + "(all of them in linkwindow.csv).</figcaption></figure>");
        return sb.append("</section>").toString();
    }
}
