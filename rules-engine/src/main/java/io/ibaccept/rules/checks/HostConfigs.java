package io.ibaccept.rules.checks;

import io.ibaccept.model.HostConfig;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Hostlists;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Shared reading of the host configuration for the ipoib.*, time.sync and hca.config checks. */
final class HostConfigs {
    private HostConfigs() {}

    /** At most this many evidence lines per finding: the hostlist names every host, the evidence shows examples. */
    static final int MAX_EVIDENCE = 8;

    static HostConfig of(HostData h) {
        return h.config();
    }

    /** The IB port an IPoIB interface runs on: by the port GUID in its hardware address, else the host's only IB port. */
    static Ibstat.Port port(HostData h, HostConfig.IpLink l) {
        List<Ibstat.Port> ib = new ArrayList<>();
        for (Ibstat.Ca ca : h.infinibandCas())
            for (Ibstat.Port p : ca.ports()) {
                if (l.portGuid() != 0 && p.portGuid() == l.portGuid()) return p;
                if (p.isInfiniband()) ib.add(p);
            }
        return ib.size() == 1 && (l.portGuid() == 0 || ib.get(0).portGuid() == 0) ? ib.get(0) : null;
    }

    /** "mlx5_0 port 1" for the port, found again by identity among the host's CAs. */
    static String portName(HostData h, Ibstat.Port p) {
        for (Ibstat.Ca ca : h.infinibandCas()) if (ca.ports().contains(p)) return ca.name() + " port " + p.number();
        return "port " + p.number();
    }

    /** Whether the port is Active: ibstat/ibstatus when the interface maps to a port, else PortInfo's LinkState. */
    static Boolean portActive(HostData h, HostConfig.IpLink l) {
        Ibstat.Port p = port(h, l);
        if (p != null) return p.isActive();
        if (h.portInfo() != null && !h.portInfo().linkState().isEmpty()) return h.portInfo().linkState().equalsIgnoreCase("Active");
        return null;
    }

    static String hostlist(Collection<String> hosts) {
        return Hostlists.compress(hosts);
    }

    static List<Evidence> limit(List<Evidence> ev) {
        return ev.size() <= MAX_EVIDENCE ? ev : ev.subList(0, MAX_EVIDENCE);
    }
}
