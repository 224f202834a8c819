package io.ibaccept.rdma;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.collect.ExecResult;
import io.ibaccept.collect.Transport;
import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.model.ClusterData;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PerftestRunnerTest {
    static final String BW = " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
            + " 65536      5000           %s             %s  \t\t   0.374412\n";

    /** A client only connects if its server was started before it; records the order of starts. */
    static final class FakePerftest extends Transport {
        final List<String> log = new CopyOnWriteArrayList<>();
        final Map<String, Boolean> serverUp = new ConcurrentHashMap<>();

        public String name() {
            return "fake";
        }

        protected List<String> argv(String host, String script) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ExecResult run(String host, String script, Duration timeout) {
            String[] w = script.split(" ");
            boolean client = !w[w.length - 1].startsWith("-") && !w[w.length - 1].matches("\\d+");
            if (!client) {
                serverUp.put(host, true);
                log.add("server " + host + " " + script);
                return new ExecResult(CommandResult.OK, 0, String.format(BW, "196.50", "196.40"), "", 5000);
            }
            String server = w[w.length - 1];
            log.add("client " + host + " -> " + server + " up=" + serverUp.containsKey(server) + " " + script);
            if (!serverUp.containsKey(server)) return new ExecResult(CommandResult.FAILED, 1, "", "Couldn't connect to " + server, 10);
            return new ExecResult(CommandResult.OK, 0, String.format(BW, "196.50", "196.40"), "", 5000);
        }
    }

    @Test
    void serverStartsFirstEachPairHasItsPortAndResultsLandInTheDump(@TempDir Path dir) {
        FakePerftest t = new FakePerftest();
        PerftestRunner runner = new PerftestRunner(t, new PerftestRunner.Options(List.of("ib_write_bw"), "mlx5_0", 18515,
                Duration.ofSeconds(30), Duration.ofMillis(100), null), new PrintStream(PrintStream.nullOutputStream()));
        var rounds = PairScheduler.rounds(List.of("n1", "n2", "n3", "n4"), PairScheduler.Pattern.BISECTION);
        assertThat(runner.run(rounds, new DumpWriter(dir))).isEqualTo(2);
        assertThat(t.log).filteredOn(l -> l.startsWith("client")).allSatisfy(l -> assertThat(l).contains("up=true"));
        assertThat(t.log).anySatisfy(l -> assertThat(l).isEqualTo("server n3 ib_write_bw -d mlx5_0 -p 18515 --report_gbits"));
        assertThat(t.log).anySatisfy(l -> assertThat(l).endsWith("ib_write_bw -d mlx5_0 -p 18516 --report_gbits n4"));
        ClusterData d = DumpLoader.load(dir);
        assertThat(d.perftests()).hasSize(2);
        var second = d.perftests().stream().filter(r -> r.client().equals("n2")).findFirst().orElseThrow();
        assertThat(second.server()).isEqualTo("n4");
        assertThat(second.result().largest().bwAverage()).isEqualTo(196.40);
        assertThat(second.serverResult()).isNotNull();
        assertThat(d.perftests().stream().filter(r -> r.client().equals("n1")).findFirst().orElseThrow().server()).isEqualTo("n3");
    }

    @Test
    void commandLines() {
        PerftestRunner r = new PerftestRunner(null, new PerftestRunner.Options(List.of(), null, 20000, Duration.ofSeconds(1), Duration.ZERO, "-a -F"), System.err);
        assertThat(r.command("ib_read_lat", "n9", 20001)).isEqualTo("ib_read_lat -p 20001 -a -F n9");
        assertThat(r.command("ib_write_bw", null, 20000)).isEqualTo("ib_write_bw -p 20000 --report_gbits -a -F");
    }
}
