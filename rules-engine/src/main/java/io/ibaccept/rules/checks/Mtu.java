package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The same MTU on every host (NeighborMTU from smpquery portinfo, else the perftest Mtu line). */
final class Mtu implements Check {
    public String id() {
        return "mtu";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.PORTINFO).orPerftests());
    }

    public List<io.ibaccept.rules.Setting> settings() {
        return List.of(io.ibaccept.rules.Setting.of("expected", io.ibaccept.rules.Setting.Type.MTU, "auto",
                "expected IB MTU in bytes; auto = 4096 when the fabric runs HDR or faster, else only consistency is checked"));
    }

    public void evaluate(Ctx c) {
        Map<String, String> v = new TreeMap<>(), src = new TreeMap<>();
        for (HostData h : c.data.hosts().values())
            if (h.portInfo() != null && h.portInfo().neighborMtu() > 0) {
                v.put(h.host(), String.valueOf(h.portInfo().neighborMtu()));
                src.put(h.host(), h.portInfo().ref().toString());
            }
        c.data.perftests().forEach(r -> {
            // RoCE runs (Link type: Ethernet) report the RoCE path MTU, bounded by the Ethernet MTU: not the IB fabric's
            boolean ethernet = r.result() != null && r.result().linkType() != null && r.result().linkType().toLowerCase(java.util.Locale.ROOT).startsWith("eth");
            if (r.result() != null && !ethernet && r.result().mtu() > 0 && !v.containsKey(r.client())) {
                v.put(r.client(), String.valueOf(r.result().mtu()));
                src.put(r.client(), r.file());
            }
        });
        if (v.isEmpty()) {
            c.skip("no MTU information (smpquery portinfo NeighborMTU or perftest Mtu)");
            return;
        }
        Integer wanted = expected(c, c.text("expected"));
        // what the hardware can do caps the expectation: a port whose MtuCap is 2048 cannot run 4096
        int cap = c.data.hosts().values().stream().filter(h -> h.portInfo() != null && h.portInfo().mtuCap() > 0)
                .mapToInt(h -> h.portInfo().mtuCap()).min().orElse(Integer.MAX_VALUE);
        Integer expected = wanted == null ? null : Math.min(wanted, cap);
        java.util.Set<String> values = new java.util.HashSet<>(v.values());
        if (expected != null && values.size() == 1 && Integer.parseInt(values.iterator().next()) < expected) {
            // the whole fabric at a lower MTU: a configuration choice of the SM, not a broken host
            String value = values.iterator().next();
            String first = v.keySet().iterator().next();
            c.problem(Status.WARN, List.of("fabric"), List.of(io.ibaccept.rules.Evidence.of(first + ": MTU " + value + " (like all "
                            + v.size() + " hosts)", src.get(first))),
                    "all " + v.size() + " host(s) use MTU " + value + ", expected " + expected, "fabric",
                    Map.of("value", value, "expected", expected, "mtu_code", mtuCode(expected)));
            return;
        }
        Consistency.check(c, v, src, "use MTU", Status.FAIL, Map.of());
    }

    /** The configured MTU (setting e), or 4096 when most links run HDR or faster; null: judge consistency only. */
    static Integer expected(Ctx c, String e) {
        if (!e.equalsIgnoreCase("auto")) return Integer.parseInt(e.trim());
        if (c.data.fabric().links() == null) return null;
        var speeds = c.data.fabric().links().stream().filter(l -> l.isActive() && l.speed() != null).map(l -> l.speed()).toList();
        var top = Majority.of(speeds, java.util.Comparator.naturalOrder());
        return top.isPresent() && top.get().compareTo(io.ibaccept.model.LinkSpeed.HDR) >= 0 ? 4096 : null;
    }

    /** The opensm/partitions.conf MTU code (1=256 ... 5=4096). */
    static int mtuCode(int bytes) {
        return Integer.numberOfTrailingZeros(bytes) - 7;
    }
}
