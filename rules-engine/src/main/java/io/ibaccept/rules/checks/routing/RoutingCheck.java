package io.ibaccept.rules.checks.routing;

import io.ibaccept.dump.Cmd;
import io.ibaccept.fabric.Routing;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import io.ibaccept.model.Lft;
import io.ibaccept.safety.Printable;
import java.util.List;
import java.util.Map;

/** A check of the routes: it reads the forwarding tables (dump_fts) walked over the fabric graph. */
interface RoutingCheck extends Check {
    default List<Input> inputs() {
        return List.of(Input.of(Cmd.DUMP_FTS), Input.of(Cmd.IBNETDISCOVER, Cmd.IBLINKINFO));
    }

    /**
     * The walked tables; null after an input ERROR when no table of this fabric's switches was read (tables of another
     * fabric, or none usable: a walk over no table proves nothing), or a SKIP saying why nothing could be walked.
     */
    static Routing walked(Ctx c) {
        Routing r = c.routing();
        if (r != null && c.fabric() != null && !c.fabric().switches().isEmpty() && r.switchesWithoutTable().size() == c.fabric().switches().size()) {
            List<Lft> foreign = r.tablesOfUnknownSwitches();
            String why = foreign.isEmpty() ? "no forwarding table of the fabric's " + c.fabric().switches().size() + " switches could be read from dump_fts"
                    : "the forwarding tables are not this fabric's: none of the " + foreign.size() + " switches dump_fts lists (first '"
                    + Printable.of(foreign.get(0).switchName()) + "', GUID 0x" + Long.toHexString(foreign.get(0).switchGuid())
                    + ") is one of the fabric's " + c.fabric().switches().size() + " switches";
            c.problem(Status.ERROR, List.of("fabric"), foreign.isEmpty() ? List.of() : List.of(Evidence.of("dump_fts", foreign.get(0).ref())),
                    why + ", so no route was walked: collect dump_fts and ibnetdiscover from the same fabric, at the same time", "no_table_of_fabric",
                    Map.of("why", why));
            return null;
        }
        if (r != null && r.judged()) return r;
        c.skip("the forwarding tables name no CA LID of the fabric graph (dump_fts and ibnetdiscover from different fabrics, or no table read)");
        return null;
    }
}
