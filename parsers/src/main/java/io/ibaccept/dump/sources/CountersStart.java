package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.CounterSample;
import io.ibaccept.model.FabricData;
import io.ibaccept.parse.CounterSampleParser;

/**
 * counters-start: the first fabric-wide counter sample of a window (collect --window, burn): perfquery of every connected
 * port, by the port list the window read from 'ibnetdiscover -p'.
 */
final class CountersStart {
    private CountersStart() {}

    static final Source<CounterSample> SOURCE = Source.fabric(Cmd.COUNTERS_START, "counters-start", CounterSampleParser::parse)
            .collectedBy(Source.CollectedBy.COUNTER_WINDOW)
            .optional()
            .needsSm()
            .hint("collect with 'ibaccept collect --window 10m' (two fabric-wide counter samples) or run 'ibaccept burn'")
            .inFabric(FabricData::countersStart);
}
