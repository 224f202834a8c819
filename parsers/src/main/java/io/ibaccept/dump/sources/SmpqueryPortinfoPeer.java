package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.PortInfo;
import io.ibaccept.parse.SmpqueryParser;
import java.time.Duration;

/**
 * smpquery-portinfo-peer: the PortInfo of the switch port the HCA is cabled to (the port of smpquery-pkeys-peer): its
 * PartEnforceInb/Outb say whether partitions are enforced there. Dumps of older versions lack it.
 */
final class SmpqueryPortinfoPeer {
    private SmpqueryPortinfoPeer() {}

    static final Source<PortInfo> SOURCE = Source.node(Cmd.PEER_PORTINFO, "smpquery-portinfo-peer", SmpqueryParser::portInfo)
            .collect(SmpqueryPkeysPeer.PEER_PORT + "&& smpquery -D portinfo 0,1 \"$p\"", Duration.ofSeconds(30))
            .optional()
            .needsSm()
            .recollectHint("; needs access to the umad device (dumps of older ibaccept versions lack it)")
            .inHost(HostData::peerPortInfo);
}
