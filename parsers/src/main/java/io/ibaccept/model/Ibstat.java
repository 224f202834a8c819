package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.List;

/** What {@code ibstat} prints for one host: its channel adapters and their ports. */
public final class Ibstat {
    private Ibstat() {}

    public record Ca(String name, String caType, int numPorts, String firmware, String hardware, long nodeGuid,
                     long systemGuid, List<Port> ports, SourceRef ref) {
        public Ca {
            ports = List.copyOf(ports);
        }
    }

    /** rate is the value ibstat prints (signalling Gb/s rounded, e.g. 200 for HDR 4X); -1 when absent. */
    public record Port(int number, String state, String physicalState, int rate, int baseLid, int lmc, int smLid,
                       long capabilityMask, long portGuid, String linkLayer, SourceRef ref) {
        public boolean isActive() {
            return "Active".equalsIgnoreCase(state);
        }
    }
}
