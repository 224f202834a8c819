package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.RdmaRuntime;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Hostlists;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * UCX offers RC and UD on every active InfiniBand port of the host (ibstat): rc_verbs/rc_mlx5 (or "rc" before UCX
 * 1.10) and ud_verbs/ud_mlx5; dc_mlx5 is optional and reported. Without them UCX falls back to TCP over IPoIB or
 * Ethernet. One finding per missing set (no rc, no ud, neither) with the hosts as a hostlist.
 */
final class UcxTransports implements Check {
    public String id() {
        return "ucx.transports";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.UCX_DEVICES));
    }

    public void evaluate(Ctx c) {
        Map<String, List<String>> hostsByMissing = new LinkedHashMap<>();
        Map<String, List<Evidence>> evByMissing = new LinkedHashMap<>();
        Map<String, Set<String>> devicesByMissing = new LinkedHashMap<>();
        int judged = 0, withDc = 0;
        for (HostData h : c.data.hosts().values()) {
            List<RdmaRuntime.UcxTransport> tl = h.runtime() == null ? null : h.runtime().ucxTransports();
            if (tl == null) continue;
            List<String> ports = ibPorts(h, tl);
            if (ports.isEmpty()) continue;
            judged++;
            boolean allDc = true;
            for (String dev : ports) {
                Set<String> kinds = new TreeSet<>();
                for (RdmaRuntime.UcxTransport t : tl) if (t.device().equals(dev)) kinds.add(kind(t.transport()));
                if (!kinds.contains("dc")) allDc = false;
                List<String> missing = new ArrayList<>();
                if (!kinds.contains("rc")) missing.add("rc");
                if (!kinds.contains("ud")) missing.add("ud");
                if (missing.isEmpty()) continue;
                String key = String.join("+", missing);
                List<String> hs = hostsByMissing.computeIfAbsent(key, k -> new ArrayList<>());
                if (hs.isEmpty() || !hs.get(hs.size() - 1).equals(h.host())) hs.add(h.host()); // hosts come in order
                devicesByMissing.computeIfAbsent(key, k -> new TreeSet<>()).add(dev);
                List<Evidence> ev = evByMissing.computeIfAbsent(key, k -> new ArrayList<>());
                if (ev.size() < 20) ev.add(Evidence.of(h.host() + " " + dev + ": " + (kinds.isEmpty() ? "no transport"
                        : String.join(", ", offered(tl, dev))), Cmd.UCX_DEVICES.path(h.host())));
            }
            if (allDc) withDc++;
        }
        if (judged == 0) {
            c.skip("no host lists an active InfiniBand port in ibstat that ucx_info -d could be compared with");
            return;
        }
        for (var e : hostsByMissing.entrySet()) {
            String key = e.getKey();
            List<String> hosts = e.getValue();
            String list = Hostlists.compress(hosts);
            String what = key.equals("rc+ud") ? "no InfiniBand transport (rc or ud)" : "no " + key + " transport";
            c.problem(Status.FAIL, hosts, evByMissing.get(key), "UCX offers " + what + " on the InfiniBand port of "
                            + hosts.size() + " host(s) (" + list + ")", key.equals("rc+ud") ? "none" : "",
                    Map.of("hosts", list, "missing", key.replace("+", " and "), "devices", String.join(", ", devicesByMissing.get(key))));
        }
        if (hostsByMissing.isEmpty())
            c.pass("UCX offers rc and ud on the InfiniBand ports of all " + judged + " host(s); dc_mlx5 on " + withDc
                    + (withDc < judged ? " (dc is optional: UCX_TLS=dc needs mlx5 and DCT support)" : ""), List.of(), List.of());
    }

    /** Active InfiniBand ports of the host as UCX names them ("mlx5_0:1"); without ibstat, the RDMA devices UCX lists. */
    private static List<String> ibPorts(HostData h, List<RdmaRuntime.UcxTransport> tl) {
        List<String> out = new ArrayList<>();
        for (Ibstat.Ca ca : h.infinibandCas())
            for (Ibstat.Port p : ca.ports())
                if (p.isActive() && p.isInfiniband()) out.add(ca.name() + ":" + p.number());
        if (!out.isEmpty() || !h.cas().isEmpty()) return out;
        for (RdmaRuntime.UcxTransport t : tl)
            if (!kind(t.transport()).isEmpty() && !out.contains(t.device())) out.add(t.device());
        return out;
    }

    /** rc_verbs, rc_mlx5, rc -> rc; ud_* -> ud; dc_* -> dc; anything else (tcp, self, sysv, cma, ...) -> "". */
    static String kind(String transport) {
        for (String k : List.of("rc", "ud", "dc"))
            if (transport.equals(k) || transport.startsWith(k + "_")) return k;
        return "";
    }

    private static List<String> offered(List<RdmaRuntime.UcxTransport> tl, String dev) {
        List<String> out = new ArrayList<>();
        for (RdmaRuntime.UcxTransport t : tl) if (t.device().equals(dev) && !out.contains(t.transport())) out.add(t.transport());
        return out;
    }
}
