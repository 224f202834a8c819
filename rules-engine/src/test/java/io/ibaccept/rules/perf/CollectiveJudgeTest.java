package io.ibaccept.rules.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ibaccept.model.Collective;
import io.ibaccept.parse.SourceRef;
import java.util.List;
import org.junit.jupiter.api.Test;

class CollectiveJudgeTest {
    static final CollectiveJudge.Expectation E = CollectiveJudge.Expectation.defaults();

    @Test
    void defaultsReproduceTheFieldFigures() {
        // 1 MiB Allreduce over 64 ranks on HDR (200 Gb/s data rate): ~32 us
        assertThat(CollectiveJudge.expectedUsec("osu_allreduce", 1 << 20, 64, 1, 200, E)).isCloseTo(32.4, within(0.5));
        // small-message Allreduce on an 8-node HDR fat tree: ~1.5 us
        assertThat(CollectiveJudge.expectedUsec("osu_allreduce", 8, 8, 1, 200, E)).isCloseTo(1.5, within(0.01));
    }

    static Collective run(long bytes, double us) {
        return new Collective("osu_allreduce", "OSU MPI Allreduce Latency Test", "v7.5", -1,
                List.of(new Collective.Row(bytes, us, Double.NaN, Double.NaN, Double.NaN, Double.NaN, true, new SourceRef("collective/osu_allreduce.out", 5))),
                List.of(), new SourceRef("collective/osu_allreduce.out", 2));
    }

    @Test
    void hdrPassesRoceFiguresWarnOrFailAndGigabitEthernetFails() {
        assertThat(CollectiveJudge.judge("osu_allreduce", run(1 << 20, 33), 64, 1, 200, E).get(0).level()).isEqualTo(CollectiveJudge.Level.OK);
        // the field figures for the same collective elsewhere: 180 us on RoCE, 3.2 ms on 1 GbE, judged as if on HDR
        assertThat(CollectiveJudge.judge("osu_allreduce", run(1 << 20, 180), 64, 1, 200, E).get(0).level()).isEqualTo(CollectiveJudge.Level.FAIL);
        assertThat(CollectiveJudge.judge("osu_allreduce", run(1 << 20, 3200), 64, 1, 200, E).get(0).level()).isEqualTo(CollectiveJudge.Level.FAIL);
        assertThat(CollectiveJudge.judge("osu_allreduce", run(1 << 20, 80), 64, 1, 200, E).get(0).level()).isEqualTo(CollectiveJudge.Level.WARN);
        // the expectation follows the line rate: 1 GbE gets its own (much longer) expectation
        assertThat(CollectiveJudge.judge("osu_allreduce", run(1 << 20, 3200), 64, 1, 1, E).get(0).level()).isEqualTo(CollectiveJudge.Level.OK);
    }

    @Test
    void alltoallScalesWithPeersAndRanksPerNode() {
        double one = CollectiveJudge.expectedUsec("osu_alltoall", 4096, 16, 1, 200, E);
        double eight = CollectiveJudge.expectedUsec("osu_alltoall", 4096, 16, 8, 200, E);
        assertThat(eight).isGreaterThan(one);
        assertThat(CollectiveJudge.expectedUsec("osu_alltoall", 1, 64, 1, 200, E)).isCloseTo(31.5, within(0.1));
    }
}
