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

/** The same Open MPI version on every host that has it. */
final class OmpiVersion implements Check {
    /** Its PASS line is the version or rate every host shares: a fact for page 1. */
    public boolean statesFacts() {
        return true;
    }

    public String id() {
        return "ompi.version";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.OMPI_INFO));
    }

    public void evaluate(Ctx c) {
        Map<String, String> v = new TreeMap<>(), src = new TreeMap<>();
        for (HostData h : c.data.hosts().values())
            if (h.runtime() != null && h.runtime().ompi() != null) {
                v.put(h.host(), h.runtime().ompi().version());
                src.put(h.host(), h.runtime().ompi().ref().toString());
            }
        String declared = c.contract().map(k -> k.versions().ompi()).orElse(null);
        Consistency.check(c, v, src, "run Open MPI", Status.WARN, Map.of(), h -> declared, h -> c.contract().map(k -> k.where("versions.ompi")).orElse(""));
    }
}
