package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The same HCA firmware on every host, per CA type. */
final class Firmware implements HostLocalCheck {
    /** Its PASS line is the version or rate every host shares: a fact for page 1. */
    public boolean statesFacts() {
        return true;
    }

    public String id() {
        return "firmware";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBSTAT, Cmd.IBSTATUS));
    }

    public void evaluate(Ctx c) {
        Map<String, Map<String, String>> byType = new TreeMap<>();
        Map<String, String> src = new TreeMap<>();
        // every InfiniBand CA of every host (a host's second..n-th HCA and its VFs too; Ethernet functions skipped),
        // named "host" when it is the host's only CA of its type, else "host mlx5_1"
        for (HostData h : c.data.hosts().values()) {
            List<Ibstat.Ca> cas = h.infinibandCas();
            Map<String, Long> perType = new TreeMap<>();
            for (Ibstat.Ca ca : cas) if (!ca.firmware().isEmpty()) perType.merge(ca.caType(), 1L, Long::sum);
            for (Ibstat.Ca ca : cas) {
                if (ca.firmware().isEmpty()) continue;
                String obj = perType.get(ca.caType()) > 1 ? h.host() + " " + ca.name() : h.host();
                byType.computeIfAbsent(ca.caType(), k -> new TreeMap<>()).put(obj, ca.firmware());
                src.put(obj, ca.ref().toString());
            }
        }
        if (byType.isEmpty()) {
            c.skip("no firmware versions in ibstat output");
            return;
        }
        var contract = c.contract().orElse(null);
        byType.forEach((type, m) -> Consistency.check(c, m, src, "with " + type + " run firmware", Status.WARN, Map.of("ca_type", type),
                obj -> contract == null ? null : contract.firmwareFor(type, obj.split(" ")[0]),
                obj -> contract == null ? "" : contract.firmwareWhere(type, obj.split(" ")[0])));
    }
}
