package io.ibaccept.rules.perf;

import io.ibaccept.dump.CommandResult;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.PerftestRun;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The relative judgement of every pairwise test of a dump, shared by the perftest.outlier and perftest.localisation
 * checks and by the report's heat map: one pair matrix and one outlier result per test. Thresholds are read from the
 * perftest.outlier block of the rules.
 */
public final class PerfAnalysis {
    public static final String CHECK = "perftest.outlier";
    /** Fewer pairs than this give no meaningful "best of the fabric". */
    public static final int MIN_PAIRS = 3;

    private final Map<String, Outliers.Result> results = new LinkedHashMap<>();

    private PerfAnalysis() {}

    public static PerfAnalysis of(ClusterData d, RuleConfig cfg) {
        Outliers.Config oc = new Outliers.Config(cfg.number(CHECK, "min_percent_of_best"),
                cfg.number(CHECK, "max_times_best_latency"), cfg.number(CHECK, "best_percentile"));
        return of(d.perftests(), oc);
    }

    public static PerfAnalysis of(List<PerftestRun> runs, Outliers.Config oc) {
        PerfAnalysis a = new PerfAnalysis();
        PairMatrix.fromRuns(runs).forEach((t, m) -> a.results.put(t, Outliers.judge(m, oc)));
        return a;
    }

    /** Per test name, its judgement (tests with fewer than MIN_PAIRS pairs included; callers decide). */
    public Map<String, Outliers.Result> results() {
        return results;
    }

    /**
     * The pairs 'rdma --retest' should run again, per test, as (client, server) of their first run: every pair whose
     * latest attempt is still an outlier (so a second --retest only re-runs what failed again).
     */
    public Map<String, List<Map.Entry<String, String>>> retestPairs() {
        Map<String, List<Map.Entry<String, String>>> out = new TreeMap<>();
        results.forEach((test, r) -> {
            if (r.matrix().pairs().size() < MIN_PAIRS) return;
            List<Map.Entry<String, String>> l = new ArrayList<>();
            for (Outliers.Outlier o : r.bad()) l.add(Map.entry(o.first().client(), o.first().server()));
            if (!l.isEmpty()) out.put(test, l);
        });
        return out;
    }

    /** Every tested pair and every bad pair over all tests with enough pairs. */
    public Set<PairMatrix.Pair> tested() {
        Set<PairMatrix.Pair> s = new LinkedHashSet<>();
        results.values().stream().filter(r -> r.matrix().pairs().size() >= MIN_PAIRS).forEach(r -> s.addAll(r.matrix().pairs()));
        return s;
    }

    public Set<PairMatrix.Pair> bad() {
        Set<PairMatrix.Pair> s = new LinkedHashSet<>();
        results.values().stream().filter(r -> r.matrix().pairs().size() >= MIN_PAIRS).forEach(r -> s.addAll(r.badPairs()));
        return s;
    }

    /** Hardware findings (FAIL/WARN) of host-level checks already evaluated, per host, for the HCA suspicion. */
    public static Map<String, List<String>> hardwareFindings(List<Finding> findings) {
        Set<String> hw = Set.of("pcie", "port.state", "link.width", "link.speed", "link.errors", "mlxlink", "degraded.link");
        Map<String, List<String>> out = new TreeMap<>();
        for (Finding f : findings) {
            if (!hw.contains(f.check()) || !(f.status() == Status.FAIL || f.status() == Status.WARN)) continue;
            String where = f.evidence().isEmpty() ? "" : " at " + f.evidence().get(0).where();
            for (String h : f.hosts()) out.computeIfAbsent(h, k -> new ArrayList<>()).add(f.check() + ": " + f.summary() + where);
        }
        return out;
    }

    /**
     * The exact command lines of a pair's run as recorded in the dump's .meta files: the client's (name = test, host =
     * client, last word = server) and the server's (same test and port on the server host).
     */
    public static List<String> commandLines(ClusterData d, String test, String client, String server) {
        List<String> out = new ArrayList<>();
        Optional<CommandResult> c = d.commands().stream().filter(r -> runs(r, test) && r.host().equals(client)
                && lastWord(r.commandLine()).equals(server)).findFirst();
        c.ifPresent(r -> {
            out.add("on " + client + ": " + r.commandLine());
            String port = portOf(r.commandLine());
            d.commands().stream().filter(s -> runs(s, test) && s.host().equals(server) && !lastWord(s.commandLine()).equals(client)
                            && port != null && port.equals(portOf(s.commandLine())))
                    .findFirst().ifPresent(s -> out.add(0, "on " + server + " (server, first): " + s.commandLine()));
        });
        return out;
    }

    /** The loader records perftest sides under the name "perftest" (older dumps: the test name); the command starts with the test. */
    private static boolean runs(CommandResult r, String test) {
        return (r.name().equals(test) || r.name().equals("perftest")) && r.commandLine().trim().startsWith(test);
    }

    private static String lastWord(String s) {
        String[] w = s.trim().split("\\s+");
        return w[w.length - 1].replaceAll("^'|'$", "");
    }

    private static String portOf(String s) {
        String[] w = s.trim().split("\\s+");
        for (int i = 0; i + 1 < w.length; i++) if (w[i].equals("-p") || w[i].equals("--port")) return w[i + 1].replaceAll("^'|'$", "");
        return null;
    }

    /** The latest attempt of every (test, client, server): what absolute checks should judge once retests exist. */
    public static List<PerftestRun> latestAttempts(List<PerftestRun> runs) {
        Map<String, PerftestRun> latest = new LinkedHashMap<>();
        Map<String, Integer> attempt = new TreeMap<>();
        for (PerftestRun r : runs) {
            String key = r.id().replaceFirst("\\.retest\\d+$", "");
            int a = PairMatrix.attemptOf(r.id());
            if (a >= attempt.getOrDefault(key, -1)) {
                attempt.put(key, a);
                latest.put(key, r);
            }
        }
        return List.copyOf(latest.values());
    }
}
