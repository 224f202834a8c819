package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.List;

/**
 * One collective benchmark run (OSU micro-benchmarks osu_allreduce/osu_alltoall/..., or nccl-tests *_perf): latency
 * per message size. ranks is -1 when the output does not say (OSU does not print it; the runner's meta does).
 * badLines are rows that could not be read; the rest of the run is kept.
 */
public record Collective(String tool, String title, String version, int ranks, List<Row> rows, List<BadLine> badLines,
                         SourceRef ref) {
    public Collective {
        rows = List.copyOf(rows);
        badLines = List.copyOf(badLines);
    }

    /**
     * One message size. Latency in microseconds (OSU: average over ranks; nccl-tests: out-of-place time). min/max and
     * the bandwidths are NaN where the tool does not print them. valid is false when the tool's own data check failed
     * (OSU "Validation Fail", nccl-tests "#wrong" > 0).
     */
    public record Row(long bytes, double avgUs, double minUs, double maxUs, double algBwGBps, double busBwGBps,
                      boolean valid, SourceRef ref) {}

    public record BadLine(SourceRef ref, String reason) {}

    /** The row for exactly this size, or null. */
    public Row at(long bytes) {
        for (Row r : rows) if (r.bytes() == bytes) return r;
        return null;
    }
}
