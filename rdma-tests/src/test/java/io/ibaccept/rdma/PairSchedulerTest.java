package io.ibaccept.rdma;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PairSchedulerTest {
    static List<String> nodes(int n) {
        List<String> l = new ArrayList<>();
        for (int i = 1; i <= n; i++) l.add("n" + i);
        return l;
    }

    static void noNodeTwiceInARound(List<List<PairScheduler.Pair>> rounds) {
        for (List<PairScheduler.Pair> round : rounds) {
            Set<String> busy = new HashSet<>();
            for (PairScheduler.Pair p : round) {
                assertThat(p.client()).isNotEqualTo(p.server());
                assertThat(busy.add(p.client())).as("%s busy twice in %s", p.client(), round).isTrue();
                assertThat(busy.add(p.server())).as("%s busy twice in %s", p.server(), round).isTrue();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 7, 16, 33})
    void allPairsCoversEveryPairOnceInMinimalRounds(int n) {
        var rounds = PairScheduler.rounds(nodes(n), PairScheduler.Pattern.ALL_PAIRS);
        noNodeTwiceInARound(rounds);
        Set<Set<String>> seen = new HashSet<>();
        int total = 0;
        for (var round : rounds)
            for (var p : round) {
                total++;
                assertThat(seen.add(Set.of(p.client(), p.server()))).isTrue();
            }
        assertThat(total).isEqualTo(n * (n - 1) / 2);
        assertThat(rounds).hasSize(n % 2 == 0 ? n - 1 : n);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5, 8})
    void ringAndBisection(int n) {
        var ring = PairScheduler.rounds(nodes(n), PairScheduler.Pattern.RING);
        noNodeTwiceInARound(ring);
        assertThat(ring.stream().mapToInt(List::size).sum()).isEqualTo(n == 2 ? 1 : n);
        var bis = PairScheduler.rounds(nodes(n), PairScheduler.Pattern.BISECTION);
        noNodeTwiceInARound(bis);
        assertThat(bis).singleElement().satisfies(r -> assertThat(r).hasSize(n / 2));
    }
}
