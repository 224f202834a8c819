package io.ibaccept.rdma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.collect.ExecResult;
import io.ibaccept.collect.Transport;
import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.safety.Shell;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CollectiveRunnerTest {
    static final String OSU_OUT = "\n# OSU MPI Allreduce Latency Test v7.5\n# Datatype: MPI_CHAR.\n"
            + "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations\n"
            + "4                       2.10              1.90              2.40        1000\n";

    /** osu_allreduce is installed on the launch node, nothing else is. */
    static final class FakeCluster extends Transport {
        final List<String> ran = new CopyOnWriteArrayList<>();

        public String name() {
            return "fake";
        }

        protected List<String> argv(String host, String script) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ExecResult run(String host, String script, Duration timeout) {
            ran.add(host + ": " + script);
            if (script.startsWith("command -v mpirun")) {
                if (script.contains("osu_allreduce")) return new ExecResult(CommandResult.OK, 0, "", "", 5);
                return new ExecResult(CommandResult.MISSING_TOOL, 127, "", "no osu_alltoall on this node", 5);
            }
            return new ExecResult(CommandResult.OK, 0, OSU_OUT, "", 4200);
        }
    }

    static PrintStream quiet() {
        return new PrintStream(PrintStream.nullOutputStream());
    }

    @Test
    void runsWhatIsInstalledAndRecordsAMissingBenchmarkWithTheInstallHint(@TempDir Path dir) throws Exception {
        FakeCluster t = new FakeCluster();
        CollectiveRunner r = new CollectiveRunner(t, CollectiveRunner.Options.defaults(List.of("osu_allreduce", "osu_alltoall")), quiet());
        assertThat(r.run(List.of("node01", "node02", "node03"), new DumpWriter(dir))).isEqualTo(1);
        String meta = Files.readString(dir.resolve("collective/osu_allreduce.meta"));
        assertThat(meta).contains("host: node01").contains("ranks: 3").contains("ppn: 1").contains("nodes: node01,node02,node03")
                .contains("command: mpirun -np 3 --host node01:1,node02:1,node03:1 --map-by ppr:1:node osu_allreduce -m 4:4194304 -i 1000 -f")
                .contains("status: ok");
        assertThat(Files.readString(dir.resolve("collective/osu_allreduce.out"))).isEqualTo(OSU_OUT);
        assertThat(Files.readString(dir.resolve("collective/osu_alltoall.meta"))).contains("status: missing-tool");
        assertThat(Files.readString(dir.resolve("collective/osu_alltoall.err"))).contains("no osu_alltoall on this node")
                .contains("install hint: install the OSU micro-benchmarks on every node");
        assertThat(t.ran).noneMatch(s -> s.contains("osu_alltoall -m"));
    }

    @Test
    void srunAndNcclCommandLines() {
        CollectiveRunner.Options o = new CollectiveRunner.Options(List.of("all_reduce_perf"), CollectiveRunner.Launcher.SRUN, 8, 8,
                1L << 30, 20, null, "/opt/nccl-tests/build", "--mpi=pmix", Duration.ofMinutes(5));
        assertThat(new CollectiveRunner(new FakeCluster(), o, quiet()).command("all_reduce_perf", List.of("gpu01", "gpu02")))
                .isEqualTo("srun --mpi=pmix --nodes=2 --ntasks=16 --ntasks-per-node=8 --nodelist=gpu01,gpu02 /opt/nccl-tests/build/all_reduce_perf -b 8 -e 1073741824 -f 2 -g 1 -n 20");
    }

    @Test
    void hostileValuesNeverReachTheShell() {
        CollectiveRunner r = new CollectiveRunner(new FakeCluster(), CollectiveRunner.Options.defaults(List.of("osu_allreduce")), quiet());
        assertThatThrownBy(() -> r.command("osu_allreduce", List.of("node01", "x;reboot"))).isInstanceOf(Shell.UnsafeValue.class);
        assertThatThrownBy(() -> CollectiveRunner.Options.defaults(List.of("osu_allreduce; rm -rf /"))).isInstanceOf(Shell.UnsafeValue.class)
                .hasMessageContaining("unknown collective benchmark");
        assertThatThrownBy(() -> new CollectiveRunner.Options(List.of("osu_allreduce"), CollectiveRunner.Launcher.MPIRUN, 1, 4, 8, 10,
                "/opt/osu/$(id)", null, null, Duration.ofMinutes(1))).isInstanceOf(Shell.UnsafeValue.class);
        // operator launcher options are quoted word by word
        CollectiveRunner q = new CollectiveRunner(new FakeCluster(), new CollectiveRunner.Options(List.of("osu_allreduce"),
                CollectiveRunner.Launcher.MPIRUN, 2, 4, 8, 10, "/opt/hpcx/ompi/tests/osu-micro-benchmarks", null, "-x UCX_NET_DEVICES=mlx5_0:1 $(reboot)",
                Duration.ofMinutes(1)), quiet());
        assertThat(q.command("osu_allreduce", List.of("a1", "a2"))).isEqualTo("mpirun -x UCX_NET_DEVICES=mlx5_0:1 '$(reboot)' -np 4 --host a1:2,a2:2"
                + " --map-by ppr:2:node /opt/hpcx/ompi/tests/osu-micro-benchmarks/osu_allreduce -m 4:8 -i 10 -f");
    }
}
