package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.Topology;
import io.ibaccept.parse.IbnetdiscoverParser;
import java.time.Duration;

/** ibnetdiscover: the fabric topology, every node, port and cable, as the fabric node sees it. */
final class Ibnetdiscover {
    private Ibnetdiscover() {}

    static final Source<Topology> SOURCE = Source.fabric(Cmd.IBNETDISCOVER, "ibnetdiscover", IbnetdiscoverParser::parse)
            .collect("ibnetdiscover", Duration.ofSeconds(300))
            .recollectHint("")
            .inFabric(FabricData::topology);
}
