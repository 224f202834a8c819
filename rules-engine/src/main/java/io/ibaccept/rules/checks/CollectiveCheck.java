package io.ibaccept.rules.checks;

import io.ibaccept.dump.CommandResult;
import io.ibaccept.model.Collective;
import io.ibaccept.model.CollectiveRun;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.FabricIndex;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.perf.CollectiveJudge;
import io.ibaccept.rules.perf.CollectiveJudge.Level;
import io.ibaccept.rules.perf.CollectiveJudge.SizeVerdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * MPI/NCCL collective latency per message size against the expectation from line rate and rank count
 * (CollectiveJudge). A benchmark that was not installed is a SKIP with the install hint; a failed or unreadable run
 * is an ERROR naming its file.
 */
final class CollectiveCheck implements PairTest {
    public String id() {
        return "collective";
    }

    /** Reads collective/ of the dump itself (not a collected command); no declared input, it SKIPs on its own. */
    public List<Input> inputs() {
        return List.of();
    }

    public List<Setting> settings() {
        return List.of(Setting.number("step_usec", "0.5", "latency per algorithm step in us: expected latency = step_usec x steps + wire factor x bytes / link rate"
                        + " (field figures: 1 MiB Allreduce over 64 ranks ~32 us on HDR, small Allreduce on 8 HDR nodes ~1.5 us)"),
                Setting.number("allreduce_wire_factor", "0.7", "bytes an Allreduce moves per message byte over a node link"),
                Setting.number("alltoall_wire_factor", "1.0", "bytes an Alltoall moves per message byte and peer over a node link"),
                Setting.number("warn_factor", "2", "WARN above this many times the expected latency"),
                Setting.number("fail_factor", "4", "FAIL above this many times the expected latency"),
                Setting.number("nccl_min_busbw_percent", "80", "nccl-tests: minimum bus bandwidth at the largest size, percent of the line rate"),
                Setting.number("line_gbps", "0", "node link data rate in Gb/s; 0 = the negotiated rate of the tested nodes (the slowest)"));
    }

    public void evaluate(Ctx c) {
        List<CollectiveRun> runs = c.data.collectives();
        if (runs.isEmpty()) {
            c.skip("no collective benchmark in the dump (run 'ibaccept rdma --collective osu_allreduce,osu_alltoall')");
            return;
        }
        CollectiveJudge.Expectation e = new CollectiveJudge.Expectation(c.number("step_usec"), c.number("allreduce_wire_factor"),
                c.number("alltoall_wire_factor"), c.number("warn_factor"), c.number("fail_factor"), c.number("nccl_min_busbw_percent"));
        for (CollectiveRun r : runs) {
            if (CommandResult.MISSING_TOOL.equals(r.status())) {
                c.skip(r.name() + ": not available on " + r.host() + " - " + r.stderr().strip().replace('\n', ' '));
                continue;
            }
            if (r.result() == null) {
                c.add(new Finding(id(), c.text("title"), Status.ERROR, List.of(r.host()), List.of(Evidence.of(r.problem(), r.problemWhere()),
                        Evidence.of("command: " + r.command(), "")), r.name() + " did not produce results: " + r.problem(), "",
                        c.cfg.fill(id(), "fix.error", Map.of("command", r.command())), "error", "", null));
                continue;
            }
            double line = c.number("line_gbps");
            String lineWhere = "rules: collective.line_gbps";
            if (line <= 0) {
                Optional<FabricIndex.Rate> slowest = r.nodes().stream().map(c.index::rateOf).flatMap(Optional::stream)
                        .min(java.util.Comparator.comparingDouble(FabricIndex.Rate::dataGbps));
                if (slowest.isEmpty()) {
                    c.skip(r.name() + ": the link rate of its nodes is unknown (no ibstat/iblinkinfo for " + String.join(",", r.nodes())
                            + "); set collective.line_gbps");
                    continue;
                }
                line = slowest.get().dataGbps();
                lineWhere = slowest.get().toString() + " at " + slowest.get().where();
            }
            int ranks = r.ranks() > 0 ? r.ranks() : r.result().ranks();
            int ppn = r.ppn() > 0 ? r.ppn() : 1;
            if (ranks < 2) {
                c.skip(r.name() + ": rank count unknown (no 'ranks:' in " + r.file().replace(".out", ".meta") + ")");
                continue;
            }
            judge(c, r, r.result(), ranks, ppn, line, lineWhere, e);
        }
    }

    private void judge(Ctx c, CollectiveRun r, Collective res, int ranks, int ppn, double line, String lineWhere, CollectiveJudge.Expectation e) {
        List<SizeVerdict> vs = CollectiveJudge.judge(r.name(), res, ranks, ppn, line, e);
        boolean nccl = !r.name().startsWith("osu_");
        List<Evidence> ev = new ArrayList<>();
        ev.add(Evidence.of("command on " + r.host() + ": " + r.command(), r.file().replace(".out", ".meta")));
        ev.add(Evidence.of(String.format(Locale.ROOT, "%d ranks (%d per node), link %.0f Gb/s (%s)", ranks, ppn, line, lineWhere), ""));
        Level worst = Level.OK;
        SizeVerdict worstV = null;
        for (SizeVerdict v : vs) {
            if (v.level().ordinal() > worst.ordinal() || (v.level() == worst && worstV != null && v.ratio() > worstV.ratio())) {
                worst = v.level();
                worstV = v;
            }
            if (worstV == null) worstV = v;
            if (v.level() != Level.OK || v.bytes() == 1L << 20 || nccl)
                ev.add(Evidence.of(nccl
                        ? String.format(Locale.ROOT, "%s: bus bandwidth %.2f GB/s (minimum %.2f GB/s)", size(v.bytes()), v.measured(), v.expected())
                        : String.format(Locale.ROOT, "%s: %.2f us, expected about %.2f us (%.1fx)%s", size(v.bytes()), v.measured(), v.expected(), v.ratio(),
                        v.level() == Level.OK ? "" : " " + v.level()), v.where()));
        }
        if (!res.badLines().isEmpty())
            res.badLines().forEach(b -> ev.add(Evidence.of("unreadable row: " + b.reason(), b.ref().toString())));
        long invalid = res.rows().stream().filter(x -> !x.valid()).count();
        Map<String, Object> vars = new LinkedHashMap<>();
        vars.put("name", r.name());
        vars.put("ranks", ranks);
        vars.put("command", r.command());
        if (invalid > 0) {
            c.problem(Status.FAIL, r.nodes(), ev, r.name() + ": the benchmark's own data check failed at " + invalid + " size(s)", "corrupt", vars);
            return;
        }
        if (worst == Level.OK) {
            SizeVerdict mb = vs.stream().filter(v -> v.bytes() == 1L << 20).findFirst().orElse(worstV);
            c.pass(nccl ? String.format(Locale.ROOT, "%s over %d ranks: bus bandwidth %.2f GB/s at %s", r.name(), ranks, mb.measured(), size(mb.bytes()))
                    : String.format(Locale.ROOT, "%s over %d ranks: every size within %sx the expected latency (%s: %.2f us, expected about %.2f us)",
                    r.name(), ranks, PerftestOutlier.fmt(e.warnFactor()), size(mb.bytes()), mb.measured(), mb.expected()), r.nodes(), ev);
            return;
        }
        long bad = vs.stream().filter(v -> v.level() != Level.OK).count();
        vars.put("worst", size(worstV.bytes()));
        vars.put("ratio", String.format(Locale.ROOT, "%.1f", worstV.ratio()));
        String summary = nccl
                ? String.format(Locale.ROOT, "%s over %d ranks: bus bandwidth %.2f GB/s at %s, below %.2f GB/s", r.name(), ranks, worstV.measured(), size(worstV.bytes()), worstV.expected())
                : String.format(Locale.ROOT, "%s over %d ranks: %d of %d sizes slower than expected, worst %s at %.2f us (%.1fx the expected %.2f us)",
                r.name(), ranks, bad, vs.size(), size(worstV.bytes()), worstV.measured(), worstV.ratio(), worstV.expected());
        c.problem(worst == Level.FAIL ? Status.FAIL : Status.WARN, r.nodes(), ev, summary, nccl ? "nccl" : "", vars);
    }

    static String size(long b) {
        if (b >= 1L << 20 && b % (1L << 20) == 0) return (b >> 20) + " MiB";
        if (b >= 1L << 10 && b % (1L << 10) == 0) return (b >> 10) + " KiB";
        return b + " B";
    }
}
