package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.parse.MlxlinkParser;
import java.time.Duration;

/** mlxlink -m -c -e of the node's first IB device: cable module, BER and the link's troubleshooting status (collect --mlxlink). */
final class Mlxlink {
    private Mlxlink() {}

    /** First IB device name, for the -d the tool needs. */
    static final String DEV = "$(ibstat -l 2>/dev/null | head -1)";

    static final Source<io.ibaccept.model.Mlxlink> SOURCE = Source.node(Cmd.MLXLINK, "mlxlink", MlxlinkParser::parse)
            .collect(o -> o.mlxlink() ? new Source.Collect("mlxlink -d " + DEV + " -m -c -e", Duration.ofSeconds(120)) : null)
            .optional()
            .hint("collect with --mlxlink; needs MFT on the nodes")
            .inHost(HostData::mlxlink);
}
