package io.ibaccept.model;

import java.util.List;
import java.util.Map;
import java.util.SortedSet;

/** Everything collected on one host. A field is null when its input was missing or unusable (see problems). */
public record HostData(String host, List<Ibstat.Ca> ibstat, PortInfo portInfo, SortedSet<Integer> pkeys,
                       SortedSet<Integer> peerPkeys, NodeInfo nodeInfo, Long memlockKib, String ofedVersion,
                       Mlxlink mlxlink, Mlxlink mlxlinkPcie, Map<String, Long> ethtool,
                       Map<String, String> nativeProbe, Double uptimeSeconds) {}
