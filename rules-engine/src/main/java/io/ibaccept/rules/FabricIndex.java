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
    private final Map<String, Link> linkByEnd = new HashMap<>();
    private final java.util.Set<Integer> switchLids = new java.util.HashSet<>();
    private final java.util.Set<Integer> caLids = new java.util.HashSet<>();
    private Map<String, List<Long>> ambiguous;
    private Map<Long, String> nameByGuid;
    private Map<Long, CaOf> caByGuid;

    /** A CA as its host's ibstat names it: the host and the device (mlx5_0). */
    private record CaOf(String host, String device) {}
    private java.util.Set<String> shared;
    private final ClusterData data;
    private final io.ibaccept.fabric.Fabric fabric;

    /** fabric: the analysis' fabric graph whose roles classify the links, or null when it could not be built. */
    FabricIndex(ClusterData data, io.ibaccept.fabric.Fabric fabric) {
        this.data = data;
        this.fabric = fabric;
        List<LinkInfo> all = data.fabric().links() != null ? data.fabric().links()
                : data.fabric().topology() != null ? fromTopology(data.fabric().topology()) : List.of();
        Map<String, LinkInfo> byEnd = new LinkedHashMap<>();
        for (LinkInfo l : all) {
            byEnd.put(l.lid() + ":" + l.port(), l);
            nameByLid.putIfAbsent(l.lid(), l.nodeName());
            if (!l.switchNode()) {
                if (l.nodeGuid() != 0) caPortByGuid.put(l.nodeGuid(), l); // 0: a GUID the output does not give (redacted)
                caLids.add(l.lid());
            } else {
                switchLids.add(l.lid());
                switchPortByEnd.put(l.lid() + ":" + l.port(), l);
            }
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (LinkInfo l : byEnd.values()) {
            if (!l.isConnected()) continue;
            String me = l.lid() + ":" + l.port();
            String peer = l.remoteLid() + ":" + l.remotePort();
            String key = me.compareTo(peer) < 0 ? me + "|" + peer : peer + "|" + me;
            if (!seen.add(key)) continue;
            LinkInfo other = byEnd.get(peer);
            // a host link is named from its host end ("cn0004 HCA-1 port 1 <-> leaf001 port 4"), whichever line came first
            links.add(other != null && l.switchNode() && !other.switchNode() ? new Link(other, l) : new Link(l, other));
        }
        for (Link k : links)
            for (LinkInfo end : new LinkInfo[] {k.a(), k.b()}) {
                if (end == null) continue;
                linkByEnd.put("g" + end.nodeGuid() + ":" + end.port(), k);
                if (end.lid() > 0) linkByEnd.put("l" + end.lid() + ":" + end.port(), k);
                linkByEnd.putIfAbsent("n" + end.nodeName() + ":" + end.port(), k);
            }
    }

    /**
     * Without iblinkinfo, the links ibnetdiscover printed, as iblinkinfo would list them: every port line with its
     * width and speed (ibnetdiscover walks only links that are up, so they count as Active), a CA port keyed by its
     * port GUID as iblinkinfo keys it. Down ports and "Could be" hints are what iblinkinfo alone knows.
     */
    static List<LinkInfo> fromTopology(io.ibaccept.model.Topology t) {
        List<LinkInfo> out = new ArrayList<>();
        for (io.ibaccept.model.Topology.Node n : t.nodes()) {
            boolean sw = n.type() == io.ibaccept.model.Topology.NodeType.SWITCH;
            for (io.ibaccept.model.Topology.Port p : n.ports())
                out.add(new LinkInfo(sw, sw || p.portGuid() == 0 ? n.guid() : p.portGuid(), n.description(), sw ? n.lid() : p.lid(), p.port(),
                        p.width(), p.speed(), "Active", "LinkUp", p.remoteLid(), p.remotePort(), p.remoteDescription(), "", p.ref()));
        }
        return out;
    }

    /**
     * The host a CA port belongs to, by its GUID as the hosts' own ibstat gives it (port or node GUID), so a node
     * description that is an FQDN or the default "MT4123 ConnectX6 Mellanox Technologies" still finds its host; else
     * the first word of the description.
     */
    public String hostOf(LinkInfo ca) {
        CaOf c = caOf(ca.nodeGuid());
        return c != null ? c.host() : io.ibaccept.fabric.Fabric.hostPart(ca.nodeName());
    }

    /** The device name (mlx5_3) the host's ibstat gives the CA with this node or port GUID, or null when no host has it. */
    public String deviceOf(long guid) {
        CaOf c = caOf(guid);
        return c == null ? null : c.device();
    }

    private synchronized CaOf caOf(long guid) {
        if (caByGuid == null) {
            caByGuid = new HashMap<>();
            for (io.ibaccept.model.HostData h : data.hosts().values()) {
                if (h.ibstat() == null) continue;
                for (io.ibaccept.model.Ibstat.Ca c : h.ibstat()) {
                    CaOf of = new CaOf(h.host(), c.name());
                    if (c.nodeGuid() != 0) caByGuid.putIfAbsent(c.nodeGuid(), of);
                    for (var port : c.ports()) if (port.portGuid() != 0) caByGuid.putIfAbsent(port.portGuid(), of);
                }
            }
        }
        return caByGuid.get(guid);
    }

    /** Node descriptions held by more than one node GUID (topology and iblinkinfo), name -> GUIDs. */
    public Map<String, List<Long>> ambiguousNames() {
        if (ambiguous == null) {
            Map<String, java.util.Set<Long>> guids = new java.util.TreeMap<>();
            if (data.fabric().topology() != null)
                for (io.ibaccept.model.Topology.Node n : data.fabric().topology().nodes())
                    guids.computeIfAbsent(n.description(), k -> new java.util.TreeSet<>()).add(n.guid());
            if (data.fabric().links() != null)
                for (LinkInfo l : data.fabric().links())
                    if (l.switchNode()) guids.computeIfAbsent(l.nodeName(), k -> new java.util.TreeSet<>()).add(l.nodeGuid());
            Map<String, List<Long>> m = new java.util.TreeMap<>();
            guids.forEach((name, g) -> {
                if (g.size() > 1 && !name.isEmpty()) m.put(name, List.copyOf(g));
            });
            ambiguous = m;
        }
        return ambiguous;
    }

    /**
     * The name of a node by its GUID: iblinkinfo's, else the topology's node description, else the tool's own name
     * (fallback), else the GUID; a description several nodes share gets the GUID so the name stays one node.
     */
    public String nameOfGuid(long guid, String fallback) {
        if (nameByGuid == null) {
            nameByGuid = new HashMap<>();
            if (data.fabric().links() != null) for (LinkInfo l : data.fabric().links()) nameByGuid.putIfAbsent(l.nodeGuid(), l.nodeName());
            io.ibaccept.model.Topology t = data.fabric().anyTopology();
            if (t != null) for (io.ibaccept.model.Topology.Node n : t.nodes()) nameByGuid.putIfAbsent(n.guid(), n.description());
        }
        String name = nameByGuid.get(guid);
        if (name == null || name.isBlank()) name = fallback;
        String g = String.format("0x%016x", guid);
        if (name == null || name.isBlank()) return g;
        return ambiguousNames().containsKey(name) || sharedDescription(name) ? name + " (" + g + ")" : name;
    }

    private boolean sharedDescription(String name) {
        if (shared == null) {
            // node GUIDs only (iblinkinfo prints a CA's port GUID, which would make every CA look shared)
            Map<String, java.util.Set<Long>> by = new HashMap<>();
            io.ibaccept.model.Topology t = data.fabric().anyTopology();
            if (t != null) for (io.ibaccept.model.Topology.Node n : t.nodes()) by.computeIfAbsent(n.description(), k -> new java.util.HashSet<>()).add(n.guid());
            else if (data.fabric().links() != null)
                for (LinkInfo l : data.fabric().links()) if (l.switchNode()) by.computeIfAbsent(l.nodeName(), k -> new java.util.HashSet<>()).add(l.nodeGuid());
            shared = new java.util.HashSet<>();
            by.forEach((n, gs) -> {
                if (gs.size() > 1) shared.add(n);
            });
        }
        return shared.contains(name);
    }

    /**
     * The class of a cable as the fabric model gives it (a SHARP aggregation node's link is no host link, a chassis'
     * backplane no cable); without a fabric graph: switch-to-switch or host.
     */
    public io.ibaccept.fabric.Fabric.LinkClass linkClass(Link k) {
        if (fabric != null && k.b() != null) {
            io.ibaccept.fabric.Fabric.Node a = node(k.a()), b = node(k.b());
            var l = a == null ? java.util.Optional.<io.ibaccept.fabric.Fabric.Link>empty() : fabric.linkAt(new io.ibaccept.fabric.Fabric.End(a.guid(), k.a().port()));
            if (l.isPresent() && b != null && l.get().other(l.get().endAt(a.guid())).guid() == b.guid()) return fabric.linkClass(l.get());
        }
        return isIsl(k) ? io.ibaccept.fabric.Fabric.LinkClass.SWITCH_TO_SWITCH : io.ibaccept.fabric.Fabric.LinkClass.HOST;
    }

    private io.ibaccept.fabric.Fabric.Node node(LinkInfo end) {
        return end.switchNode() ? fabric.node(end.nodeGuid()) : fabric.caOfPort(end.nodeGuid());
    }

    /** A switch-to-switch link (inter-switch link), as opposed to a host link. */
    public boolean isIsl(Link k) {
        if (!k.a().switchNode()) return false;
        if (k.b() != null) return k.b().switchNode();
        // the peer has no lines of its own (not listed): a switch unless its LID belongs to a CA port line
        return switchLids.contains(k.a().remoteLid()) || !caLids.contains(k.a().remoteLid());
    }

    /** The host end (CA port line) of a host link, or null for an ISL. */
    public LinkInfo caEnd(Link k) {
        if (!k.a().switchNode()) return k.a();
        return k.b() != null && !k.b().switchNode() ? k.b() : null;
    }

    /** The cable a port belongs to, found by node GUID, else LID, else node name (first match), with the port number. */
    public Optional<Link> linkAt(long guid, int lid, String name, int port) {
        Link k = guid != 0 ? linkByEnd.get("g" + guid + ":" + port) : null;
        if (k == null && lid > 0) k = linkByEnd.get("l" + lid + ":" + port);
        if (k == null && name != null) k = linkByEnd.get("n" + name + ":" + port);
        return Optional.ofNullable(k);
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
            // FDR10 reads as QDR in standard PortInfo: the host's active speed takes ibstat's name where they disagree
            return Optional.of(new Rate(h.portInfo().linkWidthActive(), h.activeSpeed().orElse(h.portInfo().speed()), h.portInfo().ref().toString()));
        for (Ibstat.Ca ca : h.infinibandCas())
            for (Ibstat.Port p : ca.ports()) {
                LinkInfo l = caPortByGuid.get(p.portGuid());
                if (l != null && l.isActive() && l.width() != null && l.speed() != null)
                    return Optional.of(new Rate(l.width(), l.speed(), l.ref().toString()));
            }
        // no fabric view of the port (no iblinkinfo): ibstat's own rate ("Rate: 40 (FDR10)": 4 lanes of FDR10)
        for (Ibstat.Ca ca : h.infinibandCas())
            for (Ibstat.Port p : ca.ports())
                if (p.isActive() && p.namedSpeed().isPresent()) {
                    LinkSpeed sp = p.namedSpeed().get();
                    Optional<LinkWidth> w = p.width() != null ? Optional.of(p.width())
                            : p.rate() > 0 ? LinkWidth.parse(Math.round(p.rate() / sp.signalGbps()) + "X") : Optional.empty();
                    if (w.isPresent()) return Optional.of(new Rate(w.get(), sp, p.ref().toString()));
                }
        return Optional.empty();
    }

    /**
     * Who holds a port GUID or LID, for naming SMs and ports: the host whose ibstat lists it, else the topology's (or ibdiagnet's
     * copy of it) node description, else the iblinkinfo name of the LID; "lid N" / the GUID when nothing knows it.
     */
    public String whoIs(long guid, int lid) {
        for (HostData h : data.hosts().values())
            if (h.ibstat() != null)
                for (Ibstat.Ca ca : h.ibstat()) {
                    if (guid != 0 && ca.nodeGuid() == guid) return h.host();
                    for (Ibstat.Port p : ca.ports())
                        if (guid != 0 && p.portGuid() == guid || lid > 0 && p.baseLid() == lid && p.isActive()) return h.host();
                }
        if (data.fabric().anyTopology() != null)
            for (io.ibaccept.model.Topology.Node n : data.fabric().anyTopology().nodes()) {
                if (guid != 0 && n.guid() == guid) return n.description();
                for (io.ibaccept.model.Topology.Port p : n.ports())
                    if (guid != 0 && p.portGuid() == guid || lid > 0 && p.lid() == lid) return n.description();
                if (lid > 0 && n.lid() == lid) return n.description();
            }
        if (lid > 0 && nameByLid.containsKey(lid)) return nameByLid.get(lid);
        return lid > 0 ? "lid " + lid : String.format("GUID 0x%016x", guid);
    }

    /** Whether the name is a host of the manifest (a compute/service node, not a switch). */
    public boolean isHost(String name) {
        return data.hosts().containsKey(name);
    }

    /** Base LID of the host's first active port (ibstat), or -1. */
    public int lidOf(String host) {
        HostData h = data.hosts().get(host);
        if (h == null || h.ibstat() == null) return -1;
        for (Ibstat.Ca ca : h.ibstat()) for (Ibstat.Port p : ca.ports()) if (p.isActive()) return p.baseLid();
        return -1;
    }
}
