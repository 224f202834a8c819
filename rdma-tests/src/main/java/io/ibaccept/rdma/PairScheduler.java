package io.ibaccept.rdma;

import java.util.ArrayList;
import java.util.List;

/**
 * Schedules pairwise tests in rounds so that no node is in two tests of the same round. all-pairs uses the circle
 * method (n-1 rounds for even n, n for odd, each pair exactly once); "ring" pairs i with i+1; "bisection" pairs the
 * first half with the second half (one round); "one-to-all" pairs a reference node with every other node, one pair per
 * round (the reference can only be in one test at a time, so n-1 rounds).
 */
public final class PairScheduler {
    private PairScheduler() {}

    public record Pair(String client, String server) {}

    public enum Pattern { ALL_PAIRS, RING, BISECTION, ONE_TO_ALL }

    public static List<List<Pair>> rounds(List<String> nodes, Pattern pattern) {
        return rounds(nodes, pattern, null);
    }

    /** reference: the one-to-all reference node (must be one of nodes; null = the first node); ignored otherwise. */
    public static List<List<Pair>> rounds(List<String> nodes, Pattern pattern, String reference) {
        return switch (pattern) {
            case ALL_PAIRS -> allPairs(nodes);
            case RING -> ring(nodes);
            case BISECTION -> bisection(nodes);
            case ONE_TO_ALL -> oneToAll(nodes, reference);
        };
    }

    /** The reference is the client: it is the node under suspicion or the known-good node everyone is compared with. */
    static List<List<Pair>> oneToAll(List<String> nodes, String reference) {
        if (nodes.size() < 2) return List.of();
        String ref = reference == null ? nodes.get(0) : reference;
        if (!nodes.contains(ref)) throw new IllegalArgumentException("reference node " + ref + " is not one of the tested nodes");
        List<List<Pair>> rounds = new ArrayList<>();
        for (String n : nodes) if (!n.equals(ref)) rounds.add(List.of(new Pair(ref, n)));
        return rounds;
    }

    /**
     * Packs arbitrary pairs (e.g. the outliers to retest) into as few rounds as a greedy edge colouring gives, no node
     * twice in a round: pairs of the busiest nodes first, each into the first round where both ends are free.
     */
    public static List<List<Pair>> pack(List<Pair> pairs) {
        java.util.Map<String, Integer> degree = new java.util.HashMap<>();
        for (Pair p : pairs) {
            degree.merge(p.client(), 1, Integer::sum);
            degree.merge(p.server(), 1, Integer::sum);
        }
        List<Pair> order = new ArrayList<>(pairs);
        order.sort(java.util.Comparator.comparingInt((Pair p) -> -Math.max(degree.get(p.client()), degree.get(p.server())))
                .thenComparing(Pair::client).thenComparing(Pair::server));
        List<List<Pair>> rounds = new ArrayList<>();
        List<java.util.Set<String>> busy = new ArrayList<>();
        for (Pair p : order) {
            int r = 0;
            while (r < rounds.size() && (busy.get(r).contains(p.client()) || busy.get(r).contains(p.server()))) r++;
            if (r == rounds.size()) {
                rounds.add(new ArrayList<>());
                busy.add(new java.util.HashSet<>());
            }
            rounds.get(r).add(p);
            busy.get(r).add(p.client());
            busy.get(r).add(p.server());
        }
        return rounds;
    }

    static List<List<Pair>> allPairs(List<String> nodes) {
        List<String> ns = new ArrayList<>(nodes);
        if (ns.size() < 2) return List.of();
        if (ns.size() % 2 == 1) ns.add(null); // bye
        int n = ns.size();
        List<List<Pair>> rounds = new ArrayList<>();
        for (int r = 0; r < n - 1; r++) {
            List<Pair> round = new ArrayList<>();
            for (int i = 0; i < n / 2; i++) {
                String a = ns.get(i), b = ns.get(n - 1 - i);
                if (a != null && b != null) round.add(r % 2 == 0 ? new Pair(a, b) : new Pair(b, a));
            }
            rounds.add(round);
            // rotate all but the first
            String last = ns.remove(n - 1);
            ns.add(1, last);
        }
        return rounds;
    }

    /** i -> i+1 around the ring, split into two rounds (three for odd n) so nobody is busy twice. */
    static List<List<Pair>> ring(List<String> nodes) {
        int n = nodes.size();
        if (n < 2) return List.of();
        if (n == 2) return List.of(List.of(new Pair(nodes.get(0), nodes.get(1))));
        List<List<Pair>> rounds = new ArrayList<>(List.of(new ArrayList<>(), new ArrayList<>()));
        for (int i = 0; i < n; i++) {
            Pair p = new Pair(nodes.get(i), nodes.get((i + 1) % n));
            if (n % 2 == 1 && i == n - 1) rounds.add(new ArrayList<>(List.of(p)));
            else rounds.get(i % 2).add(p);
        }
        return rounds;
    }

    static List<List<Pair>> bisection(List<String> nodes) {
        int half = nodes.size() / 2;
        List<Pair> round = new ArrayList<>();
        for (int i = 0; i < half; i++) round.add(new Pair(nodes.get(i), nodes.get(i + half)));
        return round.isEmpty() ? List.of() : List.of(round);
    }
}
