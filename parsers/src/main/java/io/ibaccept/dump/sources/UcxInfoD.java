package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.RdmaRuntime;
import io.ibaccept.parse.RuntimeParsers;
import java.time.Duration;
import java.util.List;

/** ucx_info -d: every transport UCX offers on every device. */
final class UcxInfoD {
    private UcxInfoD() {}

    static final Source<List<RdmaRuntime.UcxTransport>> SOURCE = Source.node(Cmd.UCX_DEVICES, "ucx_info-d", RuntimeParsers::ucxDevices)
            .collect("ucx_info -d", Duration.ofSeconds(60))
            .readsHostOs()
            .bestEffort()
            .recollectHint("; needs UCX on the nodes")
            .inRuntime(RdmaRuntime::ucxTransports);
}
