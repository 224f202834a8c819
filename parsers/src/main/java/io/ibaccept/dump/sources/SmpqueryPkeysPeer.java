package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.parse.SmpqueryParser;
import java.time.Duration;
import java.util.SortedSet;

/**
 * smpquery-pkeys-peer: the P_Key table of the switch port the HCA is cabled to, queried by directed route 0,1 at the
 * port the SMP entered through.
 */
final class SmpqueryPkeysPeer {
    private SmpqueryPkeysPeer() {}

    // LocalPort of a switch's PortInfo is the port the SMP entered through, i.e. the one facing us
    static final String PEER_PORT = "p=$(smpquery -D portinfo 0,1 0 | sed -n 's/^LocalPort:\\.*//p') && [ -n \"$p\" ] ";

    static final Source<SortedSet<Integer>> SOURCE = Source.node(Cmd.PEER_PKEYS, "smpquery-pkeys-peer", SmpqueryParser::pkeys)
            .collect(PEER_PORT + "&& smpquery -D pkeys 0,1 \"$p\"", Duration.ofSeconds(30))
            .needsSm()
            .recollectHint("; needs access to the umad device")
            .inHost(HostData::peerPkeys);
}
