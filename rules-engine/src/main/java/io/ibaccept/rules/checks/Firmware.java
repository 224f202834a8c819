package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The same HCA firmware on every host, per CA type. */
final class Firmware implements Check {
    public String id() {
        return "firmware";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBSTAT));
    }

    public void evaluate(Ctx c) {
        Map<String, Map<String, String>> byType = new TreeMap<>();
        Map<String, String> src = new TreeMap<>();
        for (HostData h : c.data.hosts().values()) {
            if (h.ibstat() == null) continue;
            for (Ibstat.Ca ca : h.ibstat()) {
                if (ca.firmware().isEmpty()) continue;
                byType.computeIfAbsent(ca.caType(), k -> new TreeMap<>()).putIfAbsent(h.host(), ca.firmware());
                src.putIfAbsent(h.host(), ca.ref().toString());
            }
        }
        if (byType.isEmpty()) {
            c.skip("no firmware versions in ibstat output");
            return;
        }
        byType.forEach((type, m) -> Consistency.check(c, m, src, "with " + type + " run firmware", Status.WARN, Map.of("ca_type", type)));
    }
}
