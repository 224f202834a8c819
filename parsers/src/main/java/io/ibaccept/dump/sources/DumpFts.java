package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.ForwardingTables;
import io.ibaccept.model.Lft;
import io.ibaccept.parse.IbrouteParser;
import java.time.Duration;

/**
 * dump_fts: the unicast forwarding table of every switch, as the SM wrote it, with what each LID is. The routing checks
 * walk it. One SMP per 64 LIDs per switch: a 2,000-switch fabric with 40,000 LIDs takes minutes.
 */
final class DumpFts {
    private DumpFts() {}

    /**
     * Longest entry line dump_fts prints: "0xbfff 254 : (Channel Adapter portguid 0x...: '" is 59 characters, the node
     * description at most 64 bytes (NodeDescription), then "')".
     */
    static final int BYTES_PER_LINE = 128;
    /** The heading, column headings and "N valid lids dumped" of one table, with a long DR path. */
    static final int BYTES_PER_TABLE = 4096;

    // dump_fts exits 0 after a switch whose LFT could not be read and prints that table from a stale buffer; only its
    // stderr says which switch: those lines are appended to the output, where the parser drops the switch's table. The
    // text is compressed on the fabric node as it is printed (some 13 GB for a subnet at its LID limit, 1.5 GB
    // compressed): gzip is on every node, and level 1 keeps up with dump_fts
    static final Source<ForwardingTables> SOURCE = Source.fabric(Cmd.DUMP_FTS, "dump_fts", IbrouteParser::fabric)
            .collect("command -v dump_fts >/dev/null || exit 127; command -v gzip >/dev/null || exit 127; "
                    + "e=$(mktemp) || exit 1; r=$(mktemp) || exit 1; "
                    + "{ dump_fts 2>\"$e\"; echo $? >\"$r\"; grep -F 'SubnGet(LFT) failed on switch' \"$e\"; } | gzip -1; "
                    + "rc=$(cat \"$r\"); cat \"$e\" >&2; rm -f \"$e\" \"$r\"; exit \"${rc:-1}\"", Duration.ofMinutes(20))
            .storedCompressed()
            // the LIDs it walks are the SM's; added after older dumps were written
            .needsSm()
            .silentWithoutSwitches()
            .optional()
            .recollectHint(" (infiniband-diags dump_fts: the forwarding table of every switch)")
            // a table per switch, a line per LID of the unicast space: the text a subnet at its LID limit can print
            .readLimit(t -> {
                long switches = Math.max(1, t.switches().size());
                return new Source.ReadLimit(switches * (BYTES_PER_TABLE + (Lft.MAX_UNICAST_LID + 1L) * BYTES_PER_LINE),
                        switches + " switches x 49,152 LIDs x " + BYTES_PER_LINE + " bytes");
            })
            .inFabric(FabricData::lfts);
}
