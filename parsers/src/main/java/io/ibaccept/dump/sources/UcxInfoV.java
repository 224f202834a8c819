package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.RdmaRuntime;
import io.ibaccept.parse.RuntimeParsers;
import java.time.Duration;

/** ucx_info -v: the UCX library version. */
final class UcxInfoV {
    private UcxInfoV() {}

    static final Source<String> SOURCE = Source.node(Cmd.UCX_VERSION, "ucx_info-v", RuntimeParsers::ucxVersion)
            .collect("ucx_info -v", Duration.ofSeconds(30))
            .readsHostOs()
            .bestEffort()
            .recollectHint("; needs UCX (HPC-X, MLNX_OFED/DOCA ucx package) on the nodes")
            .inRuntime(RdmaRuntime::ucxVersion);
}
