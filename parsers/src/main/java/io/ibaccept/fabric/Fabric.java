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
 * The fabric as one graph: switches and CAs keyed by node GUID, cables with two ends, ports that are down, the role
 * of every node and the class of every cable, and the level of every switch counted from the hosts up (leaf = 1, spine
 * = 2, core = 3; CAs are 0; -1 = not reachable from any leaf). Built once per analysis by {@link FabricBuilder}; every
 * fabric-level check and picture reads roles and classes from here instead of deriving them from the raw tools.
 */
public final class Fabric {
    public enum Type { SWITCH, CA, ROUTER }

    /**
     * What a node is in the fabric. A SHARP aggregation node is a CA inside a Quantum switch (on its last port, 41 or
     * 65): it belongs to that switch, is never a host, and never makes its switch a leaf. An APPLIANCE is a CA of a
     * management machine (a UFM appliance or server, a management node) cabled to a leaf: no compute host, so its cable
     * is no downlink a blocking ratio counts.
     */
    public enum Role { HOST, AGGREGATION_NODE, APPLIANCE, SWITCH, ROUTER }

    /** What a cable joins, from the roles of its ends. */
    public enum LinkClass {
        /** a host CA to a switch */
        HOST,
        /** two switches of different systems: the links a fat tree is made of */
        SWITCH_TO_SWITCH,
        /** two ASICs of one chassis switch (a backplane link, not a cable) */
        CHASSIS_INTERNAL,
        /** a switch to its own SHARP aggregation node */
        AGGREGATION,
        /** a switch to a management appliance (UFM, management node): not a compute downlink */
        APPLIANCE,
        /** two CAs cabled back to back without a switch */
        HOST_TO_HOST,
        /** a cable from a switch back to the same switch */
        LOOPBACK,
        /** anything with a router, or an end of unknown role */
        OTHER
    }

    /**
     * One node. name is the node-name-map name if mapped, else the node description the tools print. system is the
     * system image GUID of the chassis the switch ASIC is part of (several switches share it), 0 for a node that is a
     * system of its own. group numbers the switches that belong together below the top level (a scalable unit: leaves
     * and the spines they share; on a 1- or 2-level fabric a plane or rail: switches cabled together), from 1; 0 for
     * CAs and switches on no level.
     */
    public record Node(long guid, Type type, Role role, String name, String description, int lid, int level, long system, int group,
                       SourceRef ref) {
        public boolean isSwitch() {
            return type == Type.SWITCH;
        }

        public boolean isHost() {
            return role == Role.HOST;
        }

        /** Part of a chassis switch (line or spine ASIC). */
        public boolean inChassis() {
            return system != 0;
        }

        /** The name people use: "SLG01-10" for a managed switch's "MF0;SLG01-10:MQM8700/U1", else the name. */
        public String shortName() {
            return Fabric.shortName(name);
        }

        /**
         * The name family: the short name with its numbers as '#' ("LG#-#" for LG01-05, "MLG#-#" for a management
         * leaf MLG01-01). Switches named alike are built alike; a fat tree compares a leaf with its family.
         */
        public String family() {
            return DIGITS.matcher(shortName()).replaceAll("#");
        }
    }

    private static final java.util.regex.Pattern DIGITS = java.util.regex.Pattern.compile("[0-9]+");

    /**
     * The host a CA's node description names: its first word ("node07" of "node07 HCA-1" or of " node07 HCA-1"); "" for
     * a missing or blank description.
     */
    public static String hostPart(String description) {
        if (description == null) return "";
        String d = description.strip();
        int end = 0;
        while (end < d.length() && !blank(d.charAt(end))) end++; // the blanks of the regex \s, scanned by hand: called per CA
        return d.substring(0, end);
    }

    private static boolean blank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0b || c == '\f' || c == '\r';
    }

    private static final java.util.regex.Pattern MANAGED = java.util.regex.Pattern.compile("^[A-Za-z0-9]+;([^;:]+):[^;]*$");

    /** "SLG01-10" for a managed switch's description "MF0;SLG01-10:MQM8700/U1"; any other name as it is. */
    public static String shortName(String name) {
        if (name == null) return "";
        java.util.regex.Matcher m = MANAGED.matcher(name);
        return m.matches() ? m.group(1) : name;
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

        /**
         * Physically trained (LinkUp), Active or not: the cable is there and carries traffic once the SM configures
         * the port. Structure and capacity are judged on these; a port stuck in Init is port.state's finding.
         */
        public boolean isUp() {
            return isActive() || "LinkUp".equalsIgnoreCase(physState);
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
    private final Map<Long, Long> caNodeOfPort;
    private final Map<Integer, Long> nodeOfLid;

    Fabric(Map<Long, Node> nodes, List<Link> links, List<Port> downPorts, List<String> notes, Map<Long, Long> caNodeOfPort,
           Map<Integer, Long> nodeOfLid) {
        this.caNodeOfPort = Map.copyOf(caNodeOfPort);
        this.nodeOfLid = Map.copyOf(nodeOfLid);
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

    /** The CA a port GUID belongs to (iblinkinfo and perfquery name CA ports by port GUID), or null. */
    public Node caOfPort(long portGuid) {
        return nodes.get(caNodeOfPort.getOrDefault(portGuid, portGuid));
    }

    /** Every base LID the tools printed for a node. */
    public java.util.Set<Integer> lids() {
        return nodeOfLid.keySet();
    }

    /** The node a base LID belongs to (a switch's port-0 LID, a CA port's LID as the tools printed them), or null. */
    public Node nodeOfLid(int lid) {
        Long guid = nodeOfLid.get(lid);
        return guid == null ? null : nodes.get(guid);
    }

    public List<Node> switches() {
        return nodes.values().stream().filter(Node::isSwitch).toList();
    }

    /** Every CA, hosts and SHARP aggregation nodes alike. */
    public List<Node> cas() {
        return nodes.values().stream().filter(n -> n.type() == Type.CA).toList();
    }

    /** The host CAs (aggregation nodes left out). */
    public List<Node> hosts() {
        return nodes.values().stream().filter(Node::isHost).toList();
    }

    /** The CAs of management appliances (UFM, management nodes). */
    public List<Node> appliances() {
        return nodes.values().stream().filter(n -> n.role() == Role.APPLIANCE).toList();
    }

    /** The SHARP aggregation nodes, each inside its switch. */
    public List<Node> aggregationNodes() {
        return nodes.values().stream().filter(n -> n.role() == Role.AGGREGATION_NODE).toList();
    }

    /** The chassis switches: system image GUID -> its ASICs (line and spine modules), in GUID order. */
    public java.util.SortedMap<Long, List<Node>> chassis() {
        java.util.SortedMap<Long, List<Node>> out = new java.util.TreeMap<>();
        for (Node n : switches()) if (n.inChassis()) out.computeIfAbsent(n.system(), k -> new java.util.ArrayList<>()).add(n);
        return out;
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

    /** The highest port number a node shows: its cables (both ends of one looped back onto it) and its ports that are down. */
    public int topPort(long guid) {
        int top = 0;
        for (Link l : linksOf(guid)) {
            if (l.a().guid() == guid) top = Math.max(top, l.a().port());
            if (l.b().guid() == guid) top = Math.max(top, l.b().port());
        }
        for (Port p : downPortsOf(guid)) top = Math.max(top, p.end().port());
        return top;
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

    /** The class of a cable, from the roles of its two ends. */
    public LinkClass linkClass(Link l) {
        Node a = nodes.get(l.a().guid()), b = nodes.get(l.b().guid());
        if (a == null || b == null) return LinkClass.OTHER;
        if (a.guid() == b.guid()) return a.isSwitch() ? LinkClass.LOOPBACK : LinkClass.OTHER;
        if (a.isSwitch() && b.isSwitch()) return a.inChassis() && a.system() == b.system() ? LinkClass.CHASSIS_INTERNAL : LinkClass.SWITCH_TO_SWITCH;
        Node sw = a.isSwitch() ? a : b.isSwitch() ? b : null, other = sw == a ? b : a;
        if (sw == null) return a.isHost() && b.isHost() ? LinkClass.HOST_TO_HOST : LinkClass.OTHER;
        return switch (other.role()) {
            case HOST -> LinkClass.HOST;
            case AGGREGATION_NODE -> LinkClass.AGGREGATION;
            case APPLIANCE -> LinkClass.APPLIANCE;
            default -> LinkClass.OTHER;
        };
    }

    /** Switch to switch, cable or chassis backplane. */
    public boolean isSwitchToSwitch(Link l) {
        LinkClass c = linkClass(l);
        return c == LinkClass.SWITCH_TO_SWITCH || c == LinkClass.CHASSIS_INTERNAL;
    }

    /** A host's cable to its switch. */
    public boolean isHostLink(Link l) {
        return linkClass(l) == LinkClass.HOST;
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
        End[] ends = upwards(l);
        return name(ends[0]) + " <-> " + name(ends[1]);
    }

    /** The cable with its switches' short names ("SLG01-10 port 35 <-> SCG1-01 port 3"), where a picture has little room. */
    public String shortName(Link l) {
        End[] ends = upwards(l);
        return shortName(name(ends[0].guid())) + " port " + ends[0].port() + " <-> " + shortName(name(ends[1].guid())) + " port " + ends[1].port();
    }

    private End[] upwards(Link l) {
        End first = l.a(), second = l.b();
        Node na = nodes.get(first.guid()), nb = nodes.get(second.guid());
        if (na != null && nb != null && levelOf(na) > levelOf(nb)) {
            End t = first;
            first = second;
            second = t;
        }
        return new End[] {first, second};
    }

    private static int levelOf(Node n) {
        return n.isSwitch() ? n.level() : 0;
    }
}
