package io.ibaccept.dump;

/**
 * Every command a dump can hold, by the file name it is stored under. Per-node commands live in
 * {@code nodes/HOST/NAME.out}; fabric-wide ones (run once from the fabric node) in {@code fabric/NAME.out}.
 */
public enum Cmd {
    IBSTAT("ibstat", false, false),
    PORTINFO("smpquery-portinfo", false, false),
    PKEYS("smpquery-pkeys", false, false),
    PEER_PKEYS("smpquery-pkeys-peer", false, false),
    /** PortInfo of the switch port this HCA is cabled to (PartEnforceInb/Outb read there); absent from older dumps. */
    PEER_PORTINFO("smpquery-portinfo-peer", false, true),
    NODEINFO("smpquery-nodeinfo", false, false),
    ULIMIT("ulimit-l", false, false),
    OFED_INFO("ofed_info", false, false),
    MLXLINK("mlxlink", false, true),
    MLXLINK_PCIE("mlxlink-pcie", false, true),
    ETHTOOL("ethtool-S", false, true),
    NATIVE_PROBE("native-probe", false, true),
    /** Fallback for hosts where ibstat is missing: same port facts, no firmware. */
    IBSTATUS("ibstatus", false, true),
    IBNETDISCOVER("ibnetdiscover", true, false),
    IBLINKINFO("iblinkinfo", true, false),
    IBQUERYERRORS("ibqueryerrors", true, false),
    PERFQUERY("perfquery", true, false),
    SMINFO("sminfo", true, false),
    SAQUERY_SM("saquery-s", true, false),
    /** Multicast groups of the SA (IPoIB broadcast group MTU per partition); always collected, absent from older dumps. */
    SAQUERY_MCG("saquery-g", true, true),
    IBDIAGNET_LOG("ibdiagnet2.log", true, true),
    IBDIAGNET_DB("ibdiagnet2.db_csv", true, true),
    /** ibdiagnet's per-port counter dump (written next to ibdiagnet2.db_csv). */
    IBDIAGNET_PM("ibdiagnet2.pm", true, true),
    /** ibdiagnet's own topology (ibnetdiscover dialect with port labels): the fallback where ibnetdiscover is missing. */
    IBDIAGNET_NETDISCOVER("ibdiagnet2.ibnetdiscover", true, true),
    COUNTERS_START("counters-start", true, true),
    COUNTERS_END("counters-end", true, true),
    UPTIME("uptime", false, true),
    // MPI/UCX/GPU readiness (#10): every one optional, a node without GPUs or without UCX is normal
    /** ulimit -l as a Slurm job step sees it (srun on the node), next to the login shell's ulimit-l. */
    ULIMIT_STEP("ulimit-l-step", false, true),
    UCX_VERSION("ucx_info-v", false, true),
    UCX_DEVICES("ucx_info-d", false, true),
    OMPI_INFO("ompi_info", false, true),
    /** NUMA node of each RDMA device from sysfs (grep -H . /sys/class/infiniband/{@literal *}/device/numa_node). */
    HCA_NUMA("hca-numa", false, true),
    NVIDIA_TOPO("nvidia-smi-topo", false, true),
    /** lsmod: nvidia_peermem / nv_peer_mem (GPUDirect RDMA) and the nvidia driver. */
    LSMOD("lsmod", false, true),
    // IPoIB, time, CC/AR (#10): host configuration, optional (older dumps and hosts without the tool lack them)
    /** iproute2 'ip -d addr show': IPoIB interfaces with mode, P_Key, MTU, state and addresses. */
    IP_ADDR("ip-d-addr", false, true),
    /**
     * chronyc tracking: time synchronisation state and offset; on a host without chrony where ptp4l runs, linuxptp's
     * 'pmc GET TIME_STATUS_NP' instead (the parser tells them apart by content).
     */
    CHRONY("chronyc-tracking", false, true),
    /** mlxconfig q of each IB device (firmware configuration: adaptive routing / congestion control settings). */
    MLXCONFIG("mlxconfig-q", false, true),
    // SM configuration (#10): collected on SM nodes only (--sm-nodes, or where an opensm process runs)
    /** ibaccept's record of the running opensm: pid, arguments, and the config/partitions/log files it uses. */
    OPENSM_PROCESS("opensm-process", false, true),
    OPENSM_CONF("opensm.conf", false, true),
    PARTITIONS_CONF("partitions.conf", false, true),
    /** A bounded tail of opensm's log file. */
    OPENSM_LOG("opensm.log", false, true);

    private final String fileName;
    private final boolean fabricWide;
    private final boolean optional;

    Cmd(String fileName, boolean fabricWide, boolean optional) {
        this.fileName = fileName;
        this.fabricWide = fabricWide;
        this.optional = optional;
    }

    /**
     * Host and SM configuration facts gathered on every node whether or not the site uses the tool (#10): an installed
     * tool that fails on a healthy node (nvidia-smi without a loaded driver, mlxconfig without root or on a VF, chronyc
     * without chronyd) leaves that fact unverified, which is worth a warning but does not make the acceptance incomplete.
     */
    public boolean bestEffort() {
        return switch (this) {
            case ULIMIT_STEP, UCX_VERSION, UCX_DEVICES, OMPI_INFO, HCA_NUMA, NVIDIA_TOPO, LSMOD, IP_ADDR, CHRONY, MLXCONFIG,
                    OPENSM_PROCESS, OPENSM_CONF, PARTITIONS_CONF, OPENSM_LOG -> true;
            default -> false;
        };
    }

    /**
     * Collected only on request (--mlxlink, --ibdiagnet, --ethtool, --probe-cmd), or added to the collection after older
     * dumps were written (saquery-g, smpquery-portinfo-peer): absence is not a missing input.
     */
    public boolean optional() {
        return optional;
    }

    public String fileName() {
        return fileName;
    }

    public boolean fabricWide() {
        return fabricWide;
    }

    /** The command stored under this file name (as findings and --only name it), if any. */
    public static java.util.Optional<Cmd> named(String fileName) {
        for (Cmd c : values()) if (c.fileName.equals(fileName)) return java.util.Optional.of(c);
        return java.util.Optional.empty();
    }

    /** Path of the stdout file relative to the dump root. */
    public String path(String host) {
        return fabricWide ? "fabric/" + fileName + ".out" : "nodes/" + host + "/" + fileName + ".out";
    }
}
