package io.ibaccept.rules.checks.sm;

import io.ibaccept.rules.checks.SmCheck;
import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.SmConfig;
import io.ibaccept.model.SmConfig.Member;
import io.ibaccept.model.SmConfig.Partition;
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

/**
 * The MTU a partition's IPoIB broadcast group gets from partitions.conf (mtu=1..5 for 256..4096; opensm's default 4,
 * 2048) against what the member ports support (PortInfo MtuCap). Above it: those ports cannot join, IPoIB stays down
 * (FAIL). Below it: IPoIB runs slower than the hardware allows (WARN). opensm 3.3 has no max_mtu option: the partition
 * mtu= is the knob. The live broadcast groups judged by mtu.ipoib are listed under these findings.
 */
public final class SmConfigMtu implements SmCheck {
    static final int OPENSM_DEFAULT_MTU = 4;

    public String id() {
        return "sm.config.mtu";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.PARTITIONS_CONF), Input.of(Cmd.PORTINFO));
    }

    public void evaluate(Ctx c) {
        Optional<SmConfig> gov = SmFacts.governing(c);
        if (gov.isEmpty() || gov.get().partitions() == null) {
            c.skip("no partitions.conf of the master SM");
            return;
        }
        SmConfig sm = gov.get();
        int bad = 0;
        List<String> ok = new ArrayList<>();
        Map<Long, String> guids = SmFacts.guidHosts(c);
        for (Partition p : sm.partitions().partitions()) {
            if (!p.ipoib() && p.mtu() == null) continue;
            List<HostData> members = members(c, sm, p, guids);
            int cap = members.stream().filter(h -> h.portInfo() != null && h.portInfo().mtuCap() > 0).mapToInt(h -> h.portInfo().mtuCap()).min().orElse(-1);
            if (cap < 0) continue;
            int code = p.mtu() == null ? OPENSM_DEFAULT_MTU : p.mtu();
            int bytes = SmFacts.mtuBytes(code);
            String label = p.name().isEmpty() ? String.format("0x%04x", p.pkey()) : p.name();
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("partition", label);
            v.put("pkey", String.format("0x%04x", p.pkey()));
            v.put("mtu", bytes);
            v.put("cap", cap);
            v.put("cap_code", Integer.numberOfTrailingZeros(cap) - 7);
            v.put("line", p.ref().toString());
            List<Evidence> ev = new ArrayList<>(List.of(Evidence.of(label + (p.mtu() == null ? ": no mtu= (opensm default 4, 2048)"
                    : ": mtu=" + p.mtu() + " (" + bytes + ")"), p.ref())));
            HostData low = members.stream().filter(h -> h.portInfo() != null && h.portInfo().mtuCap() == cap).findFirst().orElseThrow();
            ev.add(Evidence.of(low.host() + ": MtuCap " + cap, low.portInfo().ref()));
            Finding f;
            if (bytes > cap) {
                List<String> cannot = members.stream().filter(h -> h.portInfo() != null && h.portInfo().mtuCap() > 0 && h.portInfo().mtuCap() < bytes)
                        .map(HostData::host).toList();
                v.put("hosts", String.join(", ", cannot));
                f = c.problem(Status.FAIL, cannot, ev, String.format("partition %s: mtu=%d (%d) in partitions.conf is above the MtuCap %d of %d member port(s): "
                        + "they cannot join its IPoIB broadcast group", label, code, bytes, cap, cannot.size()), "above", v);
            } else if (bytes < cap && p.ipoib()) {
                f = c.problem(Status.WARN, List.of("partition " + label), ev, String.format("partition %s: IPoIB broadcast MTU %d from partitions.conf (%s) "
                        + "below the MtuCap %d of its member ports", label, bytes, p.mtu() == null ? "no mtu=, opensm default" : "mtu=" + code, cap), "below", v);
            } else {
                ok.add(label + " " + bytes);
                continue;
            }
            bad++;
            c.covers(f, List.of(SmFacts.mtuKey(p.pkey())));
        }
        if (bad == 0) c.pass("partition MTUs fit the ports: " + (ok.isEmpty() ? "no IPoIB partition with known member MtuCap" : String.join(", ", ok)),
                List.of(), List.of());
    }

    /** Hosts a definition names: ALL/ALL_CAS every host, SELF the SM node, GUIDs their hosts. */
    static List<HostData> members(Ctx c, SmConfig sm, Partition p, Map<Long, String> guids) {
        Map<String, HostData> out = new java.util.LinkedHashMap<>(); // by name: hashing a whole HostData record is costly
        for (Member m : p.members()) {
            if (m.name().equals("ALL") || m.name().equals("ALL_CAS")) return List.copyOf(c.data.hosts().values());
            Optional<String> h = m.name().equals("SELF") ? Optional.of(sm.host()) : m.isGuid() ? Optional.ofNullable(guids.get(m.guid())) : Optional.empty();
            h.map(c.data.hosts()::get).ifPresent(x -> out.putIfAbsent(x.host(), x));
        }
        return List.copyOf(out.values());
    }
}
