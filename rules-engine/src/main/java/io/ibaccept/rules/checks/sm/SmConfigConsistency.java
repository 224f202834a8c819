package io.ibaccept.rules.checks.sm;

import io.ibaccept.rules.checks.SmCheck;
import io.ibaccept.model.SmConfig;
import io.ibaccept.model.SmConfig.Partition;
import io.ibaccept.model.SmInfo;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
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
                // file not collected: unknown, not different; an opensm that runs without one uses its defaults
                if (s.conf() == null && s.option(key).isEmpty() && !SmFacts.withoutConfigFile(s)) continue;
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
        // an opensm running without a partitions.conf serves opensm's default partition only
        // (a partitions.conf that could not be read or parsed is a problem of its own, not a missing file)
        List<SmConfig> onDefaults = sms.values().stream().filter(SmFacts::withoutPartitionsFile)
                .filter(x -> c.data.problemsFor(x.host(), io.ibaccept.dump.Cmd.PARTITIONS_CONF.fileName()).isEmpty()).toList();
        Optional<SmConfig> site = sms.values().stream().filter(x -> x.partitions() != null).findFirst();
        if (!onDefaults.isEmpty() && site.isPresent()) bad += defaults(c, onDefaults, site.get());
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

    /**
     * SM nodes whose opensm runs without a partitions.conf: opensm then makes the default partition 0x7fff with every
     * port a full member and nothing else (osm_prtn.c, prtn_make_default). Named with the hosts that lose each partition
     * of the site's file when such an SM is master: a FAIL when it is master now, else a WARN.
     */
    private static int defaults(Ctx c, List<SmConfig> onDefaults, SmConfig site) {
        Map<Long, String> guids = SmFacts.guidHosts(c);
        TreeSet<String> allHosts = new TreeSet<>(c.data.hosts().keySet());
        Map<String, TreeSet<String>> lose = new LinkedHashMap<>();
        List<Evidence> ev = new ArrayList<>();
        for (Partition p : site.partitions().partitions()) {
            if (p.pkey() == 0x7fff) continue;
            TreeSet<String> members = new TreeSet<>();
            for (SmConfig.Member m : p.members()) {
                if (m.name().equals("ALL") || m.name().equals("ALL_CAS")) members.addAll(allHosts);
                else if (m.name().equals("SELF")) members.add(site.host());
                else if (m.isGuid() && guids.containsKey(m.guid())) members.add(guids.get(m.guid()));
            }
            if (members.isEmpty()) continue;
            String name = (p.name().isEmpty() ? "" : p.name() + " ") + String.format("0x%04x", p.pkey());
            lose.computeIfAbsent(name, k -> new TreeSet<>()).addAll(members);
            if (ev.size() < 3) ev.add(Evidence.of(site.host() + ": " + name + " (" + members.size() + " member host(s))", p.ref()));
        }
        if (lose.isEmpty()) return 0;
        List<String> masters = SmFacts.liveSms(c).stream().filter(SmInfo::isMaster).map(m -> SmFacts.host(c, m)).toList();
        int bad = 0;
        for (SmConfig s : onDefaults) {
            List<Evidence> all = new ArrayList<>();
            all.add(Evidence.of(s.host() + ": opensm runs without a partitions.conf (" + s.process().partitionsFile()
                    + " not present): opensm's default partition only, 'Default=0x7fff, ipoib : ALL=full;'", s.process().ref()));
            all.addAll(ev);
            String losing = lose.entrySet().stream().map(e -> e.getKey() + ": " + io.ibaccept.rules.Hostlists.compress(e.getValue()))
                    .collect(Collectors.joining("; "));
            boolean master = masters.contains(s.host());
            Finding f = c.problem(master ? Status.FAIL : Status.WARN, List.of(s.host()), all, "opensm on " + s.host() + " runs without a partitions.conf, so it serves"
                    + " the default partition only: " + (master ? "it is master now and these hosts have lost " : "when it is master these hosts lose ")
                    + "their partitions (" + losing + ")", "defaults", Map.of("host", s.host(), "site", site.host(), "lost", losing));
            c.covers(f, List.of(SmFacts.defaultsKey(s.host())));
            // an SM that should not run at all (sm.count names it) is the root, its defaults what follows
            c.explainedBy(f, List.of(SmFacts.rogueKey(s.host())));
            bad++;
        }
        return bad;
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
