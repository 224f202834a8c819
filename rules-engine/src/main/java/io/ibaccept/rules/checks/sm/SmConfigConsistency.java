package io.ibaccept.rules.checks.sm;

import io.ibaccept.rules.checks.SmCheck;
import io.ibaccept.model.SmConfig;
import io.ibaccept.model.SmConfig.Partition;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The SM nodes agree: a standby with another partitions.conf, routing engine or SM_Key changes the fabric the moment
 * it takes over (partitions vanish, routes change, or it is refused). Compared: the partition definitions as opensm
 * reads them (not the text) and the options listed in the setting.
 */
public final class SmConfigConsistency implements SmCheck {
    public String id() {
        return "sm.config.consistency";
    }

    public List<Input> inputs() {
        return List.of(SmFacts.config());
    }

    /** What opensm uses for an option its file leaves out, as 'opensm -c' of opensm 3.3.23 writes them. */
    static final Map<String, String> DEFAULTS = Map.of("routing_engine", "(null)", "sm_key", "0x0000000000000001", "part_enforce", "both",
            "qos", "FALSE", "lmc", "0", "max_op_vls", "5", "allow_both_pkeys", "FALSE", "congestion_control", "FALSE");

    public List<Setting> settings() {
        return List.of(Setting.of("options", Setting.Type.LIST, "routing_engine,sm_key,part_enforce,qos,lmc,max_op_vls,allow_both_pkeys,congestion_control",
                "opensm options that must be the same on every SM node"));
    }

    public void evaluate(Ctx c) {
        Map<String, SmConfig> sms = SmFacts.configs(c);
        if (sms.size() < 2) {
            c.pass("one SM node: nothing to compare", List.copyOf(sms.keySet()), List.of());
            return;
        }
        int bad = 0;
        for (String key : c.list("options")) {
            Map<String, List<SmConfig>> byValue = new LinkedHashMap<>();
            for (SmConfig s : sms.values()) {
                if (s.conf() == null && s.option(key).isEmpty()) continue; // file not collected: unknown, not different
                byValue.computeIfAbsent(s.option(key).map(SmConfig.Option::value).orElse(DEFAULTS.getOrDefault(key, "(opensm default)")),
                        k -> new ArrayList<>()).add(s);
            }
            if (byValue.size() < 2) continue;
            bad++;
            List<Evidence> ev = new ArrayList<>();
            byValue.forEach((v, list) -> list.forEach(s -> ev.add(SmFacts.evidence(s, key, "default"))));
            String what = byValue.entrySet().stream().map(e -> e.getValue().stream().map(SmConfig::host).collect(Collectors.joining(", "))
                    + ": " + (key.equals("sm_key") ? "(" + e.getValue().size() + " value)" : e.getKey())).collect(Collectors.joining("; "));
            c.problem(Status.WARN, List.copyOf(sms.keySet()), ev, key + " differs between the SM nodes (" + what + ")", "",
                    Map.of("what", key, "hosts", String.join(", ", sms.keySet())));
        }
        // partitions: the definitions as opensm reads them
        Map<String, List<String>> byDefs = new LinkedHashMap<>();
        Map<String, SmConfig> first = new LinkedHashMap<>();
        for (SmConfig s : sms.values()) {
            if (s.partitions() == null) continue;
            String key = canonical(s.partitions());
            byDefs.computeIfAbsent(key, k -> new ArrayList<>()).add(s.host());
            first.putIfAbsent(key, s);
        }
        if (byDefs.size() > 1) {
            bad++;
            List<Evidence> ev = new ArrayList<>();
            List<String> keys = new ArrayList<>(byDefs.keySet());
            TreeSet<String> a = new TreeSet<>(List.of(keys.get(0).split("\n"))), b = new TreeSet<>(List.of(keys.get(1).split("\n")));
            SmConfig sa = first.get(keys.get(0)), sb = first.get(keys.get(1));
            diff(sa, a, b).ifPresent(ev::add);
            diff(sb, b, a).ifPresent(ev::add);
            String groups = byDefs.values().stream().map(l -> String.join(", ", l)).collect(Collectors.joining(" / "));
            c.problem(Status.WARN, List.copyOf(sms.keySet()), ev, "partitions.conf differs between the SM nodes (" + groups
                    + "): the partitions change when the other SM takes over", "", Map.of("what", "partitions.conf", "hosts", String.join(", ", sms.keySet())));
        }
        if (bad == 0) c.pass(sms.size() + " SM nodes with the same partitions and " + String.join(", ", c.list("options")), List.copyOf(sms.keySet()), List.of());
    }

    /** The first definition of 'mine' the other file lacks, with its line. */
    private static Optional<Evidence> diff(SmConfig s, TreeSet<String> mine, TreeSet<String> other) {
        for (Partition p : s.partitions().partitions()) {
            String k = canonical(p);
            if (!other.contains(k) && mine.contains(k))
                return Optional.of(Evidence.of(s.host() + ": " + (p.name().isEmpty() ? "" : p.name() + "=") + String.format("0x%04x", p.pkeyAsWritten())
                        + " (" + p.members().size() + " member entries) only here", p.ref()));
        }
        return Optional.empty();
    }

    static String canonical(SmConfig.Partitions ps) {
        return ps.partitions().stream().map(SmConfigConsistency::canonical).sorted().collect(Collectors.joining("\n"));
    }

    static String canonical(Partition p) {
        return p.name() + "|" + p.pkey() + "|" + p.ipoib() + "|" + p.mtu() + "|" + p.rate() + "|" + p.sl() + "|"
                + p.members().stream().map(m -> m.name() + "=" + m.membership()).sorted().collect(Collectors.joining(","));
    }
}
