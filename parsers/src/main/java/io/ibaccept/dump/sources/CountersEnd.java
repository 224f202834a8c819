package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.CounterSample;
import io.ibaccept.model.FabricData;
import io.ibaccept.parse.CounterSampleParser;

/** counters-end: the second counter sample of a window, of the same ports as counters-start. */
final class CountersEnd {
    private CountersEnd() {}

    static final Source<CounterSample> SOURCE = Source.fabric(Cmd.COUNTERS_END, "counters-end", CounterSampleParser::parse)
            .collectedBy(Source.CollectedBy.COUNTER_WINDOW)
            .optional()
            .needsSm()
            .hint("only one counter sample: without the second one error counters are judged on the single snapshot by link.errors;"
                    + " collect with 'ibaccept collect --window 10m' (two fabric-wide counter samples) or run 'ibaccept burn'")
            .inFabric(FabricData::countersEnd);
}
