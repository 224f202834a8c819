package io.ibaccept.report;

import io.ibaccept.model.Perftest;
import io.ibaccept.rules.perf.FabricView;
import io.ibaccept.rules.perf.Outliers;
import io.ibaccept.rules.perf.PairMatrix;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Performance pictures as standalone SVG strings (inline in HTML; drawn as PDF vectors by PerfPdf):
 * <ul>
 * <li>{@link #heatMap}: the N x N pair matrix of one test, rows and columns grouped by leaf so a bad node shows as a
 * cross and a bad leaf or uplink as a block; per-leaf aggregates (median, worst, bad pairs) in a strip above. Up to
 * {@link #MAX_NODES} nodes cell by cell (cells of equal colour in a row are merged, so a healthy 512-node fabric stays
 * small); above that the leaf x leaf aggregate matrix.</li>
 * <li>{@link #curve}: bandwidth or latency against message size (a perftest -a sweep), log2 size axis, with the
 * expected line rate drawn.</li>
 * </ul>
 * Colour = value relative to the fabric's best: green at or better than best, red at the outlier limit and beyond.
 */
public final class PerfSvg {
    private PerfSvg() {}

    public static final int MAX_NODES = 512;
    private static final int LEVELS = 10;

    /** A sweep point: message size in bytes and its value (Gb/s or us). */
    public record Point(long bytes, double value) {}

    public static String heatMap(Outliers.Result r, FabricView view) {
        PairMatrix m = r.matrix();
        Map<String, List<String>> groups = view.groupByLeaf(m.nodes());
        return m.nodes().size() > MAX_NODES ? leafMatrix(r, groups) : nodeMatrix(r, groups);
    }

    private static String nodeMatrix(Outliers.Result r, Map<String, List<String>> groups) {
        PairMatrix m = r.matrix();
        List<String> order = new ArrayList<>();
        groups.values().forEach(order::addAll);
        int n = order.size();
        double cell = Math.max(1.5, Math.min(18, 720.0 / Math.max(1, n)));
        boolean labels = cell >= 8;
        double left = labels ? 90 : 70, stripH = 46, top = 40 + stripH + (labels ? 60 : 16);
        double size = cell * n;
        double w = left + size + 150, h = top + size + 30;
        StringBuilder sb = open(w, h, title(r));
        legend(sb, r, left + size + 20, top);
        aggregates(sb, r, groups, left, 40, cell, stripH);
        // grid: one rect per run of equal colour in a row
        for (int i = 0; i < n; i++) {
            int j = 0;
            while (j < n) {
                int level = level(r, order.get(i), order.get(j));
                int k = j + 1;
                while (k < n && level(r, order.get(i), order.get(k)) == level && !labels) k++;
                if (level >= 0) {
                    sb.append(String.format(Locale.ROOT, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\">",
                            left + j * cell, top + i * cell, (k - j) * cell, cell, colour(level)));
                    if (labels) sb.append("<title>").append(esc(order.get(i) + " - " + order.get(j) + ": " + fmt(value(m, order.get(i), order.get(j))) + unit(m))).append("</title>");
                    sb.append("</rect>");
                }
                j = k;
            }
        }
        // leaf separators and labels
        int pos = 0;
        for (Map.Entry<String, List<String>> g : groups.entrySet()) {
            double x = left + pos * cell, len = g.getValue().size() * cell;
            sb.append(String.format(Locale.ROOT, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"none\" stroke=\"#333\" stroke-width=\"0.8\"/>",
                    x, top + pos * cell, len, len));
            String name = g.getKey().isEmpty() ? "(no leaf)" : g.getKey();
            sb.append(String.format(Locale.ROOT, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"10\" text-anchor=\"end\">%s</text>", left - 4, top + pos * cell + Math.min(len, 12), esc(name)));
            pos += g.getValue().size();
        }
        if (labels) {
            for (int i = 0; i < n; i++) {
                sb.append(String.format(Locale.ROOT, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%s</text>",
                        left - 46, top + i * cell + cell * 0.75, Math.min(9, cell * 0.8), esc(order.get(i))));
                sb.append(String.format(Locale.ROOT, "<text transform=\"translate(%.2f,%.2f) rotate(-60)\" font-size=\"%.1f\" fill=\"#555\">%s</text>",
                        left + i * cell + cell * 0.7, top - 4, Math.min(9, cell * 0.8), esc(order.get(i))));
            }
        }
        return sb.append("</svg>").toString();
    }

    /** Per leaf: median and worst of its pairs, and how many are bad, as coloured boxes above the matrix. */
    private static void aggregates(StringBuilder sb, Outliers.Result r, Map<String, List<String>> groups, double left, double top,
                                   double cell, double h) {
        Aggregates agg = new Aggregates(r, groups);
        int pos = 0;
        for (Map.Entry<String, List<String>> g : groups.entrySet()) {
            LeafStats s = agg.of(g.getKey());
            double x = left + pos * cell, wd = g.getValue().size() * cell;
            sb.append(String.format(Locale.ROOT, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" stroke=\"#333\" stroke-width=\"0.5\">"
                            + "<title>%s</title></rect>", x, top, wd, h - 6, s.count == 0 ? "#eee" : colour(levelOf(r, s.median)),
                    esc((g.getKey().isEmpty() ? "(no leaf)" : g.getKey()) + ": median " + fmt(s.median) + unit(r.matrix()) + ", worst "
                            + fmt(s.worst) + unit(r.matrix()) + ", " + s.bad + " of " + s.count + " pairs bad")));
            if (wd >= 40)
                sb.append(String.format(Locale.ROOT, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"9\">%s</text><text x=\"%.2f\" y=\"%.2f\" font-size=\"9\">%s</text>",
                        x + 2, top + 12, esc(g.getKey().isEmpty() ? "(no leaf)" : g.getKey()), x + 2, top + 26,
                        esc(fmt(s.median) + " / " + s.bad + " bad")));
            pos += g.getValue().size();
        }
    }

    private static String leafMatrix(Outliers.Result r, Map<String, List<String>> groups) {
        List<String> leaves = new ArrayList<>(groups.keySet());
        int n = leaves.size();
        double cell = Math.max(4, Math.min(28, 720.0 / Math.max(1, n)));
        double left = 90, top = 100, size = cell * n;
        StringBuilder sb = open(left + size + 150, top + size + 30, title(r) + " (per-leaf aggregates: " + r.matrix().nodes().size()
                + " nodes on " + n + " leaves; median of the pairs between two leaves, bad pairs in the tooltip)");
        legend(sb, r, left + size + 20, top);
        Aggregates agg = new Aggregates(r, groups);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                LeafStats s = agg.of(Aggregates.key(leaves.get(i), leaves.get(j)));
                if (s.count == 0) continue;
                sb.append(String.format(Locale.ROOT, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"><title>%s</title></rect>",
                        left + j * cell, top + i * cell, cell, cell, colour(levelOf(r, s.median)), s.bad > 0 ? "#000" : "none", s.bad > 0 ? "1" : "0",
                        esc(name(leaves.get(i)) + " - " + name(leaves.get(j)) + ": median " + fmt(s.median) + unit(r.matrix()) + ", worst " + fmt(s.worst)
                                + unit(r.matrix()) + ", " + s.bad + " of " + s.count + " pairs bad")));
            }
            sb.append(String.format(Locale.ROOT, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.1f\" text-anchor=\"end\">%s</text>",
                    left - 4, top + i * cell + cell * 0.75, Math.min(10, cell * 0.8), esc(name(leaves.get(i)))));
        }
        return sb.append("</svg>").toString();
    }

    private record LeafStats(int count, int bad, double median, double worst) {}

    /** Pair values and bad counts per leaf pair ("a|b", a <= b) and per leaf ("a"), in one pass over the pairs. */
    private static final class Aggregates {
        final Map<String, List<Double>> values = new java.util.HashMap<>();
        final Map<String, Integer> bad = new java.util.HashMap<>();
        final boolean higherIsBetter;

        Aggregates(Outliers.Result r, Map<String, List<String>> groups) {
            higherIsBetter = r.matrix().higherIsBetter();
            Map<String, String> leafOf = new java.util.HashMap<>();
            groups.forEach((l, hs) -> hs.forEach(h -> leafOf.put(h, l)));
            java.util.Set<PairMatrix.Pair> badPairs = new java.util.HashSet<>(r.badPairs());
            PairMatrix m = r.matrix();
            for (PairMatrix.Pair p : m.pairs()) {
                String la = leafOf.getOrDefault(p.a(), ""), lb = leafOf.getOrDefault(p.b(), "");
                double v = m.first(p).value();
                boolean isBad = badPairs.contains(p);
                for (String key : la.equals(lb) ? List.of(la + "|" + lb, la) : List.of(key(la, lb), la, lb)) {
                    values.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
                    if (isBad) bad.merge(key, 1, Integer::sum);
                }
            }
        }

        static String key(String a, String b) {
            return a.compareTo(b) <= 0 ? a + "|" + b : b + "|" + a;
        }

        LeafStats of(String key) {
            List<Double> vals = values.get(key);
            if (vals == null || vals.isEmpty()) return new LeafStats(0, 0, Double.NaN, Double.NaN);
            double[] v = vals.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            return new LeafStats(v.length, bad.getOrDefault(key, 0), v[v.length / 2], higherIsBetter ? v[0] : v[v.length - 1]);
        }
    }

    private static double value(PairMatrix m, String x, String y) {
        return m.value(x, y);
    }

    /** Colour level of a cell, -1 when untested (or the diagonal). */
    private static int level(Outliers.Result r, String x, String y) {
        if (x.equals(y)) return -1;
        double v = r.matrix().value(x, y);
        return Double.isNaN(v) ? -1 : levelOf(r, v);
    }

    /** 0 (best) .. LEVELS-1 (at or beyond the outlier limit). */
    static int levelOf(Outliers.Result r, double v) {
        if (Double.isNaN(v) || Double.isNaN(r.best())) return LEVELS - 1;
        double span = Math.abs(r.best() - r.limit());
        double d = r.matrix().higherIsBetter() ? r.best() - v : v - r.best();
        if (d <= 0 || span == 0) return 0;
        return (int) Math.min(LEVELS - 1, Math.floor(d / span * (LEVELS - 1)));
    }

    static String colour(int level) {
        // green (120) to red (0) in HSL
        double hue = 120.0 * (LEVELS - 1 - level) / (LEVELS - 1);
        return String.format(Locale.ROOT, "hsl(%.0f,70%%,%d%%)", hue, level == LEVELS - 1 ? 40 : 50);
    }

    private static void legend(StringBuilder sb, Outliers.Result r, double x, double y) {
        PairMatrix m = r.matrix();
        for (int l = 0; l < LEVELS; l++)
            sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"12\" fill=\"%s\"/>", x, y + l * 12, colour(l)));
        sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">best %s%s</text>", x + 18, y + 10, fmt(r.best()), unit(m)));
        sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">outlier %s %s%s</text>", x + 18, y + LEVELS * 12,
                m.higherIsBetter() ? "&lt;" : "&gt;", fmt(r.limit()), unit(m)));
        sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">%d bad of %d pairs</text>", x, y + LEVELS * 12 + 18,
                r.bad().size(), m.pairs().size()));
    }

    private static String title(Outliers.Result r) {
        return r.matrix().test() + ": " + (r.matrix().higherIsBetter() ? "bandwidth" : "latency") + " per node pair, grouped by leaf";
    }

    private static String unit(PairMatrix m) {
        return m.higherIsBetter() ? " Gb/s" : " us";
    }

    private static String name(String leaf) {
        return leaf.isEmpty() ? "(no leaf)" : leaf;
    }

    // ---- curves

    /**
     * One or more sweeps of the same test (series name -> points) against message size, log2 x axis; bandwidth on a
     * linear y axis from 0, latency on a log10 y axis. expected (Gb/s for bandwidth, NaN for none) is drawn as a dashed line.
     */
    public static String curve(String title, boolean bandwidth, Map<String, List<Point>> series, double expected) {
        double w = 640, h = 360, left = 64, right = 150, top = 36, bottom = 44;
        double pw = w - left - right, ph = h - top - bottom;
        List<Point> all = new ArrayList<>();
        series.values().forEach(all::addAll);
        all.removeIf(p -> p.bytes() <= 0 || Double.isNaN(p.value()) || (!bandwidth && p.value() <= 0));
        StringBuilder sb = open(w, h, title);
        if (all.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\">no message-size sweep in the dump (run perftest with -a)</text>", left, top + 40));
            return sb.append("</svg>").toString();
        }
        double x0 = log2(all.stream().mapToLong(Point::bytes).min().orElse(1)), x1 = log2(all.stream().mapToLong(Point::bytes).max().orElse(2));
        if (x1 <= x0) x1 = x0 + 1;
        double ymax = all.stream().mapToDouble(Point::value).max().orElse(1);
        if (!Double.isNaN(expected)) ymax = Math.max(ymax, expected);
        double y0, y1;
        if (bandwidth) {
            y0 = 0;
            y1 = niceCeil(ymax * 1.08);
        } else {
            y0 = Math.floor(Math.log10(all.stream().mapToDouble(Point::value).min().orElse(1)));
            y1 = Math.ceil(Math.log10(ymax * 1.05));
            if (y1 <= y0) y1 = y0 + 1;
        }
        final double fx0 = x0, fx1 = x1, fy0 = y0, fy1 = y1;
        java.util.function.DoubleUnaryOperator X = v -> left + (log2(v) - fx0) / (fx1 - fx0) * pw;
        java.util.function.DoubleUnaryOperator Y = v -> top + ph - ((bandwidth ? v : Math.log10(v)) - fy0) / (fy1 - fy0) * ph;
        // axes and ticks
        sb.append(String.format(Locale.ROOT, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#888\"/>", left, top, pw, ph));
        int step = Math.max(1, (int) Math.ceil((x1 - x0) / 12));
        for (int e = (int) Math.ceil(x0); e <= x1; e += step) {
            double x = X.applyAsDouble(Math.pow(2, e));
            sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#eee\"/><text x=\"%.1f\" y=\"%.0f\" font-size=\"9\" text-anchor=\"middle\">%s</text>",
                    x, top, x, top + ph, x, top + ph + 14, sizeLabel((long) Math.pow(2, e))));
        }
        sb.append(String.format(Locale.ROOT, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\" text-anchor=\"middle\">message size (bytes)</text>", left + pw / 2, h - 8));
        int ticks = bandwidth ? 5 : (int) (y1 - y0);
        for (int i = 0; i <= ticks; i++) {
            double v = bandwidth ? y0 + (y1 - y0) * i / 5 : Math.pow(10, y0 + i);
            double y = Y.applyAsDouble(v);
            sb.append(String.format(Locale.ROOT, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#eee\"/><text x=\"%.0f\" y=\"%.1f\" font-size=\"9\" text-anchor=\"end\">%s</text>",
                    left, y, left + pw, y, left - 4, y + 3, fmt(v)));
        }
        sb.append(String.format(Locale.ROOT, "<text transform=\"translate(14,%.0f) rotate(-90)\" font-size=\"10\" text-anchor=\"middle\">%s</text>",
                top + ph / 2, bandwidth ? "bandwidth (Gb/s)" : "latency (us)"));
        if (!Double.isNaN(expected)) {
            double y = Y.applyAsDouble(expected);
            sb.append(String.format(Locale.ROOT, "<line class=\"expected\" x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#c00\" stroke-dasharray=\"6,4\"/>"
                    + "<text x=\"%.0f\" y=\"%.1f\" font-size=\"9\" fill=\"#c00\">expected %s%s</text>", left, y, left + pw, y, left + pw + 4, y + 3, fmt(expected), bandwidth ? " Gb/s" : " us"));
        }
        String[] palette = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf"};
        int s = 0;
        for (Map.Entry<String, List<Point>> e : series.entrySet()) {
            String col = palette[s % palette.length];
            StringBuilder path = new StringBuilder();
            List<Point> pts = new ArrayList<>(e.getValue());
            pts.removeIf(p -> p.bytes() <= 0 || Double.isNaN(p.value()) || (!bandwidth && p.value() <= 0));
            pts.sort(java.util.Comparator.comparingLong(Point::bytes));
            for (Point p : pts)
                path.append(path.length() == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f,%.1f", X.applyAsDouble(p.bytes()), Y.applyAsDouble(p.value())));
            sb.append("<path class=\"series\" d=\"").append(path).append("\" fill=\"none\" stroke=\"").append(col).append("\" stroke-width=\"1.6\"><title>")
                    .append(esc(e.getKey())).append("</title></path>");
            for (Point p : pts)
                sb.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"%s\"><title>%s</title></circle>", X.applyAsDouble(p.bytes()),
                        Y.applyAsDouble(p.value()), col, esc(e.getKey() + ": " + sizeLabel(p.bytes()) + " " + fmt(p.value()) + (bandwidth ? " Gb/s" : " us"))));
            sb.append(String.format(Locale.ROOT, "<rect x=\"%.0f\" y=\"%.0f\" width=\"10\" height=\"3\" fill=\"%s\"/><text x=\"%.0f\" y=\"%.0f\" font-size=\"9\">%s</text>",
                    left + pw + 4, top + 20 + s * 14, col, left + pw + 18, top + 24 + s * 14, esc(abbreviate(e.getKey(), 22))));
            s++;
        }
        return sb.append("</svg>").toString();
    }

    /** The points of a perftest -a sweep: bandwidth (Gb/s) per size for a bandwidth test, typical latency (us) otherwise. */
    public static List<Point> points(Perftest p) {
        List<Point> out = new ArrayList<>();
        for (Perftest.Row r : p.rows()) {
            double v = p.bandwidthTest() ? p.toGbps(r.bwAverage()) : Double.isNaN(r.tTypical()) ? r.tAvg() : r.tTypical();
            out.add(new Point(r.bytes(), v));
        }
        return out;
    }

    // ---- helpers

    private static StringBuilder open(double w, double h, String title) {
        StringBuilder sb = new StringBuilder(4096);
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">", w, h, w, h));
        sb.append("<title>").append(esc(title)).append("</title>");
        sb.append(String.format(Locale.ROOT, "<text x=\"8\" y=\"18\" font-size=\"13\" font-weight=\"bold\">%s</text>", esc(title)));
        return sb;
    }

    private static double log2(double v) {
        return Math.log(v) / Math.log(2);
    }

    private static double niceCeil(double v) {
        if (v <= 0) return 1;
        double e = Math.pow(10, Math.floor(Math.log10(v)));
        for (double f : new double[] {1, 2, 2.5, 5, 10}) if (f * e >= v) return f * e;
        return 10 * e;
    }

    static String sizeLabel(long b) {
        if (b >= 1L << 30 && b % (1L << 30) == 0) return (b >> 30) + "G";
        if (b >= 1L << 20 && b % (1L << 20) == 0) return (b >> 20) + "M";
        if (b >= 1L << 10 && b % (1L << 10) == 0) return (b >> 10) + "K";
        return Long.toString(b);
    }

    static String fmt(double v) {
        if (Double.isNaN(v)) return "-";
        if (Math.abs(v) >= 100) return String.format(Locale.ROOT, "%.0f", v);
        if (Math.abs(v) >= 10) return String.format(Locale.ROOT, "%.1f", v);
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String abbreviate(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n - 1) + "…";
    }

    /** XML text/attribute escaping: names come from the dump. */
    static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> {
                    if (c < 0x20 && c != '\t' && c != '\n') b.append('?');
                    else b.append(c);
                }
            }
        }
        return b.toString();
    }
}
