package io.ibaccept.analysis;

import io.ibaccept.contract.Contract;
import io.ibaccept.contract.YamlText;
import io.ibaccept.fabric.Fabric;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.SmConfig;
import io.ibaccept.model.SmInfo;
import io.ibaccept.rules.Coverage;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Hostlists;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A draft acceptance contract written from a dump known to be good: what is, written as what should be, for the
 * engineer to edit against the customer's design and bill of materials. Each value comes from the analysis (the
 * fabric graph's roles, the hosts' ibstat, the SMs, partitions.conf, the versions); where the dump is not uniform the
 * draft takes the most common value and says so in a comment, so nothing is silently declared from a minority.
 */
public final class ContractDraft {
    private ContractDraft() {}

    public static String of(Analysis a) {
        ClusterData d = a.data();
        StringBuilder y = new StringBuilder();
        y.append("# Acceptance contract drafted by 'ibaccept contract init' from ").append(d.source() == null ? "a dump" : YamlText.comment(d.source()))
                .append(" (").append(a.dumpId()).append(").\n# What the dump shows is written as what the cluster must be: check every value against the design\n")
                .append("# and the bill of materials before you sign with it. Schema: README, section \"Acceptance contract\".\n");
        String warning = warning(a);
        if (warning != null) y.append("#\n# WARNING: ").append(YamlText.comment(warning)).append("\n#\n");
        String cluster = d.manifest() == null ? "" : d.manifest().cluster();
        if (cluster != null && !cluster.isBlank()) y.append("cluster: ").append(q(cluster)).append('\n');
        List<String> hosts = new ArrayList<>(d.hosts().keySet());
        if (!hosts.isEmpty()) hostlist(y, "hosts: ", hosts);
        classes(y, a, hosts);
        fabric(y, a);
        sm(y, d);
        versions(y, d);
        counters(y, a);
        required(y, a);
        return y.toString();
    }

    /**
     * What is wrong with drafting from this dump, or null when its verdict accepts it: a draft from a dump that fails
     * or could not be judged writes the faults down as the design.
     */
    public static String warning(Analysis a) {
        io.ibaccept.rules.Verdict v = a.report().verdict();
        if (v == io.ibaccept.rules.Verdict.ACCEPTED || v == io.ibaccept.rules.Verdict.ACCEPTED_WITH_WARNINGS
                || v == io.ibaccept.rules.Verdict.ACCEPTED_WITH_WAIVERS) return null;
        long failing = a.report().checkStatus().values().stream().filter(s -> s == Status.FAIL || s == Status.ERROR).count();
        return "this dump is " + v.label() + " (" + failing + " check(s) fail or could not judge their input): what it shows"
                + " includes its faults, and this draft writes them down as the design. Fix them, collect again and draft from"
                + " that dump, or check every value below against the design and the bill of materials.";
    }

    private static void classes(StringBuilder y, Analysis a, List<String> hosts) {
        Map<String, List<String>> byName = new TreeMap<>();
        for (String h : hosts) byName.computeIfAbsent(h.replaceAll("\\d+", "#"), k -> new ArrayList<>()).add(h);
        if (byName.isEmpty()) return;
        Map<String, String> link = hostLinks(a);
        y.append("classes:\n");
        int n = 0;
        java.util.Set<String> used = new java.util.HashSet<>();
        for (Map.Entry<String, List<String>> e : byName.entrySet()) {
            String name = e.getKey().replace("#", "").replaceAll("[^A-Za-z0-9_-]", "");
            if (name.length() < 2) name = "class";
            // two name patterns may reduce to one word ("a1b", "ab1"): each class keeps a name of its own
            for (String base = name; !used.add(name); ) name = base + (++n);
            List<String> members = e.getValue();
            y.append("  ").append(q(name)).append(":\n");
            hostlist(y, "    hosts: ", members);
            value(y, "    hcas: ", members, h -> {
                HostData hd = a.data().hosts().get(h);
                return hd == null || hd.ibstat() == null ? null : String.valueOf(hd.infinibandCas().size());
            });
            value(y, "    devices: ", members, h -> {
                HostData hd = a.data().hosts().get(h);
                return hd == null || hd.ibstat() == null || hd.infinibandCas().isEmpty() ? null
                        : hostlist(hd.infinibandCas().stream().map(ca -> ca.name()).toList());
            });
            value(y, "    gpus: ", members, h -> {
                HostData hd = a.data().hosts().get(h);
                return hd == null || hd.runtime() == null || hd.runtime().gpuTopology() == null ? null : String.valueOf(hd.runtime().gpuTopology().gpus().size());
            });
            value(y, "    link: ", members, link::get);
        }
    }

    /** host -> "HDR 4X" of its (first) active host link. */
    private static Map<String, String> hostLinks(Analysis a) {
        Map<String, String> m = new LinkedHashMap<>();
        Fabric f = a.fabric();
        if (f == null) return m;
        for (Fabric.Link l : f.links()) {
            if (f.linkClass(l) != Fabric.LinkClass.HOST || !l.isActive() || l.width() == null || l.speed() == null) continue;
            Fabric.Node ca = f.node(l.a().guid()).isSwitch() ? f.node(l.b().guid()) : f.node(l.a().guid());
            m.putIfAbsent(Fabric.hostPart(ca.description()), l.speed().name() + " " + l.width());
        }
        return m;
    }

    private static void fabric(StringBuilder y, Analysis a) {
        Fabric f = a.fabric();
        if (f == null) return;
        y.append("fabric:\n  levels: ").append(f.maxLevel()).append('\n');
        y.append("  switches: ").append(f.switches().size()).append('\n');
        for (int level = 1; level <= Math.min(3, f.maxLevel()); level++) y.append("  ").append(Contract.ROLES.get(level - 1)).append(": ").append(f.atLevel(level).size()).append('\n');
        double worst = 0;
        for (Fabric.Node leaf : f.atLevel(1)) {
            int down = 0, up = 0;
            for (Fabric.Link l : f.linksOf(leaf.guid())) {
                if (!l.isActive()) continue;
                Fabric.Node o = f.node(l.other(l.endAt(leaf.guid())).guid());
                if (o == null) continue;
                if (o.isHost()) down++;
                else if (o.isSwitch() && o.level() > 1) up++;
            }
            if (up > 0 && down > 0) worst = Math.max(worst, (double) down / up);
        }
        if (worst > 1) y.append("  blocking_ratio: \"").append(Math.round(worst * 4) / 4.0).append(":1\"   # the most loaded leaf of this dump\n");
        Map<String, Long> isl = f.links().stream().filter(l -> f.isSwitchToSwitch(l) && l.isActive() && l.width() != null && l.speed() != null)
                .collect(Collectors.groupingBy(l -> l.speed().name() + " " + l.width(), TreeMap::new, Collectors.counting()));
        if (!isl.isEmpty()) {
            String top = isl.entrySet().stream().max(Map.Entry.comparingByValue()).get().getKey();
            y.append("links:\n  switch: ").append(top);
            if (isl.size() > 1) y.append("   # not uniform in this dump: ").append(YamlText.comment(isl.toString()));
            y.append('\n');
        }
    }

    private static void sm(StringBuilder y, ClusterData d) {
        List<SmInfo> sms = d.fabric() == null ? List.of() : d.fabric().smsOrIbdiagnet();
        Map<Long, String> names = new LinkedHashMap<>();
        if (d.fabric() != null && d.fabric().topology() != null)
            for (var n : d.fabric().topology().nodes()) for (var p : n.ports()) names.put(p.portGuid(), Fabric.hostPart(n.description()));
        String primary = null;
        List<String> standby = new ArrayList<>();
        for (SmInfo s : sms) {
            String h = names.get(s.guid());
            if (h == null || h.isEmpty()) continue;
            if (s.isMaster()) primary = h;
            else if (!standby.contains(h)) standby.add(h);
        }
        if (primary != null || !standby.isEmpty()) {
            y.append("sm:\n");
            if (primary != null) y.append("  primary: ").append(q(primary)).append('\n');
            standby.remove(primary);
            if (!standby.isEmpty()) hostlist(y, "  standby: ", standby);
        }
        Map<Integer, String> parts = new TreeMap<>();
        if (d.fabric() != null)
            for (SmConfig c : d.fabric().smConfigs().values())
                if (c.partitions() != null) for (SmConfig.Partition p : c.partitions().partitions()) parts.putIfAbsent(p.pkey(), p.name());
        if (!parts.isEmpty()) {
            y.append("partitions:\n");
            parts.forEach((k, name) -> y.append("  - name: ").append(q(name)).append(String.format("%n    pkey: 0x%04x%n", k)));
        }
    }

    private static void versions(StringBuilder y, ClusterData d) {
        Map<String, List<String>> fw = new TreeMap<>();
        for (HostData h : d.hosts().values())
            for (Ibstat.Ca ca : h.infinibandCas()) if (!ca.firmware().isBlank()) fw.computeIfAbsent(ca.caType(), k -> new ArrayList<>()).add(ca.firmware());
        List<String> ofed = d.hosts().values().stream().map(HostData::ofedVersion).filter(v -> v != null && !v.isBlank()).toList();
        Map<String, List<String>> sw = io.ibaccept.rules.checks.Checks.switchFirmware(d);
        if (fw.isEmpty() && ofed.isEmpty() && sw.isEmpty()) return;
        y.append("versions:\n");
        if (!fw.isEmpty()) {
            y.append("  firmware:\n");
            fw.forEach((type, vs) -> y.append("    ").append(q(type)).append(": ").append(q(most(vs))).append(note(vs)).append('\n'));
        }
        if (!sw.isEmpty()) {
            y.append("  switch_firmware:   # by switch device ID (ibdiagnet NODES)\n");
            sw.forEach((dev, vs) -> {
                // the contract names a switch model by its decimal device ID: anything else ibdiagnet printed is not one
                if (dev.matches("\\d{1,6}")) y.append("    ").append(dev).append(": ").append(q(most(vs))).append(note(vs)).append('\n');
                else y.append("    # device ID ").append(YamlText.comment(dev)).append(" is not a number: not written\n");
            });
        }
        if (!ofed.isEmpty()) y.append("  ofed: ").append(q(most(ofed))).append(note(ofed)).append('\n');
    }

    private static void counters(StringBuilder y, Analysis a) {
        double s = io.ibaccept.rules.counters.CounterWindowData.of(a.data()).map(w -> w.seconds()).orElse(0.0);
        if (s >= 60) y.append("counters:\n  window_min: ").append((long) (s / 60)).append("m\n");
    }

    /**
     * Required: the checks of the default set and every other check that ran. Those that did not cover their scope on
     * this dump (a host without the output, a window too short) are required too, each with a comment saying why it
     * was not covered and how to collect it: a report against the draft must not claim a coverage the dump did not show.
     */
    private static void required(StringBuilder y, Analysis a) {
        List<String> candidates = new ArrayList<>(RequiredChecks.DEFAULT);
        for (Map.Entry<String, Status> e : a.report().checkStatus().entrySet())
            if (e.getValue() != Status.SKIP && !candidates.contains(e.getKey()) && !e.getKey().startsWith("contract.") && !e.getKey().equals("input"))
                candidates.add(e.getKey());
        Coverage cov = RequiredChecks.judge(candidates, a.report(), null, a.rules(), a.linkWindow());
        y.append("required:\n");
        for (Coverage.Required r : cov.required()) {
            y.append("  - ").append(r.check());
            if (!r.complete())
                y.append("   # NOT COVERED by this dump: ").append(YamlText.comment(r.missing().replace('\n', ' ')))
                        .append(r.hint().isEmpty() ? "" : " (" + YamlText.comment(r.hint()) + ")");
            y.append('\n');
        }
    }

    private static void value(StringBuilder y, String key, Collection<String> hosts, Function<String, String> of) {
        List<String> vs = hosts.stream().map(of).filter(v -> v != null && !v.isBlank()).toList();
        if (vs.isEmpty()) return;
        y.append(key).append(q(most(vs))).append(note(vs)).append('\n');
    }

    private static String most(List<String> vs) {
        return vs.stream().collect(Collectors.groupingBy(v -> v, TreeMap::new, Collectors.counting())).entrySet().stream()
                .max(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder()))).get().getKey();
    }

    private static String note(List<String> vs) {
        Map<String, Long> c = vs.stream().collect(Collectors.groupingBy(v -> v, TreeMap::new, Collectors.counting()));
        return c.size() <= 1 ? "" : "   # not uniform in this dump: " + YamlText.comment(c.toString()) + "; the most common is written";
    }

    /** A value from the dump as a YAML scalar that reads back as the same text (YamlText). */
    private static String q(String s) {
        return YamlText.scalar(s);
    }

    /**
     * names as one hostlist expression, or null when the expression would not expand back to exactly these names (a
     * node description or CA name holding ',', '[' or a blank is no host name).
     */
    static String hostlist(List<String> names) {
        String compressed = Hostlists.compress(names);
        try {
            if (new java.util.HashSet<>(io.ibaccept.model.Hostlist.expand(compressed)).equals(new java.util.HashSet<>(names))) return compressed;
        } catch (IllegalArgumentException notOne) {
            // below
        }
        return null;
    }

    private static void hostlist(StringBuilder y, String key, List<String> names) {
        String h = hostlist(names);
        if (h != null) y.append(key).append(q(h)).append('\n');
        else y.append("# ").append(key.strip()).append(" not written: ").append(YamlText.comment(String.join(" ", names)))
                .append(" are no host names a hostlist can hold\n");
    }
}
