package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.EnumSet;
import java.util.Set;

/**
 * The fields of {@code smpquery portinfo} that acceptance checks use. speed is the effective active speed: the
 * extended speed when one is active (FDR and up), FDR10 when the Mellanox extended PortInfo says so, else the standard
 * speed. Standard PortInfo alone shows FDR10 as "10.0 Gbps" (QDR): {@link #speedAmbiguous()} tells rules to prefer
 * ibstat/iblinkinfo then. The Supported/Enabled/Active strings are kept as printed ("1X or 4X", "2.5 Gbps or 10.0
 * Gbps"); the MLNX ext values are the raw masks (bit 0 = FDR10), -1 when that block is absent. Numbers absent from
 * the output are -1; strings are empty.
 */
public record PortInfo(int lid, int smLid, int localPort, String linkWidthEnabled, String linkWidthSupported,
                       LinkWidth linkWidthActive, LinkSpeed speed, String linkState, String physLinkState,
                       int neighborMtu, int mtuCap, boolean partitionEnforceInbound, SourceRef ref,
                       String linkSpeedSupported, String linkSpeedEnabled, String linkSpeedActive,
                       String linkSpeedExtSupported, String linkSpeedExtEnabled, String linkSpeedExtActive,
                       int mlnxLinkSpeedSupported, int mlnxLinkSpeedEnabled, int mlnxLinkSpeedActive,
                       boolean partitionEnforceOutbound) {

    /** PortInfo without the PartEnforceOutb bit. */
    public PortInfo(int lid, int smLid, int localPort, String linkWidthEnabled, String linkWidthSupported,
                    LinkWidth linkWidthActive, LinkSpeed speed, String linkState, String physLinkState,
                    int neighborMtu, int mtuCap, boolean partitionEnforceInbound, SourceRef ref,
                    String linkSpeedSupported, String linkSpeedEnabled, String linkSpeedActive,
                    String linkSpeedExtSupported, String linkSpeedExtEnabled, String linkSpeedExtActive,
                    int mlnxLinkSpeedSupported, int mlnxLinkSpeedEnabled, int mlnxLinkSpeedActive) {
        this(lid, smLid, localPort, linkWidthEnabled, linkWidthSupported, linkWidthActive, speed, linkState, physLinkState,
                neighborMtu, mtuCap, partitionEnforceInbound, ref, linkSpeedSupported, linkSpeedEnabled, linkSpeedActive,
                linkSpeedExtSupported, linkSpeedExtEnabled, linkSpeedExtActive, mlnxLinkSpeedSupported, mlnxLinkSpeedEnabled,
                mlnxLinkSpeedActive, false);
    }

    public Set<LinkWidth> supportedWidths() {
        return widths(linkWidthSupported);
    }

    public Set<LinkWidth> enabledWidths() {
        return widths(linkWidthEnabled);
    }

    /** Standard, extended and (MLNX) FDR10 speeds the port supports. */
    public Set<LinkSpeed> supportedSpeeds() {
        Set<LinkSpeed> s = speeds(linkSpeedSupported);
        s.addAll(speeds(linkSpeedExtSupported));
        if (mlnxLinkSpeedSupported > 0 && (mlnxLinkSpeedSupported & 1) != 0) s.add(LinkSpeed.FDR10);
        return s;
    }

    public Set<LinkSpeed> enabledSpeeds() {
        Set<LinkSpeed> s = speeds(linkSpeedEnabled);
        s.addAll(speeds(linkSpeedExtEnabled));
        if (mlnxLinkSpeedEnabled > 0 && (mlnxLinkSpeedEnabled & 1) != 0) s.add(LinkSpeed.FDR10);
        return s;
    }

    /** Fastest supported speed, null if not printed: "cn045 runs QDR because its HCA only supports QDR". */
    public LinkSpeed maxSupportedSpeed() {
        LinkSpeed best = null;
        for (LinkSpeed s : supportedSpeeds()) if (best == null || s.dataGbpsPerLane() > best.dataGbpsPerLane()) best = s;
        return best;
    }

    public LinkWidth maxSupportedWidth() {
        LinkWidth best = null;
        for (LinkWidth w : supportedWidths()) if (best == null || w.lanes() > best.lanes()) best = w;
        return best;
    }

    public boolean fdr10Active() {
        return mlnxLinkSpeedActive > 0 && (mlnxLinkSpeedActive & 1) != 0;
    }

    /** True when speed reads QDR but the port could be running FDR10 (no MLNX ext block to tell). */
    public boolean speedAmbiguous() {
        return speed == LinkSpeed.QDR && mlnxLinkSpeedActive < 0;
    }

    public boolean isActive() {
        return "Active".equalsIgnoreCase(linkState);
    }

    private static Set<LinkWidth> widths(String s) {
        Set<LinkWidth> out = EnumSet.noneOf(LinkWidth.class);
        for (String p : alternatives(s)) LinkWidth.parse(p).ifPresent(out::add);
        return out;
    }

    private static Set<LinkSpeed> speeds(String s) {
        Set<LinkSpeed> out = EnumSet.noneOf(LinkSpeed.class);
        for (String p : alternatives(s)) LinkSpeed.parse(p).ifPresent(out::add);
        return out;
    }

    /** "1X or 4X" -> ["1X", "4X"]; a comma-separated list is read the same way. */
    private static java.util.List<String> alternatives(String s) {
        java.util.List<String> out = new java.util.ArrayList<>();
        if (s == null) return out;
        int from = 0;
        for (int i = 0; i <= s.length(); i++) {
            boolean or = s.startsWith(" or ", i), end = i == s.length();
            if (!or && !end && s.charAt(i) != ',') continue;
            String part = s.substring(from, i).trim();
            if (!part.isEmpty()) out.add(part);
            from = or ? i + 4 : i + 1;
            if (or) i += 3;
        }
        return out;
    }

    /** The widest width that is both supported and enabled (enabled empty: supported alone), or null when unknown. */
    public LinkWidth maxUsableWidth() {
        LinkWidth sup = maxSupportedWidth();
        if (sup == null) return null;
        if (linkWidthEnabled == null || linkWidthEnabled.isEmpty()) return sup;
        LinkWidth ena = null;
        for (LinkWidth w : enabledWidths()) if (ena == null || w.lanes() > ena.lanes()) ena = w;
        if (ena == null) return null;
        return sup.lanes() <= ena.lanes() ? sup : ena;
    }
}
