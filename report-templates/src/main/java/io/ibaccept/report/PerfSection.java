package io.ibaccept.report;

import io.ibaccept.model.Perftest;
import io.ibaccept.model.PerftestRun;
import io.ibaccept.analysis.Analysis;
import io.ibaccept.model.ClusterData;
import io.ibaccept.rules.perf.FabricView;
import io.ibaccept.rules.perf.Outliers;
import io.ibaccept.rules.perf.PairMatrix;
import io.ibaccept.rules.perf.PerfAnalysis;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The RDMA performance part of the report, ready to embed: per pairwise test its heat map, the message-size curves of
 * -a sweeps (worst, median and best pair, with the expected line rate), and the exact command lines to rerun a pair
 * by hand. {@link #figures} gives the SVGs by name (for the HTML report inline, for the PDF drawn as vectors by PerfPdf);
 * {@link #html} a self-contained HTML fragment (section id "rdma-performance").
 */
public final class PerfSection {
    private PerfSection() {}

    /** Commands listed per test in the report (outliers first); all of them are in the dump's perftest/*.meta. */
    static final int MAX_COMMANDS = 20;

    public record Figure(String name, String caption, String svg) {}

    /** The heat maps (hosts grouped by the leaves the analysis found) and the sweeps. */
    public static List<Figure> figures(Analysis an) {
        PerfAnalysis a = an.perf();
        FabricView view = an.perfView();
        ClusterData data = an.data();
        List<Figure> out = new ArrayList<>();
        double minPercent = an.rules().number("perftest.bw", "min_percent");
        // a pair is held against the rate its links were designed for (a link trained at 1X is no excuse), the trained rate said beside it
        Map<String, Optional<Double>> lineRates = new java.util.HashMap<>(), designRates = new java.util.HashMap<>();
        java.util.function.Function<String, Double> trainedOf = h -> lineRates.computeIfAbsent(h, an::lineGbps).orElse(null);
        java.util.function.Function<String, Double> lineOf = h -> designRates.computeIfAbsent(h,
                x -> an.designRate(x).map(io.ibaccept.rules.FabricIndex.Rate::dataGbps).or(() -> an.lineGbps(x))).orElse(null);
        for (Outliers.Result res : a.results().values()) {
            PairMatrix m = res.matrix();
            if (m.pairs().size() >= PerfAnalysis.MIN_PAIRS)
                out.add(new Figure("heatmap-" + m.test(), m.test() + ": " + m.pairs().size() + " pairs, " + res.bad().size()
                        + " outliers; rows and columns grouped by leaf; bad pairs outlined and listed; bandwidth as a share of the design rate "
                        + "(the contract's, else what host links are expected to run at), the trained rate beside it where lower",
                        PerfSvg.heatMap(res, view, lineOf, trainedOf, minPercent)));
            // with the forwarding tables: the same pairs grouped by the switch-to-switch cables on their routes
            String byRoute = m.pairs().size() >= PerfAnalysis.MIN_PAIRS ? PerfSvg.byRoute(res, view, lineOf, trainedOf, minPercent) : "";
            if (!byRoute.isEmpty())
                out.add(new Figure("routes-" + m.test(), m.test() + ": the pairs grouped by the switch-to-switch cables their routes cross (from the "
                        + "forwarding tables); each bar splits a cable's pairs by colour bin, cables with bad pairs first", byRoute));
        }
        // sweeps: runs with more than one message size, latest attempt of each pair
        Map<String, List<PerftestRun>> sweeps = PerfAnalysis.latestAttempts(data.perftests()).stream()
                .filter(x -> x.result() != null && x.result().rows().size() > 1)
                .collect(Collectors.groupingBy(PerftestRun::test, java.util.TreeMap::new, Collectors.toList()));
        for (Map.Entry<String, List<PerftestRun>> e : sweeps.entrySet()) {
            List<PerftestRun> runs = representative(e.getValue());
            boolean bw = runs.get(0).result().bandwidthTest();
            Map<String, List<PerfSvg.Point>> series = new LinkedHashMap<>();
            for (PerftestRun run : runs) series.put(run.client() + " -> " + run.server(), PerfSvg.points(run.result()));
            double expected = Double.NaN;
            if (bw) {
                OptionalDouble line = runs.stream().flatMap(x -> java.util.stream.Stream.of(x.client(), x.server()))
                        .map(lineOf).filter(java.util.Objects::nonNull).mapToDouble(Double::doubleValue).min();
                if (line.isPresent()) expected = line.getAsDouble();
            }
            out.add(new Figure("sweep-" + e.getKey(), e.getKey() + " message-size sweep (" + e.getValue().size() + " pair(s); shown: "
                    + String.join(", ", series.keySet()) + ")" + (Double.isNaN(expected) ? "" : "; dashed: design data rate"),
                    PerfSvg.curve(e.getKey() + " vs message size", bw, series, expected)));
        }
        return out;
    }

    /** Up to three pairs of a sweep: worst, median and best at the largest size. */
    static List<PerftestRun> representative(List<PerftestRun> runs) {
        List<PerftestRun> sorted = new ArrayList<>(runs);
        boolean bw = runs.get(0).result().bandwidthTest();
        sorted.sort(Comparator.comparingDouble(x -> score(x.result())));
        if (!bw) java.util.Collections.reverse(sorted); // latency: worst = highest
        List<PerftestRun> pick = new ArrayList<>();
        for (int i : new int[] {0, sorted.size() / 2, sorted.size() - 1}) if (!pick.contains(sorted.get(i))) pick.add(sorted.get(i));
        return pick;
    }

    private static double score(Perftest p) {
        Perftest.Row row = p.largest();
        return p.bandwidthTest() ? p.toGbps(row.bwAverage()) : Double.isNaN(row.tTypical()) ? row.tAvg() : row.tTypical();
    }

    /** Per test, the command lines of up to MAX_COMMANDS pairs (outliers first), as "pair: on host: command" lines. */
    public static Map<String, List<String>> commands(Analysis an) {
        PerfAnalysis a = an.perf();
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (Outliers.Result res : a.results().values()) {
            PairMatrix m = res.matrix();
            Set<PairMatrix.Pair> bad = Set.copyOf(res.badPairs());
            List<PairMatrix.Pair> order = new ArrayList<>(res.badPairs());
            m.pairs().stream().filter(p -> !bad.contains(p)).forEach(order::add);
            List<String> lines = new ArrayList<>();
            for (PairMatrix.Pair p : order) {
                if (lines.size() >= MAX_COMMANDS * 2) break;
                PairMatrix.Measurement f = m.first(p);
                for (String c : PerfAnalysis.commandLines(an.data(), m.test(), f.client(), f.server()))
                    lines.add(f.client() + " -> " + f.server() + (bad.contains(p) ? " (outlier)" : "") + ": " + c);
            }
            out.put(m.test(), lines);
        }
        return out;
    }

    /** A self-contained HTML fragment: figures with captions and the command lines. Empty when there are no pair tests. */
    public static String html(Analysis an) {
        return html(figures(an), commands(an));
    }

    static String html(List<Figure> figs, Map<String, List<String>> cmds) {
        if (figs.isEmpty() && cmds.isEmpty()) return "";
        StringBuilder sb = new StringBuilder("<section id=\"rdma-performance\"><h2>RDMA performance</h2>");
        for (Figure f : figs)
            sb.append("<figure id=\"").append(PerfSvg.esc(f.name())).append("\">").append(f.svg()).append("<figcaption>")
                    .append(PerfSvg.esc(f.caption())).append("</figcaption></figure>");
        for (Map.Entry<String, List<String>> e : cmds.entrySet()) {
            if (e.getValue().isEmpty()) continue;
            sb.append("<h3>").append(PerfSvg.esc(e.getKey())).append(": command lines (rerun a pair by hand; server first)</h3><pre class=\"commands\">");
            e.getValue().forEach(l -> sb.append(PerfSvg.esc(l)).append('\n'));
            sb.append("</pre><p>Every pair's exact commands are in the dump: perftest/").append(PerfSvg.esc(e.getKey()))
                    .append("__CLIENT__SERVER[.retestN].{client,server}.meta (key 'command').</p>");
        }
        return sb.append("</section>").toString();
    }
}
