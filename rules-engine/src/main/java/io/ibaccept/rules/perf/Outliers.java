package io.ibaccept.rules.perf;

import java.util.ArrayList;
import java.util.List;

/**
 * Relative judgement of a pair matrix: a pair is an outlier when its bandwidth is below minPercentOfBest % of the
 * fabric's best, or its latency above maxTimesBest x the best. "Best" is a high percentile of the first-run values
 * (90th for bandwidth, 10th for latency), not the single extreme, so one lucky pair does not make the rest outliers.
 * A uniformly slow fabric has no outliers: that is the absolute check's finding (perftest.bw / perftest.lat).
 * With retests the pair's last attempt decides: failed again = CONFIRMED, passed = TRANSIENT, never retested = UNCONFIRMED.
 */
public final class Outliers {
    private Outliers() {}

    public record Config(double minPercentOfBest, double maxTimesBest, double bestPercentile) {
        public static Config defaults() {
            return new Config(93, 2.1, 90);
        }
    }

    public enum State { CONFIRMED, UNCONFIRMED, TRANSIENT }

    public record Outlier(PairMatrix.Pair pair, PairMatrix.Measurement first, PairMatrix.Measurement last, State state,
                          double ratio) {
        /** Confirmed or not retested: counts as bad for localisation. */
        public boolean bad() {
            return state != State.TRANSIENT;
        }
    }

    public record Result(PairMatrix matrix, double best, double limit, List<Outlier> outliers) {
        public List<Outlier> bad() {
            return outliers.stream().filter(Outlier::bad).toList();
        }

        public List<PairMatrix.Pair> badPairs() {
            return bad().stream().map(Outlier::pair).toList();
        }
    }

    public static Result judge(PairMatrix m, Config cfg) {
        double[] vals = m.pairs().stream().mapToDouble(p -> m.first(p).value()).sorted().toArray();
        if (vals.length == 0) return new Result(m, Double.NaN, Double.NaN, List.of());
        double best = percentile(vals, m.higherIsBetter() ? cfg.bestPercentile() : 100 - cfg.bestPercentile());
        double limit = m.higherIsBetter() ? best * cfg.minPercentOfBest() / 100 : best * cfg.maxTimesBest();
        List<Outlier> out = new ArrayList<>();
        for (PairMatrix.Pair p : m.pairs()) {
            PairMatrix.Measurement f = m.first(p), l = m.last(p);
            if (!worse(m, f.value(), limit)) continue;
            State s = l.attempt() == 0 ? State.UNCONFIRMED : worse(m, l.value(), limit) ? State.CONFIRMED : State.TRANSIENT;
            out.add(new Outlier(p, f, l.attempt() == 0 ? null : l, s, f.value() / best));
        }
        return new Result(m, best, limit, out);
    }

    /** Pairs whose first run was an outlier, for the retest step (rdma --retest). */
    public static List<PairMatrix.Pair> toRetest(Result r) {
        return r.outliers().stream().map(Outlier::pair).toList();
    }

    static boolean worse(PairMatrix m, double v, double limit) {
        return m.higherIsBetter() ? v < limit : v > limit;
    }

    /** Nearest-rank percentile of sorted values. */
    static double percentile(double[] sorted, double pct) {
        if (sorted.length == 1) return sorted[0];
        int rank = (int) Math.ceil(pct / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
