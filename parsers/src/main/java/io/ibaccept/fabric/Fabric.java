package io.ibaccept.fabric;

import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.parse.SourceRef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fabric as one graph: switches and CAs keyed by node GUID, cables with two ends, ports that are down, and the
 * level of every switch counted from the hosts up (leaf = 1, spine = 2, core = 3; CAs are 0; -1 = not reachable from
 * any leaf). Built once per dump by {@link FabricBuilder}; every fabric-level check reads this instead of the raw tools.
 */
public final class Fabric {
    public enum Type { SWITCH, CA, ROUTER }

    /** One node. name is the node-name-map name if mapped, else the node description the tools print. */
    public record Node(long guid, Type type, String name, String description, int lid, int level, SourceRef ref) {
        public boolean isSwitch() {
            return type == Type.SWITCH;
        }
    }

    /** One end of a cable: node GUID and port number. */
    public record End(long guid, int port) implements Comparable<End> {
        public int compareTo(End o) {
            int c = Long.compareUnsigned(guid, o.guid);
            return c != 0 ? c : Integer.compare(port, o.port);
        }
    }

    /**
     * A cable, a < b. state/physState come from iblinkinfo ("" when only ibnetdiscover saw it: it lists links that
     * are up); width/speed may be null when no tool printed them. refs: where each end was read.
     */
    public record Link(End a, End b, LinkWidth width, LinkSpeed speed, String state, String physState, List<SourceRef> refs) {
        public Link {
            refs = List.copyOf(refs);
        }

        /** Up and passing traffic: Active per iblinkinfo, or discovered by ibnetdiscover without a state. */
        public boolean isActive() {
            return state.isEmpty() || "Active".equalsIgnoreCase(state);
        }

        public End other(End e) {
            return e.equals(a) ? b : a;
        }

        public End endAt(long guid) {
            return a.guid() == guid ? a : b;
        }

        public double dataGbps() {
            return width == null || speed == null ? 0 : speed.dataGbps(width);
        }

        public String rate() {
            return (width == null ? "?" : width.toString()) + " " + (speed == null ? "?" : speed.name());
        }
    }

    /** A port with no cable seen at its other end (iblinkinfo: Down/Polling, Disabled...). */
    public record Port(End end, String state, String physState, SourceRef ref) {}

    private final Map<Long, Node> nodes;
    private final List<Link> links;
    private final List<Port> downPorts;
    private final Map<Long, List<Link>> linksByNode = new HashMap<>();
    private final Map<Long, List<Port>> downByNode = new HashMap<>();
    private final Map<End, Link> linkByEnd = new HashMap<>();
    private final Map<String, List<Node>> byName = new HashMap<>();
    private final List<String> notes;

    Fabric(Map<Long, Node> nodes, List<Link> links, List<Port> downPorts, List<String> notes) {
        this.nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
        List<Link> sorted = new ArrayList<>(links);
        sorted.sort(Comparator.comparing(Link::a).thenComparing(Link::b));
        this.links = List.copyOf(sorted);
        this.downPorts = List.copyOf(downPorts);
        this.notes = List.copyOf(notes);
        for (Link l : this.links) {
            linksByNode.computeIfAbsent(l.a().guid(), k -> new ArrayList<>()).add(l);
            if (l.b().guid() != l.a().guid()) linksByNode.computeIfAbsent(l.b().guid(), k -> new ArrayList<>()).add(l);
            linkByEnd.put(l.a(), l);
            linkByEnd.put(l.b(), l);
        }
        for (Port p : this.downPorts) downByNode.computeIfAbsent(p.end().guid(), k -> new ArrayList<>()).add(p);
        for (Node n : this.nodes.values()) {
            byName.computeIfAbsent(n.name(), k -> new ArrayList<>()).add(n);
            if (!n.description().equals(n.name())) byName.computeIfAbsent(n.description(), k -> new ArrayList<>()).add(n);
        }
    }

    public Map<Long, Node> nodes() {
        return nodes;
    }

    public List<Link> links() {
        return links;
    }

    public List<Port> downPorts() {
        return downPorts;
    }

    /** Inconsistencies met while joining the tools (e.g. an iblinkinfo remote LID no node has). */
    public List<String> notes() {
        return notes;
    }

    public Node node(long guid) {
        return nodes.get(guid);
    }

    public List<Node> switches() {
        return nodes.values().stream().filter(Node::isSwitch).toList();
    }

    public List<Node> cas() {
        return nodes.values().stream().filter(n -> n.type() == Type.CA).toList();
    }

    public List<Node> atLevel(int level) {
        return nodes.values().stream().filter(n -> n.isSwitch() && n.level() == level).toList();
    }

    public int maxLevel() {
        return nodes.values().stream().filter(Node::isSwitch).mapToInt(Node::level).max().orElse(0);
    }

    public List<Link> linksOf(long guid) {
        return linksByNode.getOrDefault(guid, List.of());
    }

    public List<Port> downPortsOf(long guid) {
        return downByNode.getOrDefault(guid, List.of());
    }

    public Optional<Link> linkAt(End end) {
        return Optional.ofNullable(linkByEnd.get(end));
    }

    /** Nodes with this name or node description (several when names are not unique). */
    public List<Node> byName(String name) {
        return byName.getOrDefault(name, List.of());
    }

    public boolean isSwitchToSwitch(Link l) {
        Node a = nodes.get(l.a().guid()), b = nodes.get(l.b().guid());
        return a != null && b != null && a.isSwitch() && b.isSwitch();
    }

    public String name(long guid) {
        Node n = nodes.get(guid);
        return n != null ? n.name() : String.format("0x%016x", guid);
    }

    /** "leaf03 port 17". */
    public String name(End e) {
        return name(e.guid()) + " port " + e.port();
    }

    /** "leaf03 port 17 <-> spine02 port 5", the lower level first so uplinks read leaf to spine. */
    public String name(Link l) {
        End first = l.a(), second = l.b();
        Node na = nodes.get(first.guid()), nb = nodes.get(second.guid());
        if (na != null && nb != null && levelOf(na) > levelOf(nb)) {
            End t = first;
            first = second;
            second = t;
        }
        return name(first) + " <-> " + name(second);
    }

    private static int levelOf(Node n) {
        return n.isSwitch() ? n.level() : 0;
    }
}
