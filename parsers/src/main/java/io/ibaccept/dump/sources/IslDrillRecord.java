package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.IslDrill;
import io.ibaccept.parse.IslDrillParser;

/** isl-drill: the record of 'ibaccept drill isl', each step with its time and command output. */
final class IslDrillRecord {
    private IslDrillRecord() {}

    static final Source<IslDrill> SOURCE = Source.fabric(Cmd.ISL_DRILL, "isl-drill", IslDrillParser::parse)
            .collectedBy(Source.CollectedBy.DRILL)
            .optional()
            .hint("no ISL drill in this dump: run 'ibaccept drill isl --link SWITCH:PORT -o DUMP --yes' (it disables one"
                    + " switch-to-switch port, times the SM's re-route and enables it again)")
            .inFabric(FabricData::islDrill);
}
