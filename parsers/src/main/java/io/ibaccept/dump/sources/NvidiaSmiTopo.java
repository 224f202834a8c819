package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.RdmaRuntime;
import io.ibaccept.parse.RuntimeParsers;
import java.time.Duration;

/** nvidia-smi topo -m: the GPUs, their links to the NICs and their NUMA affinity; only GPU nodes have it. */
final class NvidiaSmiTopo {
    private NvidiaSmiTopo() {}

    static final Source<RdmaRuntime.GpuTopology> SOURCE = Source.node(Cmd.NVIDIA_TOPO, "nvidia-smi-topo", RuntimeParsers::nvidiaTopo)
            .collect("nvidia-smi topo -m", Duration.ofSeconds(60))
            .readsHostOs()
            .bestEffort()
            .recollectHint("; only GPU nodes have nvidia-smi")
            .inRuntime(RdmaRuntime::gpuTopology);
}
