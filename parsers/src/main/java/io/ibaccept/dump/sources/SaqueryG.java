package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.McGroup;
import io.ibaccept.parse.SaqueryParser;
import java.time.Duration;
import java.util.List;

/**
 * saquery -g: the SA's multicast groups, among them the IPoIB broadcast group of each partition and its MTU (the SA shows
 * a port only the groups of its own partitions). Always collected; dumps of older versions lack it.
 */
final class SaqueryG {
    private SaqueryG() {}

    static final Source<List<McGroup>> SOURCE = Source.fabric(Cmd.SAQUERY_MCG, "saquery-g", SaqueryParser::groups)
            .collect("saquery -g", Duration.ofSeconds(60))
            .optional()
            .silentWithoutSm()
            .recollectHint(" (dumps of older ibaccept versions lack it)")
            .inFabric(FabricData::mcGroups);
}
