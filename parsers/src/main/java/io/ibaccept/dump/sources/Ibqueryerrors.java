package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.PortCounters;
import io.ibaccept.parse.CountersParser;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/** ibqueryerrors: the ports whose error counters are above its thresholds, fabric-wide (queried by LID through the PMA). */
final class Ibqueryerrors {
    private Ibqueryerrors() {}

    static final Source<List<PortCounters>> SOURCE = Source.fabric(Cmd.IBQUERYERRORS, "ibqueryerrors", CountersParser::ibqueryerrors)
            // it exits 1 when it found errors: that is its result, not a failure
            .collect(new Source.Collect("ibqueryerrors", Duration.ofSeconds(300), Set.of(0, 1)))
            .silentWithoutSm()
            .recollectHint("")
            .inFabricRecords(FabricData::errorCounters);
}
