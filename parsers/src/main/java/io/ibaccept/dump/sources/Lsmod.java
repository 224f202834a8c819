package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.RdmaRuntime;
import io.ibaccept.parse.RuntimeParsers;
import java.time.Duration;
import java.util.List;

/** lsmod: the loaded kernel modules, among them nvidia_peermem / nv_peer_mem (GPUDirect RDMA) and the nvidia driver. */
final class Lsmod {
    private Lsmod() {}

    static final Source<List<String>> SOURCE = Source.node(Cmd.LSMOD, "lsmod", RuntimeParsers::lsmod)
            .collect("lsmod", Duration.ofSeconds(10))
            .readsHostOs()
            .bestEffort()
            .recollectHint("")
            .inRuntime(RdmaRuntime::modules);
}
