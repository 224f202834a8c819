package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.Topology;
import io.ibaccept.parse.IbnetdiscoverParser;

/** ibdiagnet2.ibnetdiscover: ibdiagnet's own topology (ibnetdiscover dialect with port labels), the fallback where ibnetdiscover is missing. */
final class IbdiagnetIbnetdiscover {
    private IbdiagnetIbnetdiscover() {}

    static final Source<Topology> SOURCE = Source.fabric(Cmd.IBDIAGNET_NETDISCOVER, "ibdiagnet2.ibnetdiscover", IbnetdiscoverParser::parse)
            .optional()
            .hint("collect with --ibdiagnet (ibdiagnet's topology, read where ibnetdiscover is missing); needs ibdiagnet (ibutils2) on the fabric node")
            .inFabric(FabricData::diagTopology);
}
