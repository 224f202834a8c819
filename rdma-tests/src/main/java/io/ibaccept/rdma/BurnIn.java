package io.ibaccept.rdma;

import io.ibaccept.collect.CounterWindow;
import io.ibaccept.collect.ExecResult;
import io.ibaccept.collect.Transport;
import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.dump.KeyValues;
import io.ibaccept.model.Topology;
import io.ibaccept.parse.IbnetdiscoverParser;
import io.ibaccept.parse.ParseException;
import io.ibaccept.parse.Text;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Burn-in ({@code ibaccept burn --nodes ... --duration 30m}): perftest traffic in rounds chosen so that every
 * switch-to-switch link carries load, between two fabric-wide counter samples. Hosts are grouped by the leaf they are
 * cabled to (ibnetdiscover); the leaves are paired round-robin (every leaf exchanges traffic with every other leaf, in
 * both directions), and within a leaf pair host j of one leaf runs against host j of the other (leaves of different
 * sizes get extra sub-rounds so every host of the larger one takes part). Routing spreads
 * destinations over the uplinks (ftree / up-down / min-hop by destination LID), so with every host a destination
 * from every other leaf, every leaf-spine link carries traffic both ways; which links really did is read from the
 * counter deltas afterwards (PortXmitData/PortRcvData), not assumed. No node is in two tests at once (one test per
 * node per round); a node that stops answering is recorded in burn/summary.out and left out of later rounds.
 */
public final class BurnIn {
    /**
     * perRoundSlack: time allowed beyond the perftest duration for start-up and teardown. duration null: as long as
     * berTarget needs (see {@link #autoSecondsPerRound}).
     */
    public record Options(Duration duration, String test, String device, int basePort, String fabricNode,
                          boolean clearCounters, Duration perRoundSlack, double berTarget) {
        public Options(Duration duration, String test, String device, int basePort, String fabricNode, boolean clearCounters, Duration perRoundSlack) {
            this(duration, test, device, basePort, fabricNode, clearCounters, perRoundSlack, 1e-12);
        }

        public Options(Duration duration, String device, String fabricNode, boolean clearCounters) {
            this(duration, "ib_write_bw", device, 18515, fabricNode, clearCounters, Duration.ofSeconds(60));
        }
    }

    /** Share of the line rate a bandwidth test is counted on reaching, so the auto duration is long enough. */
    static final double LOAD_SHARE = 0.8;

    /**
     * Seconds of traffic per round for every loaded link to carry the bits that prove berTarget with no error (95 %
     * confidence: 3.0/berTarget bits), at the slowest active link's data rate in the topology, loaded at
     * {@link #LOAD_SHARE} of it; at least 5 s. 0 when no link rate is known.
     */
    public static long autoSecondsPerRound(io.ibaccept.model.Topology topo, double berTarget) {
        double slowest = Double.MAX_VALUE;
        for (io.ibaccept.model.Topology.Node n : topo.nodes())
            for (io.ibaccept.model.Topology.Port p : n.ports())
                if (p.width() != null && p.speed() != null) slowest = Math.min(slowest, p.speed().dataGbps(p.width()));
        if (slowest == Double.MAX_VALUE) return 0;
        double bits = -Math.log(0.05) / berTarget;
        return Math.max(5, (long) Math.ceil(bits / (slowest * 1e9 * LOAD_SHARE)));
    }

    /** Rounds of pairs and the leaf pair each round loads. */
    public record Plan(List<List<PairScheduler.Pair>> rounds, List<String> roundLeaves, Map<String, String> leafOf,
                       List<String> unplaced) {}

    private final Transport transport;
    private final Options opt;
    private final PrintStream progress;

    public BurnIn(Transport transport, Options opt, PrintStream progress) {
        this.transport = transport;
        this.opt = opt;
        this.progress = progress;
    }

    /** The one place the burn-in reads the topology: host name -> description of the switch its first HCA port is cabled to. */
    public static Map<String, String> leafOf(Topology t, List<String> hosts) {
        Map<String, String> switchById = new LinkedHashMap<>();
        for (Topology.Node n : t.nodes()) if (n.type() == Topology.NodeType.SWITCH) switchById.put(n.id(), n.description());
        Map<String, String> out = new TreeMap<>();
        for (Topology.Node n : t.nodes()) {
            if (n.type() != Topology.NodeType.CA) continue;
            String host = hostOf(n.description(), hosts);
            if (host == null || out.containsKey(host)) continue;
            for (Topology.Port p : n.ports()) {
                String sw = switchById.get(p.remoteId());
                if (sw != null) {
                    out.put(host, sw);
                    break;
                }
            }
        }
        return out;
    }

    /** "node05 HCA-1" -> node05 when node05 is one of the hosts (the node description convention). */
    static String hostOf(String description, List<String> hosts) {
        for (String h : hosts) if (description.equals(h) || description.startsWith(h + " ")) return h;
        return null;
    }

    /** Rounds: every ordered leaf pair once (leaf A's hosts send to leaf B's), one test per node per round. */
    public static Plan plan(Map<String, String> leafOf, List<String> hosts) {
        Map<String, List<String>> byLeaf = new TreeMap<>();
        List<String> unplaced = new ArrayList<>();
        for (String h : hosts) {
            String leaf = leafOf.get(h);
            if (leaf == null) unplaced.add(h);
            else byLeaf.computeIfAbsent(leaf, k -> new ArrayList<>()).add(h);
        }
        List<List<PairScheduler.Pair>> rounds = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        List<String> leaves = new ArrayList<>(byLeaf.keySet());
        if (leaves.size() < 2) {
            // one leaf: no switch-to-switch link to load; still load every host port
            List<String> all = leaves.isEmpty() ? List.of() : byLeaf.get(leaves.get(0));
            for (List<PairScheduler.Pair> r : PairScheduler.rounds(all, PairScheduler.Pattern.RING)) {
                rounds.add(r);
                labels.add(leaves.isEmpty() ? "" : leaves.get(0));
            }
            return new Plan(rounds, labels, leafOf, unplaced);
        }
        // round-robin over leaves (circle method): each round pairs leaves disjointly, so each node is busy once
        for (List<PairScheduler.Pair> leafRound : PairScheduler.rounds(leaves, PairScheduler.Pattern.ALL_PAIRS)) {
            for (boolean reverse : List.of(false, true)) {
                // leaves of different sizes: extra sub-rounds until every host of the larger leaf had a partner
                int subRounds = 1;
                for (PairScheduler.Pair lp : leafRound) subRounds = Math.max(subRounds, spread(byLeaf.get(lp.client()).size(), byLeaf.get(lp.server()).size()));
                for (int k = 0; k < subRounds; k++) {
                    List<PairScheduler.Pair> round = new ArrayList<>();
                    List<String> lab = new ArrayList<>();
                    for (PairScheduler.Pair lp : leafRound) {
                        String from = reverse ? lp.server() : lp.client(), to = reverse ? lp.client() : lp.server();
                        List<String> a = byLeaf.get(from), b = byLeaf.get(to);
                        int n = Math.min(a.size(), b.size());
                        if (k >= spread(a.size(), b.size())) continue;
                        // n consecutive indices modulo the larger leaf: distinct, so nobody is in two tests
                        for (int j = 0; j < n; j++)
                            round.add(new PairScheduler.Pair(a.get(a.size() > n ? (k * n + j) % a.size() : j), b.get(b.size() > n ? (k * n + j) % b.size() : j)));
                        lab.add(from + "->" + to);
                    }
                    rounds.add(round);
                    labels.add(String.join(" ", lab));
                }
            }
        }
        return new Plan(rounds, labels, leafOf, unplaced);
    }

    /** Sub-rounds a leaf pair needs so every host of the larger leaf runs once: ceil(larger / smaller). */
    private static int spread(int x, int y) {
        int n = Math.min(x, y), m = Math.max(x, y);
        return n == 0 ? 0 : (m + n - 1) / n;
    }

    /** What happened: rounds run, nodes that dropped out (with when and why), the counter window. */
    public record Result(Plan plan, int testsRun, Map<String, String> dropped, CounterWindow.Result window) {}

    public Result run(List<String> nodes, DumpWriter w) {
        String fabricNode = opt.fabricNode() == null || opt.fabricNode().isEmpty() ? nodes.get(0) : opt.fabricNode();
        ExecResult disc = transport.run(fabricNode, "ibnetdiscover", Duration.ofMinutes(5));
        w.command("burn/ibnetdiscover.out", new CommandResult("ibnetdiscover", fabricNode, "ibnetdiscover", disc.status(), disc.exitCode(),
                disc.durationMs(), Instant.now().toString(), disc.stderr()), disc.stdout());
        Map<String, String> leafOf = Map.of();
        long auto = 0;
        if (CommandResult.OK.equals(disc.status())) {
            try {
                io.ibaccept.model.Topology topo = IbnetdiscoverParser.parse(new Text("burn/ibnetdiscover.out", disc.stdout()));
                leafOf = leafOf(topo, nodes);
                if (opt.duration() == null) auto = autoSecondsPerRound(topo, opt.berTarget());
            } catch (ParseException e) {
                progress.println("burn: topology unreadable (" + e.getMessage() + "): hosts paired without leaf information");
            }
        }
        Plan plan = plan(leafOf, nodes);
        if (!plan.unplaced().isEmpty()) progress.println("burn: not in the topology, not loaded: " + plan.unplaced());
        int rounds = Math.max(1, plan.rounds().size());
        if (opt.duration() == null && auto == 0)
            throw new IllegalArgumentException("burn --duration auto needs the link rates of the topology, and ibnetdiscover on " + fabricNode
                    + " gave none (" + disc.status() + "): give a duration");
        long perRound = opt.duration() == null ? auto : Math.max(5, opt.duration().toSeconds() / rounds);
        if (opt.duration() == null)
            progress.printf("burn: %d s per round x %d round(s) to prove BER < %.0e on the slowest link (95 %% confidence)%n", perRound, rounds, opt.berTarget());
        Map<String, String> dropped = new ConcurrentHashMap<>();
        int[] ran = {0};
        CounterWindow.Result cw = new CounterWindow(transport, new CounterWindow.Options(Duration.ZERO, opt.clearCounters()), progress)
                .run(fabricNode, nodes, w, () -> {
                    for (int r = 0; r < plan.rounds().size(); r++) {
                        List<PairScheduler.Pair> round = alive(plan.rounds().get(r), dropped, r + 1);
                        if (round.isEmpty()) continue;
                        PerftestRunner runner = new PerftestRunner(transport, new PerftestRunner.Options(List.of(opt.test()), opt.device(),
                                opt.basePort(), Duration.ofSeconds(perRound).plus(opt.perRoundSlack()), Duration.ofSeconds(2),
                                "-D " + perRound), progress);
                        progress.printf("burn round %d/%d (%s): %d test(s), %d s%n", r + 1, plan.rounds().size(), plan.roundLeaves().get(r), round.size(), perRound);
                        ran[0] += runner.run(List.of(round), w);
                    }
                });
        Map<String, String> kv = new LinkedHashMap<>();
        kv.put("duration_s", String.valueOf(opt.duration() == null ? perRound * rounds : opt.duration().toSeconds()));
        if (opt.duration() == null) kv.put("ber_target", String.valueOf(opt.berTarget()));
        kv.put("rounds", String.valueOf(plan.rounds().size()));
        kv.put("seconds_per_round", String.valueOf(perRound));
        kv.put("tests_run", String.valueOf(ran[0]));
        for (int r = 0; r < plan.rounds().size(); r++) kv.put("round." + (r + 1), plan.roundLeaves().get(r));
        for (Map.Entry<String, String> e : plan.leafOf().entrySet()) kv.put("leaf." + e.getKey(), e.getValue());
        if (!plan.unplaced().isEmpty()) kv.put("unplaced", String.join(",", plan.unplaced()));
        for (Map.Entry<String, String> e : new TreeMap<>(dropped).entrySet()) kv.put("dropped." + e.getKey(), e.getValue());
        w.write("burn/summary.out", KeyValues.format(kv));
        return new Result(plan, ran[0], Collections.unmodifiableMap(new TreeMap<>(dropped)), cw);
    }

    /** Pairs of the round whose nodes both still answer; a node that does not is recorded once and skipped from now on. */
    private List<PairScheduler.Pair> alive(List<PairScheduler.Pair> round, Map<String, String> dropped, int roundNo) {
        Set<String> nodes = new LinkedHashSet<>();
        for (PairScheduler.Pair p : round) {
            nodes.add(p.client());
            nodes.add(p.server());
        }
        nodes.removeAll(dropped.keySet());
        nodes.parallelStream().forEach(n -> {
            ExecResult r = transport.run(n, "true", Duration.ofSeconds(30));
            if (!CommandResult.OK.equals(r.status())) {
                String why = r.status() + (r.stderr().isBlank() ? "" : ": " + r.stderr().lines().findFirst().orElse("").trim());
                dropped.put(n, "before round " + roundNo + " at " + Instant.now() + " (" + why + ")");
                progress.printf("burn: %s dropped out before round %d (%s); the others continue%n", n, roundNo, why);
            }
        });
        return round.stream().filter(p -> !dropped.containsKey(p.client()) && !dropped.containsKey(p.server())).toList();
    }
}
