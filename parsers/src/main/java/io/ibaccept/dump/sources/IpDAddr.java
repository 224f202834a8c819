package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostConfig;
import io.ibaccept.parse.HostConfigParsers;
import java.time.Duration;
import java.util.List;

/**
 * ip -d addr show: every network interface with details; the IPoIB ones (link/infiniband, names vary: ib0, ibp65s0,
 * mlx5_ib0) with mode, P_Key, MTU, state and addresses.
 */
final class IpDAddr {
    private IpDAddr() {}

    static final Source<List<HostConfig.IpLink>> SOURCE = Source.node(Cmd.IP_ADDR, "ip-d-addr", HostConfigParsers::ipLinks)
            .collect("ip -d addr show", Duration.ofSeconds(30))
            .readsHostOs()
            .bestEffort()
            .recollectHint(" (iproute2 'ip -d addr show'; dumps of older ibaccept versions lack it)")
            .inHostConfig(HostConfig::links);
}
