package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.RdmaRuntime;
import io.ibaccept.parse.RuntimeParsers;
import java.time.Duration;
import java.util.Map;

/** hca-numa: the NUMA node of each RDMA device, from sysfs. */
final class HcaNuma {
    private HcaNuma() {}

    // grep -H names the device in each line
    static final Source<Map<String, Integer>> SOURCE = Source.node(Cmd.HCA_NUMA, "hca-numa", RuntimeParsers::hcaNuma)
            .collect("set -- /sys/class/infiniband/*/device/numa_node; [ -e \"$1\" ] || "
                    + "{ echo 'no RDMA device under /sys/class/infiniband' >&2; exit 127; }; grep -H . \"$@\"", Duration.ofSeconds(10))
            .readsHostOs()
            .bestEffort()
            .recollectHint(" (reads /sys/class/infiniband/*/device/numa_node)")
            .inRuntime(RdmaRuntime::hcaNuma);
}
