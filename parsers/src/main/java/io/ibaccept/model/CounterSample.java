package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One fabric-wide reading of the port counters (every connected port, switch ports included), as the collector's
 * counter window takes it at the start and at the end of the window: per port the 32-bit PortCounters and, where the
 * PMA supports them, the 64-bit PortCountersExtended (an unreadable block is a parse issue of its own, not part of the sample).
 */
public record CounterSample(List<Port> ports) {
    public CounterSample {
        ports = List.copyOf(ports);
    }

    /**
     * Counters of one port by perfquery field name. extended names the counters whose value came from
     * PortCountersExtended (64 bits wide); the others are the PortCounters widths (4 to 32 bits).
     */
    public record Port(int lid, int port, Map<String, Long> counters, Set<String> extended, SourceRef ref) {
        public Port {
            counters = Map.copyOf(counters);
            extended = Set.copyOf(extended);
        }

        public String key() {
            return lid + ":" + port;
        }
    }
}
