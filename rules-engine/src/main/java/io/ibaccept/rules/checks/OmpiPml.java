package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Hostlists;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Open MPI built with the UCX pml: without it MPI traffic goes through ob1 and its BTLs, not UCX. */
final class OmpiPml implements Check {
    public String id() {
        return "ompi.pml";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.OMPI_INFO));
    }

    public void evaluate(Ctx c) {
        List<String> without = new ArrayList<>();
        List<Evidence> ev = new ArrayList<>();
        int with = 0;
        for (HostData h : c.data.hosts().values()) {
            if (h.runtime() == null || h.runtime().ompi() == null) continue;
            var o = h.runtime().ompi();
            if (o.pmls().contains("ucx")) {
                with++;
                continue;
            }
            without.add(h.host());
            if (ev.size() < 20) ev.add(Evidence.of(h.host() + ": Open MPI " + o.version() + ", MCA pml: "
                    + (o.pmls().isEmpty() ? "none listed" : String.join(", ", o.pmls())), Cmd.OMPI_INFO.path(h.host())));
        }
        if (without.isEmpty()) {
            c.pass("Open MPI has the ucx pml on all " + with + " host(s) where it is installed", List.of(), List.of());
            return;
        }
        String list = Hostlists.compress(without);
        c.problem(Status.WARN, without, ev, "Open MPI on " + without.size() + " host(s) (" + list + ") has no ucx pml", "",
                Map.of("hosts", list));
    }
}
