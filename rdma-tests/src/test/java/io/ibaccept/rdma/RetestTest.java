package io.ibaccept.rdma;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.DumpLoader;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.PerftestRun;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetestTest {
    static PerftestRunner runner(PerftestRunnerTest.FakePerftest t, String test) {
        return new PerftestRunner(t, new PerftestRunner.Options(List.of(test), "mlx5_0", 18515, Duration.ofSeconds(30),
                Duration.ofMillis(20), null), new PrintStream(PrintStream.nullOutputStream()));
    }

    @Test
    void retestRunsOnlyTheGivenPairsAndRecordsBothRunsUnderNumberedNames(@TempDir Path dir) throws Exception {
        PerftestRunnerTest.FakePerftest t = new PerftestRunnerTest.FakePerftest();
        DumpWriter w = new DumpWriter(dir);
        runner(t, "ib_write_bw").run(PairScheduler.rounds(List.of("n1", "n2", "n3", "n4"), PairScheduler.Pattern.ALL_PAIRS), w);
        t.log.clear();

        Retest retest = new Retest(test -> runner(t, test));
        Map<String, List<PairScheduler.Pair>> bad = Map.of("ib_write_bw",
                List.of(new PairScheduler.Pair("n1", "n2"), new PairScheduler.Pair("n1", "n3"), new PairScheduler.Pair("n4", "n1")));
        assertThat(retest.run(bad, w)).isEqualTo(3);
        assertThat(t.log).filteredOn(l -> l.startsWith("client")).hasSize(3);
        assertThat(retest.run(Map.of("ib_write_bw", List.of(new PairScheduler.Pair("n1", "n2"))), w)).isEqualTo(1);

        Path pt = dir.resolve("perftest");
        assertThat(Retest.retestIds(pt)).containsExactly("ib_write_bw__n1__n2.retest1", "ib_write_bw__n1__n2.retest2",
                "ib_write_bw__n1__n3.retest1", "ib_write_bw__n4__n1.retest1");
        assertThat(pt.resolve("ib_write_bw__n1__n2.client.out")).exists();
        for (String f : List.of("client.out", "client.meta", "server.out", "server.meta"))
            assertThat(pt.resolve("ib_write_bw__n1__n2.retest2." + f)).exists();
        assertThat(Files.readString(pt.resolve("ib_write_bw__n4__n1.retest1.client.meta")))
                .contains("host: n4").contains("peer: n1").contains("command: ib_write_bw -d mlx5_0 -p ");

        // the loader sees each retest as a run of the same test and pair
        ClusterData d = DumpLoader.load(dir);
        assertThat(d.perftests()).extracting(PerftestRun::id).contains("ib_write_bw__n1__n2", "ib_write_bw__n1__n2.retest2");
        assertThat(d.perftests()).filteredOn(r -> r.id().startsWith("ib_write_bw__n1__n2"))
                .allMatch(r -> r.test().equals("ib_write_bw") && r.client().equals("n1") && r.server().equals("n2") && r.result() != null);
    }
}
