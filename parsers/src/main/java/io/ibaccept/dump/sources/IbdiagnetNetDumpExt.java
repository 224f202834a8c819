package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.DiagPort;
import io.ibaccept.model.FabricData;
import io.ibaccept.parse.IbdiagnetPhyParser;
import java.util.List;

/** ibdiagnet2.net_dump_ext: every switch and CA port's FEC mode and BER, written by the ibdiagnet run of {@link IbdiagnetLog} (ibdiagnet --get_phy_info) into its directory. */
final class IbdiagnetNetDumpExt {
    private IbdiagnetNetDumpExt() {}

    static final Source<List<DiagPort>> SOURCE = Source.fabric(Cmd.IBDIAGNET_NET_DUMP_EXT, "ibdiagnet2.net_dump_ext", IbdiagnetPhyParser::netDumpExt)
            .collect(o -> o.ibdiagnet() ? IbdiagnetLog.file("ibdiagnet2.net_dump_ext") : null)
            .optional()
            .needsSm()
            .hint("collect with --ibdiagnet (ibdiagnet2.net_dump_ext: every switch and CA port's FEC mode and BER); needs ibdiagnet (ibutils2) on the fabric node")
            .inFabricRecords(FabricData::diagNetDumpExt);
}
