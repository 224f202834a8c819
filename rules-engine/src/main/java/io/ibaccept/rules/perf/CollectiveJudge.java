package io.ibaccept.rules.perf;

import io.ibaccept.model.Collective;
import java.util.ArrayList;
import java.util.List;

/**
 * Expected latency of a collective per message size from the line rate and the rank count, and the verdict of a run
 * against it. The model is the textbook one (a latency term per algorithm step plus the bytes each node must move
 * over its link), calibrated on the field figures: Allreduce of 1 MiB over 64 ranks ~32 us on HDR (0.5 us x 6 steps +
 * 0.7 x 1 MiB / 25 GB/s) and ~1.5 us for small messages on 8 HDR nodes (0.5 us x 3 steps). Alltoall moves (p-1)
 * messages per rank through the node's link and pays a step per peer. nccl-tests are judged on bus bandwidth at their
 * largest size against the line rate (GPU collectives run over NVLink within a node, so latency is not comparable).
 */
public final class CollectiveJudge {
    private CollectiveJudge() {}

    public record Expectation(double stepUsec, double allreduceWireFactor, double alltoallWireFactor, double warnFactor,
                              double failFactor, double ncclMinBusBwPercent) {
        public static Expectation defaults() {
            return new Expectation(0.5, 0.7, 1.0, 2.0, 4.0, 80);
        }
    }

    public enum Level { OK, WARN, FAIL }

    /** One message size: measured against expected (both us; for nccl: GB/s bus bandwidth, expected the minimum). */
    public record SizeVerdict(long bytes, double measured, double expected, double ratio, Level level, String where) {}

    /** bytes per microsecond of a link of the given data rate in Gb/s. */
    static double bytesPerUsec(double gbps) {
        return gbps * 1000 / 8;
    }

    static int steps(int ranks) {
        return Math.max(1, 32 - Integer.numberOfLeadingZeros(Math.max(1, ranks - 1)));
    }

    /** Expected latency (us) of one OSU collective of m bytes over ranks ranks, ppn per node, node links of lineGbps. */
    public static double expectedUsec(String benchmark, long m, int ranks, int ppn, double lineGbps, Expectation e) {
        double b = bytesPerUsec(lineGbps);
        int p = Math.max(2, ranks), perNode = Math.max(1, ppn);
        return switch (benchmark) {
            case "osu_alltoall", "osu_allgather" -> e.stepUsec() * (p - 1)
                    + (benchmark.equals("osu_alltoall") ? e.alltoallWireFactor() : e.allreduceWireFactor()) * perNode * (double) (p - 1) * m / b;
            case "osu_barrier" -> e.stepUsec() * steps(p);
            default -> e.stepUsec() * steps(p) + e.allreduceWireFactor() * m / b; // allreduce, reduce, bcast
        };
    }

    /** Per size verdicts; empty when the run has no result. */
    public static List<SizeVerdict> judge(String benchmark, Collective c, int ranks, int ppn, double lineGbps, Expectation e) {
        List<SizeVerdict> out = new ArrayList<>();
        if (c == null || c.rows().isEmpty()) return out;
        if (!benchmark.startsWith("osu_")) {
            Collective.Row last = c.rows().get(0);
            for (Collective.Row r : c.rows()) if (r.bytes() >= last.bytes()) last = r;
            double min = e.ncclMinBusBwPercent() / 100 * lineGbps / 8; // GB/s
            double ratio = min / Math.max(1e-9, last.busBwGBps());
            out.add(new SizeVerdict(last.bytes(), last.busBwGBps(), min, ratio, last.busBwGBps() >= min ? Level.OK : Level.WARN, last.ref().toString()));
            return out;
        }
        for (Collective.Row r : c.rows()) {
            double exp = expectedUsec(benchmark, r.bytes(), ranks, ppn, lineGbps, e);
            double ratio = r.avgUs() / exp;
            Level l = ratio > e.failFactor() ? Level.FAIL : ratio > e.warnFactor() ? Level.WARN : Level.OK;
            out.add(new SizeVerdict(r.bytes(), r.avgUs(), exp, ratio, l, r.ref().toString()));
        }
        return out;
    }
}
