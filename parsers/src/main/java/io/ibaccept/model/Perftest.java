package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * One perftest run (ib_write_bw, ib_read_bw, ib_send_bw, ib_*_lat) as printed by one side. rows holds every result
 * row (the whole curve of an {@code -a} sweep), sorted by message size. rows is empty for a side that printed only the
 * banner, which is what a healthy latency server prints (see {@link #serverPrintsRows(String)}).
 * bwUnit is the unit the values really are in: "Gb/sec" or "MB/sec" (perftest's MB is 2^20 bytes); printedUnit is
 * what the header said, which differs on a --report_gbits server (it prints "BW average[MB/sec]" over Gb/s values).
 */
public record Perftest(String testName, String device, String linkType, int mtu, boolean bandwidthTest,
                       String bwUnit, List<Row> rows, SourceRef ref, boolean bidirectional, String printedUnit) {
    public Perftest {
        rows = rows.stream().sorted(Comparator.comparingLong(Row::bytes)).toList();
    }

    /** One results line. Bandwidth fields are NaN for latency tests and vice versa. */
    public record Row(long bytes, long iterations, double bwPeak, double bwAverage, double msgRateMpps,
                      double tMin, double tMax, double tTypical, double tAvg, double tStdev, double p99, double p999,
                      SourceRef ref) {}

    /** True when the side printed its banner but no result row. */
    public boolean bannerOnly() {
        return rows.isEmpty();
    }

    /** True when the header unit was corrected from the values (MsgRate x size), i.e. the header cannot be trusted. */
    public boolean unitCorrected() {
        return !bwUnit.equals(printedUnit);
    }

    /** Converts a bandwidth value in this run's unit to Gb/s (perftest's MB is 2^20 bytes; Gb is 10^9 bits). */
    public double toGbps(double value) {
        return bwUnit.equalsIgnoreCase("Gb/sec") ? value : value * 1048576.0 * 8 / 1e9;
    }

    /** Average bandwidth of a row in Gb/s, both directions together for a bidirectional run. */
    public double totalGbps(Row r) {
        return toGbps(r.bwAverage());
    }

    /** Average bandwidth of a row in Gb/s per direction: what to compare with the link's one-way data rate. */
    public double perDirectionGbps(Row r) {
        return totalGbps(r) / (bidirectional ? 2 : 1);
    }

    /** The row with the largest message size: the one that shows line-rate bandwidth. Null without rows. */
    public Row largest() {
        return rows.isEmpty() ? null : rows.get(rows.size() - 1);
    }

    /** The row with the smallest message size: where latency is judged. Null without rows. */
    public Row smallest() {
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** The latency row for a configured size: that size if measured, else the nearest larger one, else the largest. */
    public Row latencyAt(long bytes) {
        if (bytes <= 0) return smallest();
        for (Row r : rows) if (r.bytes() >= bytes) return r;
        return largest();
    }

    public boolean latencyTest() {
        return !bandwidthTest;
    }

    /**
     * What a normal server side prints, per test, as the perftest sources do: the bandwidth tests print their result
     * rows on both sides; the latency tests' servers of read and atomic only answer the client and print the banner
     * alone. The ping-pong latency tests (send, write) print rows on both sides, but a banner-only server is not an
     * error for any latency test: the client holds the result.
     */
    public static boolean serverPrintsRows(String testName) {
        return !isLatencyTestName(testName);
    }

    /** "ib_read_lat" / "RDMA_Read Latency Test" -> true. */
    public static boolean isLatencyTestName(String testName) {
        String n = testName == null ? "" : testName.toLowerCase(Locale.ROOT);
        return n.endsWith("_lat") || n.contains("latency");
    }
}
