package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.PortCounters;
import io.ibaccept.parse.CountersParser;
import java.time.Duration;
import java.util.List;

/** perfquery: the port counters of the fabric node's own port. */
final class Perfquery {
    private Perfquery() {}

    static final Source<List<PortCounters>> SOURCE = Source.fabric(Cmd.PERFQUERY, "perfquery", CountersParser::perfquery)
            .collect("perfquery", Duration.ofSeconds(30))
            .silentWithoutSm()
            .recollectHint("")
            .inFabricRecords(FabricData::perfCounters);
}
