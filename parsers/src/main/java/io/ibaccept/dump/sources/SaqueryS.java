package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.SmPort;
import io.ibaccept.parse.SmParser;
import java.time.Duration;
import java.util.List;

/** saquery -s: the SM ports the SA lists (every SM that registered, master and standby). */
final class SaqueryS {
    private SaqueryS() {}

    static final Source<List<SmPort>> SOURCE = Source.fabric(Cmd.SAQUERY_SM, "saquery-s", SmParser::saquerySm)
            .collect("saquery -s", Duration.ofSeconds(60))
            .silentWithoutSm()
            .recollectHint("")
            .inFabric(FabricData::smPorts);
}
