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
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * IPoIB mode and MTU: the same on every host (a mixed datagram/connected cluster or mixed MTUs fragments or drops at
 * the larger size), and the MTU consistent with the IB MTU the port runs: datagram mode carries at most the IB MTU
 * minus the 4-byte IPoIB header (2044 on 2048, 4092 on 4096); above it is a FAIL, below it IPoIB is capped by a smaller
 * broadcast group (WARN). Connected mode may go up to 65520. Judged on the parent interfaces (ib0, mlx5_ib0); P_Key
 * children inherit their parent's mode.
 */
final class IpoibConfig implements Check {
    static final int IPOIB_HEADER = 4;
    static final int CONNECTED_MAX = 65520;

    public String id() {
        return "ipoib.config";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IP_ADDR));
    }

    public void evaluate(Ctx c) {
        Map<String, String> modeByHost = new TreeMap<>(), mtuByHost = new TreeMap<>();
        Map<String, HostConfig.IpLink> firstByHost = new TreeMap<>();
        List<String> unknownMode = new ArrayList<>();
        // cause key -> hosts, evidence, vars (one finding per cause and value)
        Map<String, Group> mtuVsIb = new LinkedHashMap<>();
        int judged = 0;
        for (HostData h : c.data.hosts().values()) {
            if (h.config() == null) continue;
            List<HostConfig.IpLink> parents = h.config().ipoib().stream().filter(l -> l.parent() == null).toList();
            if (parents.isEmpty()) continue;
            firstByHost.put(h.host(), parents.get(0));
            TreeSet<String> modes = new TreeSet<>();
            TreeSet<Integer> mtus = new TreeSet<>();
            for (HostConfig.IpLink l : parents) {
                if (l.mode() != null) modes.add(l.mode());
                mtus.add(l.mtu());
            }
            if (modes.isEmpty()) unknownMode.add(h.host());
            else modeByHost.put(h.host(), String.join("/", modes));
            mtuByHost.put(h.host(), mtus.stream().map(String::valueOf).reduce((a, b) -> a + "/" + b).orElse(""));
            for (HostConfig.IpLink l : h.config().ipoib()) {
                int ib = ibMtu(h, l);
                if (ib <= 0) continue;
                judged++;
                String mode = l.mode() != null ? l.mode() : parents.stream().filter(p -> p.name().equals(l.parent()))
                        .map(HostConfig.IpLink::mode).filter(m -> m != null).findFirst().orElse(null);
                int max = ib - IPOIB_HEADER;
                String key = null, variant = null;
                if ("datagram".equals(mode) && l.mtu() > max) {
                    key = "above " + l.mtu() + " " + ib;
                    variant = "above";
                } else if ("connected".equals(mode) && l.mtu() > CONNECTED_MAX) {
                    key = "connected " + l.mtu();
                    variant = "connected";
                } else if (!"connected".equals(mode) && l.mtu() < max && l.mtu() <= ib) {
                    // datagram (or unknown: an MTU below the IB MTU is datagram's) capped below what the link carries
                    key = "below " + l.mtu() + " " + ib;
                    variant = "below";
                }
                if (key == null) continue;
                Group g = mtuVsIb.computeIfAbsent(key, k -> new Group());
                g.variant = variant;
                if (g.hosts.isEmpty() || !g.hosts.get(g.hosts.size() - 1).equals(h.host())) g.hosts.add(h.host()); // hosts come in order
                g.ifaces.add(l.name());
                g.partitions.add(l.pkey() == null ? 0x7fff : l.pkey() & 0x7fff);
                g.ev.add(Evidence.of(h.host() + ": " + l.name() + " mtu " + l.mtu() + (mode == null ? "" : " mode " + mode)
                        + ", IB MTU " + ib, l.ref()));
                g.vars.put("value", l.mtu());
                g.vars.put("ib_mtu", ib);
                g.vars.put("max", max);
                g.vars.put("mode", mode == null ? "datagram" : mode);
            }
        }
        if (firstByHost.isEmpty()) {
            c.skip("no IPoIB interface on any host: IPoIB mode and MTU not judged");
            return;
        }
        int bad = 0;
        bad += consistency(c, modeByHost, firstByHost, "mode", "mode");
        bad += consistency(c, mtuByHost, firstByHost, "MTU", "mtu");
        for (Group g : mtuVsIb.values()) {
            bad++;
            g.vars.put("hosts", HostConfigs.hostlist(g.hosts));
            g.vars.put("interfaces", String.join(", ", new TreeSet<>(g.ifaces)));
            String what = switch (g.variant) {
                case "above" -> "datagram-mode MTU " + g.vars.get("value") + " above the IB MTU " + g.vars.get("ib_mtu") + " minus the 4-byte IPoIB header ("
                        + g.vars.get("max") + ")";
                case "connected" -> "connected-mode MTU " + g.vars.get("value") + " above " + CONNECTED_MAX;
                default -> "IPoIB MTU " + g.vars.get("value") + " below the " + g.vars.get("max") + " the IB MTU " + g.vars.get("ib_mtu") + " allows in datagram mode";
            };
            io.ibaccept.rules.Finding f = c.problem(g.variant.equals("below") ? Status.WARN : Status.FAIL, g.hosts, HostConfigs.limit(g.ev),
                    g.hosts.size() + " host(s) " + HostConfigs.hostlist(g.hosts) + ": " + what, g.variant, g.vars);
            // a partition created with a small mtu= (opensm's default 2048) caps the interfaces: listed under sm.config.mtu
            if (g.variant.equals("below"))
                c.explainedBy(f, g.partitions.stream().map(io.ibaccept.rules.checks.sm.SmFacts::mtuKey).toList());
        }
        if (bad == 0) {
            String modes = new TreeSet<>(modeByHost.values()).stream().findFirst().orElse("unknown (kernel prints no 'ipoib' line)");
            String mtus = new TreeSet<>(mtuByHost.values()).stream().findFirst().orElse("");
            c.pass(firstByHost.size() + " host(s) run IPoIB in " + modes + " mode with MTU " + mtus
                    + (judged > 0 ? ", consistent with the IB MTU" : "")
                    + (unknownMode.isEmpty() || modeByHost.isEmpty() ? "" : "; mode not printed on " + HostConfigs.hostlist(unknownMode)), List.of(), List.of());
        }
    }

    private static final class Group {
        final List<String> hosts = new ArrayList<>(), ifaces = new ArrayList<>();
        final java.util.Set<Integer> partitions = new java.util.TreeSet<>();
        final List<Evidence> ev = new ArrayList<>();
        final Map<String, Object> vars = new LinkedHashMap<>();
        String variant;
    }

    /** Minority groups against the majority value, one finding per value, hosts named as a hostlist. */
    private static int consistency(Ctx c, Map<String, String> byHost, Map<String, HostConfig.IpLink> first, String what, String variant) {
        if (byHost.size() < 2) return 0;
        Map<String, List<String>> groups = Majority.groups(byHost);
        if (groups.size() == 1) return 0;
        String majority = Majority.of(byHost.values(), Comparator.naturalOrder()).orElseThrow();
        String all = groups.entrySet().stream().map(e -> e.getKey() + " on " + e.getValue().size()).reduce((a, b) -> a + ", " + b).orElse("");
        int n = 0;
        for (Map.Entry<String, List<String>> g : groups.entrySet()) {
            if (g.getKey().equals(majority)) continue;
            n++;
            List<Evidence> ev = new ArrayList<>();
            for (String h : g.getValue()) ev.add(Evidence.of(h + ": " + first.get(h).name() + " " + what + " " + g.getKey(), first.get(h).ref()));
            ev = new ArrayList<>(HostConfigs.limit(ev));
            String m = groups.get(majority).get(0);
            ev.add(Evidence.of(m + ": " + first.get(m).name() + " " + what + " " + majority + " (majority, " + groups.get(majority).size() + " hosts)", first.get(m).ref()));
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("hosts", HostConfigs.hostlist(g.getValue()));
            v.put("value", g.getKey());
            v.put("majority", majority);
            v.put("values", all);
            c.problem(Status.WARN, g.getValue(), ev, g.getValue().size() + " host(s) " + HostConfigs.hostlist(g.getValue()) + ": IPoIB "
                    + what + " " + g.getKey() + " instead of " + majority + " (" + all + ")", variant, v);
        }
        return n;
    }

    /**
     * The IB MTU under the interface: PortInfo's NeighborMTU, which describes the host's first IB port (smpquery -D
     * portinfo 0); used for an interface on that port, or for any interface of a host with a single IB port. -1 if
     * unknown.
     */
    static int ibMtu(HostData h, HostConfig.IpLink l) {
        if (h.portInfo() == null || h.portInfo().neighborMtu() <= 0) return -1;
        List<Ibstat.Port> ib = new ArrayList<>();
        for (Ibstat.Ca ca : h.infinibandCas()) for (Ibstat.Port p : ca.ports()) if (p.isInfiniband()) ib.add(p);
        if (ib.size() <= 1) return h.portInfo().neighborMtu();
        Ibstat.Port p = HostConfigs.port(h, l);
        return p != null && p == ib.get(0) ? h.portInfo().neighborMtu() : -1;
    }
}
