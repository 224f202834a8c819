package io.ibaccept.rules.checks;

import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.perf.Outliers;
import io.ibaccept.rules.perf.PairMatrix;
import io.ibaccept.rules.perf.PerfAnalysis;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Pairs far below (bandwidth) or above (latency) the fabric's best, one finding per test. Confirmed on retest: FAIL;
 * not retested: WARN (rerun with 'ibaccept rdma --retest'); recovered on retest: noted in the PASS. A uniformly slow
 * fabric has no outliers: perftest.bw / perftest.lat judge against the line rate.
 */
final class PerftestOutlier implements PairTest {
    static final int MAX_EVIDENCE = 40;

    public String id() {
        return PerfAnalysis.CHECK;
    }

    /** Its objects are suspect hosts, not a pair: the pairs are in its evidence. */
    public Naming naming() {
        return Naming.PAIRS_IN_EVIDENCE;
    }

    public List<Input> inputs() {
        return List.of(Input.perftestResults());
    }

    public List<Setting> settings() {
        return List.of(Setting.number("min_percent_of_best", "93", "bandwidth outlier: below this percent of the fabric's best pair"),
                Setting.number("max_times_best_latency", "2.1", "latency outlier: above this many times the fabric's best pair"),
                Setting.number("best_percentile", "90", "the fabric's best = this percentile of the pair values (latency: 100 minus it), so one lucky pair is not the reference"));
    }

    public void evaluate(Ctx c) {
        PerfAnalysis a = c.facts.perf();
        boolean any = false;
        for (Outliers.Result r : a.results().values()) {
            PairMatrix m = r.matrix();
            String test = m.test();
            if (m.pairs().size() < PerfAnalysis.MIN_PAIRS) {
                c.skip(test + ": " + m.pairs().size() + " pair(s) tested, at least " + PerfAnalysis.MIN_PAIRS + " needed to compare pairs with each other");
                continue;
            }
            any = true;
            boolean bw = m.higherIsBetter();
            String unit = bw ? "Gb/s" : "us";
            String limit = bw ? fmt(c.number("min_percent_of_best")) + "% of" : fmt(c.number("max_times_best_latency")) + "x";
            List<Outliers.Outlier> bad = r.bad();
            long confirmed = bad.stream().filter(o -> o.state() == Outliers.State.CONFIRMED).count();
            long transientCount = r.outliers().size() - bad.size();
            if (bad.isEmpty()) {
                c.pass(String.format(Locale.ROOT, "%s: all %d pairs within %s the fabric's best %.2f %s%s", test, m.pairs().size(),
                        limit, r.best(), unit, transientCount > 0 ? " (" + transientCount + " outlier(s) recovered on retest)" : ""), List.of(), List.of());
                continue;
            }
            List<Evidence> ev = new ArrayList<>();
            TreeSet<String> hosts = new TreeSet<>();
            for (Outliers.Outlier o : bad) {
                hosts.add(o.pair().a());
                hosts.add(o.pair().b());
                if (ev.size() >= MAX_EVIDENCE) continue;
                PairMatrix.Measurement f = o.first();
                String line = String.format(Locale.ROOT, "%s -> %s: %.2f %s (%s of best)", f.client(), f.server(), f.value(), unit,
                        bw ? String.format(Locale.ROOT, "%.0f%%", 100 * o.ratio()) : String.format(Locale.ROOT, "%.1fx", o.ratio()));
                if (o.last() != null) line += String.format(Locale.ROOT, "; retest %d: %.2f %s", o.last().attempt(), o.last().value(), unit);
                ev.add(Evidence.of(line, f.where()));
                if (o.last() != null) ev.add(Evidence.of("retest " + o.last().attempt() + " of " + f.client() + " -> " + f.server(), o.last().where()));
                for (String cmd : PerfAnalysis.commandLines(c.data, test, f.client(), f.server())) ev.add(Evidence.of("command " + cmd, ""));
            }
            if (bad.size() * 2 > ev.size() && bad.size() > MAX_EVIDENCE / 2) ev.add(Evidence.of("+ more pairs; see the heat map", ""));
            Status st = confirmed > 0 ? Status.FAIL : Status.WARN;
            String summary = String.format(Locale.ROOT, "%s: %d of %d pairs %s %s the fabric's best %.2f %s (%s)", test, bad.size(),
                    m.pairs().size(), bw ? "below" : "above", limit, r.best(), unit,
                    confirmed > 0 ? confirmed + " confirmed on retest" : "not retested");
            c.problem(st, List.copyOf(hosts), ev, summary, confirmed > 0 ? "" : "unconfirmed",
                    Map.of("test", test, "count", bad.size(), "pairs", m.pairs().size(), "best", String.format(Locale.ROOT, "%.2f %s", r.best(), unit),
                            "limit", limit));
        }
        if (!any && a.results().isEmpty()) c.skip("no usable perftest results to compare");
    }

    static String fmt(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }
}
