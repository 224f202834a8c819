package io.ibaccept.rules.counters;

import io.ibaccept.dump.Cmd;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * link.errors.window: error counters judged on what happened during the collection window (two samples) instead of
 * what accumulated since the last reboot or clear. Errors per hour and symbol BER per port and link, LinkDowned
 * during the window (a flap), PortXmitWait per second (congestion); counters that were non-zero before the window
 * and did not move get a note only. Without two samples it is skipped and link.errors judges the snapshot.
 */
public final class LinkErrorsWindow implements Check {
    public String id() {
        return WindowJudge.CHECK;
    }

    /** Errors or a flap during the window are the cable's fault; congestion and notes are not roots. */
    public RootRole rootRole(io.ibaccept.rules.Finding f) {
        return f.variant().isEmpty() || f.variant().equals("flap") ? RootRole.CABLE : null;
    }

    public int rootStrength() {
        return 1;
    }

    /** Both samples; host uptimes are optional (only the reboot attribution of old LinkDowned counts uses them). */
    public List<Input> inputs() {
        return List.of(Input.of(Cmd.COUNTERS_START), Input.of(Cmd.COUNTERS_END));
    }

    public List<Setting> settings() {
        return List.of(Setting.number("link_downed_max", "0", "LinkDownedCounter increase during the window above this fails (a flap)"),
                Setting.number("link_recovery_max", "0", "LinkErrorRecoveryCounter increase during the window above this fails"),
                Setting.number("symbol_per_hour_warn", "0", "SymbolErrorCounter per hour above this warns"),
                Setting.number("symbol_per_hour_fail", "60", "SymbolErrorCounter per hour above this fails"),
                Setting.number("ber_warn", "1e-14", "symbol-error BER (symbol errors / (PortRcvData x 32 bits) in the window) above this warns"),
                Setting.number("ber_fail", "1e-12", "symbol-error BER above this fails (1e-12: the default threshold of NVIDIA ibdiagnet's BER test,"
                        + " --ber_test, and the MAX_BER of NVIDIA UFM's PDR plugin; NVIDIA publishes no per-rate table, and on HDR/NDR the symbol"
                        + " errors are what is left after FEC, the errors the application sees)"),
                Setting.number("ber_min_bits", "1e12", "BER is judged only once at least this many bits were received"),
                Setting.number("ber_target", "1e-12", "the bit error rate the window must prove (at 95 % confidence) on every link of a class; a window that "
                        + "carried too few bits for it does not cover this check (the acceptance contract's counters.ber_max sets it too; 1e-12 as ber_fail)"),
                Setting.number("other_per_hour_warn", "0", "PortRcvErrors, PortRcvRemotePhysicalErrors, LocalLinkIntegrityErrors, ExcessiveBufferOverrunErrors, PortXmitDiscards"
                        + " per hour above this warn"),
                Setting.number("xmit_wait_per_s_warn", "1000000", "PortXmitWait ticks per second (the tick is the port's own clock) above this warn: sustained waiting for credits is congestion"),
                Setting.number("load_min_bytes", "1e9", "a link carried load in the window when both ends together moved at least this many bytes (PortXmitData + PortRcvData)"));
    }

    public void evaluate(Ctx c) {
        Optional<CounterWindowData> w = CounterWindowData.of(c.data);
        if (w.isEmpty()) {
            c.skip(CounterWindowData.missing(c.data));
            return;
        }
        // an unreadable record of a sample is an input finding of its own (DumpLoader), with file:line
        java.util.Set<String> inStart = new java.util.TreeSet<>(), inEnd = new java.util.TreeSet<>();
        w.get().start().ports().forEach(p -> inStart.add(p.key()));
        w.get().end().ports().forEach(p -> inEnd.add(p.key()));
        java.util.Set<String> onlyOne = new java.util.TreeSet<>(inStart);
        onlyOne.addAll(inEnd);
        onlyOne.removeIf(k -> inStart.contains(k) && inEnd.contains(k));
        if (!onlyOne.isEmpty()) {
            String list = onlyOne.stream().limit(10).map(k -> "LID " + k.replace(":", " port ")).collect(java.util.stream.Collectors.joining(", "));
            c.problem(Status.WARN, List.of("fabric/counters-start.out", "fabric/counters-end.out"),
                    List.of(Evidence.of(list, "fabric/counters-" + (inStart.containsAll(onlyOne) ? "end" : "start") + ".err")),
                    onlyOne.size() + " port(s) were read in only one of the two samples, so not judged over the window: " + list
                            + (onlyOne.size() > 10 ? " ..." : ""), "missing", Map.of("file", "fabric/counters-end.err"));
        }
        List<WindowJudge.Verdict> vs = c.facts.windowVerdicts();
        int bad = 0, notes = 0;
        for (WindowJudge.Verdict v : vs) {
            if (v.row().status() != Status.PASS) {
                bad++;
                c.problem(v.row().status(), v.objects(), v.evidence(), v.summary(), v.variant(), v.vars());
            } else if (v.variant().equals("note")) {
                notes++;
                c.pass(v.summary(), v.objects(), v.evidence());
            }
        }
        if (vs.isEmpty()) {
            c.skip("the two counter samples have no port in common");
            return;
        }
        long isls = vs.stream().filter(v -> v.row().switchToSwitch()).count();
        long loaded = vs.stream().filter(v -> v.row().switchToSwitch() && v.row().carriedLoad()).count();
        String load = isls == 0 ? "" : "; " + loaded + " of " + isls + " switch-to-switch link(s) carried load";
        String proof = proof(vs.stream().map(WindowJudge.Verdict::row).toList(), c.number("ber_target"));
        if (bad == 0)
            c.pass("no errors during the " + WindowJudge.minutes(w.get().seconds()) + " window on " + vs.size() + " link(s)"
                    + (notes == 0 ? "" : "; " + notes + " with older errors that did not move (notes)") + load + proof, List.of(), List.of());
        else if (isls > 0)
            c.pass(loaded + " of " + isls + " switch-to-switch link(s) carried load during the " + WindowJudge.minutes(w.get().seconds())
                    + " window (errors under load are only meaningful on links that carried it: see the link table)", List.of(), List.of());
    }

    /**
     * What the window says about one class of links (host links or switch-to-switch links): how many were judged over
     * the window, the worst symbol BER measured on a link that had symbol errors (NaN: none had), and for the
     * error-free links the least bits one of them carried and the BER bound that proves at 95 % confidence (NaN without
     * an error-free link; the bound NaN too when that link carried nothing).
     */
    public record ClassBer(boolean switchToSwitch, int links, double worstBer, double leastProvenBits, double provenBound) {}

    /** Per link class with at least one link judged over the window (not a snapshot): host links first. */
    public static List<ClassBer> perClass(List<LinkWindowRow> rows) {
        List<ClassBer> out = new java.util.ArrayList<>();
        for (boolean isl : new boolean[] {false, true}) {
            List<LinkWindowRow> cls = rows.stream().filter(r -> r.switchToSwitch() == isl && !r.snapshotOnly()).toList();
            if (cls.isEmpty()) continue;
            double worst = cls.stream().mapToDouble(LinkWindowRow::symbolBer).filter(b -> !Double.isNaN(b)).max().orElse(Double.NaN);
            double least = cls.stream().filter(r -> r.errorsInWindow() == 0).mapToDouble(LinkWindowRow::bitsReceived).min().orElse(Double.NaN);
            double bound = Double.isNaN(least) || least <= 0 ? Double.NaN : Rates.berUpperBound(0, least, Rates.CONFIDENCE);
            out.add(new ClassBer(isl, cls.size(), worst, least, bound));
        }
        return out;
    }

    /**
     * What the window proves, per link class: the least any error-free link of the class carried and the BER bound
     * that gives ("every host link carried >= 3.0e12 bits with 0 symbol errors: BER < 1.0e-12 at 95 % confidence"),
     * and whether that reaches the target.
     */
    static String proof(List<LinkWindowRow> rows, double target) {
        StringBuilder out = new StringBuilder();
        for (ClassBer c : perClass(rows)) {
            if (Double.isNaN(c.leastProvenBits())) continue;
            double least = c.leastProvenBits(), bound = Rates.berUpperBound(0, least, Rates.CONFIDENCE);
            out.append("; every error-free ").append(c.switchToSwitch() ? "switch-to-switch" : "host").append(" link carried >= ").append(WindowJudge.sci(least))
                    .append(" bits with 0 symbol errors: ").append(least <= 0 ? "no BER proven (no traffic)"
                            : "BER < " + WindowJudge.sci(bound) + " at 95 % confidence" + (bound <= target ? "" : ", short of the target " + WindowJudge.sci(target)));
        }
        return out.toString();
    }

    /** The least bits an error-free link of the window carried (the weakest BER proof), or NaN without such a link. */
    public static double leastProvenBits(List<LinkWindowRow> rows) {
        return rows.stream().filter(r -> r.errorsInWindow() == 0).mapToDouble(LinkWindowRow::bitsReceived).min().orElse(Double.NaN);
    }

    /** True when the dump has two usable samples: link.errors then leaves the judging to this check. */
    public static boolean judgesWindow(io.ibaccept.model.ClusterData d) {
        return CounterWindowData.missing(d).isEmpty();
    }
}
