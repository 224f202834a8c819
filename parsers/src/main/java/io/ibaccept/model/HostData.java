package io.ibaccept.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;

/**
 * Everything collected on one host. A field is null when its input was missing or unusable (see problems).
 * ibstat keeps every CA of the host (several HCAs, VFs, Ethernet functions); ibstatus is the fallback read when
 * ibstat is missing or unusable (no firmware or GUIDs in it).
 */
public record HostData(String host, List<Ibstat.Ca> ibstat, PortInfo portInfo, SortedSet<Integer> pkeys,
                       SortedSet<Integer> peerPkeys, NodeInfo nodeInfo, Long memlockKib, String ofedVersion,
                       Mlxlink mlxlink, Mlxlink mlxlinkPcie, Map<String, Long> ethtool,
                       Map<String, String> nativeProbe, List<Ibstat.Ca> ibstatus,
                       Double uptimeSeconds, PortInfo peerPortInfo, RdmaRuntime runtime, HostConfig config) {

    /** A host without the facts of the MPI/UCX/GPU runtime, IPoIB, time and mlxconfig: older dumps, or none collected. */
    public HostData(String host, List<Ibstat.Ca> ibstat, PortInfo portInfo, SortedSet<Integer> pkeys,
                    SortedSet<Integer> peerPkeys, NodeInfo nodeInfo, Long memlockKib, String ofedVersion,
                    Mlxlink mlxlink, Mlxlink mlxlinkPcie, Map<String, Long> ethtool,
                    Map<String, String> nativeProbe, List<Ibstat.Ca> ibstatus,
                    Double uptimeSeconds, PortInfo peerPortInfo) {
        this(host, ibstat, portInfo, pkeys, peerPkeys, nodeInfo, memlockKib, ofedVersion, mlxlink, mlxlinkPcie, ethtool,
                nativeProbe, ibstatus, uptimeSeconds, peerPortInfo, null, null);
    }

    /** A host without the PortInfo of its switch port (dumps written before smpquery-portinfo-peer). */
    public HostData(String host, List<Ibstat.Ca> ibstat, PortInfo portInfo, SortedSet<Integer> pkeys,
                    SortedSet<Integer> peerPkeys, NodeInfo nodeInfo, Long memlockKib, String ofedVersion,
                    Mlxlink mlxlink, Mlxlink mlxlinkPcie, Map<String, Long> ethtool,
                    Map<String, String> nativeProbe, List<Ibstat.Ca> ibstatus, Double uptimeSeconds) {
        this(host, ibstat, portInfo, pkeys, peerPkeys, nodeInfo, memlockKib, ofedVersion, mlxlink, mlxlinkPcie, ethtool,
                nativeProbe, ibstatus, uptimeSeconds, null);
    }

    /** A host with the always-collected inputs only (no ibstatus fallback, no counter-window uptime). */
    public HostData(String host, List<Ibstat.Ca> ibstat, PortInfo portInfo, SortedSet<Integer> pkeys,
                    SortedSet<Integer> peerPkeys, NodeInfo nodeInfo, Long memlockKib, String ofedVersion,
                    Mlxlink mlxlink, Mlxlink mlxlinkPcie, Map<String, Long> ethtool, Map<String, String> nativeProbe) {
        this(host, ibstat, portInfo, pkeys, peerPkeys, nodeInfo, memlockKib, ofedVersion, mlxlink, mlxlinkPcie, ethtool,
                nativeProbe, null, null);
    }


    /** The host's CAs from ibstat, else from ibstatus, else empty. */
    public List<Ibstat.Ca> cas() {
        if (ibstat != null) return ibstat;
        return ibstatus != null ? ibstatus : List.of();
    }

    /** Every InfiniBand CA of the host (Ethernet functions left out), in ibstat order: compare firmware on each. */
    public List<Ibstat.Ca> infinibandCas() {
        List<Ibstat.Ca> out = new ArrayList<>();
        for (Ibstat.Ca ca : cas()) if (ca.isInfiniband()) out.add(ca);
        return out;
    }

    /**
     * The active speed of the host's port: PortInfo's, except where standard PortInfo cannot tell FDR10 from QDR
     * ("10.0 Gbps" without the MLNX extended block) and ibstat/ibstatus names the speed ("Rate: 40 (FDR10)").
     */
    public java.util.Optional<LinkSpeed> activeSpeed() {
        if (portInfo != null && portInfo.speed() != null && !portInfo.speedAmbiguous()) return java.util.Optional.of(portInfo.speed());
        for (Ibstat.Ca ca : infinibandCas())
            for (Ibstat.Port p : ca.ports())
                if (p.isActive() && p.namedSpeed().isPresent()) return p.namedSpeed();
        return portInfo == null ? java.util.Optional.empty() : java.util.Optional.ofNullable(portInfo.speed());
    }

    /** True when port state comes from ibstatus because ibstat was not usable. */
    public boolean fromIbstatus() {
        return ibstat == null && ibstatus != null;
    }
}
