package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.List;
import java.util.Map;

/** Physical-layer error counters of RoCE/Ethernet ports (ethtool -S). */
final class Ethtool implements HostLocalCheck {
    public String id() {
        return "ethtool";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.ETHTOOL));
    }

    public void evaluate(Ctx c) {
        int checked = 0, bad = 0;
        for (HostData h : c.data.hosts().values()) {
            if (h.ethtool() == null) continue;
            checked++;
            List<String> errs = h.ethtool().entrySet().stream()
                    .filter(e -> e.getValue() > 0 && (e.getKey().contains("crc") || e.getKey().contains("symbol")
                            || e.getKey().contains("err") || e.getKey().contains("link_down")))
                    .map(e -> e.getKey() + "=" + e.getValue()).toList();
            if (errs.isEmpty()) continue;
            bad++;
            c.problem(Status.WARN, List.of(h.host()), List.of(Evidence.of(String.join(" ", errs), Cmd.ETHTOOL.path(h.host()))),
                    h.host() + ": " + String.join(", ", errs), "", Map.of("host", h.host(), "counters", String.join(", ", errs)));
        }
        if (bad == 0) c.pass(checked + " host(s): no physical error counters", List.of(), List.of());
    }
}
