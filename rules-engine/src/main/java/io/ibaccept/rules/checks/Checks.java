package io.ibaccept.rules.checks;

import io.ibaccept.rules.Check;
import java.util.List;
import java.util.Locale;

/**
 * Every check, in report order, and the family whose file holds each check's texts. Adding a check: one class in this
 * package, one line here, one block of texts in its family's file.
 */
public final class Checks {
    private Checks() {}

    public static List<Check> all() {
        return List.of(new ContractHosts(), new ContractDesign(), new SmCount(), new SmPriority(), new PortState(), new FabricSwitches(), new FabricInventory(), new Width(), new Speed(),
                new Pcie(), new LinkErrors(), new io.ibaccept.rules.counters.LinkErrorsWindow(), new MlxlinkCheck(), new Pkey(), new Mtu(), new MtuIpoib(), new Memlock(), new Ofed(),
                new Firmware(), new CableRating(), new CableParts(), new CableSerial(), new CableModules(), new LinkFec(), new GuidDuplicate(), new LidDuplicate(), new NodeNames(), new PerftestBw(), new PerftestLat(),
                new IbdiagnetCheck(), new Ethtool(),
                new io.ibaccept.rules.checks.fabric.FabricTree(), new io.ibaccept.rules.checks.fabric.FabricBlocking(),
                new io.ibaccept.rules.checks.fabric.FabricPlan(), new io.ibaccept.rules.checks.fabric.FabricRails(),
                new io.ibaccept.rules.checks.fabric.FabricIslDrill(), new io.ibaccept.rules.checks.fabric.ResilienceN1(),
                new io.ibaccept.rules.checks.routing.RoutingReachability(), new io.ibaccept.rules.checks.routing.RoutingCreditLoops(),
                new io.ibaccept.rules.checks.routing.RoutingBalance(),
                new PerftestOutlier(), new PerftestLocalisation(), new CollectiveCheck(),
                // MPI/UCX/GPU readiness
                new UcxVersion(), new UcxTransports(), new OmpiVersion(), new OmpiPml(), new GpuTopology(), new GpuPeermem(),
                // IPoIB, time, CC/AR
                new IpoibState(), new IpoibConfig(), new TimeSync(), new HcaConfig(), new ArState(), new CcState(),
                // SM configuration
                new io.ibaccept.rules.checks.sm.SmConfigPriority(), new io.ibaccept.rules.checks.sm.SmConfigStandby(),
                new io.ibaccept.rules.checks.sm.SmConfigKey(), new io.ibaccept.rules.checks.sm.SmConfigRouting(),
                new io.ibaccept.rules.checks.sm.SmConfigMtu(), new io.ibaccept.rules.checks.sm.SmLog(), new io.ibaccept.rules.checks.sm.SmFailover(),
                new io.ibaccept.rules.checks.sm.SmDrillCheck(),
                new io.ibaccept.rules.checks.sm.PartitionsSyntax(), new io.ibaccept.rules.checks.sm.PartitionsMembership(),
                new io.ibaccept.rules.checks.sm.SmConfigConsistency(),
                new InputCheck());
    }

    /**
     * A family of checks keeps the texts of its checks in one file, {@code io/ibaccept/rules/FAMILY.properties}, one
     * block per check in the order of {@link #all()}, so a check's texts are found next to its siblings'. A check
     * belongs to the family that lists the first word of its id.
     */
    public enum Family {
        CONTRACT("contract"),
        SM("sm", "partitions"),
        LINK("port", "link", "mlxlink", "cable", "ethtool"),
        FABRIC("fabric", "pkey", "mtu", "guid", "lid", "node", "ibdiagnet", "ar", "cc", "routing", "resilience"),
        HOST("pcie", "memlock", "ofed", "firmware", "ucx", "ompi", "gpu", "ipoib", "time", "hca"),
        PERF("perftest", "collective"),
        INPUT("input");

        private final List<String> firstWords;

        Family(String... firstWords) {
            this.firstWords = List.of(firstWords);
        }

        /** The resource file of the family's texts, next to RuleConfig. */
        public String file() {
            return name().toLowerCase(Locale.ROOT) + ".properties";
        }

        public static Family of(String checkId) {
            String first = checkId.split("\\.", 2)[0];
            for (Family f : values()) if (f.firstWords.contains(first)) return f;
            throw new IllegalArgumentException("check " + checkId + " is in no family: list '" + first + "' in Checks.Family");
        }
    }

    /** Switch device ID -> the firmware of each switch of it, from ibdiagnet's NODES and NODES_INFO; empty without them. */
    public static java.util.Map<String, List<String>> switchFirmware(io.ibaccept.model.ClusterData d) {
        java.util.Map<String, List<String>> out = new java.util.TreeMap<>();
        List<ContractDesign.SwitchFirmware> all = ContractDesign.switchFirmwares(d);
        if (all != null) for (ContractDesign.SwitchFirmware s : all) out.computeIfAbsent(s.device(), x -> new java.util.ArrayList<>()).add(s.firmware());
        return out;
    }
}
