package io.ibaccept.rdma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Property: over random node counts and every pattern, no node is in two tests of the same round. */
class SchedulerPropertyTest {
    static List<String> nodes(int n) {
        List<String> l = new ArrayList<>();
        for (int i = 0; i < n; i++) l.add("n" + i);
        return l;
    }

    static void assertNoNodeTwicePerRound(List<List<PairScheduler.Pair>> rounds, String what) {
        for (int r = 0; r < rounds.size(); r++) {
            Set<String> busy = new HashSet<>();
            for (PairScheduler.Pair p : rounds.get(r)) {
                assertThat(p.client()).as(what + " round " + r).isNotEqualTo(p.server());
                assertThat(busy.add(p.client())).as(what + " round " + r + ": " + p.client() + " twice").isTrue();
                assertThat(busy.add(p.server())).as(what + " round " + r + ": " + p.server() + " twice").isTrue();
            }
        }
    }

    static Set<Set<String>> unordered(List<List<PairScheduler.Pair>> rounds) {
        Set<Set<String>> s = new HashSet<>();
        for (List<PairScheduler.Pair> r : rounds) for (PairScheduler.Pair p : r) assertThat(s.add(Set.of(p.client(), p.server()))).isTrue();
        return s;
    }

    @Test
    void noNodeInTwoTestsAtOnceOverRandomNodeCountsAndAllPatterns() {
        Random rnd = new Random(20261202);
        List<Integer> counts = new ArrayList<>(List.of(0, 1, 2, 3, 4, 5, 16, 17, 512, 513));
        for (int i = 0; i < 60; i++) counts.add(rnd.nextInt(300));
        for (int n : counts) {
            List<String> ns = nodes(n);
            for (PairScheduler.Pattern p : PairScheduler.Pattern.values()) {
                String ref = n == 0 ? null : ns.get(rnd.nextInt(n));
                List<List<PairScheduler.Pair>> rounds = PairScheduler.rounds(ns, p, ref);
                assertNoNodeTwicePerRound(rounds, p + " n=" + n);
                Set<Set<String>> pairs = unordered(rounds);
                switch (p) {
                    case ALL_PAIRS -> {
                        assertThat(pairs).hasSize(n * (n - 1) / 2);
                        assertThat(rounds.size()).isLessThanOrEqualTo(n % 2 == 0 ? Math.max(0, n - 1) : n);
                    }
                    case RING -> assertThat(pairs).hasSize(n < 2 ? 0 : n == 2 ? 1 : n);
                    case BISECTION -> assertThat(pairs).hasSize(n / 2);
                    case ONE_TO_ALL -> {
                        assertThat(pairs).hasSize(Math.max(0, n - 1)).allMatch(s -> s.contains(ref));
                        rounds.forEach(r -> assertThat(r.get(0).client()).isEqualTo(ref));
                    }
                }
            }
        }
    }

    @Test
    void retestPackingOfRandomPairSetsNeverDoublesANodeAndKeepsEveryPair() {
        Random rnd = new Random(7);
        for (int iter = 0; iter < 200; iter++) {
            int n = 2 + rnd.nextInt(120);
            List<String> ns = nodes(n);
            Set<Set<String>> want = new HashSet<>();
            List<PairScheduler.Pair> pairs = new ArrayList<>();
            int k = rnd.nextInt(3 * n);
            for (int i = 0; i < k; i++) {
                String a = ns.get(rnd.nextInt(n)), b = ns.get(rnd.nextInt(n));
                if (a.equals(b) || !want.add(Set.of(a, b))) continue;
                pairs.add(new PairScheduler.Pair(a, b));
            }
            List<List<PairScheduler.Pair>> rounds = PairScheduler.pack(pairs);
            assertNoNodeTwicePerRound(rounds, "pack n=" + n);
            assertThat(unordered(rounds)).isEqualTo(want);
        }
        // one slow node against everyone: one pair per round, as it must be
        List<PairScheduler.Pair> star = new ArrayList<>();
        for (int i = 1; i < 10; i++) star.add(new PairScheduler.Pair("n0", "n" + i));
        assertThat(PairScheduler.pack(star)).hasSize(9);
    }

    @Test
    void oneToAllNeedsATestedReference() {
        assertThatThrownBy(() -> PairScheduler.rounds(nodes(4), PairScheduler.Pattern.ONE_TO_ALL, "elsewhere"))
                .hasMessageContaining("reference node elsewhere is not one of the tested nodes");
        assertThat(PairScheduler.rounds(nodes(3), PairScheduler.Pattern.ONE_TO_ALL).get(0).get(0).client()).isEqualTo("n0");
    }
}
