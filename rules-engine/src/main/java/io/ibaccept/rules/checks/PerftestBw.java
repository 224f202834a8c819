package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibdiagnet;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.InputProblem;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.Perftest;
import io.ibaccept.model.PerftestRun;
import io.ibaccept.model.SmInfo;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.FabricIndex;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * RDMA bandwidth against the data rate the pair's links were designed for (contract, configured expectation, else most
 * host links: {@link io.ibaccept.rules.DumpFacts#designRateOf}), or the negotiated rate of both ports where that is
 * higher.
 */
final class PerftestBw implements PairTest {
    public String id() {
        return "perftest.bw";
    }

    public List<Input> inputs() {
        return List.of(Input.perftestResults());
    }

    public List<Setting> settings() {
        return List.of(Setting.number("min_percent", "90", "minimum measured / negotiated data rate, percent"));
    }

    public void evaluate(Ctx c) {
        double minPct = c.number("min_percent");
        int judged = 0, bad = 0;
        for (PerftestRun r : io.ibaccept.rules.perf.PerfAnalysis.latestAttempts(c.data.perftests())) { // a retested pair is judged by its latest run
            Perftest p = r.result();
            if (p == null || !p.bandwidthTest()) continue;
            Optional<FabricIndex.Rate> rc = c.index.rateOf(r.client()), rs = c.index.rateOf(r.server());
            if (rc.isEmpty() || rs.isEmpty()) {
                c.skip(r.test() + " " + r.client() + "->" + r.server() + ": negotiated rate of " + (rc.isEmpty() ? r.client() : r.server()) + " unknown");
                continue;
            }
            judged++;
            FabricIndex.Rate trained = rc.get().dataGbps() <= rs.get().dataGbps() ? rc.get() : rs.get();
            // held against the rate the links were built for (contract, configuration, else most host links), the
            // trained one said beside it: a pair on a link stuck at 1X reaches its 50 Gb/s, a quarter of the design's 200
            Optional<FabricIndex.Rate> dc = c.facts.designRateOf(r.client()), ds = c.facts.designRateOf(r.server());
            FabricIndex.Rate design = dc.isEmpty() || ds.isEmpty() ? trained : dc.get().dataGbps() <= ds.get().dataGbps() ? dc.get() : ds.get();
            FabricIndex.Rate rate = design.dataGbps() > trained.dataGbps() ? design : trained;
            String trainedNote = rate == trained ? "" : String.format(Locale.ROOT, " design (%s, %s; trained %s = %.0f Gb/s)", rate,
                    rate.where(), trained, trained.dataGbps());
            Perftest.Row row = p.largest();
            if (row == null) { // banner alone: nothing measured on this side
                judged--;
                continue;
            }
            // a bidirectional run (-b) reports both directions together: judge one direction against the one-way rate
            double gbps = p.perDirectionGbps(row);
            String dir = p.bidirectional() ? " per direction (bidirectional run)" : "";
            double pct = 100 * gbps / rate.dataGbps();
            if (pct >= minPct) continue;
            bad++;
            String hint = rate != trained ? "The link trained below its design: see the link width and speed findings of these hosts."
                    : pct < 60 ? "About half of line rate usually means the HCA sits in a PCIe Gen3 or x8 slot (see the pcie check)." : "";
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("test", r.test());
            v.put("client", r.client());
            v.put("server", r.server());
            v.put("measured", String.format(Locale.ROOT, "%.1f", gbps));
            v.put("percent", String.format(Locale.ROOT, "%.0f", pct));
            v.put("expected", String.format(Locale.ROOT, "%.0f", rate.dataGbps()));
            v.put("rate", rate.toString());
            v.put("basis", rate == trained ? "negotiated data rate" : String.format(Locale.ROOT, "data rate the links were built for (%s; trained at %s, %.0f Gb/s)",
                    rate.where(), trained, trained.dataGbps()));
            v.put("hint", hint);
            c.problem(Status.FAIL, List.of(r.client(), r.server()),
                    List.of(Evidence.of(String.format(Locale.ROOT, "%d bytes: BW average %.2f %s = %.1f Gb/s%s", row.bytes(), row.bwAverage(), p.bwUnit(), gbps, dir), row.ref()),
                            Evidence.of("negotiated " + trained + " = " + String.format(Locale.ROOT, "%.0f", trained.dataGbps()) + " Gb/s data rate", trained.where())),
                    String.format(Locale.ROOT, "%s %s->%s: %.1f Gb/s%s = %.0f%% of %.0f Gb/s%s (minimum %.0f%%)", r.test(), r.client(), r.server(), gbps, dir, pct,
                            rate.dataGbps(), trainedNote, minPct),
                    "", v);
        }
        if (judged > 0 && bad == 0) c.pass(judged + " bandwidth test(s) at or above " + (int) minPct + "% of the negotiated rate", List.of(), List.of());
        if (judged == 0 && c.data.perftests().stream().noneMatch(r -> r.result() != null && r.result().bandwidthTest()))
            c.skip("no usable bandwidth test results in the dump");
    }
}
