package io.ibaccept.rules.counters;

import java.util.Map;

/**
 * How much one port counter moved between two samples, and how sure that is.
 * <ul>
 * <li>EXACT: end - start.</li>
 * <li>WRAPPED: a data counter (PortXmitData/RcvData/Pkts/XmitWait) went down from the upper half of its range into
 * the lower half: it wrapped once; delta = max - start + 1 + end.</li>
 * <li>RESET: the port's counters went down otherwise (host reboot, driver reload, someone ran perfquery -R): only what
 * was counted since the reset is known, delta = end, at least.</li>
 * <li>SATURATED: the counter is at its maximum (PortCounters error counters are 4 to 16 bits and stop there, IBA
 * 16.1.3.5): it moved by at least max - start.</li>
 * <li>UNKNOWN: saturated already at the start: nothing can be said about the window.</li>
 * </ul>
 */
public record CounterDelta(String name, long start, long end, long delta, Kind kind, int bits) {
    public enum Kind { EXACT, WRAPPED, RESET, SATURATED, UNKNOWN }

    /** Delta is a lower bound ("at least"). */
    public boolean atLeast() {
        return kind == Kind.RESET || kind == Kind.SATURATED || kind == Kind.UNKNOWN;
    }

    /** "12", "at least 65535 (saturated 16-bit counter)", ... */
    public String describe() {
        return switch (kind) {
            case EXACT -> String.valueOf(delta);
            case WRAPPED -> delta + " (the " + bits + "-bit counter wrapped)";
            case RESET -> "at least " + delta + " (counters were reset during the window)";
            case SATURATED -> "at least " + delta + " (saturated " + bits + "-bit counter, stuck at " + max(bits) + ")";
            case UNKNOWN -> "unknown (" + bits + "-bit counter saturated at " + max(bits) + " before the window)";
        };
    }

    /** PortCounters (attribute 0x0012) widths by perfquery field name; everything from PortCountersExtended is 64. */
    static final Map<String, Integer> PORT_COUNTERS_BITS = Map.ofEntries(
            Map.entry("SymbolErrorCounter", 16), Map.entry("LinkErrorRecoveryCounter", 8),
            Map.entry("LinkDownedCounter", 8), Map.entry("PortRcvErrors", 16),
            Map.entry("PortRcvRemotePhysicalErrors", 16), Map.entry("PortRcvSwitchRelayErrors", 16),
            Map.entry("PortXmitDiscards", 16), Map.entry("PortXmitConstraintErrors", 8),
            Map.entry("PortRcvConstraintErrors", 8), Map.entry("LocalLinkIntegrityErrors", 4),
            Map.entry("ExcessiveBufferOverrunErrors", 4), Map.entry("VL15Dropped", 16), Map.entry("QP1Dropped", 16),
            Map.entry("PortXmitData", 32), Map.entry("PortRcvData", 32), Map.entry("PortXmitPkts", 32),
            Map.entry("PortRcvPkts", 32), Map.entry("PortXmitWait", 32));

    /** Counters that count traffic and can wrap; error counters saturate instead. */
    static boolean wraps(String name) {
        return name.startsWith("PortXmit") && !name.equals("PortXmitDiscards") && !name.equals("PortXmitConstraintErrors")
                || name.equals("PortRcvData") || name.equals("PortRcvPkts") || name.startsWith("PortUnicast") || name.startsWith("PortMulticast");
    }

    public static int bits(String name, boolean extended) {
        return extended ? 64 : PORT_COUNTERS_BITS.getOrDefault(name, 32);
    }

    /** Largest value of an unsigned counter of that width (64 bits: -1L, i.e. 2^64-1 unsigned). */
    public static long max(int bits) {
        return bits >= 64 ? -1L : (1L << bits) - 1;
    }

    /**
     * The delta of one counter. portReset: another counter of the same port went down in a way that only a reset
     * explains; then every counter of the port counts from the reset.
     */
    public static CounterDelta of(String name, long start, long end, int bits, boolean portReset) {
        long max = max(bits);
        if (portReset) return new CounterDelta(name, start, end, end, Kind.RESET, bits);
        if (bits < 64 && start == max && end == max) return new CounterDelta(name, start, end, 0, Kind.UNKNOWN, bits);
        if (Long.compareUnsigned(end, start) >= 0) {
            long d = end - start;
            return new CounterDelta(name, start, end, d, bits < 64 && end == max ? Kind.SATURATED : Kind.EXACT, bits);
        }
        // 64 bits: end - start is already the wrapped difference in two's complement
        if (looksWrapped(name, start, end, bits)) return new CounterDelta(name, start, end, end - start + (bits >= 64 ? 0 : 1L << bits), Kind.WRAPPED, bits);
        return new CounterDelta(name, start, end, end, Kind.RESET, bits);
    }

    /** A decrease that a single wrap explains: a traffic counter from the upper half of its range to the lower half. */
    public static boolean looksWrapped(String name, long start, long end, int bits) {
        if (!wraps(name)) return false;
        long half = bits >= 64 ? Long.MIN_VALUE : 1L << (bits - 1); // 2^63 as unsigned
        return Long.compareUnsigned(start, half) >= 0 && Long.compareUnsigned(end, half) < 0;
    }
}
