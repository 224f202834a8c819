package io.ibaccept.dump;

import io.ibaccept.dump.sources.Source;
import io.ibaccept.dump.sources.Sources;

/**
 * The key of every command output a dump can hold, as checks declare their inputs and findings name files. What each
 * one is (file name, scope, how it is collected, its parser, its collect hint, where its result lives in the model) is
 * its descriptor in {@link io.ibaccept.dump.sources}.
 */
public enum Cmd {
    IBSTAT, PORTINFO, PKEYS, PEER_PKEYS, PEER_PORTINFO, NODEINFO, ULIMIT, OFED_INFO, MLXLINK, MLXLINK_PCIE, ETHTOOL,
    NATIVE_PROBE, IBSTATUS,
    IBNETDISCOVER, IBLINKINFO, IBQUERYERRORS, PERFQUERY, SMINFO, SAQUERY_SM, SAQUERY_MCG, IBDIAGNET_LOG, IBDIAGNET_DB,
    IBDIAGNET_PM, IBDIAGNET_NETDISCOVER, IBDIAGNET_SM, IBDIAGNET_PKEY, COUNTERS_START, COUNTERS_END, UPTIME, DUMP_FTS, SL2VL,
    // MPI/UCX/GPU readiness
    ULIMIT_STEP, UCX_VERSION, UCX_DEVICES, OMPI_INFO, HCA_NUMA, NVIDIA_TOPO, LSMOD,
    // IPoIB, time, CC/AR
    IP_ADDR, CHRONY, MLXCONFIG,
    // SM configuration
    OPENSM_PROCESS, OPENSM_CONF, PARTITIONS_CONF, OPENSM_LOG, OPENSM_ROUTING_FILES,
    // active tests
    SM_DRILL, ISL_DRILL,
    // ibdiagnet's physical layer: cable modules, port FEC/BER
    IBDIAGNET_CABLES, IBDIAGNET_NET_DUMP, IBDIAGNET_NET_DUMP_EXT,
    // the N-1 run on the fabric's twin
    RESILIENCE;

    /** Its descriptor. */
    public Source<?> source() {
        return Sources.of(this);
    }

    public String fileName() {
        return source().fileName();
    }

    /** The command stored under this file name (as findings and --only name it), if any. */
    public static java.util.Optional<Cmd> named(String fileName) {
        return Sources.named(fileName);
    }

    /** Path of the stdout file relative to the dump root (host: ignored for fabric-wide commands). */
    public String path(String host) {
        return source().path(host);
    }
}
