package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.PortInfo;
import io.ibaccept.parse.SmpqueryParser;
import java.time.Duration;

/** smpquery portinfo of the node's own port, by directed route: LID, SM LID, MTU, width and speed enabled and active. */
final class SmpqueryPortinfo {
    private SmpqueryPortinfo() {}

    static final Source<PortInfo> SOURCE = Source.node(Cmd.PORTINFO, "smpquery-portinfo", SmpqueryParser::portInfo)
            .collect("smpquery -D portinfo 0", Duration.ofSeconds(30))
            .needsSm()
            .recollectHint("; needs access to the umad device (root or the rdma group)")
            .inHost(HostData::portInfo);
}
