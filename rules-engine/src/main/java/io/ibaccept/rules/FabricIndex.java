package io.ibaccept.rules;

import io.ibaccept.model.ClusterData;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Lookups joining per-host and fabric-wide data: links deduplicated, CA ports by GUID, names by LID. */
public final class FabricIndex {
    /** One physical link seen from both ends (b may be null for a port with no remote). */
    public record Link(LinkInfo a, LinkInfo b) {
        public String name() {
            return end(a) + " <-> " + (b != null ? end(b) : "\"" + a.remoteName() + "\" port " + a.remotePort());
        }

        public static String end(LinkInfo l) {
            return l.nodeName() + " port " + l.port();
        }
    }

    /** The negotiated rate of a host's HCA link and where it was read. */
    public record Rate(LinkWidth width, LinkSpeed speed, String where) {
        public double dataGbps() {
            return speed.dataGbps(width);
        }

        @Override
        public String toString() {
            return width + " " + speed;
        }
    }

    private final List<Link> links = new ArrayList<>();
    private final Map<Long, LinkInfo> caPortByGuid = new HashMap<>();
    private final Map<Integer, String> nameByLid = new HashMap<>();
    private final Map<String, LinkInfo> switchPortByEnd = new HashMap<>();
    private final ClusterData data;

    FabricIndex(ClusterData data) {
        this.data = data;
        List<LinkInfo> all = data.fabric().links() == null ? List.of() : data.fabric().links();
        Map<String, LinkInfo> byEnd = new LinkedHashMap<>();
        for (LinkInfo l : all) {
            byEnd.put(l.lid() + ":" + l.port(), l);
            nameByLid.putIfAbsent(l.lid(), l.nodeName());
            if (!l.switchNode()) caPortByGuid.put(l.nodeGuid(), l);
            else switchPortByEnd.put(l.lid() + ":" + l.port(), l);
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (LinkInfo l : byEnd.values()) {
            if (!l.isConnected()) continue;
            String me = l.lid() + ":" + l.port();
            String peer = l.remoteLid() + ":" + l.remotePort();
            String key = me.compareTo(peer) < 0 ? me + "|" + peer : peer + "|" + me;
            if (!seen.add(key)) continue;
            links.add(new Link(l, byEnd.get(peer)));
        }
    }

    public List<Link> links() {
        return links;
    }

    public Optional<String> nameOfLid(int lid) {
        return Optional.ofNullable(nameByLid.get(lid));
    }

    /** LID of a node by its iblinkinfo name ("leaf03", "node11 HCA-1"). */
    public Optional<Integer> lidOfName(String name) {
        return nameByLid.entrySet().stream().filter(e -> e.getValue().equals(name)).map(Map.Entry::getKey).findFirst();
    }

    /** The switch-side iblinkinfo line of the link a host port is cabled to. */
    public Optional<LinkInfo> peerOf(long portGuid) {
        LinkInfo ca = caPortByGuid.get(portGuid);
        if (ca == null || !ca.isConnected()) return Optional.empty();
        return Optional.ofNullable(switchPortByEnd.get(ca.remoteLid() + ":" + ca.remotePort()));
    }

    /** Negotiated rate of the host's first active HCA port: its own PortInfo if collected, else iblinkinfo. */
    public Optional<Rate> rateOf(String host) {
        HostData h = data.hosts().get(host);
        if (h == null) return Optional.empty();
        if (h.portInfo() != null && h.portInfo().linkWidthActive() != null && h.portInfo().speed() != null
                && "Active".equalsIgnoreCase(h.portInfo().linkState()))
            return Optional.of(new Rate(h.portInfo().linkWidthActive(), h.portInfo().speed(), h.portInfo().ref().toString()));
        if (h.ibstat() != null) {
            for (Ibstat.Ca ca : h.ibstat())
                for (Ibstat.Port p : ca.ports()) {
                    LinkInfo l = caPortByGuid.get(p.portGuid());
                    if (l != null && l.isActive() && l.width() != null && l.speed() != null)
                        return Optional.of(new Rate(l.width(), l.speed(), l.ref().toString()));
                }
        }
        return Optional.empty();
    }

    /** Base LID of the host's first active port (ibstat), or -1. */
    public int lidOf(String host) {
        HostData h = data.hosts().get(host);
        if (h == null || h.ibstat() == null) return -1;
        for (Ibstat.Ca ca : h.ibstat()) for (Ibstat.Port p : ca.ports()) if (p.isActive()) return p.baseLid();
        return -1;
    }
}
