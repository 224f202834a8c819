package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The same UCX library version on every host that has UCX. */
final class UcxVersion implements Check {
    /** Its PASS line is the version or rate every host shares: a fact for page 1. */
    public boolean statesFacts() {
        return true;
    }

    public String id() {
        return "ucx.version";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.UCX_VERSION));
    }

    public void evaluate(Ctx c) {
        Map<String, String> v = new TreeMap<>(), src = new TreeMap<>();
        for (HostData h : c.data.hosts().values())
            if (h.runtime() != null && h.runtime().ucxVersion() != null) {
                v.put(h.host(), h.runtime().ucxVersion());
                src.put(h.host(), Cmd.UCX_VERSION.path(h.host()));
            }
        String declared = c.contract().map(k -> k.versions().ucx()).orElse(null);
        Consistency.check(c, v, src, "run UCX", Status.WARN, Map.of(), h -> declared, h -> c.contract().map(k -> k.where("versions.ucx")).orElse(""));
    }
}
