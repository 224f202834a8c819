package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.McGroup;
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
import java.util.TreeMap;

/**
 * The IPoIB broadcast group of each partition (saquery -g, MGID ff12:401b:PKEY::ffff:ffff): its MTU caps the IPoIB MTU
 * of every interface in the partition. Below the expected MTU (mtu.expected, capped by the ports' MtuCap) or the MTU
 * the member ports run: IPoIB is slower than the links allow (opensm's partitions.conf default is mtu=4, 2048). Above
 * the MtuCap of member ports: those ports cannot join the group, IPoIB does not come up there.
 */
final class MtuIpoib implements Check {
    public String id() {
        return "mtu.ipoib";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.SAQUERY_MCG));
    }

    public void evaluate(Ctx c) {
        List<McGroup> groups = c.data.fabric().mcGroups();
        // partition -> its broadcast group (the first one listed if the SA lists several scopes)
        Map<Integer, McGroup> bcast = new TreeMap<>();
        for (McGroup g : groups) if (g.isIpv4Broadcast()) bcast.putIfAbsent(g.mgidPkey() & 0x7fff, g);
        // partition -> member hosts (from the HCAs' P_Key tables)
        Map<Integer, List<HostData>> members = new TreeMap<>();
        for (HostData h : c.data.hosts().values())
            if (h.pkeys() != null)
                for (int k : h.pkeys()) if ((k & 0x7fff) != 0) members.computeIfAbsent(k & 0x7fff, x -> new ArrayList<>()).add(h);
        java.util.Set<Integer> partitions = new java.util.TreeSet<>(bcast.keySet());
        partitions.addAll(members.keySet());
        if (partitions.isEmpty()) {
            c.skip("no IPoIB broadcast group in saquery -g and no host P_Key table: nothing to compare");
            return;
        }
        Integer expected = Mtu.expected(c, c.cfg.text("mtu", "expected"));
        // the SA lists a multicast group only to ports of its partition: from the fabric node, the groups of partitions
        // it is not a member of are invisible, not missing
        HostData fabricNode = c.data.hosts().get(c.data.manifest().fabricNode());
        java.util.Set<Integer> visible = new java.util.HashSet<>();
        if (fabricNode != null && fabricNode.pkeys() != null) for (int k : fabricNode.pkeys()) visible.add(k & 0x7fff);
        int bad = 0;
        List<String> ok = new ArrayList<>(), noGroup = new ArrayList<>(), invisible = new ArrayList<>();
        for (int p : partitions) {
            String name = String.format("0x%04x", p);
            McGroup g = bcast.get(p);
            List<HostData> hs = members.getOrDefault(p, List.of());
            if (g == null) {
                if (fabricNode != null && fabricNode.pkeys() != null && !visible.contains(p)) invisible.add(name);
                else noGroup.add(name);
                continue;
            }
            if (g.mtuBytes() < 0) {
                bad++;
                c.problem(Status.WARN, List.of("partition " + name), List.of(Evidence.of("Mtu code " + g.mtuCode(), g.ref())),
                        "partition " + name + ": broadcast group " + g.mgid() + " has an invalid MTU code " + g.mtuCode(), "invalid",
                        vars(name, g, 0));
                continue;
            }
            // what the member ports can do (MtuCap) and run (NeighborMTU)
            int cap = hs.stream().filter(h -> h.portInfo() != null && h.portInfo().mtuCap() > 0).mapToInt(h -> h.portInfo().mtuCap()).min().orElse(-1);
            int running = hs.stream().filter(h -> h.portInfo() != null && h.portInfo().neighborMtu() > 0).mapToInt(h -> h.portInfo().neighborMtu()).max().orElse(-1);
            List<String> cannotJoin = hs.stream().filter(h -> h.portInfo() != null && h.portInfo().mtuCap() > 0
                    && h.portInfo().mtuCap() < g.mtuBytes()).map(HostData::host).toList();
            Evidence groupEv = Evidence.of("broadcast group " + g.mgid() + ": Mtu 0x" + Integer.toHexString(g.mtuSelector() << 6 | g.mtuCode())
                    + " = " + g.mtuBytes() + " bytes", g.ref());
            if (!cannotJoin.isEmpty()) {
                bad++;
                HostData first = hs.stream().filter(h -> h.host().equals(cannotJoin.get(0))).findFirst().orElseThrow();
                Map<String, Object> v = vars(name, g, Math.max(cap, 256));
                v.put("hosts", String.join(", ", cannotJoin));
                Finding above = c.problem(Status.FAIL, cannotJoin, List.of(groupEv, Evidence.of(first.host() + ": MtuCap " + first.portInfo().mtuCap(), first.portInfo().ref())),
                        "partition " + name + ": broadcast group MTU " + g.mtuBytes() + " is above the MtuCap of " + cannotJoin.size()
                                + " member port(s) (" + String.join(", ", cannotJoin.stream().limit(5).toList()) + (cannotJoin.size() > 5 ? ", ..." : "")
                                + "): their IPoIB interfaces cannot join it", "above", v);
                // the partition's mtu= in partitions.conf, where collected, is the root (sm.config.mtu)
                c.explainedBy(above, List.of(io.ibaccept.rules.checks.sm.SmFacts.mtuKey(p)));
                continue;
            }
            int target = -1;
            String why = "";
            if (expected != null) {
                target = cap > 0 ? Math.min(expected, cap) : expected;
                why = "expected " + target;
            }
            if (running > target) {
                target = running;
                why = "the member ports run " + running;
            }
            if (target > 0 && g.mtuBytes() < target) {
                bad++;
                List<Evidence> ev = new ArrayList<>(List.of(groupEv));
                hs.stream().filter(h -> h.portInfo() != null && h.portInfo().neighborMtu() > 0).findFirst()
                        .ifPresent(h -> ev.add(Evidence.of(h.host() + ": NeighborMTU " + h.portInfo().neighborMtu(), h.portInfo().ref())));
                Finding below = c.problem(Status.WARN, List.of("partition " + name), ev, "partition " + name + ": IPoIB broadcast group MTU " + g.mtuBytes()
                        + " below " + target + " (" + why + (hs.isEmpty() ? "" : "; " + hs.size() + " member host(s)") + ")", "", vars(name, g, target));
                c.explainedBy(below, List.of(io.ibaccept.rules.checks.sm.SmFacts.mtuKey(p)));
            } else {
                ok.add(name + " " + g.mtuBytes());
            }
        }
        String notes = (noGroup.isEmpty() ? "" : "; no IPoIB broadcast group for partition(s) " + String.join(", ", noGroup)
                + " (no 'ipoib' flag in partitions.conf: no IPoIB there)")
                + (invisible.isEmpty() ? "" : "; not judged: partition(s) " + String.join(", ", invisible) + " (the fabric node "
                + fabricNode.host() + " is not a member, the SA does not show it their groups)");
        if (bad == 0) c.pass("IPoIB broadcast group MTU per partition: " + (ok.isEmpty() ? "none" : String.join(", ", ok)) + notes,
                List.of(), List.of());
        else if (!notes.isEmpty()) c.pass("note: " + notes.substring(2), List.of(), List.of());
    }

    private static Map<String, Object> vars(String partition, McGroup g, int target) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("partition", partition);
        v.put("mgid", g.mgid());
        v.put("value", g.mtuBytes());
        v.put("code", g.mtuCode());
        v.put("expected", target);
        v.put("mtu_code", target > 0 ? Mtu.mtuCode(target) : 5);
        return v;
    }
}
