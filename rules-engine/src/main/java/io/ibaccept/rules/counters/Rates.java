package io.ibaccept.rules.counters;

/** Arithmetic on deltas: events per hour, symbol-error BER, transmit-wait share. */
public final class Rates {
    private Rates() {}

    /** Events per hour over a window of the given length; NaN for a window of no length. */
    public static double perHour(long events, double seconds) {
        return seconds <= 0 ? Double.NaN : events * 3600.0 / seconds;
    }

    /**
     * Bits received: PortRcvData counts octets divided by 4 (IBA 16.1.3.5), so bits = PortRcvData x 4 x 8. Unsigned:
     * a 64-bit delta above 2^63 stays positive.
     */
    public static double bitsReceived(long portRcvDataDelta) {
        return unsigned(portRcvDataDelta) * 32.0;
    }

    /** Symbol errors per received bit; NaN when nothing was received (no BER can be measured on an idle link). */
    public static double symbolBer(long symbolErrors, long portRcvDataDelta) {
        double bits = bitsReceived(portRcvDataDelta);
        return bits <= 0 ? Double.NaN : symbolErrors / bits;
    }

    /** PortXmitWait ticks per second: time the port had data to send but no credits (congestion). */
    public static double perSecond(long ticks, double seconds) {
        return seconds <= 0 ? Double.NaN : unsigned(ticks) / seconds;
    }

    static double unsigned(long v) {
        return v >= 0 ? v : (v >>> 1) * 2.0 + (v & 1);
    }
}
