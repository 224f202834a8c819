package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.parse.HostParsers;
import java.time.Duration;

/** ofed_info -s: the installed MLNX_OFED / DOCA version. */
final class OfedInfo {
    private OfedInfo() {}

    static final Source<String> SOURCE = Source.node(Cmd.OFED_INFO, "ofed_info", HostParsers::ofedVersion)
            .collect("ofed_info -s", Duration.ofSeconds(30))
            .oneValue()
            .recollectHint("; needs MLNX_OFED/DOCA (or rdma-core packages) on the nodes")
            .inHost(HostData::ofedVersion);
}
