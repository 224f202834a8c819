package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.Ibdiagnet;
import io.ibaccept.parse.IbdiagnetParser;
import java.time.Duration;
import java.util.List;

/** ibdiagnet2.pkey: the partitions the same ibdiagnet run read from the ports' P_Key tables, with every member port. */
final class IbdiagnetPkey {
    private IbdiagnetPkey() {}

    static final Source<List<Ibdiagnet.PkeyGroup>> SOURCE = Source.fabric(Cmd.IBDIAGNET_PKEY, "ibdiagnet2.pkey", IbdiagnetParser::pkey)
            .collect(o -> o.ibdiagnet() ? new Source.Collect("cat " + IbdiagnetLog.DIR + "/ibdiagnet2.pkey", Duration.ofSeconds(60)) : null)
            .optional()
            .needsSm()
            .hint("collect with --ibdiagnet; needs ibdiagnet (ibutils2) on the fabric node")
            .inFabricRecords(FabricData::diagPkeys);
}
