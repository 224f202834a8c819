package io.ibaccept.parse;

import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.model.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses {@code ibnetdiscover} topology output (the format ibsim reads), ibdiagnet's copy of it
 * ({@code ibdiagnet2.ibnetdiscover}: port labels such as {@code [1](1/1/1)} on Quantum-2, CA ports as
 * {@code [1](1)(guid)}), ibdiagnet's one-line-per-link {@code ibdiagnet2.lst} and the one-line-per-port
 * {@code ibnetdiscover -p} format. Lines are scanned, not matched with
 * backtracking patterns; an unreadable line is one issue and the rest of the topology is kept.
 */
public final class IbnetdiscoverParser {
    private IbnetdiscoverParser() {}

    /**
     * A topology that is not a dump's whole fabric (a golden plan, a burn-in's own scan): every line must read, and
     * peers without a record of their own are allowed (a plan may list only the switches).
     */
    public static Topology parse(Text t) {
        return parse(t, Issues.strict(), false);
    }

    /** A dump's fabric-wide output: unreadable lines and a cut output are issues (see {@link #cutShort}). */
    public static Topology parse(Text t, Issues issues) {
        return parse(t, issues, true);
    }

    private static Topology parse(Text t, Issues issues, boolean whole) {
        List<String> lines = t.lines();
        List<Topology.Node> nodes = new ArrayList<>();
        PortsMode portsMode = new PortsMode();
        LstMode lst = new LstMode();
        NodeHead head = null;
        long sysImage = 0;
        List<Topology.Port> ports = new ArrayList<>();
        boolean sawTopologyComment = false;
        Redacted red = new Redacted();
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
            if (line.startsWith("sysimgguid=")) {
                // printed before the node record it belongs to: the chassis a switch ASIC is part of
                Long g = issues.record(() -> red.hex(t, ln, line.substring("sysimgguid=".length())));
                sysImage = g == null ? 0 : g;
                continue;
            }
            if (line.startsWith("#") || isAssignment(line)) continue; // vendid=, switchguid=, ...
            // grouping mode (-g) headings
            if (line.equals("Non-Chassis Nodes") || line.startsWith("Chassis ")) continue;
            if (line.startsWith("Switch") || line.startsWith("Ca") || line.startsWith("Hca") || line.startsWith("Rt")) {
                NodeHead h = issues.record(() -> NodeHead.read(t, ln, line, red));
                if (h != null) {
                    if (head != null) nodes.add(head.build(ports));
                    ports = new ArrayList<>();
                    head = h.withSysImage(sysImage);
                }
                sysImage = 0;
                continue;
            }
            if (line.startsWith("[")) {
                if (head == null) {
                    issues.add(t, ln, "port line outside a node record: '" + Text.excerpt(line) + "'");
                    continue;
                }
                final boolean onSwitch = head.type == Topology.NodeType.SWITCH;
                Topology.Port p = issues.record(() -> port(t, ln, line, onSwitch, red));
                if (p != null) ports.add(p);
                continue;
            }
            if (line.startsWith("{ ") && line.indexOf("} { ") > 0) {
                issues.record(() -> {
                    lst.add(t, ln, line);
                    return null;
                });
                continue;
            }
            if (PortsMode.looksLike(line)) {
                issues.record(() -> {
                    portsMode.add(t, ln, line);
                    return null;
                });
                continue;
            }
            issues.add(t, ln, "unrecognised ibnetdiscover line: '" + Text.excerpt(line) + "'");
        }
        if (head != null) nodes.add(head.build(ports));
        nodes = red.apart(t, issues, nodes);
        if (whole) cutShort(t, issues, nodes);
        nodes.addAll(portsMode.nodes());
        nodes.addAll(lst.nodes());
        if (nodes.isEmpty())
            throw t.error(0, sawTopologyComment ? "topology has no nodes (truncated?)" : "not ibnetdiscover output: no node records");
        return new Topology(nodes);
    }

    /**
     * ibnetdiscover prints a record for every node it reached, so a node named as the peer of a port with no record of
     * its own means the output stops early (the collection was interrupted, the disk filled, the file was truncated):
     * the nodes after the cut are not missing from the fabric, only from the file. One issue at the last line.
     */
    private static void cutShort(Text t, Issues issues, List<Topology.Node> records) {
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (Topology.Node n : records) ids.add(n.id());
        java.util.Map<String, String> peers = new java.util.LinkedHashMap<>();
        for (Topology.Node n : records)
            for (Topology.Port p : n.ports())
                if (!p.remoteId().isEmpty() && !ids.contains(p.remoteId())) peers.putIfAbsent(p.remoteId(), p.remoteDescription());
        if (peers.isEmpty()) return;
        Map.Entry<String, String> first = peers.entrySet().iterator().next();
        String name = first.getValue().isEmpty() ? first.getKey() : first.getValue();
        issues.add(t, Math.max(1, t.lines().size()), "the output stops before the records of " + peers.size()
                + " node(s) it names as port peers (e.g. \"" + Text.excerpt(name) + "\"): it was cut (collection interrupted,"
                + " disk full or file truncated), and those nodes are missing from the file, not from the fabric");
    }

    private static boolean isAssignment(String line) {
        int eq = line.indexOf('=');
        if (eq <= 0 || line.charAt(0) < 'a' || line.charAt(0) > 'z') return false;
        for (int i = 0; i < eq; i++) {
            char c = line.charAt(i);
            if (!Character.isLetterOrDigit(c) && c != '_') return false;
        }
        return true;
    }

    /** A cursor over one line. */
    private static final class Scan {
        final Text t;
        final int ln;
        final String s;
        int i;

        Scan(Text t, int ln, String s) {
            this.t = t;
            this.ln = ln;
            this.s = s;
        }

        void ws() {
            while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) i++;
        }

        boolean at(char c) {
            return i < s.length() && s.charAt(i) == c;
        }

        /** Text up to the closing char, which is consumed. */
        String until(char close, String what) {
            int e = s.indexOf(close, i);
            if (e < 0) throw t.error(ln, "unterminated " + what + " in '" + Text.excerpt(s) + "'");
            String r = s.substring(i, e);
            i = e + 1;
            return r;
        }

        String word() {
            int st = i;
            while (i < s.length() && s.charAt(i) != ' ' && s.charAt(i) != '\t') i++;
            return s.substring(st, i);
        }

        ParseException bad(String why) {
            return t.error(ln, "unrecognised ibnetdiscover line (" + why + "): '" + Text.excerpt(s) + "'");
        }
    }

    /** "[1](1/1/1)  "S-..."[63]   # ..." / "[1](1)(b0cf..)  "S-.."[65] # lid 25 lmc 0 "desc" lid 24 4xNDR". */
    private static Topology.Port port(Text t, int ln, String line, boolean onSwitch, Redacted red) {
        Scan sc = new Scan(t, ln, line);
        sc.i = 1;
        int portNum = Nums.integer(t, ln, sc.until(']', "port number"));
        List<String> groups = new ArrayList<>();
        while (sc.at('(')) {
            sc.i++;
            groups.add(sc.until(')', "parenthesis"));
        }
        String label = "";
        long portGuid = 0;
        if (groups.size() >= 2) {
            label = groups.get(0);
            portGuid = red.hex(t, ln, groups.get(1));
        } else if (groups.size() == 1) {
            if (onSwitch || groups.get(0).indexOf('/') >= 0) label = groups.get(0);
            else portGuid = red.hex(t, ln, groups.get(0));
        }
        sc.ws();
        if (!sc.at('"')) throw sc.bad("expected the remote node id in quotes");
        sc.i++;
        String remoteId = sc.until('"', "remote id");
        red.id(ln, remoteId);
        if (!sc.at('[')) throw sc.bad("expected the remote port '[N]'");
        sc.i++;
        int remotePort = Nums.integer(t, ln, sc.until(']', "remote port"));
        long remotePortGuid = 0;
        // a CA's own port lines print the remote CA's port GUID after a space ("[1] (2c903..)", ibnetdiscover's
        // out_ca_port, as for two hosts cabled back to back); a switch's lines print it right after the port
        sc.ws();
        while (sc.at('(')) {
            sc.i++;
            String g = sc.until(')', "parenthesis");
            if (g.indexOf('/') < 0 && !remoteId.startsWith("S-")) remotePortGuid = red.hex(t, ln, g);
            sc.ws();
        }
        String comment = "";
        if (sc.at('#')) comment = line.substring(sc.i + 1);
        else if (sc.i < line.length()) throw sc.bad("unexpected text after the remote port");
        int lid = 0, remoteLid = 0;
        String remoteDesc = "";
        // CA: '# lid 8 lmc 0 "leaf01" lid 4 4xHDR'; switch: '# "node01 HCA-1" lid 8 4xHDR'
        int q1 = comment.indexOf('"');
        int q2 = q1 < 0 ? -1 : comment.indexOf('"', q1 + 1);
        String after = comment;
        if (q1 >= 0 && q2 > q1) {
            remoteDesc = comment.substring(q1 + 1, q2);
            if (!onSwitch) lid = lidIn(t, ln, comment.substring(0, q1));
            after = comment.substring(q2 + 1);
        }
        remoteLid = lidIn(t, ln, after);
        LinkWidth width = null;
        LinkSpeed speed = null;
        for (String w : Fields.split(after)) {
            int x = w.indexOf('x');
            if (x > 0 && x < 3 && Nums.isDigits(w.substring(0, x)) && w.length() > x + 1) {
                width = LinkWidth.parse(w.substring(0, x)).orElse(null);
                speed = LinkSpeed.parse(w.substring(x + 1)).orElse(null);
                if (width == null || speed == null) throw t.error(ln, "unknown link rate '" + Text.excerpt(w) + "'");
            }
        }
        long remoteGuid = guidFromId(remoteId);
        return new Topology.Port(portNum, portGuid, lid, remoteId, remoteGuid, remotePort, remoteDesc, remoteLid,
                width, speed, label, t.at(ln));
    }

    /** The number after the first "lid" word, 0 if none. */
    private static int lidIn(Text t, int ln, String s) {
        List<String> f = Fields.split(s);
        for (int k = 0; k + 1 < f.size(); k++) if (f.get(k).equals("lid")) return Nums.integer(t, ln, f.get(k + 1));
        return 0;
    }

    /** ibnetdiscover ids look like "S-0000000000200005" or "H-0002c90300a1b2c0"; other ids (ibsim names) give 0. */
    static long guidFromId(String id) {
        int dash = id.indexOf('-');
        if (dash == 1 && id.length() > 2 && id.length() <= 18) {
            String h = id.substring(2);
            for (int k = 0; k < h.length(); k++) {
                char c = h.charAt(k);
                if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) return 0;
            }
            return Long.parseUnsignedLong(h, 16);
        }
        return 0;
    }

    /**
     * GUIDs redacted before the output was published ("S-e41d2d030xxxxxx", "(506b4bxxxxxxa9b6)"): not values, so they
     * read as unknown (0) and nodes are told apart by their record ids. Redaction that made several records' ids alike
     * is undone where the records say it: each such record gets an id of its own, and a port naming that id is given the
     * one record whose port names it back (same port numbers, then the LID and description the port line printed).
     * One issue per file says how much was redacted and where it starts; links that stay ambiguous are counted in it.
     */
    private static final class Redacted {
        final Redactions seen = new Redactions();

        long hex(Text t, int ln, String v) {
            return seen.hex(t, ln, v);
        }

        void id(int ln, String id) {
            seen.id(ln, id);
        }

        List<Topology.Node> apart(Text t, Issues issues, List<Topology.Node> nodes) {
            if (!seen.any()) return nodes;
            Map<String, List<Topology.Node>> byId = new LinkedHashMap<>();
            for (Topology.Node n : nodes) byId.computeIfAbsent(n.id(), k -> new ArrayList<>()).add(n);
            Map<Topology.Node, String> own = new java.util.IdentityHashMap<>();
            int shared = 0;
            for (List<Topology.Node> same : byId.values())
                if (same.size() > 1) {
                    shared += same.size();
                    for (Topology.Node n : same) own.put(n, n.id() + "@" + n.ref().line());
                }
            int ambiguous = 0;
            List<Topology.Node> out = new ArrayList<>(nodes.size());
            for (Topology.Node n : nodes) {
                List<Topology.Port> ports = new ArrayList<>(n.ports().size());
                for (Topology.Port p : n.ports()) {
                    List<Topology.Node> cands = byId.getOrDefault(p.remoteId(), List.of());
                    if (cands.size() <= 1) {
                        ports.add(p);
                        continue;
                    }
                    List<Topology.Node> back = cands.stream().filter(c -> c.ports().stream().anyMatch(q -> q.port() == p.remotePort()
                            && q.remoteId().equals(n.id()) && q.remotePort() == p.port())).toList();
                    // a switch's LID is on its record, a CA's on its port line
                    if (back.size() > 1 && p.remoteLid() > 0) back = back.stream().filter(c -> c.lid() == p.remoteLid()
                            || c.ports().stream().anyMatch(q -> q.port() == p.remotePort() && q.lid() == p.remoteLid())).toList();
                    if (back.size() > 1 && !p.remoteDescription().isEmpty())
                        back = back.stream().filter(c -> c.description().equals(p.remoteDescription())).toList();
                    if (back.size() != 1) {
                        ambiguous++; // a link that cannot be told from another: left out rather than given to the wrong node
                        continue;
                    }
                    ports.add(new Topology.Port(p.port(), p.portGuid(), p.lid(), own.get(back.get(0)), p.remoteGuid(), p.remotePort(),
                            p.remoteDescription(), p.remoteLid(), p.width(), p.speed(), p.label(), p.ref()));
                }
                out.add(new Topology.Node(n.type(), n.guid(), own.getOrDefault(n, n.id()), n.description(), n.numPorts(), n.lid(),
                        ports, n.ref(), n.sysImageGuid()));
            }
            seen.report(t, issues, ", so what needs a GUID (duplicate GUIDs, node-name map, firmware by GUID) is not checked;"
                    + " nodes are told apart by their records" + (shared == 0 ? "" : String.format(java.util.Locale.ROOT,
                    "; %d records share a redacted id%s", shared, ambiguous == 0 ? ", each told apart by its peers" : " and " + ambiguous
                            + " port line(s) naming one of them could not be told apart and are left out")));
            return out;
        }
    }

    private static final class NodeHead {
        final Topology.NodeType type;
        final String id, desc;
        final int numPorts, lid;
        final SourceRef ref;
        final long sysImage;

        private NodeHead(Topology.NodeType type, String id, String desc, int numPorts, int lid, SourceRef ref, long sysImage) {
            this.type = type;
            this.id = id;
            this.desc = desc;
            this.numPorts = numPorts;
            this.lid = lid;
            this.ref = ref;
            this.sysImage = sysImage;
        }

        /** 'Switch  65 "S-b0cf.."  # "MF0;ib-switch:MQM9700/U1" enhanced port 0 lid 180 lmc 0' / 'Ca 1 "H-.." # "desc"'. */
        static NodeHead read(Text t, int ln, String line, Redacted red) {
            Scan sc = new Scan(t, ln, line);
            String kind = sc.word();
            Topology.NodeType type = switch (kind) {
                case "Switch" -> Topology.NodeType.SWITCH;
                case "Rt" -> Topology.NodeType.ROUTER;
                case "Ca", "Hca" -> Topology.NodeType.CA;
                default -> throw sc.bad("unknown node type");
            };
            sc.ws();
            int numPorts = Nums.integer(t, ln, sc.word());
            sc.ws();
            if (!sc.at('"')) throw sc.bad("expected the node id in quotes");
            sc.i++;
            String id = sc.until('"', "node id");
            red.id(ln, id);
            sc.ws();
            String desc = id;
            int lid = 0;
            if (sc.at('#')) {
                sc.i++;
                sc.ws();
                String rest = line.substring(sc.i);
                if (sc.at('"')) {
                    int close = rest.indexOf('"', 1);
                    desc = close > 0 ? rest.substring(1, close) : rest.substring(1);
                    rest = close > 0 ? rest.substring(close + 1) : "";
                }
                lid = lidIn(t, ln, rest);
            } else if (sc.i < line.length()) {
                throw sc.bad("unexpected text after the node id");
            }
            return new NodeHead(type, id, desc, numPorts, lid, t.at(ln), 0);
        }

        NodeHead withSysImage(long guid) {
            return new NodeHead(type, id, desc, numPorts, lid, ref, guid);
        }

        Topology.Node build(List<Topology.Port> ports) {
            return new Topology.Node(type, guidFromId(id), id, desc, numPorts, lid, ports, ref, sysImage);
        }
    }

    /**
     * {@code ibnetdiscover -p}: "CA   134  1 0x7cfe.. 4x EDR - SW  1719 10 0x7cfe.. ( 'o0001 HCA-1' - 'ib-i1l1s01' )",
     * one line per port (both ends of each link appear), unconnected ports as "SW 2052 37 0x.. 4x ??? 'name'".
     */
    private static final class PortsMode {
        private final Map<Long, Topology.NodeType> types = new LinkedHashMap<>();
        private final Map<Long, String> descs = new LinkedHashMap<>();
        private final Map<Long, Integer> lids = new LinkedHashMap<>();
        private final Map<Long, SourceRef> refs = new LinkedHashMap<>();
        private final Map<Long, List<Topology.Port>> ports = new LinkedHashMap<>();

        static boolean looksLike(String line) {
            return (line.startsWith("CA ") || line.startsWith("SW ") || line.startsWith("RT ")) && line.indexOf(" 0x") > 0;
        }

        void add(Text t, int ln, String line) {
            List<String> f = Fields.split(line);
            if (f.size() < 6) throw t.error(ln, "unrecognised 'ibnetdiscover -p' line: '" + Text.excerpt(line) + "'");
            Topology.NodeType type = type(f.get(0));
            int lid = Nums.integer(t, ln, f.get(1));
            int port = Nums.integer(t, ln, f.get(2));
            long guid = Nums.hex(t, ln, f.get(3));
            LinkWidth width = LinkWidth.parse(f.get(4)).orElse(null);
            LinkSpeed speed = LinkSpeed.parse(f.get(5)).orElse(null);
            int q1 = line.indexOf('\'');
            int q2 = q1 < 0 ? -1 : line.indexOf('\'', q1 + 1);
            String desc = q1 >= 0 && q2 > q1 ? line.substring(q1 + 1, q2) : "";
            types.putIfAbsent(guid, type);
            descs.putIfAbsent(guid, desc);
            lids.putIfAbsent(guid, type == Topology.NodeType.SWITCH ? lid : 0);
            refs.putIfAbsent(guid, t.at(ln));
            List<Topology.Port> list = ports.computeIfAbsent(guid, k -> new ArrayList<>());
            if (f.size() >= 11 && f.get(6).equals("-")) {
                Topology.NodeType rType = type(f.get(7));
                int rLid = Nums.integer(t, ln, f.get(8));
                int rPort = Nums.integer(t, ln, f.get(9));
                long rGuid = Nums.hex(t, ln, f.get(10));
                int q3 = q2 < 0 ? -1 : line.indexOf('\'', q2 + 1);
                int q4 = q3 < 0 ? -1 : line.indexOf('\'', q3 + 1);
                String rDesc = q3 >= 0 && q4 > q3 ? line.substring(q3 + 1, q4) : "";
                String rId = (rType == Topology.NodeType.SWITCH ? "S-" : "H-") + String.format("%016x", rGuid);
                list.add(new Topology.Port(port, 0, type == Topology.NodeType.SWITCH ? 0 : lid, rId, rGuid, rPort,
                        rDesc, rLid, width, speed, "", t.at(ln)));
            }
            // an unconnected port ("4x ???") has no remote: nothing to link
        }

        private static Topology.NodeType type(String s) {
            return switch (s) {
                case "SW" -> Topology.NodeType.SWITCH;
                case "RT" -> Topology.NodeType.ROUTER;
                default -> Topology.NodeType.CA;
            };
        }

        List<Topology.Node> nodes() {
            List<Topology.Node> out = new ArrayList<>();
            types.forEach((g, type) -> {
                List<Topology.Port> ps = ports.get(g);
                int max = 0;
                for (Topology.Port p : ps) max = Math.max(max, p.port());
                String id = (type == Topology.NodeType.SWITCH ? "S-" : "H-") + String.format("%016x", g);
                out.add(new Topology.Node(type, g, id, descs.get(g), max, lids.get(g), ps, refs.get(g)));
            });
            return out;
        }
    }

    /**
     * {@code ibdiagnet2.lst}: one line per link, '{ CA Ports:01 SystemGUID:.. NodeGUID:.. PortGUID:.. VenID:.. DevID:..
     * Rev:.. {description} LID:00b5 PN:01 } { SW ... PN:0c } PHY=4x LOG=ACT SPD=100' (LID and port number in hex,
     * SPD the per-lane data rate in Gb/s).
     */
    private static final class LstMode {
        private final Map<Long, Topology.NodeType> types = new LinkedHashMap<>();
        private final Map<Long, String> descs = new LinkedHashMap<>();
        private final Map<Long, Integer> numPorts = new LinkedHashMap<>();
        private final Map<Long, Integer> lids = new LinkedHashMap<>();
        private final Map<Long, SourceRef> refs = new LinkedHashMap<>();
        private final Map<Long, Map<Integer, Topology.Port>> ports = new LinkedHashMap<>();

        private record End(Topology.NodeType type, int numPorts, long guid, long portGuid, String desc, int lid, int port) {}

        void add(Text t, int ln, String line) {
            int split = line.indexOf("} { ");
            int close = line.lastIndexOf(" } ");
            if (close <= split) throw t.error(ln, "unrecognised ibdiagnet2.lst line: '" + Text.excerpt(line) + "'");
            End a = end(t, ln, line.substring(2, split));
            End b = end(t, ln, line.substring(split + 4, close));
            LinkWidth width = null;
            LinkSpeed speed = null;
            for (String f : Fields.split(line.substring(close + 3))) {
                if (f.startsWith("PHY=")) width = LinkWidth.parse(f.substring(4)).orElse(null);
                if (f.startsWith("SPD=")) speed = speed(f.substring(4));
            }
            link(t, ln, a, b, width, speed);
            link(t, ln, b, a, width, speed);
        }

        private void link(Text t, int ln, End from, End to, LinkWidth width, LinkSpeed speed) {
            types.putIfAbsent(from.guid(), from.type());
            descs.putIfAbsent(from.guid(), from.desc());
            numPorts.putIfAbsent(from.guid(), from.numPorts());
            lids.putIfAbsent(from.guid(), from.type() == Topology.NodeType.SWITCH ? from.lid() : 0);
            refs.putIfAbsent(from.guid(), t.at(ln));
            String rId = (to.type() == Topology.NodeType.SWITCH ? "S-" : "H-") + String.format("%016x", to.guid());
            ports.computeIfAbsent(from.guid(), k -> new java.util.TreeMap<>()).putIfAbsent(from.port(), new Topology.Port(
                    from.port(), from.type() == Topology.NodeType.SWITCH ? 0 : from.portGuid(),
                    from.type() == Topology.NodeType.SWITCH ? 0 : from.lid(), rId, to.guid(), to.port(), to.desc(),
                    to.lid(), width, speed, "", t.at(ln)));
        }

        /** "CA Ports:01 SystemGUID:.. NodeGUID:.. PortGUID:.. VenID:.. DevID:.. Rev:.. {desc} LID:00b5 PN:01". */
        private static End end(Text t, int ln, String s) {
            int o = s.indexOf('{');
            int c = s.lastIndexOf('}');
            if (o < 0 || c < o) throw t.error(ln, "no node description in '" + Text.excerpt(s) + "'");
            String desc = s.substring(o + 1, c);
            Map<String, String> kv = new java.util.HashMap<>();
            List<String> words = Fields.split(s.substring(0, o) + " " + s.substring(c + 1));
            for (String w : words) {
                int colon = w.indexOf(':');
                if (colon > 0) kv.put(w.substring(0, colon), w.substring(colon + 1));
            }
            Topology.NodeType type = switch (words.isEmpty() ? "" : words.get(0)) {
                case "SW" -> Topology.NodeType.SWITCH;
                case "CA" -> Topology.NodeType.CA;
                case "RT" -> Topology.NodeType.ROUTER;
                default -> throw t.error(ln, "unknown node type in '" + Text.excerpt(s) + "'");
            };
            for (String k : List.of("Ports", "NodeGUID", "LID", "PN"))
                if (!kv.containsKey(k)) throw t.error(ln, "no " + k + " in '" + Text.excerpt(s) + "'");
            return new End(type, Nums.integer(t, ln, kv.get("Ports")), Nums.hex(t, ln, kv.get("NodeGUID")),
                    kv.containsKey("PortGUID") ? Nums.hex(t, ln, kv.get("PortGUID")) : 0, desc,
                    (int) Nums.hex(t, ln, kv.get("LID")), (int) Nums.hex(t, ln, kv.get("PN")));
        }

        /** Per-lane data rate in Gb/s as ibdiagnet prints it. */
        private static LinkSpeed speed(String s) {
            return switch (s) {
                case "2.5" -> LinkSpeed.SDR;
                case "5" -> LinkSpeed.DDR;
                case "10" -> LinkSpeed.QDR;
                case "14" -> LinkSpeed.FDR;
                case "25" -> LinkSpeed.EDR;
                case "50" -> LinkSpeed.HDR;
                case "100" -> LinkSpeed.NDR;
                case "200" -> LinkSpeed.XDR;
                default -> LinkSpeed.parse(s).orElse(null);
            };
        }

        List<Topology.Node> nodes() {
            List<Topology.Node> out = new ArrayList<>();
            types.forEach((g, type) -> out.add(new Topology.Node(type, g,
                    (type == Topology.NodeType.SWITCH ? "S-" : "H-") + String.format("%016x", g), descs.get(g),
                    numPorts.get(g), lids.get(g), new ArrayList<>(ports.get(g).values()), refs.get(g))));
            return out;
        }
    }
}
