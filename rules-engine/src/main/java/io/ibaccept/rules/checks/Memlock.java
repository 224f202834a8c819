package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** ulimit -l (or the native probe's RLIMIT_MEMLOCK) on every host against the minimum. */
final class Memlock implements Check {
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
                kib = s.equals("unlimited") ? Long.MAX_VALUE : parse(s);
                src = Cmd.NATIVE_PROBE.path(h.host());
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
        if (ok + missing.size() == c.data.hosts().size() && ok > 0)
            c.pass(ok + " host(s) have memlock " + min + (missing.isEmpty() ? "" : "; not collected on " + missing.size()), List.of(), List.of());
        if (ok == 0 && missing.size() == c.data.hosts().size())
            c.skip("no host reported a memlock limit" + c.inputs(missing.isEmpty() ? null : missing.get(0), Cmd.ULIMIT.fileName()));
    }

    private static Long parse(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
