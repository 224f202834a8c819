package io.ibaccept.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The collective check on a synthetic dump carrying real OSU/nccl-tests captures (parsers test resources). */
class CollectiveCheckTest {
    static final Path REAL = Path.of("..", "parsers", "src", "test", "resources", "real", "collectives");
    @TempDir
    Path tmp;

    static String meta(String name, String status, int ranks, int ppn, String nodes, String cmd) {
        return "name: " + name + "\nhost: cn0001\nlauncher: mpirun\nranks: " + ranks + "\nppn: " + ppn + "\nnodes: " + nodes
                + "\ncommand: " + cmd + "\nstatus: " + status + "\nexit: 0\nduration_ms: 4000\nstarted: 2026-12-02T15:00:00Z\n";
    }

    @Test
    void realOsuCaptureOnRoceOver144RanksIsSlowAndMissingBenchmarkIsASkipWithHint() throws IOException {
        TestDump d = TestDump.healthy(tmp, 4);
        d.write("collective/osu_allreduce.out", Files.readString(REAL.resolve("osu_allreduce-v7.5-oci-4n144p-roce.txt")));
        d.write("collective/osu_allreduce.meta", meta("osu_allreduce", "ok", 144, 36, "cn0001,cn0002,cn0003,cn0004",
                "mpirun -np 144 --host cn0001:36,cn0002:36,cn0003:36,cn0004:36 --map-by ppr:36:node osu_allreduce -m 4:268435456 -i 10 -f"));
        d.write("collective/osu_alltoall.meta", meta("osu_alltoall", "missing-tool", 4, 1, "cn0001,cn0002,cn0003,cn0004", "mpirun ... osu_alltoall"));
        d.write("collective/osu_alltoall.err", "no osu_alltoall on this node\ninstall hint: install the OSU micro-benchmarks on every node\n");
        d.write("collective/osu_alltoall.out", "");
        Report r = d.analyze();
        List<Finding> f = TestDump.of(r, "collective");
        assertThat(f).anySatisfy(x -> {
            assertThat(x.status()).isEqualTo(Status.FAIL);
            assertThat(x.summary()).startsWith("osu_allreduce over 144 ranks: ").contains("sizes slower than expected");
            assertThat(x.evidence()).anyMatch(e -> e.text().startsWith("1 MiB: 3576.91 us, expected about")
                    && e.where().equals("collective/osu_allreduce.out:24"));
            assertThat(x.evidence()).anyMatch(e -> e.text().startsWith("command on cn0001: mpirun -np 144"));
            assertThat(x.fix()).contains("mpirun -np 144");
        });
        assertThat(f).anySatisfy(x -> {
            assertThat(x.status()).isEqualTo(Status.SKIP);
            assertThat(x.summary()).startsWith("osu_alltoall: not available on cn0001").contains("install hint");
        });
    }

    @Test
    void healthyAllreduceOnHdrPassesAndCorruptNcclFails() throws IOException {
        TestDump d = TestDump.healthy(tmp, 8);
        d.write("collective/osu_allreduce.out", "# OSU MPI Allreduce Latency Test v7.5\n# Datatype: MPI_CHAR.\n# Size       Avg Latency(us)\n"
                + "4                       1.52\n1048576                44.10\n");
        d.write("collective/osu_allreduce.meta", meta("osu_allreduce", "ok", 8, 1, "cn0001,cn0002,cn0003,cn0004,cn0005,cn0006,cn0007,cn0008", "mpirun -np 8 osu_allreduce"));
        String nccl = Files.readString(REAL.resolve("all_reduce_perf-h100-2n16g-sweep.txt"))
                .replace("   1652.2   81.24  152.32      0", "   1652.2   81.24  152.32      3");
        d.write("collective/all_reduce_perf.out", nccl);
        d.write("collective/all_reduce_perf.meta", meta("all_reduce_perf", "ok", 16, 8, "cn0001,cn0002", "mpirun -np 16 all_reduce_perf -b 8 -e 8G -f 2 -g 1"));
        Report r = d.analyze();
        List<Finding> f = TestDump.of(r, "collective");
        assertThat(f).anySatisfy(x -> {
            assertThat(x.status()).isEqualTo(Status.PASS);
            assertThat(x.summary()).startsWith("osu_allreduce over 8 ranks: every size within 2x").contains("1 MiB: 44.10 us");
        });
        assertThat(f).anySatisfy(x -> {
            assertThat(x.status()).isEqualTo(Status.FAIL);
            assertThat(x.summary()).isEqualTo("all_reduce_perf: the benchmark's own data check failed at 1 size(s)");
        });
    }
}
