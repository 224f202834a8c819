package io.ibaccept.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.Cmd;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.InputProblem;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MPI/UCX/GPU runtime snippets run for real under bash with fake srun/ucx_info on PATH: the step memlock
 * goes through srun on the node itself (or is read directly inside a step), and a tool that is not installed is a
 * missing-tool record, never a failure.
 */
class RuntimeCollectTest {
    /** Local bash with a PATH of fake tools first; extra environment per test. */
    static final class FakePath extends Transport {
        final Path bin;
        final Map<String, String> extra;

        FakePath(Path bin, Map<String, String> extra) {
            this.bin = bin;
            this.extra = extra;
        }

        public String name() {
            return "local";
        }

        protected List<String> argv(String host, String script) {
            return List.of("bash", "-c", script);
        }

        @Override
        protected Map<String, String> env(String host) {
            Map<String, String> e = new HashMap<>(extra);
            e.putIfAbsent("PATH", bin + ":/usr/bin:/bin");
            return e;
        }
    }

    private static Path tool(Path bin, String name, String body) throws IOException {
        Files.createDirectories(bin);
        Path p = bin.resolve(name);
        Files.writeString(p, "#!/bin/bash\n" + body);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }

    private static ClusterData collect(Transport t, Path out) {
        new Collector(t, new Collector.Options("c", "n1", 1, false, false, null, null, Duration.ofSeconds(60)),
                new PrintStream(PrintStream.nullOutputStream()))
                .only(Set.of(Cmd.ULIMIT_STEP, Cmd.UCX_VERSION, Cmd.UCX_DEVICES, Cmd.OMPI_INFO, Cmd.NVIDIA_TOPO, Cmd.LSMOD, Cmd.HCA_NUMA))
                .collect(List.of("n1"), out);
        return DumpLoader.load(out);
    }

    @Test
    void stepMemlockRunsOneTaskStepOnThisNode(@TempDir Path tmp) throws Exception {
        FakeRemote fake = new FakeRemote(Files.createDirectories(tmp.resolve("fake")));
        Path bin = tmp.resolve("bin");
        Files.createDirectories(bin);
        // srun as a step would see it: slurmd started with LimitMEMLOCK=64M
        tool(bin, "srun", "exec '" + fake.srun + "' \"$@\"\n");
        tool(bin, "sh", "ulimit -l 65536 2>/dev/null; exec /bin/sh \"$@\"\n");
        tool(bin, "ucx_info", "echo '# Library version: 1.16.0'\n");
        ClusterData d = collect(new FakePath(bin, Map.of()), tmp.resolve("dump"));
        List<List<String>> calls = fake.calls();
        assertThat(calls).singleElement().satisfies(a -> {
            String host = new String(new ProcessBuilder("hostname", "-s").start().getInputStream().readAllBytes()).trim();
            assertThat(a.subList(1, a.size())).containsSubsequence("-N1", "-n1", "-w", host, "sh", "-c", "ulimit -l");
            assertThat(a).contains("--quiet", "--immediate=30");
        });
        Long step = d.hosts().get("n1").runtime().stepMemlockKib();
        assertThat(step).isNotNull();
        assertThat(d.hosts().get("n1").runtime().ucxVersion()).isEqualTo("1.16.0");
        assertThat(Files.readString(tmp.resolve("dump/nodes/n1/ulimit-l-step.meta"))).contains("srun --quiet --immediate=30");
    }

    @Test
    void insideAStepTheLimitIsReadDirectly(@TempDir Path tmp) throws Exception {
        FakeRemote fake = new FakeRemote(Files.createDirectories(tmp.resolve("fake")));
        Path bin = tmp.resolve("bin");
        tool(bin, "srun", "exec '" + fake.srun + "' \"$@\"\n");
        ClusterData d = collect(new FakePath(bin, Map.of("SLURM_STEP_ID", "0", "SLURM_JOB_ID", "42")), tmp.resolve("dump"));
        assertThat(fake.calls()).isEmpty();
        assertThat(d.hosts().get("n1").runtime().stepMemlockKib()).isNotNull();
    }

    @Test
    void aStepThatCannotStartIsNotAvailableRatherThanAFailure(@TempDir Path tmp) throws Exception {
        Path bin = tmp.resolve("bin");
        tool(bin, "srun", "echo 'srun: error: Unable to allocate resources: Requested nodes are busy' >&2; exit 1\n");
        ClusterData d = collect(new FakePath(bin, Map.of()), tmp.resolve("dump"));
        assertThat(d.problemsFor("n1", "ulimit-l-step")).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(InputProblem.Kind.TOOL_MISSING);
            assertThat(p.message()).contains("Requested nodes are busy");
        });
    }

    @Test
    void missingToolsAreRecordedAsMissingNotAsFailures(@TempDir Path tmp) throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("empty-bin"));
        // nothing but the empty directory on PATH: the same on a build machine that has some of these tools
        ClusterData d = collect(new FakePath(bin, Map.of("PATH", bin.toString())), tmp.resolve("dump"));
        for (String cmd : List.of("ulimit-l-step", "ucx_info-v", "ucx_info-d", "ompi_info", "nvidia-smi-topo"))
            assertThat(d.problemsFor("n1", cmd)).as(cmd).singleElement()
                    .satisfies(p -> assertThat(p.kind()).isEqualTo(InputProblem.Kind.TOOL_MISSING));
        assertThat(d.hosts().get("n1").runtime()).isNull();
    }

    @Test
    void hcaNumaReadsSysfsOrSaysThereIsNoRdmaDevice(@TempDir Path tmp) throws Exception {
        ClusterData d = collect(new FakePath(Files.createDirectories(tmp.resolve("bin")), Map.of()), tmp.resolve("dump"));
        Path sys = Path.of("/sys/class/infiniband");
        boolean devices = Files.isDirectory(sys) && Files.list(sys).findAny().isPresent();
        if (devices) assertThat(d.hosts().get("n1").runtime().hcaNuma()).isNotEmpty();
        else assertThat(d.problemsFor("n1", "hca-numa")).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(InputProblem.Kind.TOOL_MISSING);
            assertThat(p.message()).contains("no RDMA device under /sys/class/infiniband");
        });
    }

    @Test
    void notCollectedOnTheSimulatorWhereEveryHostIsThisMachine(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("dump");
        new Collector(new Transports.Sim("H-{host}", "/nonexistent/libumad2sim.so", "none"),
                new Collector.Options("c", "n1", 1, false, false, null, null, Duration.ofSeconds(30)),
                new PrintStream(PrintStream.nullOutputStream())).only(Set.of(Cmd.UCX_DEVICES, Cmd.LSMOD)).collect(List.of("n1"), out);
        assertThat(out.resolve("nodes/n1/ucx_info-d.meta")).doesNotExist();
        assertThat(out.resolve("nodes/n1/lsmod.meta")).doesNotExist();
    }
}
