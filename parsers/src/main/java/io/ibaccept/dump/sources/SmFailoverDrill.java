package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.SmDrill;
import io.ibaccept.parse.SmDrillParser;

/** sm-failover-drill: the record of 'ibaccept drill sm-failover', each step with its time and command output. */
final class SmFailoverDrill {
    private SmFailoverDrill() {}

    static final Source<SmDrill> SOURCE = Source.fabric(Cmd.SM_DRILL, "sm-failover-drill", SmDrillParser::parse)
            .collectedBy(Source.CollectedBy.DRILL)
            .optional()
            .hint("no SM failover drill in this dump: run 'ibaccept drill sm-failover --sm-nodes PRIMARY,STANDBY -o DUMP --yes'"
                    + " (it stops the master SM, times the takeover and starts it again)")
            .inFabric(FabricData::smDrill);
}
