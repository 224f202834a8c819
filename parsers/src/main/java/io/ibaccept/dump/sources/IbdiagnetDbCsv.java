package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.Ibdiagnet;
import io.ibaccept.parse.IbdiagnetParser;
import java.time.Duration;

/** ibdiagnet2.db_csv: the sections of the same ibdiagnet run (PM_INFO counters, CABLE_INFO, AR_INFO, CC_*, ...). */
final class IbdiagnetDbCsv {
    private IbdiagnetDbCsv() {}

    static final Source<Ibdiagnet.Db> SOURCE = Source.fabric(Cmd.IBDIAGNET_DB, "ibdiagnet2.db_csv", IbdiagnetParser::db)
            .collect(o -> o.ibdiagnet() ? new Source.Collect("cat " + IbdiagnetLog.DIR + "/ibdiagnet2.db_csv", Duration.ofSeconds(60)) : null)
            .optional()
            .needsSm()
            .hint("collect with --ibdiagnet; needs ibdiagnet (ibutils2) on the fabric node")
            .inFabric(FabricData::diagDb);
}
