package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.NodeInfo;
import io.ibaccept.parse.SmpqueryParser;
import java.time.Duration;

/** smpquery nodeinfo of the node's own CA: node GUID, type and description. */
final class SmpqueryNodeinfo {
    private SmpqueryNodeinfo() {}

    static final Source<NodeInfo> SOURCE = Source.node(Cmd.NODEINFO, "smpquery-nodeinfo", SmpqueryParser::nodeInfo)
            .collect("smpquery -D nodeinfo 0", Duration.ofSeconds(30))
            .needsSm()
            .recollectHint("")
            .inHost(HostData::nodeInfo);
}
