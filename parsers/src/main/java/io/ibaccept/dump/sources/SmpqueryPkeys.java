package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.parse.SmpqueryParser;
import java.time.Duration;
import java.util.SortedSet;

/** smpquery pkeys of the node's own port: its P_Key table. */
final class SmpqueryPkeys {
    private SmpqueryPkeys() {}

    static final Source<SortedSet<Integer>> SOURCE = Source.node(Cmd.PKEYS, "smpquery-pkeys", SmpqueryParser::pkeys)
            .collect("smpquery -D pkeys 0", Duration.ofSeconds(30))
            .needsSm()
            .recollectHint("; needs access to the umad device")
            .inHost(HostData::pkeys);
}
