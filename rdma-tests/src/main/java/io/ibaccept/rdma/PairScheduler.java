package io.ibaccept.rdma;

import java.util.ArrayList;
import java.util.List;

/**
 * Schedules pairwise tests in rounds so that no node is in two tests of the same round. all-pairs uses the circle
 * method (n-1 rounds for even n, n for odd, each pair exactly once); "ring" pairs i with i+1; "bisection" pairs the
 * first half with the second half (one round).
 */
public final class PairScheduler {
    private PairScheduler() {}

    public record Pair(String client, String server) {}

    public enum Pattern { ALL_PAIRS, RING, BISECTION }

    public static List<List<Pair>> rounds(List<String> nodes, Pattern pattern) {
        return switch (pattern) {
            case ALL_PAIRS -> allPairs(nodes);
            case RING -> ring(nodes);
            case BISECTION -> bisection(nodes);
        };
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
