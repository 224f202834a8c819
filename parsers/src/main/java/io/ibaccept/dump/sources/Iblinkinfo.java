package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.parse.IblinkinfoParser;
import java.time.Duration;
import java.util.List;

/** iblinkinfo: every switch port with its width, speed, state and the port at its other end. */
final class Iblinkinfo {
    private Iblinkinfo() {}

    static final Source<List<LinkInfo>> SOURCE = Source.fabric(Cmd.IBLINKINFO, "iblinkinfo", IblinkinfoParser::parse)
            .collect("iblinkinfo", Duration.ofSeconds(300))
            .recollectHint("")
            .inFabric(FabricData::links);
}
