package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.parse.CounterSampleParser;
import java.time.Duration;

/** uptime: seconds since boot, read on every node when a counter window starts, so counters that predate a reboot are told apart. */
final class Uptime {
    private Uptime() {}

    static final Source<Double> SOURCE = Source.node(Cmd.UPTIME, "uptime", CounterSampleParser::uptimeSeconds)
            .collect("cat /proc/uptime", Duration.ofSeconds(30))
            .collectedBy(Source.CollectedBy.COUNTER_WINDOW)
            .optional()
            .hint("collected with the counter window ('ibaccept collect --window')")
            .inHost(HostData::uptimeSeconds);
}
