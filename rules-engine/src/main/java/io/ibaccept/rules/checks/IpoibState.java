package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostConfig;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every IPoIB interface up where its IB port is Active (ip -d addr show against ibstat): an interface down on a healthy
 * link is a configuration fault (ifcfg/NetworkManager profile missing, ONBOOT=no, a failed ifup), not a cable. An
 * interface without an IPv4 address where the same interface has one on most hosts is one too. A down interface on a
 * port that is down itself is left to port.state. Hosts without any IPoIB interface are a fact, not a fault.
 */
final class IpoibState implements Check {
    public String id() {
        return "ipoib.state";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IP_ADDR));
    }

    public void evaluate(Ctx c) {
        List<String> none = new ArrayList<>(), notCollected = new ArrayList<>(), portDown = new ArrayList<>();
        int interfaces = 0;
        // interface name -> hosts where it has an IPv4 address / has none (only where it is up on an Active port)
        Map<String, List<String>> withAddr = new TreeMap<>(), withoutAddr = new TreeMap<>();
        Map<String, Evidence> noAddrEv = new LinkedHashMap<>();
        List<Down> down = new ArrayList<>();
        List<String> downHosts = new ArrayList<>();
        List<Evidence> downEv = new ArrayList<>();
        TreeSet<String> downNames = new TreeSet<>();
        for (HostData h : c.data.hosts().values()) {
            HostConfig cfg = h.config();
            if (cfg == null || cfg.links() == null) {
                notCollected.add(h.host());
                continue;
            }
            List<HostConfig.IpLink> ipoib = cfg.ipoib();
            if (ipoib.isEmpty()) {
                none.add(h.host());
                continue;
            }
            // P_Key children with an address (ib0.8002): their parent carries none on purpose
            java.util.Set<String> childAddressed = new java.util.HashSet<>();
            for (HostConfig.IpLink l : ipoib) {
                int dot = l.name().indexOf('.');
                if (dot > 0 && l.isUp() && !l.ipv4().isEmpty()) childAddressed.add(l.name().substring(0, dot));
            }
            for (HostConfig.IpLink l : ipoib) {
                interfaces++;
                Boolean active = HostConfigs.portActive(h, l);
                if (!l.isUp()) {
                    if (Boolean.TRUE.equals(active)) {
                        Ibstat.Port p = HostConfigs.port(h, l);
                        down.add(new Down(h.host(), l.name(), isChild(l), Evidence.of(h.host() + ": " + l.name() + " <" + String.join(",", l.flags()) + "> state " + l.state()
                                + (p != null ? ", its IB port " + HostConfigs.portName(h, p) + " is Active" : ", the IB port is Active"), l.ref())));
                    } else if (Boolean.FALSE.equals(active)) {
                        portDown.add(h.host() + " " + l.name());
                    }
                    continue;
                }
                if (l.master() != null) continue; // a bond slave: the address is on the bond
                if (l.ipv4().isEmpty() && childAddressed.contains(l.name())) continue;
                if (l.ipv4().isEmpty()) {
                    withoutAddr.computeIfAbsent(l.name(), k -> new ArrayList<>()).add(h.host());
                    noAddrEv.putIfAbsent(h.host() + " " + l.name(), Evidence.of(h.host() + ": " + l.name() + " is up without an IPv4 address", l.ref()));
                } else {
                    withAddr.computeIfAbsent(l.name(), k -> new ArrayList<>()).add(h.host());
                }
            }
        }
        // down on an Active port is a fault where that interface is in use on the cluster (up with an address on some
        // host) or was created on purpose (a P_Key child); a parent interface no host uses is an unused rail (GPU nodes
        // with one HCA per GPU and IPoIB on one of them)
        List<String> unused = new ArrayList<>();
        for (Down d : down) {
            if (d.child() || withAddr.containsKey(d.name())) {
                if (downHosts.isEmpty() || !downHosts.get(downHosts.size() - 1).equals(d.host())) downHosts.add(d.host());
                downNames.add(d.name());
                downEv.add(d.evidence());
            } else {
                unused.add(d.host() + " " + d.name());
            }
        }
        int bad = 0;
        if (!downHosts.isEmpty()) {
            bad++;
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("hosts", HostConfigs.hostlist(downHosts));
            v.put("interfaces", String.join(", ", downNames));
            c.problem(Status.FAIL, downHosts, HostConfigs.limit(downEv), downHosts.size() + " host(s) " + HostConfigs.hostlist(downHosts)
                    + ": IPoIB interface " + String.join("/", downNames) + " down while its IB port is Active", "", v);
        }
        // no address where most hosts have one on that interface (a host where nobody has an address is not judged)
        for (Map.Entry<String, List<String>> e : withoutAddr.entrySet()) {
            List<String> with = withAddr.getOrDefault(e.getKey(), List.of());
            if (with.size() <= e.getValue().size()) continue;
            bad++;
            List<Evidence> ev = new ArrayList<>();
            for (String h : e.getValue()) ev.add(noAddrEv.get(h + " " + e.getKey()));
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("hosts", HostConfigs.hostlist(e.getValue()));
            v.put("interface", e.getKey());
            v.put("with", with.size());
            c.problem(Status.FAIL, e.getValue(), HostConfigs.limit(ev), e.getValue().size() + " host(s) " + HostConfigs.hostlist(e.getValue())
                    + ": " + e.getKey() + " is up without an IPv4 address (" + with.size() + " host(s) have one on " + e.getKey() + ")",
                    "noaddr", v);
        }
        // no IPoIB at all on a host where most hosts have it: ib_ipoib not loaded or the interface was renamed away
        int hostsWith = c.data.hosts().size() - none.size() - notCollected.size();
        if (!none.isEmpty() && hostsWith > none.size()) {
            bad++;
            List<Evidence> ev = new ArrayList<>();
            for (String h : none) ev.add(Evidence.of(h + ": no link/infiniband interface in 'ip -d addr show'", Cmd.IP_ADDR.path(h)));
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("hosts", HostConfigs.hostlist(none));
            v.put("with", hostsWith);
            c.problem(Status.WARN, none, HostConfigs.limit(ev), none.size() + " host(s) " + HostConfigs.hostlist(none)
                    + ": no IPoIB interface while " + hostsWith + " host(s) have one", "missing", v);
            none.clear();
        }
        if (interfaces == 0) {
            c.skip("no IPoIB interface (link/infiniband) on any of " + none.size() + " host(s): IPoIB is not configured"
                    + (notCollected.isEmpty() ? "" : "; not collected on " + HostConfigs.hostlist(notCollected)));
            return;
        }
        String notes = (none.isEmpty() ? "" : "; no IPoIB interface on " + HostConfigs.hostlist(none))
                + (unused.isEmpty() ? "" : "; down on an Active port but used by no host (unused rail): "
                + String.join(", ", unused.stream().limit(5).toList()) + (unused.size() > 5 ? ", ..." : ""))
                + (portDown.isEmpty() ? "" : "; down with their IB port (judged by port.state): " + String.join(", ", portDown.stream().limit(5).toList())
                + (portDown.size() > 5 ? ", ..." : ""))
                + (notCollected.isEmpty() ? "" : "; not collected on " + HostConfigs.hostlist(notCollected));
        if (bad == 0)
            c.pass(interfaces + " IPoIB interface(s) up with an address where their IB port is Active" + notes, List.of(), List.of());
        else if (!notes.isEmpty())
            c.pass("note: " + notes.substring(2), List.of(), List.of());
    }

    private record Down(String host, String name, boolean child, Evidence evidence) {}

    /** A P_Key child (ib0.8001, or 'name@parent'): created by someone, unlike the interface the driver makes per port. */
    private static boolean isChild(HostConfig.IpLink l) {
        return l.parent() != null && !l.parent().isEmpty() || l.pkey() != null && (l.pkey() & 0x7fff) != 0x7fff || l.name().indexOf('.') > 0;
    }
}
