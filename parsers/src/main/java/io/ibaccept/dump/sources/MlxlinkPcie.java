package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.parse.MlxlinkParser;
import java.time.Duration;

/** mlxlink --port_type PCIE of the node's first IB device: the PCIe link, enabled and active (collect --mlxlink). */
final class MlxlinkPcie {
    private MlxlinkPcie() {}

    static final Source<io.ibaccept.model.Mlxlink> SOURCE = Source.node(Cmd.MLXLINK_PCIE, "mlxlink-pcie", MlxlinkParser::parse)
            .collect(o -> o.mlxlink() ? new Source.Collect("mlxlink -d " + Mlxlink.DEV + " --port_type PCIE", Duration.ofSeconds(60)) : null)
            .optional()
            .hint("collect with --mlxlink; needs MFT on the nodes")
            .inHost(HostData::mlxlinkPcie);
}
