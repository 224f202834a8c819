package io.ibaccept.rules.checks;

import io.ibaccept.model.Perftest;
import io.ibaccept.model.PerftestRun;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Typical RDMA latency against the maximum. */
final class PerftestLat implements PairTest {
    public String id() {
        return "perftest.lat";
    }

    public List<Input> inputs() {
        return List.of(Input.perftestResults());
    }

    public List<Setting> settings() {
        return List.of(Setting.number("max_usec", "3.0", "maximum typical latency in microseconds"),
                Setting.of("size", Setting.Type.TEXT, "smallest",
                        "message size in bytes at which latency is judged ('smallest': the smallest size measured; an -a run is never judged at 8 MiB)"));
    }

    /** A size in bytes ("2", "4096"); anything else is the smallest size. */
    private static long parseSize(String s) {
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch < '0' || ch > '9' || v > Long.MAX_VALUE / 10 - 9) return 0;
            v = v * 10 + (ch - '0');
        }
        return v;
    }

    public void evaluate(Ctx c) {
        double max = c.number("max_usec");
        String size = c.text("size").trim();
        long bytes = size.isEmpty() || size.equalsIgnoreCase("smallest") ? 0 : parseSize(size);
        int judged = 0, bad = 0;
        for (PerftestRun r : io.ibaccept.rules.perf.PerfAnalysis.latestAttempts(c.data.perftests())) { // a retested pair is judged by its latest run
            Perftest p = r.result();
            if (p == null || p.bandwidthTest()) continue;
            judged++;
            Perftest.Row row = p.latencyAt(bytes);
            if (row == null) { // a banner alone: nothing measured on this side, nothing to judge
                judged--;
                continue;
            }
            if (row.tTypical() <= max) continue;
            bad++;
            Map<String, Object> v = Map.of("test", r.test(), "client", r.client(), "server", r.server(),
                    "value", row.tTypical(), "max", max, "client_lid", c.index.lidOf(r.client()), "server_lid", c.index.lidOf(r.server()));
            c.problem(Status.FAIL, List.of(r.client(), r.server()),
                    List.of(Evidence.of(String.format(Locale.ROOT, "%d bytes: t_typical %.2f us, t_avg %.2f us, 99.9%% %.2f us", row.bytes(), row.tTypical(), row.tAvg(), row.p999()), row.ref())),
                    String.format(Locale.ROOT, "%s %s->%s: typical latency %.2f us > %.2f us at %d bytes", r.test(), r.client(), r.server(), row.tTypical(), max, row.bytes()), "", v);
        }
        if (judged == 0) c.skip("no usable latency test results in the dump");
        else if (bad == 0) c.pass(judged + " latency test(s) at or below " + max + " us typical at "
                + (bytes > 0 ? bytes + " bytes" : "the smallest message size"), List.of(), List.of());
    }
}
