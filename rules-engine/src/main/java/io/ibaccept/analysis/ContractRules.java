package io.ibaccept.analysis;

import io.ibaccept.contract.Contract;
import io.ibaccept.rules.RuleConfig;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The contract's declarations that existing checks already judge through a setting: the expected link speed and width
 * per class, MTU, blocking ratio, switch count, SM nodes and the performance and error-rate targets. Written over the
 * rules, so those checks judge against what was declared instead of the majority.
 */
final class ContractRules {
    private ContractRules() {}

    /** rule setting -> contract key (for the error's file:line) and value. */
    static Map<String, String[]> settings(Contract k) {
        Map<String, String[]> m = new LinkedHashMap<>();
        link(m, "host", "links.host", k.hostLink());
        link(m, "isl", "links.switch", k.switchLink());
        if (k.mtu() != null) m.put("mtu.expected", new String[] {"links.mtu", String.valueOf(k.mtu())});
        if (k.fabric() != null) {
            if (k.fabric().blockingRatio() != null) m.put("fabric.blocking.ratio", new String[] {"fabric.blocking_ratio", num(k.fabric().blockingRatio())});
            if (k.fabric().switches() != null) m.put("fabric.tree.switches_expected", new String[] {"fabric.switches", String.valueOf(k.fabric().switches())});
        }
        if (k.sm() != null && !k.sm().nodes().isEmpty()) m.put("sm.count.designated", new String[] {"sm", String.join(",", k.sm().nodes())});
        var p = k.performance();
        if (p.bandwidthPercent() != null) m.put("perftest.bw.min_percent", new String[] {"performance.bandwidth_percent", num(p.bandwidthPercent())});
        if (p.latencyUsec() != null) m.put("perftest.lat.max_usec", new String[] {"performance.latency_usec", num(p.latencyUsec())});
        if (p.collectiveBusbwPercent() != null)
            m.put("collective.nccl_min_busbw_percent", new String[] {"performance.collective_busbw_percent", num(p.collectiveBusbwPercent())});
        if (k.counters().berMax() != null) {
            m.put("link.errors.window.ber_fail", new String[] {"counters.ber_max", String.valueOf(k.counters().berMax())});
            m.put("mlxlink.effective_ber_fail", new String[] {"counters.ber_max", String.valueOf(k.counters().berMax())});
            m.put("link.errors.window.ber_target", new String[] {"counters.ber_max", String.valueOf(k.counters().berMax())});
        }
        return m;
    }

    static RuleConfig apply(RuleConfig rules, Contract k) {
        Map<String, String[]> s = settings(k);
        Map<String, String> values = new LinkedHashMap<>();
        s.forEach((key, v) -> values.put(key, v[1]));
        return rules.with(values, key -> k.where(s.get(key)[0]));
    }

    private static void link(Map<String, String[]> m, String cls, String key, Contract.Link l) {
        if (l == null) return;
        if (l.speed() != null) m.put("link.speed.expected." + cls, new String[] {key, l.speed().name()});
        if (l.width() != null) m.put("link.width.expected." + cls, new String[] {key, l.width().toString()});
    }

    private static String num(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }
}
