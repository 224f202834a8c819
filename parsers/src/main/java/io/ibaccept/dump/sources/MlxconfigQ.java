package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostConfig;
import io.ibaccept.parse.HostConfigParsers;
import java.time.Duration;
import java.util.List;

/** mlxconfig q of each IB device: the firmware configuration (adaptive routing, congestion control settings). */
final class MlxconfigQ {
    private MlxconfigQ() {}

    /**
     * Per IB device, by the PCI address of its function (mlxconfig -d takes it without 'mst start'); virtual functions
     * (device/physfn) are skipped: their configuration is the physical function's and mlxconfig refuses them.
     */
    static final String SCRIPT = "command -v mlxconfig >/dev/null || exit 127; ok=1; n=0; "
            + "for d in /sys/class/infiniband/*; do [ -e \"$d/device\" ] || continue; [ -e \"$d/device/physfn\" ] && continue; n=$((n+1)); "
            + "mlxconfig -d \"$(basename \"$(readlink -f \"$d/device\")\")\" q && ok=0; done; "
            + "[ $n -eq 0 ] && echo 'no InfiniBand device in /sys/class/infiniband' >&2; exit $ok";

    static final Source<List<HostConfig.MlxDevice>> SOURCE = Source.node(Cmd.MLXCONFIG, "mlxconfig-q", HostConfigParsers::mlxconfig)
            .collect(SCRIPT, Duration.ofSeconds(120))
            .readsHostOs()
            .bestEffort()
            .recollectHint("; needs MFT (mlxconfig) and root on the nodes")
            .inHostConfig(HostConfig::mlxconfig);
}
