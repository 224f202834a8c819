package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.SmInfo;
import io.ibaccept.parse.SmParser;
import java.time.Duration;
import java.util.List;

/** sminfo: the SM the fabric node's port points to, then every SM port the SA lists. */
final class Sminfo {
    private Sminfo() {}

    // plain sminfo (the SM the local port points to: a rogue master the SA does not list shows up here), then every SM
    // port the SA lists; usable when any of them answered (a dead SM is judged by the rules)
    static final Source<List<SmInfo>> SOURCE = Source.fabric(Cmd.SMINFO, "sminfo", SmParser::sminfo)
            .collect("command -v sminfo >/dev/null || exit 127; "
                    + "lids=$(saquery -s 2>/dev/null | sed -n 's/^[[:space:]]*EndPortLid\\.*//p'); "
                    + "ok=1; sminfo && ok=0; for l in $lids; do sminfo $l && ok=0; done; exit $ok",
                    Duration.ofSeconds(60))
            .needsSm()
            .recollectHint("")
            .inFabric(FabricData::sms);
}
