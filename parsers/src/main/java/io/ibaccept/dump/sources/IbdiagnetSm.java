package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.Ibdiagnet;
import io.ibaccept.parse.IbdiagnetParser;
import java.time.Duration;
import java.util.List;

/** ibdiagnet2.sm: the SMs the same ibdiagnet run found (state, port, priority), written next to ibdiagnet2.log. */
final class IbdiagnetSm {
    private IbdiagnetSm() {}

    static final Source<List<Ibdiagnet.Sm>> SOURCE = Source.fabric(Cmd.IBDIAGNET_SM, "ibdiagnet2.sm", IbdiagnetParser::sm)
            .collect(o -> o.ibdiagnet() ? new Source.Collect("cat " + IbdiagnetLog.DIR + "/ibdiagnet2.sm", Duration.ofSeconds(60)) : null)
            .optional()
            .hint("collect with --ibdiagnet; needs ibdiagnet (ibutils2) on the fabric node")
            .inFabricRecords(FabricData::diagSms);
}
