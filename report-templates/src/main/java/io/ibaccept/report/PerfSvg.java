package io.ibaccept.report;

import io.ibaccept.model.Perftest;
import io.ibaccept.rules.perf.FabricView;
import io.ibaccept.rules.perf.Outliers;
import io.ibaccept.rules.perf.PairMatrix;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Performance pictures as standalone SVG strings (inline in HTML; drawn as PDF vectors by PerfPdf):
 * <ul>
 * <li>{@link #heatMap}: the N x N pair matrix of one test, rows and columns grouped by leaf so a bad node shows as a
 * cross and a bad leaf or uplink as a block; per-leaf aggregates (median, bad pairs) in a strip above. Up to
 * {@link #MAX_NODES} nodes cell by cell (cells of equal colour in a row are merged, so a healthy 512-node fabric stays
 * small); above that the leaf x leaf matrix, a block with a bad pair in the colour of its worst pair. Bad pairs are
 * outlined on top and listed under the map with their values at any size.</li>
 * <li>{@link #curve}: bandwidth or latency against message size (a perftest -a sweep), log2 size axis, with the
 * expected line rate drawn.</li>
 * </ul>
 * Colour: see {@link Scale} (percent of each pair's line rate for bandwidth, else relative to the fabric's best).
 */
public final class PerfSvg {
    private PerfSvg() {}

    public static final int MAX_NODES = 512;
    /** Bad pairs listed under a heat map; all of them are findings (findings.csv). */
    static final int MAX_LISTED = 10;

    /** A sweep point: message size in bytes and its value (Gb/s or us). */
    public record Point(long bytes, double value) {}

    /** Colours from as expected (0) to far off (6): green, yellow, orange, reds; each bin a clearly different colour. */
    static final String[] BINS = {"#2e9e44", "#a6d96a", "#f2d23a", "#f59b2a", "#e8582b", "#c62828", "#6d1028"};

    /**
     * How a pair's value becomes a colour. A bandwidth test whose pairs all have a known line rate is drawn as a
     * percentage of each pair's own line rate (the slower of its two ports; in the report the design rate, with the
     * trained rate said beside it where it is lower), so 25 % and 52 % of line rate are different colours and an EDR
     * host built so is not red in an HDR fabric; latency, or bandwidth without line rates, relative to the
     * fabric's best and the outlier limit. A pair is bad when it is an outlier or below the perftest.bw minimum.
     */
    static final class Scale {
        final Outliers.Result r;
        final Function<String, Double> line;
        /** The rate each host's link trained at, said beside the design rate where it differs; null: line is the trained rate. */
        final Function<String, Double> trained;
        final double minPercent;
        final boolean percent;
        final double[] bounds; // percent mode: lower bound of bins 0..5 (bin 6 below the last)
        final java.util.Set<PairMatrix.Pair> outliers;

        Scale(Outliers.Result r, Function<String, Double> line, double minPercent) {
            this(r, line, null, minPercent);
        }

        Scale(Outliers.Result r, Function<String, Double> line, Function<String, Double> trained, double minPercent) {
            this.r = r;
            this.line = line == null ? h -> null : line;
            this.trained = trained;
            this.minPercent = minPercent;
            this.outliers = new java.util.HashSet<>(r.badPairs());
            this.percent = r.matrix().higherIsBetter() && line != null && !r.matrix().pairs().isEmpty()
                    && r.matrix().pairs().stream().allMatch(p -> !Double.isNaN(rate(p.a(), p.b())));
            List<Double> b = new ArrayList<>(List.of(minPercent));
            for (double t : new double[] {80, 70, 60, 50, 25}) if (t < b.get(b.size() - 1) && b.size() < BINS.length - 1) b.add(t);
            while (b.size() < BINS.length - 1) b.add(b.get(b.size() - 1) / 2);
            bounds = b.stream().mapToDouble(Double::doubleValue).toArray();
        }

        double rate(String a, String b) {
            return rate(line, a, b);
        }

        /** The slower of the pair's two rates, NaN when either is unknown. */
        private static double rate(Function<String, Double> of, String a, String b) {
            Double x = of.apply(a), y = of.apply(b);
            return x == null || y == null || x <= 0 || y <= 0 ? Double.NaN : Math.min(x, y);
        }

        /** "line rate", or "design rate" when the trained rate is told apart. */
        String against() {
            return trained == null ? "line rate" : "design rate";
        }

        double pct(String a, String b, double v) {
            return 100 * v / rate(a, b);
        }

        int bin(String a, String b, double v) {
            if (Double.isNaN(v)) return BINS.length - 1;
            if (percent) {
                double p = pct(a, b, v);
                for (int i = 0; i < bounds.length; i++) if (p >= bounds[i]) return i;
                return BINS.length - 1;
            }
            double span = Math.abs(r.best() - r.limit());
            double d = r.matrix().higherIsBetter() ? r.best() - v : v - r.best();
            if (Double.isNaN(r.best()) || d <= 0 || span == 0) return 0;
            double f = d / span;
            return f < 0.25 ? 1 : f < 0.5 ? 2 : f < 0.75 ? 3 : f < 1 ? 4 : f < 2 ? 5 : 6;
        }

        boolean bad(PairMatrix.Pair p, double v) {
            return outliers.contains(p) || percent && pct(p.a(), p.b(), v) < minPercent;
        }

        /** One legend label per bin. */
        String label(int i) {
            if (percent) return i == 0 ? "\u2265 " + pctText(bounds[0]) + " % of " + against() : i < bounds.length ? pctText(bounds[i]) + "\u2013" + pctText(bounds[i - 1]) + " %"
                    : "< " + pctText(bounds[bounds.length - 1]) + " %";
            String u = unit(r.matrix());
            double span = Math.abs(r.best() - r.limit()), sign = r.matrix().higherIsBetter() ? -1 : 1;
            double[] f = {0, 0.25, 0.5, 0.75, 1, 2};
            if (i == 0) return "best " + fmt(r.best()) + u;
            if (i < 5) return "to " + fmt(r.best() + sign * f[i] * span) + u;
            return i == 5 ? "outlier: beyond " + fmt(r.limit()) + u : "beyond " + fmt(r.best() + sign * 2 * span) + u;
        }

        /** "101.9 Gb/s = 51 % of 200", "48.9 Gb/s = 24 % of 200 (trained 50)" on a link trained below its design, or "3.64 us". */
        String value(String a, String b, double v) {
            if (!percent) return fmt(v) + unit(r.matrix());
            double t = trained == null ? Double.NaN : rate(trained, a, b);
            return fmt(v) + unit(r.matrix()) + String.format(Locale.ROOT, " = %.0f %% of %s", pct(a, b, v), fmt(rate(a, b)))
                    + (Double.isNaN(t) || Math.abs(t - rate(a, b)) < 0.5 ? "" : " (trained " + fmt(t) + ")");
        }
    }

    private static String pctText(double p) {
        return p == Math.rint(p) ? String.valueOf((long) p) : fmt(p);
    }

    /** The heat map of one pair test: percentages of line rate where lineGbps knows every host (null: relative to the best). */
    public static String heatMap(Outliers.Result r, FabricView view, Function<String, Double> lineGbps, double minPercent) {
        return heatMap(r, view, lineGbps, null, minPercent);
    }

    /**
     * The heat map with percentages of each pair's design rate (designGbps per host), the rate its links trained at
     * (trainedGbps) said beside it where they differ: a pair on a link stuck at 1X is red at 24 % of 200, not green.
     */
    public static String heatMap(Outliers.Result r, FabricView view, Function<String, Double> designGbps, Function<String, Double> trainedGbps,
                                 double minPercent) {
        PairMatrix m = r.matrix();
        Map<String, List<String>> groups = view.groupByLeaf(m.nodes());
        Scale sc = new Scale(r, designGbps, trainedGbps, minPercent);
        return m.nodes().size() > MAX_NODES ? leafMatrix(sc, groups) : nodeMatrix(sc, groups);
    }

    public static String heatMap(Outliers.Result r, FabricView view) {
        return heatMap(r, view, null, 90);
    }

    /** The bad pairs, worst first: what the map must show at any size. */
    private static List<PairMatrix.Pair> badPairs(Scale sc) {
        PairMatrix m = sc.r.matrix();
        List<PairMatrix.Pair> bad = new ArrayList<>();
        for (PairMatrix.Pair p : m.pairs()) if (sc.bad(p, m.first(p).value())) bad.add(p);
        bad.sort(java.util.Comparator.comparingDouble((PairMatrix.Pair p) -> {
            double v = m.first(p).value();
            return sc.percent ? sc.pct(p.a(), p.b(), v) : m.higherIsBetter() ? v : -v;
        }).thenComparing(PairMatrix.Pair::a).thenComparing(PairMatrix.Pair::b));
        return bad;
    }

    /** Under the map: every bad pair up to MAX_LISTED with its value, so a PDF (no tooltips) and a 1.5 px cell still name it. */
    private static double badList(StringBuilder sb, Scale sc, List<PairMatrix.Pair> bad, double x, double y) {
        PairMatrix m = sc.r.matrix();
        if (bad.isEmpty()) return y;
        y += 16;
        sb.append(String.format(Locale.ROOT, "<text class=\"bad-pairs\" x=\"%.1f\" y=\"%.1f\" font-size=\"11\" font-weight=\"bold\">%d bad pair(s)%s:</text>", x, y, bad.size(),
                bad.size() > MAX_LISTED ? ", the " + MAX_LISTED + " worst (all in findings.csv)" : ""));
        for (PairMatrix.Pair p : bad.subList(0, Math.min(MAX_LISTED, bad.size()))) {
            y += 14;
            PairMatrix.Measurement f = m.first(p);
            int bin = sc.bin(p.a(), p.b(), f.value());
            sb.append(String.format(Locale.ROOT, "<rect class=\"bad-pair\" x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\" stroke=\"#000\" stroke-width=\"1\"/>"
                    + "<text class=\"bad-pair\" x=\"%.1f\" y=\"%.1f\" font-size=\"10\">%s</text>", x, y - 9, BINS[bin], x + 16, y,
                    esc(f.client() + " \u2013 " + f.server() + ": " + sc.value(p.a(), p.b(), f.value()))));
        }
        return y;
    }

    private static int listHeight(List<PairMatrix.Pair> bad) {
        return bad.isEmpty() ? 0 : 16 + 14 * Math.min(MAX_LISTED, bad.size()) + 8;
    }

    private static String nodeMatrix(Scale sc, Map<String, List<String>> groups) {
        Outliers.Result r = sc.r;
        PairMatrix m = r.matrix();
        List<String> order = new ArrayList<>();
        groups.values().forEach(order::addAll);
        int n = order.size();
        double cell = Math.max(1.5, Math.min(18, 720.0 / Math.max(1, n)));
        boolean labels = cell >= 10;
        double left = labels ? 100 : 70, stripH = 46, top = 40 + stripH + (labels ? 64 : 16);
        double size = cell * n;
        List<PairMatrix.Pair> bad = badPairs(sc);
        double legendH = 14 * BINS.length + 40;
        double w = Math.max(left + size + 190, 520), h = Math.max(top + size, top + legendH) + 12 + listHeight(bad);
        StringBuilder sb = open(w, h, title(sc, false));
        legend(sb, sc, left + size + 20, top, bad.size());
        aggregates(sb, sc, groups, left, 40, cell, stripH);
        // grid: one rect per run of equal colour in a row
        for (int i = 0; i < n; i++) {
            int j = 0;
            while (j < n) {
                int level = level(sc, order.get(i), order.get(j));
                int k = j + 1;
                while (k < n && level(sc, order.get(i), order.get(k)) == level && !labels) k++;
                if (level >= 0) {
                    sb.append(String.format(Locale.ROOT, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\">",
                            left + j * cell, top + i * cell, (k - j) * cell, cell, BINS[level]));
                    if (labels) sb.append("<title>").append(esc(order.get(i) + " - " + order.get(j) + ": " + sc.value(order.get(i), order.get(j), m.value(order.get(i), order.get(j))))).append("</title>");
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
            if (len >= 10 || groups.size() <= 40)
                sb.append(String.format(Locale.ROOT, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"10\" text-anchor=\"end\">%s</text>", left - 4 - (labels ? 52 : 0),
                        top + pos * cell + Math.min(len, 11), esc(name(g.getKey()))));
            pos += g.getValue().size();
        }
        // bad pairs on top, both cells of the pair, visible at any cell size
        Map<String, Integer> index = new java.util.HashMap<>();
        for (int i = 0; i < n; i++) index.put(order.get(i), i);
        double mark = Math.max(cell, 7);
        for (PairMatrix.Pair p : bad) {
            Integer a = index.get(p.a()), b = index.get(p.b());
            if (a == null || b == null) continue;
            for (int[] ij : new int[][] {{a, b}, {b, a}})
                sb.append(String.format(Locale.ROOT, "<rect class=\"bad\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\"/>",
                        left + ij[1] * cell + cell / 2 - mark / 2, top + ij[0] * cell + cell / 2 - mark / 2, mark, mark));
        }
        if (labels) {
            for (int i = 0; i < n; i++) {
                sb.append(String.format(Locale.ROOT, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"10\" text-anchor=\"end\" fill=\"#333\">%s</text>",
                        left - 4, top + i * cell + cell * 0.75, esc(order.get(i))));
                sb.append(String.format(Locale.ROOT, "<text transform=\"translate(%.2f,%.2f) rotate(-60)\" font-size=\"10\" fill=\"#333\">%s</text>",
                        left + i * cell + cell * 0.7, top - 4, esc(order.get(i))));
            }
        }
        badList(sb, sc, bad, 8, Math.max(top + size, top + legendH) + 4);
        return sb.append("</svg>").toString();
    }

    /** Per leaf: median of its pairs as a coloured box above the matrix, outlined when it has a bad pair; its numbers where they fit. */
    private static void aggregates(StringBuilder sb, Scale sc, Map<String, List<String>> groups, double left, double top, double cell, double h) {
        Aggregates agg = new Aggregates(sc, groups);
        int pos = 0;
        for (Map.Entry<String, List<String>> g : groups.entrySet()) {
            LeafStats s = agg.of(g.getKey());
            double x = left + pos * cell, wd = g.getValue().size() * cell;
            String fill = s.count == 0 ? "#eeeeee" : BINS[s.medianBin];
            String text = s.count == 0 ? "" : fmt(s.median) + (sc.percent ? " %" : unit(sc.r.matrix())) + ", " + s.bad + " bad";
            sb.append(String.format(Locale.ROOT, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" stroke=\"#000\" stroke-width=\"%s\">"
                            + "<title>%s</title></rect>", x, top, wd, h - 6, fill, s.bad > 0 ? "1.5" : "0.5",
                    esc(name(g.getKey()) + ": median " + text + " of " + s.count + " pairs")));
            String ink = textOn(fill);
            if (fits(name(g.getKey()), 10, wd - 4))
                sb.append(String.format(Locale.ROOT, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"10\" fill=\"%s\">%s</text>", x + 2, top + 13, ink, esc(name(g.getKey()))));
            if (!text.isEmpty() && fits(text, 10, wd - 4))
                sb.append(String.format(Locale.ROOT, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"10\" fill=\"%s\">%s</text>", x + 2, top + 28, ink, esc(text)));
            pos += g.getValue().size();
        }
    }

    private static String leafMatrix(Scale sc, Map<String, List<String>> groups) {
        List<String> leaves = new ArrayList<>(groups.keySet());
        int n = leaves.size();
        double cell = Math.max(4, Math.min(28, 720.0 / Math.max(1, n)));
        double left = 90, top = 60, size = cell * n;
        List<PairMatrix.Pair> bad = badPairs(sc);
        double legendH = 14 * BINS.length + 40;
        StringBuilder sb = open(Math.max(left + size + 190, 520), Math.max(top + size, top + legendH) + 12 + listHeight(bad), title(sc, true));
        legend(sb, sc, left + size + 20, top, bad.size());
        Aggregates agg = new Aggregates(sc, groups);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                LeafStats s = agg.of(Aggregates.key(leaves.get(i), leaves.get(j)));
                if (s.count == 0) continue;
                // a block with a bad pair takes the colour of its worst pair: one slow pair among 1,600 stays visible
                String fill = BINS[s.bad > 0 ? s.worstBin : s.medianBin];
                sb.append(String.format(Locale.ROOT, "<rect%s x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"><title>%s</title></rect>",
                        s.bad > 0 ? " class=\"bad\"" : "", left + j * cell, top + i * cell, cell, cell, fill, s.bad > 0 ? "#000" : "none", s.bad > 0 ? "1.5" : "0",
                        esc(name(leaves.get(i)) + " - " + name(leaves.get(j)) + ": median " + fmt(s.median) + (sc.percent ? " %" : unit(sc.r.matrix())) + ", "
                                + s.bad + " of " + s.count + " pairs bad")));
                if (s.bad > 0 && cell >= 16 && fits(String.valueOf(s.bad), 10, cell - 2))
                    sb.append(String.format(Locale.ROOT, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"10\" text-anchor=\"middle\" fill=\"%s\">%d</text>",
                            left + j * cell + cell / 2, top + i * cell + cell / 2 + 4, textOn(fill), s.bad));
            }
            sb.append(String.format(Locale.ROOT, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"10\" text-anchor=\"end\">%s</text>",
                    left - 4, top + i * cell + Math.min(cell, 12) * 0.8, cell >= 10 || i % (int) Math.ceil(10 / cell) == 0 ? esc(name(leaves.get(i))) : ""));
        }
        badList(sb, sc, bad, 8, Math.max(top + size, top + legendH) + 4);
        return sb.append("</svg>").toString();
    }

    private record LeafStats(int count, int bad, double median, int medianBin, int worstBin) {}

    /** Per leaf pair ("a|b", a <= b) and per leaf ("a"): the pairs' values (percent of line rate or raw), their bins and bad counts, in one pass. */
    private static final class Aggregates {
        final Map<String, List<Double>> values = new java.util.HashMap<>();
        final Map<String, List<Integer>> bins = new java.util.HashMap<>();
        final Map<String, Integer> bad = new java.util.HashMap<>();

        Aggregates(Scale sc, Map<String, List<String>> groups) {
            Map<String, String> leafOf = new java.util.HashMap<>();
            groups.forEach((l, hs) -> hs.forEach(h -> leafOf.put(h, l)));
            PairMatrix m = sc.r.matrix();
            for (PairMatrix.Pair p : m.pairs()) {
                String la = leafOf.getOrDefault(p.a(), ""), lb = leafOf.getOrDefault(p.b(), "");
                double v = m.first(p).value();
                double shown = sc.percent ? sc.pct(p.a(), p.b(), v) : v;
                int bin = sc.bin(p.a(), p.b(), v);
                boolean isBad = sc.bad(p, v);
                for (String key : la.equals(lb) ? List.of(la + "|" + lb, la) : List.of(key(la, lb), la, lb)) {
                    values.computeIfAbsent(key, k -> new ArrayList<>()).add(shown);
                    bins.computeIfAbsent(key, k -> new ArrayList<>()).add(bin);
                    if (isBad) bad.merge(key, 1, Integer::sum);
                }
            }
        }

        static String key(String a, String b) {
            return a.compareTo(b) <= 0 ? a + "|" + b : b + "|" + a;
        }

        LeafStats of(String key) {
            List<Double> vals = values.get(key);
            if (vals == null || vals.isEmpty()) return new LeafStats(0, 0, Double.NaN, 0, 0);
            int[] b = bins.get(key).stream().mapToInt(Integer::intValue).sorted().toArray();
            double[] v = vals.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            return new LeafStats(v.length, bad.getOrDefault(key, 0), v[v.length / 2], b[b.length / 2], b[b.length - 1]);
        }
    }

    /** Colour bin of a cell, -1 when untested (or the diagonal). */
    private static int level(Scale sc, String x, String y) {
        if (x.equals(y)) return -1;
        double v = sc.r.matrix().value(x, y);
        return Double.isNaN(v) ? -1 : sc.bin(x, y, v);
    }

    /** Black or white, whichever contrasts more with the fill (WCAG relative luminance). */
    static String textOn(String hex) {
        java.awt.Color c = java.awt.Color.decode(hex);
        double l = 0.2126 * lin(c.getRed()) + 0.7152 * lin(c.getGreen()) + 0.0722 * lin(c.getBlue());
        return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000000" : "#ffffff";
    }

    private static double lin(int v) {
        double c = v / 255.0;
        return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    }

    /** Whether text of this size fits a width (sans-serif averages about 0.55 em per character). */
    private static boolean fits(String text, double size, double width) {
        return text.length() * size * 0.55 <= width;
    }

    private static void legend(StringBuilder sb, Scale sc, double x, double y, int bad) {
        for (int l = 0; l < BINS.length; l++)
            sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"12\" fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">%s</text>",
                    x, y + l * 14, BINS[l], x + 18, y + l * 14 + 10, esc(sc.label(l))));
        double ly = y + BINS.length * 14 + 6;
        sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\"/>"
                + "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">bad pair</text>", x + 1, ly, x + 18, ly + 10));
        sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">%d bad of %d pairs</text>", x, ly + 28, bad, sc.r.matrix().pairs().size()));
    }

    private static String title(Scale sc, boolean perLeaf) {
        PairMatrix m = sc.r.matrix();
        return m.test() + (perLeaf ? ": per leaf pair (" + m.nodes().size() + " nodes)" : ": per node pair") + ", "
                + (sc.percent ? "% of " + sc.against() : m.higherIsBetter() ? "Gb/s vs best" : "latency vs best");
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

    /** Switch-to-switch cables drawn in the route chart; the others are summed up in one line. */
    static final int MAX_ROUTE_ROWS = 16;

    /**
     * The pairs of one test grouped by the switch-to-switch cables their routes cross (from the forwarding tables): one
     * bar per cable, split by the share of its pairs in each colour bin, cables with bad pairs first. A slow cable is a
     * bar in the bad colours among green ones, whatever the hosts. "" when the routes are not known.
     */
    public static String byRoute(Outliers.Result r, FabricView view, Function<String, Double> lineGbps, double minPercent) {
        return byRoute(r, view, lineGbps, null, minPercent);
    }

    public static String byRoute(Outliers.Result r, FabricView view, Function<String, Double> designGbps, Function<String, Double> trainedGbps,
                                 double minPercent) {
        if (!view.knowsRoutes()) return "";
        PairMatrix m = r.matrix();
        Scale sc = new Scale(r, designGbps, trainedGbps, minPercent);
        record Row(String cable, int[] bins, int bad, int pairs) {}
        Map<String, int[]> bins = new java.util.TreeMap<>();
        Map<String, Integer> bad = new java.util.HashMap<>();
        int routed = 0;
        for (PairMatrix.Pair p : m.pairs()) {
            double v = m.first(p).value();
            List<String> isls = view.isls(p.a(), p.b());
            if (!isls.isEmpty()) routed++;
            int bin = sc.bin(p.a(), p.b(), v);
            boolean b = sc.bad(p, v);
            for (String isl : isls) {
                bins.computeIfAbsent(isl, k -> new int[BINS.length])[bin]++;
                if (b) bad.merge(isl, 1, Integer::sum);
            }
        }
        if (bins.isEmpty()) return "";
        List<Row> rows = new ArrayList<>();
        bins.forEach((cable, counts) -> rows.add(new Row(cable, counts, bad.getOrDefault(cable, 0), java.util.Arrays.stream(counts).sum())));
        // the cables whose pairs are most often bad first, then the ones with the worst pairs
        rows.sort(java.util.Comparator.comparingDouble((Row x) -> -(double) x.bad() / x.pairs()).thenComparingDouble(x -> -weight(x.bins()))
                .thenComparing(Row::cable));
        List<Row> shown = rows.subList(0, Math.min(MAX_ROUTE_ROWS, rows.size()));
        double label = 330, bar = 420, w = label + bar + 150, rowH = 16, top = 34;
        double h = top + shown.size() * rowH + (rows.size() > shown.size() ? 18 : 0) + 26 + 14 * ((BINS.length + 1) / 2);
        StringBuilder sb = open(w, h, m.test() + ": pairs by the switch-to-switch cables on their route (" + routed + " of " + m.pairs().size() + " pairs routed)");
        double y = top;
        for (Row row : shown) {
            sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%s</text>", label - 6, y + 11,
                    esc(abbreviate(view.shortName(row.cable()), 58))));
            double x = label;
            for (int i = 0; i < BINS.length; i++) {
                if (row.bins()[i] == 0) continue;
                double bw = bar * row.bins()[i] / row.pairs();
                sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s</title></rect>", x, y + 2,
                        bw, rowH - 4, BINS[i], esc(row.cable() + ": " + row.bins()[i] + " of " + row.pairs() + " pairs " + sc.label(i))));
                x += bw;
            }
            sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">%d pairs%s</text>", label + bar + 6, y + 11, row.pairs(),
                    row.bad() == 0 ? "" : ", " + row.bad() + " bad"));
            y += rowH;
        }
        if (rows.size() > shown.size()) {
            List<Row> rest = rows.subList(shown.size(), rows.size());
            int restBad = rest.stream().mapToInt(Row::bad).sum();
            sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">%d more cables%s</text>", label - 6 - 200, y + 12, rest.size(),
                    restBad == 0 ? ", no bad pair on them" : ", " + restBad + " bad pair crossings on them (findings.csv)"));
            y += 18;
        }
        y += 12;
        for (int i = 0; i < BINS.length; i++) {
            double lx = 8 + (i % 2) * 260, ly = y + (i / 2) * 14;
            sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">%s</text>",
                    lx, ly, BINS[i], lx + 14, ly + 9, esc(sc.label(i))));
        }
        return sb.append("</svg>").toString();
    }

    /** How far into the bad colours a cable's pairs go (mean bin). */
    private static double weight(int[] bins) {
        double n = 0, sum = 0;
        for (int i = 0; i < bins.length; i++) {
            n += bins[i];
            sum += (double) i * bins[i];
        }
        return n == 0 ? 0 : sum / n;
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
