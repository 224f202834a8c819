package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.PortCounters;
import io.ibaccept.parse.IbdiagnetParser;
import java.util.List;

/** ibdiagnet2.pm: ibdiagnet's per-port counter dump (written next to ibdiagnet2.db_csv), read where db_csv has no PM_INFO. */
final class IbdiagnetPm {
    private IbdiagnetPm() {}

    static final Source<List<PortCounters>> SOURCE = Source.fabric(Cmd.IBDIAGNET_PM, "ibdiagnet2.pm", IbdiagnetParser::pm)
            .optional()
            .hint("collect with --ibdiagnet (ibdiagnet2.pm: port counters, read where db_csv has no PM_INFO); needs ibdiagnet (ibutils2) on the fabric node")
            .inFabricRecords(FabricData::diagPm);
}
