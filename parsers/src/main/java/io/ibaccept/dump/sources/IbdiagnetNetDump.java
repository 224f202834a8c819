package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.DiagPort;
import io.ibaccept.model.FabricData;
import io.ibaccept.parse.IbdiagnetPhyParser;
import java.util.List;

/** ibdiagnet2.net_dump: every switch port's state, width, speed and FEC mode, written by the ibdiagnet run of {@link IbdiagnetLog} into its directory. */
final class IbdiagnetNetDump {
    private IbdiagnetNetDump() {}

    static final Source<List<DiagPort>> SOURCE = Source.fabric(Cmd.IBDIAGNET_NET_DUMP, "ibdiagnet2.net_dump", IbdiagnetPhyParser::netDump)
            .collect(o -> o.ibdiagnet() ? IbdiagnetLog.file("ibdiagnet2.net_dump") : null)
            .optional()
            .needsSm()
            .hint("collect with --ibdiagnet (ibdiagnet2.net_dump: every switch port's state, width, speed and FEC mode); needs ibdiagnet (ibutils2) on the fabric node")
            .inFabricRecords(FabricData::diagNetDump);
}
