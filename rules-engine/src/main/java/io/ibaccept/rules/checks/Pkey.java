package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Partitions as the SM configured them. A P_Key is a 15-bit partition number plus a membership bit: 0x8xxx full,
 * 0x0xxx limited; the two are one partition. Compared per link (the HCA's table against its switch port's), and per
 * partition (limited members cannot talk to each other: the default-partition pitfall). A partition holding a subset
 * of the hosts is a design, not a fault.
 */
final class Pkey implements Check {
    static final int DEFAULT = 0x7fff;

    public String id() {
        return "pkey";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.PKEYS, Cmd.IBDIAGNET_PKEY));
    }

    public void evaluate(Ctx c) {
        int compared = 0, bad = 0;
        List<String> notEnforcing = new ArrayList<>();
        List<Evidence> notEnforcingEv = new ArrayList<>();
        Map<String, Evidence> readOffPorts = new LinkedHashMap<>();
        // partition -> host -> full?
        Map<Integer, Map<String, Boolean>> members = new TreeMap<>();
        // does the SM program any switch port with a non-default key? If none, enforcement is off fabric-wide
        boolean switchesProgrammed = c.data.hosts().values().stream().anyMatch(h -> h.peerPkeys() != null
                && base(h.peerPkeys()).keySet().stream().anyMatch(b -> b != DEFAULT));
        for (HostData h : c.data.hosts().values()) {
            if (h.pkeys() == null) continue;
            Map<Integer, Integer> mine = base(h.pkeys());
            mine.forEach((b, k) -> members.computeIfAbsent(b, x -> new TreeMap<>()).put(h.host(), (k & 0x8000) != 0));
            if (h.peerPkeys() == null) continue;
            compared++;
            Map<Integer, Integer> peer = base(h.peerPkeys());
            String peerName = peerName(c, h);
            // no switch port holds more than the default key while HCAs are in more partitions: the SM does not
            // program switch ports (partition enforcement off): nothing is filtered there
            boolean peerDefaultOnly = !switchesProgrammed && peer.keySet().stream().allMatch(b -> b == DEFAULT);
            // read, not inferred, where the switch port's PortInfo was collected: with both bits off it drops nothing
            io.ibaccept.model.PortInfo sw = h.peerPortInfo();
            boolean readOff = sw != null && !sw.partitionEnforceInbound() && !sw.partitionEnforceOutbound();
            if (sw != null && (!sw.partitionEnforceInbound() || !sw.partitionEnforceOutbound())
                    && mine.keySet().stream().anyMatch(b -> b != DEFAULT) && !readOffPorts.containsKey(peerName))
                readOffPorts.put(peerName, Evidence.of(peerName + ": PartEnforceInb " + (sw.partitionEnforceInbound() ? 1 : 0)
                        + ", PartEnforceOutb " + (sw.partitionEnforceOutbound() ? 1 : 0) + " (HCA of " + h.host() + ": " + hex(h.pkeys()) + ")", sw.ref()));
            for (var side : List.of(true, false)) {
                Map<Integer, Integer> from = side ? mine : peer, to = side ? peer : mine;
                for (Map.Entry<Integer, Integer> e : from.entrySet()) {
                    if (to.containsKey(e.getKey())) continue;
                    if (readOff) continue; // nothing is filtered at that switch port: reported as enforcement off
                    if (side && peerDefaultOnly && sw == null) {
                        if (!notEnforcing.contains(peerName)) {
                            notEnforcing.add(peerName);
                            notEnforcingEv.add(Evidence.of(peerName + " P_Keys: " + hex(h.peerPkeys()) + " (HCA of " + h.host() + ": " + hex(h.pkeys()) + ")",
                                    Cmd.PEER_PKEYS.path(h.host())));
                        }
                        continue;
                    }
                    bad++;
                    String present = side ? h.host() + " HCA" : peerName;
                    String missingSide = side ? peerName : h.host() + " HCA";
                    Map<String, Object> v = new LinkedHashMap<>();
                    v.put("pkey", String.format("0x%04x", e.getValue()));
                    v.put("pkey_base", String.format("%04x", e.getKey()));
                    v.put("present_side", present);
                    v.put("missing_side", missingSide);
                    v.put("guid", portGuid(h));
                    v.put("lid", c.index.lidOf(h.host()));
                    c.problem(Status.FAIL, List.of(h.host()),
                            List.of(Evidence.of(h.host() + " HCA P_Keys: " + hex(h.pkeys()), Cmd.PKEYS.path(h.host())),
                                    Evidence.of(peerName + " P_Keys: " + hex(h.peerPkeys()), Cmd.PEER_PKEYS.path(h.host()))),
                            h.host() + ": P_Key " + v.get("pkey") + " only on " + present, "", v);
                }
            }
        }
        Map<String, String> diagWhere = new java.util.HashMap<>();
        int diagPorts = fromIbdiagnet(c, members, diagWhere);
        if (!notEnforcing.isEmpty()) {
            bad++;
            c.problem(Status.WARN, notEnforcing, notEnforcingEv.stream().limit(10).toList(), notEnforcing.size()
                            + " switch port(s) hold only the default P_Key while their hosts are in more partitions: partition enforcement is off there ("
                            + String.join(", ", notEnforcing.stream().limit(5).toList()) + (notEnforcing.size() > 5 ? ", ..." : "") + ")",
                    "enforce", Map.of("ports", String.join(", ", notEnforcing)));
        }
        if (!readOffPorts.isEmpty()) {
            bad++;
            List<String> ports = new ArrayList<>(readOffPorts.keySet());
            c.problem(Status.WARN, ports, readOffPorts.values().stream().limit(10).toList(), ports.size()
                            + " switch port(s) facing hosts in partitions read PartEnforceInb/Outb off: partition enforcement is off there,"
                            + " nothing is dropped and nothing is isolated (" + String.join(", ", ports.stream().limit(5).toList())
                            + (ports.size() > 5 ? ", ..." : "") + ")",
                    "enforce.read", Map.of("ports", String.join(", ", ports)));
        }
        bad += membership(c, members, diagWhere);
        if (bad == 0) c.pass(members.size() + " partition(s): " + members.entrySet().stream()
                        .map(e -> String.format("0x%04x", e.getKey()) + " " + e.getValue().values().stream().filter(x -> x).count() + " full/"
                                + e.getValue().values().stream().filter(x -> !x).count() + " limited")
                        .collect(Collectors.joining(", "))
                        + (compared > 0 ? "; both link ends match on " + compared + " host(s)" : "; switch-side tables not collected")
                        + (diagPorts > 0 ? "; " + diagPorts + " host port(s) from ibdiagnet2.pkey" : ""),
                List.of(), List.of());
    }

    /** Limited members cannot talk to each other: fatal in the default partition, suspicious when few among full members. */
    private static int membership(Ctx c, Map<Integer, Map<String, Boolean>> members, Map<String, String> diagWhere) {
        int bad = 0;
        for (var e : members.entrySet()) {
            List<String> limited = e.getValue().entrySet().stream().filter(x -> !x.getValue()).map(Map.Entry::getKey).toList();
            List<String> full = e.getValue().entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).toList();
            String p = String.format("0x%04x", e.getKey());
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("partition", p);
            v.put("limited", String.join(", ", limited));
            v.put("full", full.isEmpty() ? "no host" : String.join(", ", full));
            v.put("full_key", String.format("0x%04x", e.getKey() | 0x8000));
            List<Evidence> ev = limited.stream().limit(10).map(h -> Evidence.of(h + ": " + String.format("0x%04x", e.getKey()) + " (limited)",
                    diagWhere.getOrDefault(h + "|" + e.getKey(), Cmd.PKEYS.path(h)))).collect(Collectors.toList());
            if (e.getKey() == DEFAULT && limited.size() >= 2) {
                bad++;
                Finding f = c.problem(Status.FAIL, limited, ev, limited.size() + " host(s) are only LIMITED members (0x7fff) of the default partition"
                        + (full.isEmpty() ? "" : "; full members: " + String.join(", ", full))
                        + ": limited members cannot talk to each other (IPoIB, MPI between them fails)", "limited.default", v);
                // the partitions.conf rule that made them limited, where collected, is the root (partitions.membership)
                c.explainedBy(f, List.of(io.ibaccept.rules.checks.sm.SmFacts.DEFAULT_LIMITED));
            } else if (!limited.isEmpty() && !full.isEmpty() && limited.size() < full.size()
                    && !io.ibaccept.rules.checks.sm.SmFacts.limitedByDesign(c, e.getKey(), limited)) {
                bad++;
                Finding f = c.problem(Status.WARN, limited, ev, String.join(", ", limited) + (limited.size() == 1 ? " is a LIMITED member" : " are LIMITED members")
                        + " of partition " + p + " where " + full.size() + " host(s) are full members: reaches full members only", "limited", v);
                c.explainedBy(f, List.of(io.ibaccept.rules.checks.sm.SmFacts.limitedKey(e.getKey())));
            }
        }
        return bad;
    }

    /**
     * ibdiagnet2.pkey: the partitions ibdiagnet read from every port, added for the hosts whose own P_Key table
     * (smpquery pkeys) was not collected. A member is a host port where the fabric model says so; where the model does
     * not know the port, ibdiagnet's own listing is read: port 0 is a switch's, any other is named by the first part
     * of ibdiagnet's name (its node description's host). Returns the host ports taken; where records file:line by
     * "host|partition".
     */
    private static int fromIbdiagnet(Ctx c, Map<Integer, Map<String, Boolean>> members, Map<String, String> where) {
        List<io.ibaccept.model.Ibdiagnet.PkeyGroup> groups = c.data.fabric().diagPkeys();
        if (groups == null) return 0;
        io.ibaccept.fabric.Fabric f = c.facts.fabricIfBuilt();
        int taken = 0;
        for (var g : groups)
            for (var m : g.members()) {
                String host = hostOf(c, f, m);
                if (host == null) continue;
                HostData h = c.data.hosts().get(host);
                if (h != null && h.pkeys() != null) continue; // its own table, read on the host, wins
                members.computeIfAbsent(g.partition(), x -> new TreeMap<>()).merge(host, m.full(), Boolean::logicalOr);
                where.putIfAbsent(host + "|" + g.partition(), m.ref().toString());
                taken++;
            }
        return taken;
    }

    private static String hostOf(Ctx c, io.ibaccept.fabric.Fabric f, io.ibaccept.model.Ibdiagnet.PkeyMember m) {
        io.ibaccept.fabric.Fabric.Node n = f == null ? null : f.caOfPort(m.guid()) != null ? f.caOfPort(m.guid()) : f.node(m.guid());
        String known = io.ibaccept.fabric.Fabric.hostPart(c.index.whoIs(m.guid(), 0));
        if (n != null) return !n.isHost() ? null : c.index.isHost(known) ? known : io.ibaccept.fabric.Fabric.hostPart(n.description());
        if (c.index.isHost(known)) return known;
        if (m.port() == 0) return null;
        int slash = m.name().indexOf('/');
        return slash > 0 ? m.name().substring(0, slash) : m.name();
    }

    private static String peerName(Ctx c, HostData h) {
        if (h.ibstat() != null)
            for (Ibstat.Ca ca : h.ibstat())
                for (Ibstat.Port p : ca.ports()) {
                    Optional<LinkInfo> peer = c.index.peerOf(p.portGuid());
                    if (peer.isPresent()) return peer.get().nodeName() + " port " + peer.get().port();
                }
        return "switch port facing " + h.host();
    }

    private static String portGuid(HostData h) {
        if (h.ibstat() == null || h.ibstat().isEmpty() || h.ibstat().get(0).ports().isEmpty()) return "<port guid>";
        return String.format("0x%016x", h.ibstat().get(0).ports().get(0).portGuid());
    }

    /** partition number -> the key as present (full wins if both memberships are listed). */
    private static Map<Integer, Integer> base(SortedSet<Integer> keys) {
        Map<Integer, Integer> m = new TreeMap<>();
        for (int k : keys) if ((k & 0x7fff) != 0) m.merge(k & 0x7fff, k, (a, b) -> a | b);
        return m;
    }

    private static String hex(SortedSet<Integer> keys) {
        return keys.stream().map(k -> String.format("0x%04x", k)).collect(Collectors.joining(" "));
    }
}
