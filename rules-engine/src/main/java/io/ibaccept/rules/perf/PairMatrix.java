package io.ibaccept.rules.perf;

import io.ibaccept.model.Perftest;
import io.ibaccept.model.PerftestRun;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The results of one pairwise test (ib_write_bw, ib_read_lat, ...) over the fabric: one value per tested pair and
 * attempt. Attempt 0 is the first run, attempt k the k-th retest (dump id "TEST__A__B.retestK"). Bandwidth is the
 * average at the largest message size in Gb/s; latency the typical (else average) latency at the smallest size in us.
 * Pairs are unordered: the matrix of a bandwidth test is symmetric by construction (client->server is one direction
 * of the same cable path).
 */
public final class PairMatrix {
    /** One measured value, with where it was read (dump-relative file:line) and the run's dump id. */
    public record Measurement(String client, String server, int attempt, double value, String where, String runId) {
        public Pair pair() {
            return Pair.of(client, server);
        }
    }

    /**
     * An unordered node pair, a < b. Host names like n0001..n0512 make the default record hash (31*h(a)+h(b)) collide
     * massively, so the hash is mixed and pairs are comparable (hash bins that still collide stay O(log n)).
     */
    public record Pair(String a, String b) implements Comparable<Pair> {
        @Override
        public int hashCode() {
            int h = a.hashCode() * 0x9E3779B9 + Integer.rotateLeft(b.hashCode() * 0x85EBCA6B, 15);
            return h ^ (h >>> 16);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Pair p && a.equals(p.a) && b.equals(p.b);
        }

        public int compareTo(Pair o) {
            int c = a.compareTo(o.a);
            return c != 0 ? c : b.compareTo(o.b);
        }

        public static Pair of(String x, String y) {
            return x.compareTo(y) <= 0 ? new Pair(x, y) : new Pair(y, x);
        }

        public boolean has(String n) {
            return a.equals(n) || b.equals(n);
        }

        public String other(String n) {
            return a.equals(n) ? b : a;
        }

        @Override
        public String toString() {
            return a + "<->" + b;
        }
    }

    private static final Pattern RETEST = Pattern.compile("\\.retest(\\d+)$");

    private final String test;
    private final boolean higherIsBetter;
    private final Map<Pair, List<Measurement>> byPair = new LinkedHashMap<>();

    public PairMatrix(String test, boolean higherIsBetter, List<Measurement> ms) {
        this.test = test;
        this.higherIsBetter = higherIsBetter;
        for (Measurement m : ms) byPair.computeIfAbsent(m.pair(), k -> new ArrayList<>()).add(m);
        for (List<Measurement> l : byPair.values()) l.sort(Comparator.comparingInt(Measurement::attempt));
    }

    public String test() {
        return test;
    }

    /** true for bandwidth (more is better), false for latency. */
    public boolean higherIsBetter() {
        return higherIsBetter;
    }

    public List<Pair> pairs() {
        return List.copyOf(byPair.keySet());
    }

    public List<String> nodes() {
        TreeSet<String> s = new TreeSet<>();
        for (Pair p : byPair.keySet()) {
            s.add(p.a());
            s.add(p.b());
        }
        return List.copyOf(s);
    }

    /** All attempts of a pair, first run first; empty if the pair was not tested. */
    public List<Measurement> attempts(Pair p) {
        return byPair.getOrDefault(p, List.of());
    }

    public Measurement first(Pair p) {
        List<Measurement> l = attempts(p);
        return l.isEmpty() ? null : l.get(0);
    }

    public Measurement last(Pair p) {
        List<Measurement> l = attempts(p);
        return l.isEmpty() ? null : l.get(l.size() - 1);
    }

    /** First-run value of a pair or NaN if untested. */
    public double value(String x, String y) {
        Measurement m = first(Pair.of(x, y));
        return m == null ? Double.NaN : m.value();
    }

    /** Retest number of a dump run id ("ib_write_bw__n1__n2.retest2" -> 2), 0 for a first run. */
    public static int attemptOf(String runId) {
        Matcher m = RETEST.matcher(runId);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /** One matrix per test name from the dump's perftest runs; runs without a usable result are left out. */
    public static Map<String, PairMatrix> fromRuns(List<PerftestRun> runs) {
        Map<String, List<Measurement>> byTest = new TreeMap<>();
        Map<String, Boolean> bw = new TreeMap<>();
        for (PerftestRun r : runs) {
            Perftest p = r.result();
            if (p == null || p.rows().isEmpty() || r.client().isEmpty() || r.server().isEmpty()) continue;
            Perftest.Row row = p.bandwidthTest() ? p.largest() : smallest(p);
            double v = p.bandwidthTest() ? p.toGbps(row.bwAverage()) : Double.isNaN(row.tTypical()) ? row.tAvg() : row.tTypical();
            if (Double.isNaN(v)) continue;
            String test = testName(r);
            bw.put(test, p.bandwidthTest());
            byTest.computeIfAbsent(test, k -> new ArrayList<>()).add(
                    new Measurement(r.client(), r.server(), attemptOf(r.id()), v, row.ref().toString(), r.id()));
        }
        Map<String, PairMatrix> out = new TreeMap<>();
        byTest.forEach((t, ms) -> out.put(t, new PairMatrix(t, bw.get(t), ms)));
        return out;
    }

    private static String testName(PerftestRun r) {
        String id = RETEST.matcher(r.id()).replaceFirst("");
        int i = id.indexOf("__");
        return r.test() != null && !r.test().isEmpty() && !r.test().equals(r.id()) ? r.test() : i > 0 ? id.substring(0, i) : id;
    }

    private static Perftest.Row smallest(Perftest p) {
        Perftest.Row best = null;
        for (Perftest.Row r : p.rows()) if (best == null || r.bytes() < best.bytes()) best = r;
        return best;
    }
}
