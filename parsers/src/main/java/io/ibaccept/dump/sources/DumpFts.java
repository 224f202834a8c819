package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.ForwardingTables;
import io.ibaccept.parse.IbrouteParser;
import java.time.Duration;

/**
 * dump_fts: the unicast forwarding table of every switch, as the SM wrote it, with what each LID is. The routing checks
 * walk it. One SMP per 64 LIDs per switch: a 2,000-switch fabric with 40,000 LIDs takes minutes.
 */
final class DumpFts {
    private DumpFts() {}

    // dump_fts exits 0 after a switch whose LFT could not be read and prints that table from a stale buffer; only its
    // stderr says which switch: those lines are appended to the output, where the parser drops the switch's table
    static final Source<ForwardingTables> SOURCE = Source.fabric(Cmd.DUMP_FTS, "dump_fts", IbrouteParser::fabric)
            .collect("command -v dump_fts >/dev/null || exit 127; e=$(mktemp) || exit 1; dump_fts 2>\"$e\"; rc=$?; cat \"$e\" >&2; "
                    + "grep -F 'SubnGet(LFT) failed on switch' \"$e\"; rm -f \"$e\"; exit $rc", Duration.ofMinutes(20))
            // the LIDs it walks are the SM's; added after older dumps were written
            .needsSm()
            .silentWithoutSwitches()
            .optional()
            .recollectHint(" (infiniband-diags dump_fts: the forwarding table of every switch)")
            .inFabric(FabricData::lfts);
}
