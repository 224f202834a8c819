package io.ibaccept.dump;

/**
 * Every command a dump can hold, by the file name it is stored under. Per-node commands live in
 * {@code nodes/HOST/NAME.out}; fabric-wide ones (run once from the fabric node) in {@code fabric/NAME.out}.
 */
public enum Cmd {
    IBSTAT("ibstat", false),
    PORTINFO("smpquery-portinfo", false),
    PKEYS("smpquery-pkeys", false),
    PEER_PKEYS("smpquery-pkeys-peer", false),
    NODEINFO("smpquery-nodeinfo", false),
    ULIMIT("ulimit-l", false),
    OFED_INFO("ofed_info", false),
    MLXLINK("mlxlink", false),
    MLXLINK_PCIE("mlxlink-pcie", false),
    ETHTOOL("ethtool-S", false),
    NATIVE_PROBE("native-probe", false),
    IBNETDISCOVER("ibnetdiscover", true),
    IBLINKINFO("iblinkinfo", true),
    IBQUERYERRORS("ibqueryerrors", true),
    PERFQUERY("perfquery", true),
    SMINFO("sminfo", true),
    SAQUERY_SM("saquery-s", true),
    IBDIAGNET_LOG("ibdiagnet2.log", true),
    IBDIAGNET_DB("ibdiagnet2.db_csv", true);

    private final String fileName;
    private final boolean fabricWide;

    Cmd(String fileName, boolean fabricWide) {
        this.fileName = fileName;
        this.fabricWide = fabricWide;
    }

    public String fileName() {
        return fileName;
    }

    public boolean fabricWide() {
        return fabricWide;
    }

    /** Path of the stdout file relative to the dump root. */
    public String path(String host) {
        return fabricWide ? "fabric/" + fileName + ".out" : "nodes/" + host + "/" + fileName + ".out";
    }
}
