package io.ibaccept.rules.checks;

import io.ibaccept.rules.Check;
import java.util.List;

/** Every check, in report order. Adding a check: one class in this package, one line here, one block in rules.properties. */
public final class Checks {
    private Checks() {}

    public static List<Check> all() {
        return List.of(new SmCount(), new SmPriority(), new PortState(), new SwitchMissing(), new Inventory(), new Width(), new Speed(),
                new Pcie(), new LinkErrors(), new io.ibaccept.rules.counters.ErrorsWindowCheck(), new MlxlinkCheck(), new Pkey(), new Mtu(), new MtuIpoib(), new Memlock(), new Ofed(),
                new Firmware(), new CableRating(), new CableParts(), new CableSerial(), new DuplicateGuid(), new DuplicateLid(), new DuplicateNames(), new PerftestBw(), new PerftestLat(),
                new IbdiagnetCheck(), new Ethtool(),
                new io.ibaccept.rules.checks.fabric.FabricTree(), new io.ibaccept.rules.checks.fabric.FabricBlocking(),
                new io.ibaccept.rules.checks.fabric.FabricPlan(),
                new PerftestOutlier(), new PerftestLocalisation(), new CollectiveCheck(),
                // MPI/UCX/GPU readiness (#10)
                new UcxVersion(), new UcxTransports(), new OmpiVersion(), new OmpiPml(), new GpuTopology(), new GpuPeermem(),
                // IPoIB, time, CC/AR (#10)
                new IpoibState(), new IpoibConfig(), new TimeSyncCheck(), new HcaConfig(), new ArState(), new CcState(),
                // SM configuration (#10)
                new io.ibaccept.rules.checks.sm.SmConfigPriority(), new io.ibaccept.rules.checks.sm.SmConfigStandby(),
                new io.ibaccept.rules.checks.sm.SmConfigKey(), new io.ibaccept.rules.checks.sm.SmConfigRouting(),
                new io.ibaccept.rules.checks.sm.SmConfigMtu(), new io.ibaccept.rules.checks.sm.SmLog(),
                new io.ibaccept.rules.checks.sm.PartitionsSyntax(), new io.ibaccept.rules.checks.sm.PartitionsMembership(),
                new io.ibaccept.rules.checks.sm.SmConfigConsistency(),
                new Inputs());
    }
}
