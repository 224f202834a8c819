package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.Map;

/**
 * What {@code mlxlink -d DEV -m -c -e} and {@code mlxlink -d DEV --port_type PCIE} report. Absent values are null.
 * BERs are plain doubles (mlxlink prints "15E-255"); PCIe generation is the "Gen N" number.
 */
public record Mlxlink(String state, String physState, LinkSpeed speed, LinkWidth width, String fec,
                      Integer statusOpcode, String recommendation, String firmware, Double rawBer,
                      Double effectiveBer, Long linkDownCounter, Long linkErrorRecoveryCounter,
                      Integer pcieGenActive, Integer pcieGenEnabled, Integer pcieWidthActive,
                      Integer pcieWidthEnabled, String cableVendor, String cablePartNumber,
                      Map<String, SourceRef> refs) {
    public Mlxlink {
        refs = Map.copyOf(refs);
    }

    /** Where the field (by mlxlink's own label, e.g. "Status Opcode") was printed. */
    public SourceRef ref(String label) {
        return refs.get(label);
    }
}
