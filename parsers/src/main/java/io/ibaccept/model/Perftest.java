package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.List;

/** One perftest run (ib_write_bw, ib_read_bw, ib_send_bw, ib_*_lat) as printed by either side. */
public record Perftest(String testName, String device, String linkType, int mtu, boolean bandwidthTest,
                       String bwUnit, List<Row> rows, SourceRef ref) {
    public Perftest {
        rows = List.copyOf(rows);
    }

    /** One results line. Bandwidth fields are NaN for latency tests and vice versa. */
    public record Row(long bytes, long iterations, double bwPeak, double bwAverage, double msgRateMpps,
                      double tMin, double tMax, double tTypical, double tAvg, double tStdev, double p99, double p999,
                      SourceRef ref) {}

    /** Converts a bandwidth value in this run's unit to Gb/s (perftest's MB is 2^20 bytes; Gb is 10^9 bits). */
    public double toGbps(double value) {
        return bwUnit.equalsIgnoreCase("Gb/sec") ? value : value * 1048576.0 * 8 / 1e9;
    }

    /** The row with the largest message size: the one that shows line-rate bandwidth. */
    public Row largest() {
        Row best = null;
        for (Row r : rows) if (best == null || r.bytes() > best.bytes()) best = r;
        return best;
    }
}
