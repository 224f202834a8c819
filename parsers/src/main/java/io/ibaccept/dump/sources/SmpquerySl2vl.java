package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.SlToVlTables;
import io.ibaccept.parse.Sl2vlParser;
import java.time.Duration;

/**
 * smpquery sl2vl of every switch port cabled to another switch: the VL each SL takes on each switch-to-switch link.
 * The credit-loop check reads it to tell whether the layers of a routing engine that separates routes by SL (dfsssp,
 * lash) really reach separate VLs. One smpquery per such port (the ports come from ibnetdiscover -p), each a NodeInfo
 * and one SMP per port of its switch: 2,000 switch-to-switch ports on 40-port switches are 2,000 runs and 84,000 SMPs.
 */
final class SmpquerySl2vl {
    private SmpquerySl2vl() {}

    // a failed query is named in the output (smpquery stops that table at the port it could not read) and fails the
    // whole collect; an ibnetdiscover that failed is not an empty list of ports; a switch without a LID (no SM yet)
    // cannot be asked by LID
    static final Source<SlToVlTables> SOURCE = Source.fabric(Cmd.SL2VL, "smpquery-sl2vl", Sl2vlParser::parse)
            .collect("command -v smpquery >/dev/null && command -v ibnetdiscover >/dev/null || exit 127; set -o pipefail; "
                    + "ibnetdiscover -p | awk '$1 == \"SW\" && $2 > 0 { for (i = 5; i < NF; i++) if ($i == \"-\") { if ($(i + 1) == \"SW\") print $2, $3; break } }' "
                    + "| sort -n -k1,1 -k2,2 | { rc=0; while read -r lid port; do smpquery sl2vl \"$lid\" \"$port\" "
                    + "|| { rc=1; echo \"# smpquery sl2vl $lid $port failed\"; }; done; exit $rc; }", Duration.ofMinutes(20))
            .needsSm()
            .silentWithoutSwitchLinks()
            .optional()
            .recollectHint(" (infiniband-diags smpquery sl2vl on every switch-to-switch port)")
            .inFabric(FabricData::sl2vl);
}
