package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The same MTU on every host (NeighborMTU from smpquery portinfo, else the perftest Mtu line). */
final class Mtu implements Check {
    public String id() {
        return "mtu";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.PORTINFO).orPerftests());
    }

    public void evaluate(Ctx c) {
        Map<String, String> v = new TreeMap<>(), src = new TreeMap<>();
        for (HostData h : c.data.hosts().values())
            if (h.portInfo() != null && h.portInfo().neighborMtu() > 0) {
                v.put(h.host(), String.valueOf(h.portInfo().neighborMtu()));
                src.put(h.host(), h.portInfo().ref().toString());
            }
        c.data.perftests().forEach(r -> {
            if (r.result() != null && r.result().mtu() > 0 && !v.containsKey(r.client())) {
                v.put(r.client(), String.valueOf(r.result().mtu()));
                src.put(r.client(), r.file());
            }
        });
        if (v.isEmpty()) {
            c.skip("no MTU information (smpquery portinfo NeighborMTU or perftest Mtu)");
            return;
        }
        Consistency.check(c, v, src, "use MTU", Status.FAIL, Map.of());
    }
}
