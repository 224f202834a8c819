package io.ibaccept.parse;

import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.model.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses {@code ibnetdiscover} topology output (the same format ibsim reads). */
public final class IbnetdiscoverParser {
    private IbnetdiscoverParser() {}

    private static final Pattern HEADER = Pattern.compile(
            "^(Switch|Ca|Hca|Rt)\\s+(\\d+)\\s+\"([^\"]+)\"\\s*(?:#\\s*\"([^\"]*)\"(.*))?$");
    private static final Pattern PORT = Pattern.compile(
            "^\\[(\\d+)\\](?:\\(([0-9a-fA-F]+)\\))?\\s+\"([^\"]+)\"\\[(\\d+)\\](?:\\(([0-9a-fA-F]+)\\))?\\s*(?:#(.*))?$");
    private static final Pattern LID = Pattern.compile("\\blid (\\d+)");
    private static final Pattern RATE = Pattern.compile("\\b(\\d+)x([A-Z0-9]+)\\b");
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");
    private static final Pattern ASSIGNMENT = Pattern.compile("^[a-z]\\w*=");

    public static Topology parse(Text t) {
        List<String> lines = t.lines();
        List<Topology.Node> nodes = new ArrayList<>();
        NodeHead head = null;
        List<Topology.Port> ports = new ArrayList<>();
        boolean sawTopologyComment = false;
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String line = lines.get(i).trim();
            if (line.startsWith("# Topology file")) sawTopologyComment = true;
            if (line.isEmpty()) {
                if (head != null) nodes.add(head.build(ports));
                head = null;
                ports = new ArrayList<>();
                continue;
            }
            if (line.startsWith("#") || ASSIGNMENT.matcher(line).lookingAt()) continue; // vendid=, switchguid=, ...
            Matcher h = HEADER.matcher(line);
            if (h.matches()) {
                if (head != null) nodes.add(head.build(ports));
                ports = new ArrayList<>();
                head = new NodeHead(h, t, ln);
                continue;
            }
            Matcher p = PORT.matcher(line);
            if (p.matches()) {
                if (head == null) throw t.error(ln, "port line outside a node record: '" + line + "'");
                ports.add(port(p, t, ln, head.type == Topology.NodeType.SWITCH));
                continue;
            }
            throw t.error(ln, "unrecognised ibnetdiscover line: '" + line + "'");
        }
        if (head != null) nodes.add(head.build(ports));
        if (nodes.isEmpty())
            throw t.error(0, sawTopologyComment ? "topology has no nodes (truncated?)" : "not ibnetdiscover output: no node records");
        return new Topology(nodes);
    }

    private static Topology.Port port(Matcher p, Text t, int ln, boolean onSwitch) {
        int portNum = Nums.integer(t, ln, p.group(1));
        long portGuid = p.group(2) == null ? 0 : Nums.hex(t, ln, p.group(2));
        String remoteId = p.group(3);
        int remotePort = Nums.integer(t, ln, p.group(4));
        long remotePortGuid = p.group(5) == null ? 0 : Nums.hex(t, ln, p.group(5));
        String comment = p.group(6) == null ? "" : p.group(6);
        int lid = 0;
        int remoteLid = 0;
        // CA: '# lid 8 lmc 0 "leaf01" lid 4 4xHDR'; switch: '# "node01 HCA-1" lid 8 4xHDR'
        String remoteDesc = "";
        Matcher q = QUOTED.matcher(comment);
        int afterQuote = 0;
        if (q.find()) {
            remoteDesc = q.group(1);
            afterQuote = q.end();
            if (!onSwitch) {
                Matcher l = LID.matcher(comment.substring(0, q.start()));
                if (l.find()) lid = Integer.parseInt(l.group(1));
            }
        }
        Matcher rl = LID.matcher(comment.substring(afterQuote));
        if (rl.find()) remoteLid = Integer.parseInt(rl.group(1));
        LinkWidth width = null;
        LinkSpeed speed = null;
        Matcher r = RATE.matcher(comment.substring(afterQuote));
        if (r.find()) {
            width = LinkWidth.parse(r.group(1)).orElse(null);
            speed = LinkSpeed.parse(r.group(2)).orElse(null);
            if (width == null || speed == null) throw t.error(ln, "unknown link rate '" + r.group() + "'");
        }
        long remoteGuid = guidFromId(remoteId);
        return new Topology.Port(portNum, portGuid, lid, remoteId, remoteGuid, remotePort, remoteDesc, remoteLid,
                width, speed, t.at(ln));
    }

    /** ibnetdiscover ids look like "S-0000000000200005" or "H-0002c90300a1b2c0"; other ids (ibsim names) give 0. */
    static long guidFromId(String id) {
        int dash = id.indexOf('-');
        if (dash == 1 && id.length() > 2) {
            try {
                return Long.parseUnsignedLong(id.substring(2), 16);
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return 0;
    }

    private static final class NodeHead {
        final Topology.NodeType type;
        final String id, desc;
        final int numPorts, lid;
        final SourceRef ref;

        NodeHead(Matcher h, Text t, int ln) {
            type = switch (h.group(1)) {
                case "Switch" -> Topology.NodeType.SWITCH;
                case "Rt" -> Topology.NodeType.ROUTER;
                default -> Topology.NodeType.CA;
            };
            numPorts = Nums.integer(t, ln, h.group(2));
            id = h.group(3);
            desc = h.group(4) == null ? id : h.group(4);
            Matcher l = LID.matcher(h.group(5) == null ? "" : h.group(5));
            lid = l.find() ? Integer.parseInt(l.group(1)) : 0;
            ref = t.at(ln);
        }

        Topology.Node build(List<Topology.Port> ports) {
            return new Topology.Node(type, guidFromId(id), id, desc, numPorts, lid, ports, ref);
        }
    }
}
