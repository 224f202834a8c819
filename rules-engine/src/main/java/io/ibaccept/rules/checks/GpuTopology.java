package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.RdmaRuntime;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Hostlists;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Each GPU has an InfiniBand HCA close to it: nvidia-smi topo -m gives the path from every GPU to every NIC;
 * when the nearest IB HCA is NODE or SYS (across host bridges or the CPU interconnect), GPUDirect RDMA traffic of that
 * GPU crosses the CPU. Where topo -m shows no IB NIC, the GPU's NUMA affinity is compared with the HCAs' numa_node.
 * Hosts with the same pattern are one finding.
 */
final class GpuTopology implements Check {
    public String id() {
        return "gpu.topology";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.NVIDIA_TOPO));
    }

    public List<Setting> settings() {
        return List.of(Setting.of("gpudirect_expected", Setting.Type.BOOLEAN, "true",
                "GPUDirect RDMA is expected (GPU jobs communicate over InfiniBand): a GPU whose nearest HCA is NODE/SYS is a WARN; false: reported only"));
    }

    public void evaluate(Ctx c) {
        boolean expected = c.bool("gpudirect_expected");
        Map<String, List<String>> hostsByPattern = new LinkedHashMap<>();
        Map<String, List<Evidence>> evByPattern = new LinkedHashMap<>();
        int gpuHosts = 0, gpus = 0;
        for (HostData h : c.data.hosts().values()) {
            RdmaRuntime r = h.runtime();
            if (r == null || r.gpuTopology() == null || r.gpuTopology().gpus().isEmpty()) continue;
            Set<String> ib = ibDevices(h);
            List<String> far = new ArrayList<>();
            List<Evidence> ev = new ArrayList<>();
            boolean judged = false;
            for (RdmaRuntime.Gpu g : r.gpuTopology().gpus()) {
                String best = null, bestLink = null;
                for (var e : g.nics().entrySet()) {
                    if (!ib.isEmpty() && !ib.contains(e.getKey())) continue;
                    if (RdmaRuntime.pathRank(e.getValue()) > 4) continue;
                    if (best == null || RdmaRuntime.pathRank(e.getValue()) < RdmaRuntime.pathRank(bestLink)) {
                        best = e.getKey();
                        bestLink = e.getValue();
                    }
                }
                if (best != null) {
                    judged = true;
                    if (RdmaRuntime.pathRank(bestLink) >= 3) {
                        far.add(g.name() + "->" + best + " " + bestLink);
                        ev.add(Evidence.of(h.host() + " " + g.name() + ": nearest InfiniBand HCA " + best + " is " + bestLink
                                + numaNote(r, g, best), g.ref()));
                    }
                    continue;
                }
                // no IB NIC column: the GPU's NUMA node against the HCAs' (sysfs numa_node, -1 = not reported)
                Map<String, Integer> numa = r.hcaNuma();
                if (numa == null || g.numaNode() == null) continue;
                Set<Integer> hcaNodes = new TreeSet<>();
                for (var e : numa.entrySet()) if ((ib.isEmpty() || ib.contains(e.getKey())) && e.getValue() >= 0) hcaNodes.add(e.getValue());
                if (hcaNodes.isEmpty()) continue;
                judged = true;
                if (!hcaNodes.contains(g.numaNode())) {
                    far.add(g.name() + " NUMA " + g.numaNode() + " (HCAs on NUMA " + hcaNodes + ")");
                    ev.add(Evidence.of(h.host() + " " + g.name() + ": NUMA " + g.numaNode() + ", InfiniBand HCAs on NUMA " + hcaNodes,
                            g.ref()));
                }
            }
            if (!judged) continue;
            gpuHosts++;
            gpus += r.gpuTopology().gpus().size();
            if (far.isEmpty()) continue;
            String pattern = String.join(", ", far);
            hostsByPattern.computeIfAbsent(pattern, k -> new ArrayList<>()).add(h.host());
            List<Evidence> all = evByPattern.computeIfAbsent(pattern, k -> new ArrayList<>());
            for (Evidence e : ev) if (all.size() < 20) all.add(e);
        }
        if (gpuHosts == 0) {
            c.skip("no host with NVIDIA GPUs and an InfiniBand HCA in nvidia-smi topo -m (or its numa_node)");
            return;
        }
        if (hostsByPattern.isEmpty() || !expected) {
            c.pass(gpus + " GPU(s) on " + gpuHosts + " host(s): " + (hostsByPattern.isEmpty()
                    ? "each has an InfiniBand HCA on its own PCIe switch or host bridge"
                    : hostsByPattern.values().stream().mapToInt(List::size).sum() + " host(s) have GPUs far from every HCA (GPUDirect not expected: "
                    + String.join("; ", hostsByPattern.keySet()) + ")"), List.of(), List.of());
            return;
        }
        for (var e : hostsByPattern.entrySet()) {
            String list = Hostlists.compress(e.getValue());
            c.problem(Status.WARN, e.getValue(), evByPattern.get(e.getKey()), e.getValue().size() + " host(s) (" + list
                    + ") have GPUs whose nearest InfiniBand HCA is across the CPU: " + e.getKey(), "",
                    Map.of("hosts", list, "gpus", e.getKey()));
        }
    }

    private static String numaNote(RdmaRuntime r, RdmaRuntime.Gpu g, String hca) {
        Integer n = r.hcaNuma() == null ? null : r.hcaNuma().get(hca);
        if (n == null || n < 0 || g.numaNode() == null) return "";
        return " (GPU NUMA " + g.numaNode() + ", " + hca + " NUMA " + n + ")";
    }

    /** The host's InfiniBand CAs (ibstat); empty when unknown (then every NIC of topo -m counts). */
    static Set<String> ibDevices(HostData h) {
        Set<String> out = new TreeSet<>();
        for (Ibstat.Ca ca : h.infinibandCas()) out.add(ca.name());
        return out;
    }
}
