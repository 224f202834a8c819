package io.ibaccept.rules;

import static io.ibaccept.rules.TestDump.of;
import static io.ibaccept.rules.TestDump.problems;
import static io.ibaccept.rules.TestDump.status;
import static io.ibaccept.rules.RealFormatRulesTest.real;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MPI/RDMA runtime readiness on the healthy synthetic fabric (mlx5_0 port 1 Active on cn0001..cn0008). */
class RuntimeRulesTest {

    @TempDir
    Path tmp;

    static final String UCX_D = real("ucx_info-d/flux-azure-hbv-cx6-vf-ucx.txt");
    static final String UCX_V = real("ucx_info-v/ucx-issue-9914-hpcx-2.17.1-ucx-1.16.0.txt");
    static final String OMPI = real("ompi_info/gcp-t4-openmpi-4.1.6-ucx.txt");
    static final String TOPO_1 = real("nvidia-smi-topo/sglang-check-env-h100-pcie-kvm-1gpu-1nic.txt");
    static final String TOPO_8 = real("nvidia-smi-topo/sglang-check-env-8xh100-sxm-8nic.txt");

    /** The capture without the records of the transports whose name starts with prefix (as a UCX build without them prints). */
    static String withoutTransports(String ucx, String prefix) {
        List<String> out = new ArrayList<>();
        boolean skip = false;
        for (String l : ucx.split("\n", -1)) {
            if (l.contains("Transport: ") || l.contains("Memory domain: ") || l.contains("Connection manager: "))
                skip = l.contains("Transport: " + prefix);
            if (!skip) out.add(l);
        }
        return String.join("\n", out);
    }

    TestDump healthy() {
        return TestDump.healthy(tmp.resolve("d"), 8);
    }

    static TestDump everywhere(TestDump d, String file, String content) {
        for (int i = 1; i <= 8; i++) d.write(String.format("nodes/cn%04d/%s.out", i, file), content);
        return d;
    }

    @Test
    void stepMemlockBelowTheLoginShellIsOneFindingWithAHostlist() {
        TestDump d = everywhere(healthy(), "ulimit-l-step", "unlimited\n");
        d.write("nodes/cn0003/ulimit-l-step.out", "65536\n").write("nodes/cn0004/ulimit-l-step.out", "65536\n");
        Report r = d.analyze();
        assertThat(problems(r, "memlock")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.objects()).containsExactly("cn0003", "cn0004");
            assertThat(f.summary()).contains("65536 KiB").contains("cn[0003-0004]").contains("login shell");
            assertThat(f.fix()).contains("LimitMEMLOCK=infinity").contains("PropagateResourceLimits").contains("cn[0003-0004]");
            assertThat(f.evidence().get(0).where()).isEqualTo("nodes/cn0003/ulimit-l-step.out");
        });
    }

    @Test
    void stepMemlockPassesAndIsSkippedWhereNotCollected() {
        Report r = everywhere(healthy(), "ulimit-l-step", "unlimited\n").analyze();
        assertThat(status(r, "memlock")).isEqualTo(Status.PASS);
        assertThat(of(r, "memlock")).singleElement().satisfies(f -> assertThat(f.summary()).contains("inside a Slurm job step on 8"));
        // older dumps without the step limit: the login-shell check as before
        assertThat(of(TestDump.healthy(tmp.resolve("old"), 8).analyze(), "memlock")).singleElement().satisfies(f -> assertThat(f.summary()).doesNotContain("Slurm"));
    }

    @Test
    void underTheSrunTransportTheLoginValueIsAStepValueToo() {
        TestDump d = everywhere(healthy(), "ulimit-l-step", "unlimited\n");
        d.write("nodes/cn0003/ulimit-l-step.out", "65536\n");
        String m = d.read("manifest.txt");
        d.write("manifest.txt", m.contains("tool.transport:") ? m.replaceFirst("tool.transport: .*", "tool.transport: srun")
                : m + "tool.transport: srun\n");
        assertThat(problems(d.analyze(), "memlock")).isEmpty();
    }

    @Test
    void ucxTransportsPassOnTheRealCapture() {
        Report r = everywhere(healthy(), "ucx_info-d", UCX_D).analyze();
        assertThat(status(r, "ucx.transports")).isEqualTo(Status.PASS);
        assertThat(of(r, "ucx.transports").get(0).summary()).contains("all 8 host(s)").contains("dc_mlx5 on 8");
    }

    @Test
    void missingUdAndMissingIbAreOneFindingPerCause() {
        TestDump d = everywhere(healthy(), "ucx_info-d", UCX_D);
        d.write("nodes/cn0002/ucx_info-d.out", withoutTransports(UCX_D, "ud_"));
        d.write("nodes/cn0005/ucx_info-d.out", withoutTransports(UCX_D, "ud_"));
        // a UCX without its InfiniBand modules lists self, tcp, shared memory only
        d.write("nodes/cn0007/ucx_info-d.out", withoutTransports(withoutTransports(withoutTransports(UCX_D, "ud_"), "rc_"), "dc_"));
        Report r = d.analyze();
        List<Finding> p = problems(r, "ucx.transports");
        assertThat(p).hasSize(2).allSatisfy(f -> assertThat(f.status()).isEqualTo(Status.FAIL));
        assertThat(p.get(0).objects()).containsExactly("cn0002", "cn0005");
        assertThat(p.get(0).summary()).contains("no ud transport").contains("cn[0002,0005]");
        assertThat(p.get(0).cause()).contains("mlx5_0:1").contains("tcp");
        assertThat(p.get(0).evidence().get(0).text()).contains("rc_verbs").doesNotContain("ud_");
        assertThat(p.get(1).objects()).containsExactly("cn0007");
        assertThat(p.get(1).cause()).contains("no InfiniBand transport at all");
    }

    @Test
    void ucxNotCollectedSkipsWithTheHint() {
        Report r = healthy().analyze();
        for (String c : List.of("ucx.transports", "ucx.version", "ompi.version", "ompi.pml", "gpu.topology", "gpu.peermem"))
            assertThat(status(r, c)).as(c).isEqualTo(Status.SKIP);
        assertThat(of(r, "ucx.transports").get(0).summary()).contains("ucx_info-d not collected").contains("--only ucx_info-d");
        assertThat(r.verdict()).isEqualTo(Verdict.ACCEPTED);
    }

    @Test
    void ucxVersionDiffers() {
        TestDump d = everywhere(healthy(), "ucx_info-v", UCX_V);
        assertThat(status(d.analyze(), "ucx.version")).isEqualTo(Status.PASS);
        d.write("nodes/cn0008/ucx_info-v.out", UCX_V.replace("1.16.0", "1.15.0"));
        assertThat(problems(d.analyze(), "ucx.version")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.objects()).containsExactly("cn0008");
            assertThat(f.summary()).contains("1.15.0 instead of 1.16.0");
        });
    }

    @Test
    void openMpiVersionAndUcxPml() {
        TestDump d = everywhere(healthy(), "ompi_info", OMPI);
        Report ok = d.analyze();
        assertThat(status(ok, "ompi.version")).isEqualTo(Status.PASS);
        assertThat(status(ok, "ompi.pml")).isEqualTo(Status.PASS);
        d.write("nodes/cn0003/ompi_info.out", OMPI.replace("                 MCA pml: ucx (MCA v2.1.0, API v2.0.0, Component v4.1.6)\n", ""));
        d.write("nodes/cn0004/ompi_info.out", OMPI.replace("Open MPI: 4.1.6", "Open MPI: 4.1.5"));
        Report r = d.analyze();
        assertThat(problems(r, "ompi.pml")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.objects()).containsExactly("cn0003");
            assertThat(f.evidence().get(0).text()).contains("v, ob1, monitoring, cm");
        });
        assertThat(problems(r, "ompi.version")).singleElement().satisfies(f -> {
            assertThat(f.objects()).containsExactly("cn0004");
            assertThat(f.evidence().get(0).where()).isEqualTo("nodes/cn0004/ompi_info.out:2");
        });
    }

    @Test
    void gpuFarFromTheOnlyInfinibandHcaWarns() {
        TestDump d = healthy();
        d.write("nodes/cn0001/nvidia-smi-topo.out", TOPO_1);
        assertThat(status(d.analyze(), "gpu.topology")).isEqualTo(Status.PASS);
        // 8 GPUs, but ibstat of the host shows mlx5_0 only: GPU0 is PIX, GPU1-3 reach it across host bridges, GPU4-7 across the CPUs
        d.write("nodes/cn0002/nvidia-smi-topo.out", TOPO_8);
        d.write("nodes/cn0003/nvidia-smi-topo.out", TOPO_8);
        Report r = d.analyze();
        assertThat(problems(r, "gpu.topology")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.objects()).containsExactly("cn0002", "cn0003");
            assertThat(f.summary()).contains("GPU1->mlx5_0 NODE").contains("GPU4->mlx5_0 SYS").doesNotContain("GPU0");
            assertThat(f.evidence().get(0).where()).isEqualTo("nodes/cn0002/nvidia-smi-topo.out:3");
        });
        Report off = d.analyze(TestDump.config(tmp, "gpu.topology.gpudirect_expected=false\n"));
        assertThat(status(off, "gpu.topology")).isEqualTo(Status.PASS);
    }

    @Test
    void withoutNicColumnsTheNumaNodesAreCompared() {
        TestDump d = healthy();
        // nvidia-smi topo -m on a host whose HCA it does not list: GPUs only
        d.write("nodes/cn0001/nvidia-smi-topo.out", "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\nGPU0\t X \tSYS\t0-15\t0\nGPU1\tSYS\t X \t16-31\t1\n");
        d.write("nodes/cn0001/hca-numa.out", "/sys/class/infiniband/mlx5_0/device/numa_node:1\n");
        assertThat(problems(d.analyze(), "gpu.topology")).singleElement().satisfies(f ->
                assertThat(f.summary()).contains("GPU0 NUMA 0 (HCAs on NUMA [1])").doesNotContain("GPU1"));
    }

    @Test
    void peermemMissingOnGpuHostsFails() {
        String lsmod = "Module                  Size  Used by\nnvidia_uvm           1531904  0\nnvidia              56717312  1 nvidia_uvm\n"
                + "mlx5_ib               458752  0\nib_core               450560  1 mlx5_ib\n";
        TestDump d = healthy();
        assertThat(status(everywhere(TestDump.healthy(tmp.resolve("no-gpu"), 8), "lsmod", "Module                  Size  Used by\nmlx5_ib               458752  0\n").analyze(),
                "gpu.peermem")).isEqualTo(Status.SKIP);
        everywhere(d, "lsmod", lsmod.replace("nvidia_uvm           1531904  0\n", "nvidia_peermem         16384  0\n"));
        assertThat(status(d.analyze(), "gpu.peermem")).isEqualTo(Status.PASS);
        d.write("nodes/cn0006/lsmod.out", lsmod).write("nodes/cn0007/lsmod.out", lsmod).write("nodes/cn0008/lsmod.out", lsmod);
        Report r = d.analyze();
        assertThat(problems(r, "gpu.peermem")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.objects()).containsExactly("cn0006", "cn0007", "cn0008");
            assertThat(f.summary()).contains("cn[0006-0008]");
            assertThat(f.fix()).contains("modprobe nvidia_peermem");
        });
    }

    @Test
    void peermemMissingOnEveryGpuHostIsAWarnBecauseDmaBufMayBeInUse() {
        String lsmod = "Module                  Size  Used by\nnvidia_uvm           1531904  0\nnvidia              56717312  1 nvidia_uvm\n"
                + "mlx5_ib               458752  0\nib_core               450560  1 mlx5_ib\n";
        Report r = everywhere(healthy(), "lsmod", lsmod).analyze();
        assertThat(problems(r, "gpu.peermem")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.cause()).contains("DMA-BUF");
            assertThat(f.fix()).contains("NCCL_DEBUG=INFO");
        });
    }
}
