package io.ibaccept.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.model.RdmaRuntime;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ucx_info, ompi_info, nvidia-smi topo -m, sysfs numa_node and lsmod, on verbatim captures (real/SOURCES.md). */
class RuntimeParsersTest {
    static Text real(String path) {
        try (InputStream in = RuntimeParsersTest.class.getResourceAsStream("/real/" + path)) {
            assertThat(in).as(path).isNotNull();
            return new Text(path, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static <T> Parsed<T> run(Text t, Parser<T> p) {
        return Parsing.run(t, p);
    }

    @Test
    void ucxVersionFromHpcx() {
        Parsed<String> r = run(real("ucx_info-v/ucx-issue-9914-hpcx-2.17.1-ucx-1.16.0.txt"), RuntimeParsers::ucxVersion);
        assertThat(r.value()).isEqualTo("1.16.0");
        assertThat(r.issues()).isEmpty();
    }

    @Test
    void ucxVersionOldLayout() {
        // UCX before 1.9 printed the UCT line (src/tools/info/version_info.c of those releases)
        Text t = new Text("v", "# UCT version=1.5.0 revision 02078b9\n# configured with: --prefix=/usr\n");
        assertThat(RuntimeParsers.ucxVersion(t, Issues.strict())).isEqualTo("1.5.0");
        assertThatThrownBy(() -> RuntimeParsers.ucxVersion(new Text("v", "garbage\n"), Issues.strict()))
                .isInstanceOf(ParseException.class).hasMessageContaining("Library version");
    }

    @Test
    void ucxDevicesFromAzureCapture() {
        Parsed<List<RdmaRuntime.UcxTransport>> r = run(real("ucx_info-d/flux-azure-hbv-cx6-vf-ucx.txt"), RuntimeParsers::ucxDevices);
        assertThat(r.issues()).isEmpty();
        assertThat(r.value()).filteredOn(x -> x.device().equals("mlx5_0:1")).extracting(RdmaRuntime.UcxTransport::transport)
                .containsExactly("dc_mlx5", "rc_verbs", "rc_mlx5", "ud_verbs", "ud_mlx5");
        assertThat(r.value()).filteredOn(x -> x.transport().equals("tcp")).extracting(RdmaRuntime.UcxTransport::device)
                .containsExactly("eth0", "lo");
        // the gga memory domain lists no device: nothing is attributed to the transport before it
        assertThat(r.value()).extracting(RdmaRuntime.UcxTransport::transport).containsOnlyOnce("cma");
        RdmaRuntime.UcxTransport rc = r.value().stream().filter(x -> x.transport().equals("rc_mlx5")).findFirst().orElseThrow();
        assertThat(rc.ref().file()).endsWith("flux-azure-hbv-cx6-vf-ucx.txt");
        assertThat(rc.ref().line()).isEqualTo(279);
    }

    @Test
    void ucxDevicesOldLayoutWithSeveralDevicesPerTransport() {
        // excerpt of the UCX 1.5-era layout in openucx/ucx issue #6264: one Transport line, then Device blocks
        Text t = new Text("d", String.join("\n",
                "# Memory domain: tcp", "#            component: tcp", "#", "#   Transport: tcp", "#", "#   Device: eth2", "#",
                "#      capabilities:", "#            bandwidth: 1131.64 MB/sec", "#", "#   Device: ib0", "#",
                "# Memory domain: ib/mlx5_0", "#            component: ib", "#", "#   Transport: rc", "#",
                "#   Device: mlx5_0:1", "#", "#   Transport: ud", "#", "#   Device: mlx5_0:1", ""));
        List<RdmaRuntime.UcxTransport> r = RuntimeParsers.ucxDevices(t, Issues.strict());
        assertThat(r).extracting(x -> x.transport() + "@" + x.device())
                .containsExactly("tcp@eth2", "tcp@ib0", "rc@mlx5_0:1", "ud@mlx5_0:1");
    }

    @Test
    void ucxDevicesBadRecordKeepsTheRest() {
        Text t = new Text("d", "# Memory domain: mlx5_0\n#      Transport: rc_mlx5\n#         Device: mlx5 0;rm\n"
                + "#      Transport: ud_mlx5\n#         Device: mlx5_0:1\n");
        Parsed<List<RdmaRuntime.UcxTransport>> r = run(t, RuntimeParsers::ucxDevices);
        assertThat(r.value()).extracting(RdmaRuntime.UcxTransport::transport).containsExactly("ud_mlx5");
        assertThat(r.issues()).singleElement().satisfies(e -> assertThat(e.where().line()).isEqualTo(3));
        assertThatThrownBy(() -> RuntimeParsers.ucxDevices(new Text("d", "command not found\n"), Issues.strict()))
                .isInstanceOf(ParseException.class);
    }

    @Test
    void ompiInfoPlain() {
        Parsed<RdmaRuntime.Ompi> r = run(real("ompi_info/gcp-t4-openmpi-4.1.6-ucx.txt"), RuntimeParsers::ompiInfo);
        assertThat(r.issues()).isEmpty();
        assertThat(r.value().version()).isEqualTo("4.1.6");
        assertThat(r.value().ref().line()).isEqualTo(2);
        // "MCA pml: monitoring (MCA v2.1.0, API v2.0.0, Component" wraps: its name is still read
        assertThat(r.value().pmls()).containsExactly("v", "ob1", "monitoring", "cm", "ucx");
    }

    @Test
    void ompiInfoParsable() {
        Text t = new Text("o", "package:Open MPI builder Distribution\nompi:version:full:5.0.3\nompi:version:repo:v5.0.3\n"
                + "mca:pml:cm:version:mca:2.1.0\nmca:pml:ob1:version:mca:2.1.0\nmca:pml:ob1:version:api:2.0.0\n");
        RdmaRuntime.Ompi o = RuntimeParsers.ompiInfo(t, Issues.strict());
        assertThat(o.version()).isEqualTo("5.0.3");
        assertThat(o.pmls()).containsExactly("cm", "ob1");
    }

    @Test
    void nvidiaTopoEightGpusEightNics() {
        Parsed<RdmaRuntime.GpuTopology> r = run(real("nvidia-smi-topo/sglang-check-env-8xh100-sxm-8nic.txt"), RuntimeParsers::nvidiaTopo);
        assertThat(r.issues()).isEmpty();
        List<RdmaRuntime.Gpu> g = r.value().gpus();
        assertThat(g).hasSize(8);
        assertThat(g.get(0).nics()).containsEntry("mlx5_0", "PIX").containsEntry("mlx5_4", "SYS").hasSize(8);
        assertThat(g.get(0).cpuAffinity()).isEqualTo("0-47,96-143");
        assertThat(g.get(0).numaNode()).isZero();
        assertThat(g.get(7).numaNode()).isEqualTo(1);
        assertThat(g.get(7).nics()).containsEntry("mlx5_7", "PIX");
        assertThat(g.get(7).ref().line()).isEqualTo(9);
    }

    @Test
    void nvidiaTopoOneGpuAndOldHeaderWithDeviceNames() {
        RdmaRuntime.GpuTopology one = RuntimeParsers.nvidiaTopo(real("nvidia-smi-topo/sglang-check-env-h100-pcie-kvm-1gpu-1nic.txt"), Issues.strict());
        assertThat(one.gpus()).singleElement().satisfies(x -> {
            assertThat(x.nics()).isEqualTo(Map.of("mlx5_0", "PHB"));
            assertThat(x.numaNode()).isZero();
        });
        // drivers before the NIC Legend named the RDMA devices in the header, tab separated, ANSI-underlined header
        Text old = new Text("t", "\u001b[4m\tGPU0\tGPU1\tmlx5_0\tCPU Affinity\tNUMA Affinity\u001b[0m\n"
                + "GPU0\t X \tNV2\tSYS\t0-19\t0\nGPU1\tNV2\t X \tSYS\t0-19\t0\nmlx5_0\tSYS\tSYS\t X \t\n");
        RdmaRuntime.GpuTopology o = RuntimeParsers.nvidiaTopo(old, Issues.strict());
        assertThat(o.gpus()).hasSize(2).allSatisfy(x -> assertThat(x.nics()).isEqualTo(Map.of("mlx5_0", "SYS")));
    }

    /**
     * A real 8-GPU matrix with one cell missing in GPU3's row (a copy that lost it): that row alone is one issue at its
     * line; it is never read shifted (its NIC7 taking the CPU affinity, its NUMA node the GPU NUMA ID).
     */
    @Test
    void nvidiaTopoRowWithAMissingCellIsOneIssueTheRestKept() {
        Text real = real("nvidia-smi-topo/sglang-check-env-8xh100-sxm-8nic.txt");
        List<String> lines = new java.util.ArrayList<>(real.lines());
        assertThat(lines.get(4)).startsWith("GPU3 ");
        lines.set(4, lines.get(4).replaceFirst("PIX     ", ""));
        Parsed<RdmaRuntime.GpuTopology> r = run(new Text(real.name(), String.join("\n", lines)), RuntimeParsers::nvidiaTopo);
        assertThat(r.issues()).singleElement().satisfies(e -> {
            assertThat(e.where().line()).isEqualTo(5);
            assertThat(e.reason()).contains("a cell is missing or extra");
        });
        assertThat(r.value().gpus()).extracting(RdmaRuntime.Gpu::name).containsExactly("GPU0", "GPU1", "GPU2", "GPU4", "GPU5", "GPU6", "GPU7");
        assertThat(r.value().gpus()).allSatisfy(g -> assertThat(g.nics()).hasSize(8).doesNotContainValue("0-47,96-143"));
    }

    @Test
    void nvidiaTopoShortRowIsOneIssue() {
        Text t = new Text("t", "\tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\nGPU0\t X \tNV4\tPXB\t0-31\t0\nGPU1\tNV4\n\nNIC Legend:\n\n  NIC0: mlx5_0\n");
        Parsed<RdmaRuntime.GpuTopology> r = run(t, RuntimeParsers::nvidiaTopo);
        assertThat(r.value().gpus()).hasSize(1);
        assertThat(r.issues()).singleElement().satisfies(e -> assertThat(e.where().line()).isEqualTo(3));
    }

    @Test
    void hcaNumaFromGrep() {
        Text t = new Text("n", "/sys/class/infiniband/mlx5_0/device/numa_node:0\n/sys/class/infiniband/mlx5_1/device/numa_node:-1\n"
                + "/sys/class/infiniband/../x/device/numa_node:1\n/sys/class/infiniband/mlx5_2/device/numa_node:one\n");
        Parsed<Map<String, Integer>> r = run(t, RuntimeParsers::hcaNuma);
        assertThat(r.value()).isEqualTo(Map.of("mlx5_0", 0, "mlx5_1", -1));
        assertThat(r.issues()).extracting(e -> e.where().line()).containsExactly(3, 4);
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> runtimeParsers() {
        return java.util.stream.Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("ucx_info -v", (Parser<?>) RuntimeParsers::ucxVersion, "# Library version: "),
                org.junit.jupiter.params.provider.Arguments.of("ucx_info -d", (Parser<?>) RuntimeParsers::ucxDevices, "#      Transport: rc\n#   Device: "),
                org.junit.jupiter.params.provider.Arguments.of("ompi_info", (Parser<?>) RuntimeParsers::ompiInfo, "  MCA pml: "),
                org.junit.jupiter.params.provider.Arguments.of("hca-numa", (Parser<?>) RuntimeParsers::hcaNuma, "/sys/class/infiniband/"),
                org.junit.jupiter.params.provider.Arguments.of("nvidia-smi topo", (Parser<?>) RuntimeParsers::nvidiaTopo, "\tGPU0\tNIC0\tCPU Affinity\nGPU0 "),
                org.junit.jupiter.params.provider.Arguments.of("lsmod", (Parser<?>) RuntimeParsers::lsmod, "Module Size Used by\n"));
    }

    /** Like HostileInputTest: hostile lines just under the line bound stay linear and give short messages. */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("runtimeParsers")
    void hostileLinesAreLinear(String name, Parser<?> parser, String prefix) {
        int n = Text.DEFAULT_MAX_LINE_CHARS - 10 - prefix.length();
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> {
            for (String p : List.of("#".repeat(n), "9".repeat(n), " ".repeat(n / 2) + "x", "a:".repeat(n / 2), "\u001b[".repeat(n / 2),
                    "GPU0 ".repeat(n / 5), ": ".repeat(n / 2))) {
                Parsed<?> r = Parsing.run(new Text("f.out", prefix + p + "\n" + p + "\n"), parser);
                assertThat(r.issues()).allSatisfy(e -> assertThat(e.getMessage())
                        .doesNotContainPattern("[A-Z][a-z]+Exception|java\\.").hasSizeLessThan(400));
            }
        });
    }

    @Test
    void lsmodNames() {
        // lsmod prints "Module Size Used by" then "name size refcount [users]" (kmod's tools/lsmod.c)
        Text t = new Text("l", "Module                  Size  Used by\nnvidia_peermem         16384  0\n"
                + "nvidia_uvm           1531904  0\nnvidia              56717312  2 nvidia_uvm,nvidia_peermem\n"
                + "mlx5_ib               458752  0\nib_core               450560  3 nvidia_peermem,mlx5_ib,ib_uverbs\n");
        assertThat(RuntimeParsers.lsmod(t, Issues.strict())).containsExactly("nvidia_peermem", "nvidia_uvm", "nvidia", "mlx5_ib", "ib_core");
        assertThatThrownBy(() -> RuntimeParsers.lsmod(new Text("l", "nothing\n"), Issues.strict())).isInstanceOf(ParseException.class);
    }
}
