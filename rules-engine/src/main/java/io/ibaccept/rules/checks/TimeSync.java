package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostConfig;
import io.ibaccept.model.HostData;
import io.ibaccept.parse.Text;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Time synchronisation per host (chronyc tracking): unsynchronised is a FAIL (Slurm, Kerberos/munge credentials, log
 * correlation across nodes and MPI timers all assume one time base); an offset above max_offset_ms is a WARN. The offset
 * judged is the larger of |System time| (how far the clock is now) and |Last offset| (the last correction).
 */
final class TimeSync implements Check {
    public String id() {
        return "time.sync";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.CHRONY));
    }

    public List<Setting> settings() {
        return List.of(Setting.number("max_offset_ms", "1", "largest acceptable clock offset in milliseconds (|System time| or |Last offset| of chronyc tracking)"));
    }

    public void evaluate(Ctx c) {
        double maxMs = c.number("max_offset_ms");
        List<String> unsync = new ArrayList<>(), far = new ArrayList<>(), missing = new ArrayList<>();
        List<Evidence> unsyncEv = new ArrayList<>(), farEv = new ArrayList<>();
        double worstMs = 0, worstFarMs = 0;
        String worstHost = "";
        int ok = 0;
        Map<String, io.ibaccept.dump.CommandResult> noDaemonRuns = silentChronyd(c);
        List<String> noDaemon = new ArrayList<>();
        List<Evidence> noDaemonEv = new ArrayList<>();
        // grandmaster identities that PTP hosts follow: a host whose own clock is one of them is the time source
        java.util.Set<String> followed = new java.util.HashSet<>();
        for (HostData h : c.data.hosts().values()) {
            HostConfig.TimeSync t = h.config() == null ? null : h.config().time();
            if (t != null && t.source().equals("ptp") && t.synchronised()) followed.add(t.referenceId().toLowerCase(java.util.Locale.ROOT));
        }
        for (HostData h : c.data.hosts().values()) {
            HostConfig.TimeSync t = h.config() == null ? null : h.config().time();
            if (t != null && t.isGrandmaster() && followed.contains(t.referenceId().toLowerCase(java.util.Locale.ROOT))) {
                ok++;
                continue;
            }
            if (t == null) {
                // chronyc installed but chronyd not running ("506 Cannot talk to daemon"): another daemon (ntpd,
                // systemd-timesyncd) may keep the clock, which chronyc cannot tell, so this is not judged unsynchronised
                io.ibaccept.dump.CommandResult cr = noDaemonRuns.get(h.host());
                if (cr != null) {
                    noDaemon.add(h.host());
                    noDaemonEv.add(Evidence.of(h.host() + ": chronyc: " + firstLine(cr.stderr()) + " (chronyd is not running)", Cmd.CHRONY.path(h.host())));
                } else {
                    missing.add(h.host());
                }
                continue;
            }
            if (!t.synchronised()) {
                unsync.add(h.host());
                unsyncEv.add(Evidence.of(t.isGrandmaster() ? h.host() + ": ptp4l is its own grandmaster (" + t.referenceId()
                        + ") and no host follows it: no PTP master reachable"
                        : t.source().equals("ptp") ? h.host() + ": ptp4l TIME_STATUS_NP " + t.leapStatus() + " (no grandmaster)"
                        : h.host() + ": Leap status " + t.leapStatus() + ", Reference ID " + t.referenceId()
                        + (t.referenceName().isEmpty() ? "" : " (" + t.referenceName() + ")") + ", stratum " + t.stratum(), t.leapRef()));
                continue;
            }
            double ms = t.worstOffset() * 1000;
            if (ms > maxMs) {
                far.add(h.host());
                farEv.add(Evidence.of(t.source().equals("ptp") ? h.host() + ": ptp4l master_offset " + ms(t.systemTime() * 1000) + " ms (grandmaster "
                        + t.referenceId() + ")" : h.host() + ": System time " + ms(t.systemTime() * 1000) + " ms, Last offset "
                        + ms(t.lastOffset() * 1000) + " ms (source " + (t.referenceName().isEmpty() ? t.referenceId() : t.referenceName()) + ")", t.offsetRef()));
                worstFarMs = Math.max(worstFarMs, ms);
                continue;
            }
            ok++;
            if (ms >= worstMs) {
                worstMs = ms;
                worstHost = h.host();
            }
        }
        if (!unsync.isEmpty()) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("hosts", HostConfigs.hostlist(unsync));
            c.problem(Status.FAIL, unsync, HostConfigs.limit(unsyncEv), unsync.size() + " host(s) " + HostConfigs.hostlist(unsync)
                    + ": clock not synchronised (chronyc tracking: Leap status Not synchronised / no reference; PTP: no grandmaster)", "unsync", v);
        }
        if (!noDaemon.isEmpty()) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("hosts", HostConfigs.hostlist(noDaemon));
            Finding f = c.problem(Status.WARN, noDaemon, HostConfigs.limit(noDaemonEv), noDaemon.size() + " host(s) " + HostConfigs.hostlist(noDaemon)
                    + ": chronyc is installed but chronyd does not answer; time synchronisation not verified", "nodaemon", v);
            c.covers(f, noDaemon.stream().map(h -> InputCheck.failedRun(Cmd.CHRONY.fileName(), h)).toList());
        }
        if (!far.isEmpty()) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("hosts", HostConfigs.hostlist(far));
            v.put("value", ms(worstFarMs));
            v.put("max", c.text("max_offset_ms"));
            c.problem(Status.WARN, far, HostConfigs.limit(farEv), far.size() + " host(s) " + HostConfigs.hostlist(far)
                    + ": clock offset up to " + ms(worstFarMs) + " ms (limit " + c.text("max_offset_ms") + " ms)", "", v);
        }
        if (ok + missing.size() == c.data.hosts().size() && ok > 0)
            c.pass(ok + " host(s) synchronised (chrony or PTP), largest offset " + ms(worstMs) + " ms (" + worstHost + ")"
                    + (missing.isEmpty() ? "" : "; not collected on " + HostConfigs.hostlist(missing)), List.of(), List.of());
    }

    /** Per host, its chronyc-tracking run that failed because chronyd does not answer (one pass over the commands). */
    private static Map<String, io.ibaccept.dump.CommandResult> silentChronyd(Ctx c) {
        Map<String, io.ibaccept.dump.CommandResult> out = new java.util.HashMap<>();
        for (io.ibaccept.dump.CommandResult cr : c.data.commands())
            if (cr.name().equals(Cmd.CHRONY.fileName()) && !cr.ok() && cr.stderr().contains("Cannot talk to daemon"))
                out.putIfAbsent(cr.host(), cr);
        return out;
    }

    private static String firstLine(String s) {
        String t = s.strip();
        int nl = t.indexOf('\n');
        return Text.excerpt(nl < 0 ? t : t.substring(0, nl).strip());
    }

    private static String ms(double v) {
        if (Double.isNaN(v)) return "?";
        return String.format(java.util.Locale.ROOT, Math.abs(v) >= 10 ? "%.1f" : "%.3f", v);
    }
}
