package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.parse.IbstatusParser;
import java.util.List;

/** ibstatus: the fallback for hosts where ibstat is missing, the same port facts without firmware or GUIDs. */
final class Ibstatus {
    private Ibstatus() {}

    static final Source<List<io.ibaccept.model.Ibstat.Ca>> SOURCE = Source.node(Cmd.IBSTATUS, "ibstatus", IbstatusParser::parse)
            .optional()
            .hint("optional: read for port state where ibstat is missing (a ticket's 'ibstatus' output saved as nodes/HOST/ibstatus.out);"
                    + " ibaccept collect gathers ibstat instead")
            .inHost(HostData::ibstatus);
}
