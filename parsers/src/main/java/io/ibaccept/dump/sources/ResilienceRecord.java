package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.Resilience;
import io.ibaccept.parse.ResilienceParser;

/** resilience: the record of 'ibaccept resilience', the N-1 run on the fabric's twin (ibsim and opensm). */
final class ResilienceRecord {
    private ResilienceRecord() {}

    static final Source<Resilience> SOURCE = Source.fabric(Cmd.RESILIENCE, "resilience", ResilienceParser::parse)
            .collectedBy(Source.CollectedBy.DRILL)
            .optional()
            .hint("no N-1 run on a twin in this dump: run 'ibaccept resilience DUMP -o OUT' (it takes each switch-to-switch cable out of"
                    + " a simulated copy of the fabric, lets opensm re-route and walks the tables; the live fabric is not touched)")
            .inFabric(FabricData::resilience);
}
