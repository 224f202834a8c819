package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.parse.IbstatParser;
import java.time.Duration;
import java.util.List;

/** ibstat: the node's CAs (several HCAs, VFs, Ethernet functions), their firmware, GUIDs and port states. */
final class Ibstat {
    private Ibstat() {}

    static final Source<List<io.ibaccept.model.Ibstat.Ca>> SOURCE = Source.node(Cmd.IBSTAT, "ibstat", IbstatParser::parse)
            .collect("ibstat", Duration.ofSeconds(30))
            .recollectHint("; needs infiniband-diags on the nodes")
            .inHost(HostData::ibstat);
}
