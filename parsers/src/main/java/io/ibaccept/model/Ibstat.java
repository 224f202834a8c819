package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.List;
import java.util.Optional;

/** What {@code ibstat} (or, where ibstat is missing, {@code ibstatus}) prints for one host: its CAs and their ports. */
public final class Ibstat {
    private Ibstat() {}

    /** firmware/caType/GUIDs are empty/0 when read from ibstatus, which does not print them. */
    public record Ca(String name, String caType, int numPorts, String firmware, String hardware, long nodeGuid,
                     long systemGuid, List<Port> ports, SourceRef ref) {
        public Ca {
            ports = List.copyOf(ports);
        }

        /** InfiniBand unless every port says another link layer (Ethernet: RoCE NICs, BlueField bonds, VFs). */
        public boolean isInfiniband() {
            return ports.isEmpty() || ports.stream().anyMatch(Port::isInfiniband);
        }

        public boolean hasActivePort() {
            return ports.stream().anyMatch(Port::isActive);
        }
    }

    /**
     * rate is the value ibstat prints, in Gb/s signalling rounded down (200 for HDR 4X, 2 for "2.5"); -1 when absent.
     * rateName is the speed name printed next to it ("FDR10" in "Rate: 40 (FDR10)", "FDR" from ibstatus), or "".
     * width is known from ibstatus only ("4X"), else null.
     */
    public record Port(int number, String state, String physicalState, int rate, String rateName, LinkWidth width,
                       int baseLid, int lmc, int smLid, long capabilityMask, long portGuid, String linkLayer,
                       SourceRef ref) {
        /** A port as ibstat prints it: rate as a number only, width unknown. */
        public Port(int number, String state, String physicalState, int rate, int baseLid, int lmc, int smLid,
                    long capabilityMask, long portGuid, String linkLayer, SourceRef ref) {
            this(number, state, physicalState, rate, "", null, baseLid, lmc, smLid, capabilityMask, portGuid, linkLayer, ref);
        }

        public boolean isActive() {
            return "Active".equalsIgnoreCase(state);
        }

        /** Empty link layer (old ibstat) counts as InfiniBand. */
        public boolean isInfiniband() {
            return linkLayer.isEmpty() || linkLayer.equalsIgnoreCase("InfiniBand") || linkLayer.equalsIgnoreCase("IB");
        }

        /** The speed when the output names it (FDR10, or ibstatus' "(4X FDR)"); empty when only a number is printed. */
        public Optional<LinkSpeed> namedSpeed() {
            return rateName.isEmpty() ? Optional.empty() : LinkSpeed.parse(rateName);
        }
    }
}
