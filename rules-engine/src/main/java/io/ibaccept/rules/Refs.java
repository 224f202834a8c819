package io.ibaccept.rules;

import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.LinkInfo;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what a check names (a host, "NODE port N", a switch name, an RDMA pair, the ports in a vendor tool's message)
 * into typed references, once, when the finding is made: the finding's host, its ports, the cable each port belongs to
 * (with both ends) and the host at the cable's HCA end. How a check names things is its declared {@link Check.Naming}.
 */
final class Refs {
    private static final Pattern PORT_OBJECT = Pattern.compile("^(.+) port (\\d+)$");
    private static final Pattern DIAG_PORT = Pattern.compile("/U\\d+/P(\\d+)");
    /** ibdiagnet's name of a port whose node description is not unique: S(system GUID)/N(node GUID)/P(port). */
    private static final Pattern DIAG_GUID_PORT = Pattern.compile("\\bS[0-9a-fA-F]{16}/N([0-9a-fA-F]{16})/P(\\d+)");
    private static final Pattern GUID_SUFFIX = Pattern.compile("^.+ \\(0x([0-9a-fA-F]{1,16})\\)$");
    private static final Pattern DIAG_DUP_DESC = Pattern.compile("duplicated node description - (.+)$");
    private static final Pattern DIAG_LID = Pattern.compile("lid=(0x[0-9a-fA-F]+|\\d+)");
    /** How the checks name a partition and an SM known only by its LID, as objects. */
    private static final String PARTITION = "partition ", SM_LID = "SM lid ";
    private static final Pattern PAIR = Pattern.compile("(?:^|bad pair )([^\\s<>]+) ?(?:->|<->) ?([^\\s:<>]+)");

    private final io.ibaccept.model.ClusterData data;
    private final FabricIndex index;
    private final Map<String, String> canonical = new HashMap<>();
    private final Set<String> linkNames = new java.util.HashSet<>();
    private final Map<Long, String> names = new HashMap<>();

    Refs(io.ibaccept.model.ClusterData data, FabricIndex index) {
        this.data = data;
        this.index = index;
        for (FabricIndex.Link k : index.links())
            for (LinkInfo l : new LinkInfo[] {k.a(), k.b()})
                if (l != null) canonical.putIfAbsent(l.nodeName(), canonicalNode(l.nodeName(), !l.switchNode()));
        if (data.fabric().links() != null)
            for (LinkInfo l : data.fabric().links()) canonical.putIfAbsent(l.nodeName(), canonicalNode(l.nodeName(), !l.switchNode()));
        linkNames.addAll(canonical.keySet());
        for (String h : data.hosts().keySet()) canonical.put(h, h);
    }

    /** "node11 HCA-1" -> "node11" when node11 is a host of the dump; switch names stay. */
    private String canonicalNode(String name, boolean ca) {
        String first = io.ibaccept.fabric.Fabric.hostPart(name);
        return ca && data.hosts().containsKey(first) ? first : name;
    }

    /** The references of a finding whose check names things as naming says. */
    List<Ref> of(Finding f, Check.Naming naming) {
        Set<Ref> u = new LinkedHashSet<>();
        switch (naming) {
            case PAIRS, PAIRS_IN_EVIDENCE -> {
                if (naming == Check.Naming.PAIRS_IN_EVIDENCE && f.objects().size() == 1) {
                    u.add(new Ref.Host(f.objects().get(0))); // one suspect host: about that host, not its pairs
                    break;
                }
                for (Evidence e : f.evidence()) {
                    Matcher m = PAIR.matcher(e.text());
                    if (m.find() && data.hosts().containsKey(m.group(1)) && data.hosts().containsKey(m.group(2)))
                        u.add(new Ref.Pair(m.group(1), m.group(2)));
                }
                if (u.isEmpty() && naming == Check.Naming.PAIRS && f.objects().size() == 2) u.add(new Ref.Pair(f.objects().get(0), f.objects().get(1)));
            }
            case TOOL_MESSAGES -> {
                for (Evidence e : f.evidence()) toolPorts(e.text(), u);
                if (u.isEmpty()) toolPorts(f.summary(), u);
                // "Node with GUID=... is configured with duplicated node description - NAME": what node.names reports
                Matcher dup = DIAG_DUP_DESC.matcher(f.summary());
                if (u.isEmpty() && dup.find()) u.add(new Ref.Node(dup.group(1).trim()));
            }
            case OBJECTS, HOST_CABLES, SM_NODES -> {
                for (String o : f.objects()) {
                    Matcher m = PORT_OBJECT.matcher(o);
                    if (m.matches()) port(m.group(1), Integer.parseInt(m.group(2)), u);
                    else if (o.startsWith(PARTITION)) u.add(new Ref.Partition(o.substring(PARTITION.length())));
                    else if (naming == Check.Naming.SM_NODES && o.startsWith(SM_LID)) u.add(new Ref.Sm(o));
                    else if (data.hosts().containsKey(o)) {
                        if (naming == Check.Naming.HOST_CABLES) hostCables(o, u);
                        else {
                            u.add(new Ref.Host(o));
                            if (naming == Check.Naming.SM_NODES) u.add(new Ref.Sm(o));
                        }
                    } else if (!o.isEmpty() && !o.equals("fabric")) u.add(new Ref.Node(o));
                }
            }
        }
        return List.copyOf(u);
    }

    /** "leaf03", "node06 HCA-1" or "node16/ibsim0" with a port number -> its port and cable references. */
    private void port(String node, int port, Set<Ref> u) {
        int slash = node.indexOf('/');
        if (slash > 0 && data.hosts().containsKey(node.substring(0, slash))) {
            String host = node.substring(0, slash), caName = node.substring(slash + 1);
            u.add(new Ref.Port(host, port));
            HostData h = data.hosts().get(host);
            if (h.ibstat() != null)
                for (Ibstat.Ca ca : h.ibstat())
                    if (ca.name().equals(caName)) cable(ca.nodeGuid(), -1, null, port, u);
            return;
        }
        String c = canonical.getOrDefault(node, node);
        u.add(new Ref.Port(c, port));
        // a description several nodes share is named with its GUID ("Quantum-2 Mellanox Technologies (0x...)"): the GUID finds the cable
        Matcher g = GUID_SUFFIX.matcher(node);
        if (!linkNames.contains(node) && data.hosts().containsKey(c)) hostPort(c, port, u);
        else cable(g.matches() ? Long.parseUnsignedLong(g.group(1), 16) : 0, -1, node, port, u);
    }

    private void hostPort(String host, int port, Set<Ref> u) {
        HostData h = data.hosts().get(host);
        if (h == null || h.ibstat() == null) return;
        for (Ibstat.Ca ca : h.ibstat()) cable(ca.nodeGuid(), -1, null, port, u);
    }

    /** The cables of a host's InfiniBand ports. */
    private void hostCables(String host, Set<Ref> u) {
        int before = u.size();
        HostData h = data.hosts().get(host);
        if (h != null && h.ibstat() != null)
            for (Ibstat.Ca ca : h.ibstat())
                for (Ibstat.Port p : ca.ports())
                    if (p.linkLayer().isEmpty() || p.linkLayer().startsWith("I")) {
                        u.add(new Ref.Port(host, p.number()));
                        // iblinkinfo keys a CA port by its port GUID and LID, not the node GUID ibstat prints
                        cable(ca.nodeGuid(), p.baseLid(), null, p.number(), u);
                    }
        if (u.size() == before) u.add(new Ref.Host(host));
    }

    private void cable(long guid, int lid, String name, int port, Set<Ref> u) {
        index.linkAt(guid, lid, name, port).ifPresent(k -> {
            u.add(new Ref.Cable(k.name()));
            for (LinkInfo l : new LinkInfo[] {k.a(), k.b()}) {
                if (l == null) continue;
                String c = canonicalNode(l.nodeName(), !l.switchNode());
                u.add(new Ref.Port(c, l.port()));
                if (!l.switchNode() && data.hosts().containsKey(c)) u.add(new Ref.HcaEnd(c));
            }
            LinkInfo ca = index.caEnd(k);
            if (ca == null && k.b() == null && data.hosts().containsKey(io.ibaccept.fabric.Fabric.hostPart(k.a().remoteName())))
                u.add(new Ref.HcaEnd(io.ibaccept.fabric.Fabric.hostPart(k.a().remoteName())));
        });
    }

    /**
     * ibdiagnet names ports "NODE/U1/P3" (NODE may contain spaces: the longest known name before it wins) and
     * counters by "lid=0x0007 ... /P3".
     */
    private void toolPorts(String text, Set<Ref> u) {
        Matcher g = DIAG_GUID_PORT.matcher(text);
        while (g.find()) {
            long guid = Long.parseUnsignedLong(g.group(1), 16);
            int port = Integer.parseInt(g.group(2));
            u.add(new Ref.Port(names.computeIfAbsent(guid, x -> index.whoIs(x, -1)), port));
            cable(guid, -1, null, port, u);
        }
        Matcher m = DIAG_PORT.matcher(text);
        while (m.find()) {
            int port = Integer.parseInt(m.group(1));
            String before = text.substring(Math.max(0, m.start() - 80), m.start());
            String[] cut = before.split("-->|<--|[<>;=,(]");
            String tail = cut.length == 0 ? "" : cut[cut.length - 1];
            String[] words = tail.trim().split("\\s+");
            String found = null;
            for (int s = 0; s < words.length && found == null; s++) {
                String name = String.join(" ", java.util.Arrays.copyOfRange(words, s, words.length));
                if (canonical.containsKey(name)) found = name;
            }
            if (found == null && words.length > 0 && data.hosts().containsKey(words[0])) found = words[0];
            if (found == null) {
                Matcher lid = DIAG_LID.matcher(text);
                if (lid.find()) found = index.nameOfLid(Integer.decode(lid.group(1))).orElse(null);
            }
            if (found != null) port(found, port, u);
        }
    }
}
