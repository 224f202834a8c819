package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.Map;

/**
 * Error/traffic counters of one port, from {@code perfquery} (lid known) or {@code ibqueryerrors} (guid and node
 * name known, only the counters over threshold listed). port is -1 for an aggregate ("ALL") record.
 */
public record PortCounters(long nodeGuid, String nodeName, int lid, int port, Map<String, Long> counters,
                           SourceRef ref) {
    public PortCounters {
        counters = Map.copyOf(counters);
    }

    public long get(String name) {
        return counters.getOrDefault(name, 0L);
    }
}
