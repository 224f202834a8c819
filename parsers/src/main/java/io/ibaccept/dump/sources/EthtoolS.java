package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.parse.HostParsers;
import io.ibaccept.safety.Shell;
import java.time.Duration;
import java.util.Map;

/** ethtool -S IFACE: the RoCE / Ethernet port's counters (collect --ethtool IFACE). */
final class EthtoolS {
    private EthtoolS() {}

    static final Source<Map<String, Long>> SOURCE = Source.node(Cmd.ETHTOOL, "ethtool-S", HostParsers::ethtoolStats)
            .collect(o -> o.ethtoolIface() == null ? null
                    : new Source.Collect(Shell.join("ethtool", "-S", Shell.requireInterface(o.ethtoolIface())), Duration.ofSeconds(30)))
            .optional()
            .hint("collect with --ethtool IFACE for RoCE/Ethernet ports")
            .inHost(HostData::ethtool);
}
