package io.ibaccept.rules.checks.routing;

import io.ibaccept.dump.Cmd;
import io.ibaccept.fabric.Routing;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Input;
import java.util.List;

/** A check of the routes: it reads the forwarding tables (dump_fts) walked over the fabric graph. */
interface RoutingCheck extends Check {
    default List<Input> inputs() {
        return List.of(Input.of(Cmd.DUMP_FTS), Input.of(Cmd.IBNETDISCOVER, Cmd.IBLINKINFO));
    }

    /** The walked tables, or null after a SKIP saying why nothing could be walked. */
    static Routing walked(Ctx c) {
        Routing r = c.routing();
        if (r != null && r.judged()) return r;
        c.skip("the forwarding tables name no CA LID of the fabric graph (dump_fts and ibnetdiscover from different fabrics, or no table read)");
        return null;
    }
}
