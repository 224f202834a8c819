package io.ibaccept.model;

import io.ibaccept.parse.Nums;
import java.util.Locale;
import java.util.Optional;

/**
 * InfiniBand per-lane speed generations, with the signalling rate the tools print and the data rate after line
 * encoding (8b/10b up to QDR, 64b/66b from FDR10, PAM4 + RS-FEC from HDR; data rates as in the IBTA spec).
 */
public enum LinkSpeed {
    SDR(2.5, 2.0), DDR(5.0, 4.0), QDR(10.0, 8.0), FDR10(10.3125, 10.0), FDR(14.0625, 13.64),
    EDR(25.78125, 25.0), HDR(53.125, 50.0), NDR(106.25, 100.0), XDR(212.5, 200.0);

    private final double signalGbps;
    private final double dataGbpsPerLane;

    LinkSpeed(double signalGbps, double dataGbpsPerLane) {
        this.signalGbps = signalGbps;
        this.dataGbpsPerLane = dataGbpsPerLane;
    }

    public double signalGbps() {
        return signalGbps;
    }

    public double dataGbpsPerLane() {
        return dataGbpsPerLane;
    }

    /** Data rate of a link of this speed and width in Gb/s, e.g. HDR 4X = 200. */
    public double dataGbps(LinkWidth width) {
        return dataGbpsPerLane * width.lanes();
    }

    /**
     * Every spelling the tools print: a name ("HDR", "FDR10", mlxlink's "IB-HDR"; "HDR100" is HDR on 2X), a per-lane
     * rate ("53.125 Gbps", "10.0 Gbps"), and the "N (NAME)" forms where the name decides: ibstat's "40 (FDR10)",
     * iblinkinfo's "10.0 Gbps (FDR10)", ibstatus' "56 Gb/sec (4X FDR)". Standard PortInfo shows FDR10 as "10.0 Gbps"
     * (QDR): only the MLNX extended PortInfo or ibstat/iblinkinfo can tell FDR10.
     */
    public static Optional<LinkSpeed> parse(String s) {
        if (s == null) return Optional.empty();
        String v = s.trim().toUpperCase(Locale.ROOT);
        int open = v.indexOf('(');
        if (open >= 0 && v.endsWith(")")) {
            String inner = v.substring(open + 1, v.length() - 1).trim();
            int sp = inner.lastIndexOf(' ');
            Optional<LinkSpeed> named = byName(sp >= 0 ? inner.substring(sp + 1) : inner);
            if (named.isPresent()) return named;
            v = v.substring(0, open).trim();
        }
        if (v.startsWith("IB-")) v = v.substring(3);
        if (v.endsWith("GBPS")) return fromSignalGbps(v.substring(0, v.length() - 4).trim());
        return byName(v);
    }

    private static Optional<LinkSpeed> byName(String v) {
        if (v.equals("HDR100")) return Optional.of(HDR);
        if (v.equals("NDR200")) return Optional.of(NDR);
        for (LinkSpeed ls : values()) if (ls.name().equals(v)) return Optional.of(ls);
        return Optional.empty();
    }

    private static Optional<LinkSpeed> fromSignalGbps(String num) {
        if (!Nums.isDecimal(num)) return Optional.empty();
        double g = Double.parseDouble(num);
        for (LinkSpeed ls : values()) if (Math.abs(ls.signalGbps - g) < 0.01) return Optional.of(ls);
        return Optional.empty();
    }
}
