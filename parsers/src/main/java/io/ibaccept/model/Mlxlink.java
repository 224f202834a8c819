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
                      Map<String, SourceRef> refs, Map<String, String> fields) {
    public Mlxlink {
        refs = Map.copyOf(refs);
        fields = Map.copyOf(fields);
    }

    /** Without the raw fields. */
    public Mlxlink(String state, String physState, LinkSpeed speed, LinkWidth width, String fec,
                   Integer statusOpcode, String recommendation, String firmware, Double rawBer,
                   Double effectiveBer, Long linkDownCounter, Long linkErrorRecoveryCounter,
                   Integer pcieGenActive, Integer pcieGenEnabled, Integer pcieWidthActive,
                   Integer pcieWidthEnabled, String cableVendor, String cablePartNumber, Map<String, SourceRef> refs) {
        this(state, physState, speed, width, fec, statusOpcode, recommendation, firmware, rawBer, effectiveBer, linkDownCounter,
                linkErrorRecoveryCounter, pcieGenActive, pcieGenEnabled, pcieWidthActive, pcieWidthEnabled, cableVendor, cablePartNumber,
                refs, Map.of());
    }

    /** A field as printed (first occurrence, trimmed), by mlxlink's own label; null when not printed. */
    public String field(String label) {
        return fields.get(label);
    }

    /** The module's serial number, null when mlxlink printed no "Vendor Serial Number" line. */
    public String cableSerial() {
        return fields.get("Vendor Serial Number");
    }

    /**
     * The InfiniBand speeds the cable itself is rated for: "Supported Cable Speed : 0x000000f1 (NDR,HDR,EDR,FDR,SDR)"
     * (Ethernet names such as 100G_4X are not IB speeds and are left out). Empty when not printed.
     */
    public java.util.Set<LinkSpeed> cableSpeeds() {
        java.util.Set<LinkSpeed> out = java.util.EnumSet.noneOf(LinkSpeed.class);
        String v = fields.containsKey("Supported Cable Speed") ? fields.get("Supported Cable Speed") : fields.get("Supported Cable Speed (Ext.)");
        if (v == null || v.indexOf('(') < 0 || v.indexOf(')') < v.indexOf('(')) return out;
        for (String name : v.substring(v.indexOf('(') + 1, v.lastIndexOf(')')).split(","))
            if (!name.isBlank() && Character.isLetter(name.trim().charAt(0))) LinkSpeed.parse(name.trim()).ifPresent(out::add);
        return out;
    }

    /** Where the cable speeds were printed, null when they were not. */
    public SourceRef cableSpeedsRef() {
        return refs.containsKey("Supported Cable Speed") ? refs.get("Supported Cable Speed") : refs.get("Supported Cable Speed (Ext.)");
    }

    /** Where the field (by mlxlink's own label, e.g. "Status Opcode") was printed. */
    public SourceRef ref(String label) {
        return refs.get(label);
    }
}
