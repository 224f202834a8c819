package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.List;
import java.util.Map;

/**
 * MPI/RDMA runtime readiness of one host. Each part is null when its command was not collected or not
 * usable; a host without GPUs or without UCX is normal.
 *
 * @param stepMemlockKib the locked-memory limit inside a Slurm job step ({@link Long#MAX_VALUE} for unlimited)
 * @param ucxVersion     'ucx_info -v' library version, e.g. "1.16.0"
 * @param ucxTransports  'ucx_info -d': every transport offered on every device
 * @param ompi           'ompi_info': version and the pml components built in
 * @param hcaNuma        NUMA node of each RDMA device (/sys/class/infiniband/DEV/device/numa_node; -1 when unknown)
 * @param gpuTopology    'nvidia-smi topo -m': GPUs, their links to the NICs and their NUMA affinity
 * @param modules        kernel modules loaded ('lsmod'), by name
 */
public record RdmaRuntime(Long stepMemlockKib, String ucxVersion, List<UcxTransport> ucxTransports, Ompi ompi,
                          Map<String, Integer> hcaNuma, GpuTopology gpuTopology, List<String> modules) {
    public RdmaRuntime {
        ucxTransports = ucxTransports == null ? null : List.copyOf(ucxTransports);
        hcaNuma = hcaNuma == null ? null : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(hcaNuma));
        modules = modules == null ? null : List.copyOf(modules);
    }

    /** Null when nothing of it was collected (older dumps): HostData then holds no runtime at all. */
    public static RdmaRuntime of(Long stepMemlockKib, String ucxVersion, List<UcxTransport> ucxTransports, Ompi ompi,
                                 Map<String, Integer> hcaNuma, GpuTopology gpuTopology, List<String> modules) {
        if (stepMemlockKib == null && ucxVersion == null && ucxTransports == null && ompi == null && hcaNuma == null
                && gpuTopology == null && modules == null) return null;
        return new RdmaRuntime(stepMemlockKib, ucxVersion, ucxTransports, ompi, hcaNuma, gpuTopology, modules);
    }

    /** One "Transport: X / Device: Y" pair of ucx_info -d (device "mlx5_0:1" for an IB port). */
    public record UcxTransport(String transport, String device, SourceRef ref) {}

    /** version: "4.1.6"; pmls: the "MCA pml:" components ("ob1", "ucx", "cm", ...). */
    public record Ompi(String version, List<String> pmls, SourceRef ref) {
        public Ompi {
            pmls = List.copyOf(pmls);
        }
    }

    /**
     * One GPU row of nvidia-smi topo -m: its connection to each NIC by RDMA device name (the NIC Legend resolved:
     * "mlx5_0" -> "PIX"), CPU and NUMA affinity (numaNode null when "N/A").
     */
    public record Gpu(String name, Map<String, String> nics, String cpuAffinity, Integer numaNode, SourceRef ref) {
        public Gpu {
            nics = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(nics));
        }
    }

    public record GpuTopology(List<Gpu> gpus) {
        public GpuTopology {
            gpus = List.copyOf(gpus);
        }
    }

    /** The nearness nvidia-smi reports, best first: PIX, PXB, PHB, NODE, SYS (NV# and X are not GPU-NIC paths). */
    public static int pathRank(String link) {
        return switch (link) {
            case "PIX" -> 0;
            case "PXB" -> 1;
            case "PHB" -> 2;
            case "NODE" -> 3;
            case "SYS" -> 4;
            default -> 5;
        };
    }
}
