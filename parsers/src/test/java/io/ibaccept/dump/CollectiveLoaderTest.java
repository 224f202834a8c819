package io.ibaccept.dump;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.model.CollectiveRun;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CollectiveLoaderTest {
    static final Path REAL = Path.of("src", "test", "resources", "real", "collectives");
    static final String META = "name: osu_allreduce\nhost: node01\nlauncher: mpirun\nranks: 144\nppn: 36\nnodes: node01,node02,node03,node04\n"
            + "command: mpirun -np 144 osu_allreduce -m 4:268435456\nstatus: ok\nexit: 0\n";

    @Test
    void directoryAndZipDumpsMissingToolAndBrokenFiles(@TempDir Path tmp) throws Exception {
        Path dump = tmp.resolve("dump");
        Files.createDirectories(dump.resolve("collective"));
        Files.writeString(dump.resolve("manifest.txt"), "format: 1\n");
        Files.copy(REAL.resolve("osu_allreduce-v7.5-oci-4n144p-roce.txt"), dump.resolve("collective/osu_allreduce.out"));
        Files.writeString(dump.resolve("collective/osu_allreduce.meta"), META);
        Files.writeString(dump.resolve("collective/osu_alltoall.meta"), META.replace("osu_allreduce", "osu_alltoall").replace("status: ok", "status: missing-tool"));
        Files.writeString(dump.resolve("collective/osu_alltoall.err"), "no osu_alltoall on this node\ninstall hint: ...\n");
        Files.writeString(dump.resolve("collective/all_reduce_perf.meta"), META.replace("osu_allreduce", "all_reduce_perf"));
        Files.writeString(dump.resolve("collective/all_reduce_perf.out"), "# nThread 1 nGpus 1 minBytes 8\nsegfault\n");
        Files.writeString(dump.resolve("collective/..evil.meta"), META); // not a benchmark name: ignored

        List<CollectiveRun> runs = CollectiveLoader.load(dump);
        assertThat(runs).extracting(CollectiveRun::name).containsExactly("all_reduce_perf", "osu_allreduce", "osu_alltoall");
        CollectiveRun ar = runs.get(1);
        assertThat(ar.ranks()).isEqualTo(144);
        assertThat(ar.ppn()).isEqualTo(36);
        assertThat(ar.nodes()).hasSize(4);
        assertThat(ar.result().rows()).hasSize(27);
        assertThat(ar.command()).startsWith("mpirun -np 144");
        assertThat(runs.get(2).status()).isEqualTo("missing-tool");
        assertThat(runs.get(2).problem()).startsWith("missing-tool: no osu_alltoall on this node");
        assertThat(runs.get(0).result()).isNull();
        assertThat(runs.get(0).problemWhere()).isEqualTo("collective/all_reduce_perf.out:1");

        Path zip = tmp.resolve("dump.zip");
        try (OutputStream o = Files.newOutputStream(zip); ZipOutputStream z = new ZipOutputStream(o)) {
            for (String f : List.of("manifest.txt", "collective/osu_allreduce.out", "collective/osu_allreduce.meta")) {
                z.putNextEntry(new ZipEntry("dump/" + f));
                z.write(Files.readAllBytes(dump.resolve(f)));
                z.closeEntry();
            }
        }
        assertThat(CollectiveLoader.load(zip)).singleElement().satisfies(r -> assertThat(r.result().rows()).hasSize(27));
        assertThat(CollectiveLoader.load(tmp.resolve("nothing-here"))).isEmpty();
    }
}
