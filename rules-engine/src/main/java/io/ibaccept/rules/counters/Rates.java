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

    /** The confidence of the BER statements (a zero-error window proves BER < 3.0/bits at 95 %). */
    public static final double CONFIDENCE = 0.95;

    /**
     * The upper bound of the bit error rate, at this confidence, after errors in bits (Poisson): the rate lambda/bits
     * for which seeing at most errors has probability 1 - confidence. 0 errors: -ln(1 - c)/bits (2.996/bits at 95 %).
     * Saturated counters are "at least": their bound is a lower bound on the true bound.
     */
    public static double berUpperBound(long errors, double bits, double confidence) {
        if (bits <= 0) return Double.NaN;
        double alpha = 1 - confidence;
        if (errors == 0) return -Math.log(alpha) / bits;
        double lo = errors, hi = errors + 10 * Math.sqrt(errors + 1) + 10;
        while (poissonCdf(errors, hi) > alpha) hi *= 2;
        for (int i = 0; i < 200; i++) {
            double mid = (lo + hi) / 2;
            if (poissonCdf(errors, mid) > alpha) lo = mid;
            else hi = mid;
        }
        return hi / bits;
    }

    /** The bits a link must carry with no error to prove ber at this confidence. */
    public static double bitsToProve(double ber, double confidence) {
        return -Math.log(1 - confidence) / ber;
    }

    /** P(X <= k) for a Poisson variable of mean lambda, summed in log space (k up to millions, lambda large). */
    static double poissonCdf(long k, double lambda) {
        if (k > 100_000) { // normal approximation with continuity correction
            double z = (k + 0.5 - lambda) / Math.sqrt(lambda);
            return 0.5 * erfc(-z / Math.sqrt(2));
        }
        double logTerm = -lambda, sum = Math.exp(logTerm);
        for (long i = 1; i <= k; i++) {
            logTerm += Math.log(lambda) - Math.log(i);
            sum += Math.exp(logTerm);
        }
        return Math.min(1, sum);
    }

    /** Complementary error function (Numerical Recipes' erfcc, relative error below 1.2e-7). */
    private static double erfc(double x) {
        double z = Math.abs(x), t = 1 / (1 + 0.5 * z);
        double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806
                + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
        return x >= 0 ? r : 2 - r;
    }

    static double unsigned(long v) {
        return v >= 0 ? v : (v >>> 1) * 2.0 + (v & 1);
    }
}
