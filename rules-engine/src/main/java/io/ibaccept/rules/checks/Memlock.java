package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** ulimit -l (or the native probe's RLIMIT_MEMLOCK) on every host against the minimum. */
final class Memlock implements HostLocalCheck {
    public String id() {
        return "memlock";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.ULIMIT, Cmd.NATIVE_PROBE));
    }

    public List<Setting> settings() {
        return List.of(Setting.of("min_kib", Setting.Type.NUMBER_OR_UNLIMITED, "unlimited", "minimum memlock in KiB, or unlimited"));
    }

    public void evaluate(Ctx c) {
        String min = c.text("min_kib");
        double minKib = c.number("min_kib");
        int ok = 0;
        List<String> missing = new ArrayList<>();
        for (HostData h : c.data.hosts().values()) {
            Long kib = h.memlockKib();
            String src = Cmd.ULIMIT.path(h.host());
            if (kib == null && h.nativeProbe() != null && h.nativeProbe().containsKey("memlock_soft_kib")) {
                String s = h.nativeProbe().get("memlock_soft_kib");
                kib = s.equals("unlimited") ? Long.valueOf(Long.MAX_VALUE) : parse(s);
                src = Cmd.NATIVE_PROBE.path(h.host());
                if (kib == null) { // the dump's damage: neither a limit nor a pass
                    c.problem(Status.ERROR, List.of(h.host()), List.of(Evidence.of("memlock_soft_kib: " + s, src)), h.host()
                            + ": the probe's memlock_soft_kib '" + s + "' is not a number of KiB or 'unlimited'", "unreadable",
                            Map.of("host", h.host(), "value", s));
                    continue;
                }
            }
            if (kib == null) {
                missing.add(h.host());
                continue;
            }
            if (kib == Long.MAX_VALUE || kib >= minKib) {
                ok++;
                continue;
            }
            String val = kib + " KiB";
            c.problem(Status.FAIL, List.of(h.host()), List.of(Evidence.of("ulimit -l: " + kib, src)),
                    h.host() + ": memlock limit " + val + " (required: " + min + ")", "", Map.of("host", h.host(), "value", val));
        }
        int stepOk = stepLimits(c, minKib, min);
        if (ok + missing.size() == c.data.hosts().size() && ok > 0 && stepOk >= 0)
            c.pass(ok + " host(s) have memlock " + min + (missing.isEmpty() ? "" : "; not collected on " + missing.size())
                    + (stepOk > 0 ? "; inside a Slurm job step on " + stepOk : ""), List.of(), List.of());
        if (ok == 0 && missing.size() == c.data.hosts().size())
            c.skip("no host reported a memlock limit" + c.inputs(missing.isEmpty() ? null : missing.get(0), Cmd.ULIMIT.fileName()));
    }

    /**
     * MPI/UCX/GPU readiness: the limit inside a Slurm job step (ulimit-l-step) against the login shell's. A step
     * below the minimum while the login shell is fine is one cause on every such host: slurmd's own limit (systemd
     * LimitMEMLOCK) or PropagateResourceLimits, so it is one finding naming the hosts as a hostlist. A host whose login
     * shell is already too low has its own finding above. Returns the hosts whose step limit is fine, or -1 when the
     * step limit failed somewhere.
     */
    private static int stepLimits(Ctx c, double minKib, String min) {
        // collected over srun, ulimit-l itself ran inside a step: there is no login-shell value to compare with
        if ("srun".equals(c.data.manifest().toolVersions().get("transport"))) return 0;
        List<String> hosts = new ArrayList<>();
        List<Evidence> ev = new ArrayList<>();
        java.util.TreeSet<String> values = new java.util.TreeSet<>();
        int fine = 0;
        for (HostData h : c.data.hosts().values()) {
            Long step = h.runtime() == null ? null : h.runtime().stepMemlockKib();
            if (step == null) continue;
            if (step == Long.MAX_VALUE || step >= minKib) {
                fine++;
                continue;
            }
            Long login = h.memlockKib();
            if (login == null || login != Long.MAX_VALUE && login < minKib) continue; // the login finding covers it
            hosts.add(h.host());
            values.add(step + " KiB");
            if (ev.size() < 20) ev.add(Evidence.of(h.host() + ": job step " + step + " KiB, login shell " + show(login),
                    Cmd.ULIMIT_STEP.path(h.host())));
        }
        if (hosts.isEmpty()) return fine;
        if (hosts.size() > ev.size()) ev.add(Evidence.of("... and " + (hosts.size() - ev.size()) + " more", ""));
        String list = io.ibaccept.rules.Hostlists.compress(hosts);
        c.problem(Status.FAIL, hosts, ev, "memlock inside a Slurm job step is " + String.join(", ", values) + " on " + hosts.size()
                + " host(s) (" + list + ") while the login shell has " + min + " or more", "step",
                Map.of("hosts", list, "value", String.join(", ", values)));
        return -1;
    }

    private static String show(Long kib) {
        return kib == Long.MAX_VALUE ? "unlimited" : kib + " KiB";
    }

    private static Long parse(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
