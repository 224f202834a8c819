package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The same OFED / rdma-core version on every host. */
final class Ofed implements HostLocalCheck {
    /** Its PASS line is the version or rate every host shares: a fact for page 1. */
    public boolean statesFacts() {
        return true;
    }

    public String id() {
        return "ofed";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.OFED_INFO));
    }

    public void evaluate(Ctx c) {
        Map<String, String> v = new TreeMap<>(), src = new TreeMap<>();
        for (HostData h : c.data.hosts().values())
            if (h.ofedVersion() != null) {
                v.put(h.host(), h.ofedVersion());
                src.put(h.host(), Cmd.OFED_INFO.path(h.host()));
            }
        String declared = c.contract().map(k -> k.versions().ofed()).orElse(null);
        Consistency.check(c, v, src, "run", Status.FAIL, Map.of(), h -> declared, h -> c.contract().map(k -> k.where("versions.ofed")).orElse(""));
    }
}
