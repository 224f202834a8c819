package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.CableModule;
import io.ibaccept.model.FabricData;
import io.ibaccept.parse.IbdiagnetPhyParser;
import java.util.List;

/** ibdiagnet2.cables: the module of every cabled port (vendor, PN, SN, temperature, optical power, bias, flags), written by the ibdiagnet run of {@link IbdiagnetLog} (ibdiagnet --get_cable_info) into its directory. */
final class IbdiagnetCables {
    private IbdiagnetCables() {}

    static final Source<List<CableModule>> SOURCE = Source.fabric(Cmd.IBDIAGNET_CABLES, "ibdiagnet2.cables", IbdiagnetPhyParser::cables)
            .collect(o -> o.ibdiagnet() ? IbdiagnetLog.file("ibdiagnet2.cables") : null)
            .optional()
            .needsSm()
            .hint("collect with --ibdiagnet (ibdiagnet2.cables: the module of every cabled port (vendor, PN, SN, temperature, optical power, bias, flags)); needs ibdiagnet (ibutils2) on the fabric node")
            .inFabricRecords(FabricData::diagCables);
}
