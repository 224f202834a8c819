package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.List;
import java.util.Map;

/**
 * Counters of one port, under the IBA names (SymbolErrorCounter, LinkDownedCounter, PortXmitData ...), from
 * {@code perfquery} (lid known), {@code ibqueryerrors} (guid and node name known, only counters over threshold
 * listed), ibdiagnet2 PM_INFO / PM_DELTA / ibdiagnet2.pm (guid + port, 64-bit values where the port has them).
 * port is -1 for an aggregate ("ALL") record. Key a port by {@link #key()} (node GUID + port), never by name.
 * nodeGuid is 0 where the tool does not print it: ibqueryerrors prints no node GUID for CAs, only the port GUID (kept
 * in portGuid; {@link FabricData#countersByPort()} resolves it to the node through ibdiagnet or the topology).
 */
public record PortCounters(long nodeGuid, String nodeName, int lid, int port, Map<String, Long> counters,
                           SourceRef ref, long portGuid) {
    public PortCounters(long nodeGuid, String nodeName, int lid, int port, Map<String, Long> counters, SourceRef ref) {
        this(nodeGuid, nodeName, lid, port, counters, ref, 0);
    }

    /** The error counters the link checks judge, in IBA order. */
    public static final List<String> ERROR_COUNTERS = List.of("SymbolErrorCounter", "LinkErrorRecoveryCounter",
            "LinkDownedCounter", "PortRcvErrors", "PortRcvRemotePhysicalErrors", "PortRcvSwitchRelayErrors",
            "PortXmitDiscards", "PortXmitConstraintErrors", "PortRcvConstraintErrors", "LocalLinkIntegrityErrors",
            "ExcessiveBufferOverrunErrors", "VL15Dropped", "PortXmitWait");

    /** Field widths of the classic PortCounters attribute (IBA 16.1.3.5); a value at the maximum is saturated. */
    private static final Map<String, Integer> WIDTHS = Map.ofEntries(Map.entry("SymbolErrorCounter", 16),
            Map.entry("LinkErrorRecoveryCounter", 8), Map.entry("LinkDownedCounter", 8), Map.entry("PortRcvErrors", 16),
            Map.entry("PortRcvRemotePhysicalErrors", 16), Map.entry("PortRcvSwitchRelayErrors", 16),
            Map.entry("PortXmitDiscards", 16), Map.entry("PortXmitConstraintErrors", 8),
            Map.entry("PortRcvConstraintErrors", 8), Map.entry("LocalLinkIntegrityErrors", 4),
            Map.entry("ExcessiveBufferOverrunErrors", 4), Map.entry("VL15Dropped", 16), Map.entry("PortXmitWait", 32),
            Map.entry("PortXmitData", 32), Map.entry("PortRcvData", 32), Map.entry("PortXmitPkts", 32),
            Map.entry("PortRcvPkts", 32));

    public PortCounters {
        counters = Map.copyOf(counters);
    }

    /** The same record attributed to a node GUID (when it was only known by its port GUID). */
    public PortCounters withNodeGuid(long guid) {
        return new PortCounters(guid, nodeName, lid, port, counters, ref, portGuid);
    }

    public long get(String name) {
        return counters.getOrDefault(name, 0L);
    }

    public boolean has(String name) {
        return counters.containsKey(name);
    }

    /** Node GUID + port: the identity of a port across tools. */
    public record Key(long nodeGuid, int port) {}

    public Key key() {
        return new Key(nodeGuid, port);
    }

    /** Width in bits of a classic (non-extended) PortCounters field, or 64. */
    public static int width(String name) {
        return WIDTHS.getOrDefault(name, 64);
    }

    /** True when the value sits at its 16/8/32-bit maximum: the real count is at least this ("at least 65535"). */
    public boolean saturated(String name) {
        int w = width(name);
        return w < 64 && has(name) && get(name) == (1L << w) - 1;
    }

    /** The error counters of this record that are above zero, in IBA order. */
    public Map<String, Long> nonZeroErrors() {
        Map<String, Long> m = new java.util.LinkedHashMap<>();
        for (String n : ERROR_COUNTERS) if (get(n) > 0) m.put(n, get(n));
        return m;
    }
}
