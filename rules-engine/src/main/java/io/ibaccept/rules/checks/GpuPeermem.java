package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.RdmaRuntime;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Hostlists;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * GPUDirect RDMA on hosts with NVIDIA GPUs and an InfiniBand HCA: the nvidia_peermem module (nv_peer_mem
 * before driver 465) must be loaded, or the HCA cannot register GPU memory and NCCL/UCX copy through host memory.
 * A cluster where no GPU host loads it may use DMA-BUF instead (open kernel modules, kernel 5.12+), which lsmod cannot
 * show: that is a WARN to confirm; GPU hosts without it while others have it are a FAIL.
 */
final class GpuPeermem implements Check {
    public String id() {
        return "gpu.peermem";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.LSMOD));
    }

    public void evaluate(Ctx c) {
        List<String> without = new ArrayList<>();
        List<Evidence> ev = new ArrayList<>();
        int with = 0;
        for (HostData h : c.data.hosts().values()) {
            RdmaRuntime r = h.runtime();
            if (r == null || r.modules() == null || !hasGpu(r) || !hasHca(h, r)) continue;
            if (r.modules().contains("nvidia_peermem") || r.modules().contains("nv_peer_mem")) {
                with++;
                continue;
            }
            without.add(h.host());
            if (ev.size() < 20) ev.add(Evidence.of(h.host() + ": " + gpus(r) + " and " + hcas(h, r)
                    + ", neither nvidia_peermem nor nv_peer_mem loaded", Cmd.LSMOD.path(h.host())));
        }
        if (without.isEmpty() && with == 0) {
            c.skip("no host with both NVIDIA GPUs (nvidia-smi topo -m or the nvidia module) and an InfiniBand HCA");
            return;
        }
        if (without.isEmpty()) {
            c.pass("nvidia_peermem (GPUDirect RDMA) is loaded on all " + with + " GPU host(s)", List.of(), List.of());
            return;
        }
        String list = Hostlists.compress(without);
        c.problem(with > 0 ? Status.FAIL : Status.WARN, without, ev, "GPUDirect RDMA is disabled on " + without.size() + " GPU host(s) (" + list
                + "): nvidia_peermem is not loaded" + (with > 0 ? " (it is on " + with + " other GPU host(s))" : ""),
                with > 0 ? "" : "nowhere", Map.of("hosts", list));
    }

    static boolean hasGpu(RdmaRuntime r) {
        return r.gpuTopology() != null && !r.gpuTopology().gpus().isEmpty() || r.modules() != null && r.modules().contains("nvidia");
    }

    static boolean hasHca(HostData h, RdmaRuntime r) {
        return !h.infinibandCas().isEmpty() || r.hcaNuma() != null && !r.hcaNuma().isEmpty();
    }

    private static String gpus(RdmaRuntime r) {
        return r.gpuTopology() != null && !r.gpuTopology().gpus().isEmpty() ? r.gpuTopology().gpus().size() + " GPU(s)" : "the nvidia driver";
    }

    private static String hcas(HostData h, RdmaRuntime r) {
        List<String> names = new ArrayList<>();
        h.infinibandCas().forEach(ca -> names.add(ca.name()));
        if (names.isEmpty() && r.hcaNuma() != null) names.addAll(r.hcaNuma().keySet());
        return String.join(", ", names);
    }
}
