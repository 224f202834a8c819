package io.ibaccept.rules.checks.sm;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.SmConfig;
import io.ibaccept.model.SmConfig.Member;
import io.ibaccept.model.SmConfig.Membership;
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
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * partitions.conf of the SM the fabric runs with, against the live fabric. The 0x7fff/0xffff pitfall: opensm clears
 * the membership bit of the key a definition writes (0xffff is partition 0x7fff), membership comes from '=full' or
 * defmember=full only, a member without it is LIMITED, and without a Default rule every port but the SM's is a limited
 * member of 0x7fff. Limited members reach full members only, never each other. Also: partitions without a full
 * member, keys written with the membership bit, a named partition that is really the default one, P_Keys the HCAs hold
 * that no partition defines, and the SM's own port not a full member of the default partition. The live P_Key
 * findings of check pkey that these explain are listed under them.
 */
public final class PartitionsMembership implements Check {
    static final int DEFAULT = 0x7fff;

    public String id() {
        return "partitions.membership";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.PARTITIONS_CONF));
    }

    public void evaluate(Ctx c) {
        Optional<SmConfig> gov = SmFacts.governing(c);
        if (gov.isPresent() && SmFacts.withoutPartitionsFile(gov.get()) && lostToDefaults(c, gov.get()) > 0) return;
        if (gov.isEmpty() || gov.get().partitions() == null) {
            c.skip("no partitions.conf of the master SM");
            return;
        }
        SmConfig sm = gov.get();
        SmConfig.Partitions ps = sm.partitions();
        String file = sm.process() != null && !sm.process().partitionsFile().isEmpty() ? sm.process().partitionsFile() : "partitions.conf";
        if (ps.errors().stream().anyMatch(SmConfig.SyntaxError::rejected)) {
            c.skip(sm.host() + ": " + file + " has lines opensm rejects (see partitions.syntax): opensm runs the default partition only");
            return;
        }
        int bad = 0;
        Map<Long, String> guids = SmFacts.guidHosts(c);
        bad += defaultPartition(c, sm, ps, file, guids);
        bad += perPartition(c, sm, ps, file, guids);
        bad += undefinedKeys(c, sm, ps, file);
        bad += smPort(c);
        if (bad == 0) c.pass(sm.host() + ": " + ps.partitions().size() + " partition definition(s) in " + file + ", membership consistent",
                List.of(sm.host()), List.of());
    }

    private int defaultPartition(Ctx c, SmConfig sm, SmConfig.Partitions ps, String file, Map<Long, String> guids) {
        List<Partition> defs = ps.partitions().stream().filter(p -> p.pkey() == DEFAULT).toList();
        List<Member> members = defs.stream().flatMap(p -> p.members().stream()).toList();
        // per host: is it a full member of 0x7fff by the file? (ALL/ALL_CAS, its port GUID, SELF on the SM node; the SM's
        // own port is always full). Without any Default rule every other port is limited.
        // the hosts the rule makes full members, found once from the members (a rule may list thousands of GUIDs)
        boolean allFull = false;
        java.util.Set<String> fullHosts = new java.util.HashSet<>();
        for (Member m : members) {
            if (m.membership() == Membership.LIMITED) continue;
            if (m.name().equals("ALL") || m.name().equals("ALL_CAS")) allFull = true;
            else if (m.name().equals("SELF")) fullHosts.add(sm.host());
            else if (m.isGuid() && guids.get(m.guid()) != null) fullHosts.add(guids.get(m.guid()));
        }
        List<String> notFull = new ArrayList<>();
        for (HostData h : c.data.hosts().values()) {
            if (h.host().equals(sm.host())) continue;
            if (!allFull && !fullHosts.contains(h.host())) notFull.add(h.host());
        }
        boolean allFullByRule = members.stream().anyMatch(m -> (m.name().equals("ALL") || m.name().equals("ALL_CAS"))
                && m.membership() != Membership.LIMITED);
        if (allFullByRule || (!c.data.hosts().isEmpty() && notFull.size() < 2)) return 0;
        List<Evidence> ev = new ArrayList<>();
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("host", sm.host());
        v.put("file", file);
        String variant, summary;
        Optional<Partition> ffff = defs.stream().filter(p -> p.pkeyAsWritten() != p.pkey()).findFirst();
        String who = c.data.hosts().isEmpty() ? "every port but the SM's" : notFull.size() + " of " + c.data.hosts().size() + " hosts";
        if (defs.isEmpty()) {
            variant = "nodefault";
            summary = file + " on " + sm.host() + " has no rule for the Default partition (0x7fff): opensm makes every port but its own a LIMITED member of it";
            ev.add(Evidence.of(ps.partitions().size() + " definition(s), none with P_Key 0x7fff", ps.file()));
        } else {
            Partition d = ffff.orElse(defs.get(0));
            ev.add(Evidence.of(String.format("%s=0x%04x%s : %s", d.name(), d.pkeyAsWritten(), d.ipoib() ? ", ipoib" : "",
                    d.members().stream().map(m -> m.name() + (m.flagWritten() ? "=" + m.membership().name().toLowerCase(java.util.Locale.ROOT) : ""))
                            .collect(Collectors.joining(", "))), d.ref()));
            members.stream().filter(m -> m.membership() == Membership.LIMITED).findFirst().ifPresent(m -> ev.add(Evidence.of(m.name()
                    + (m.flagWritten() ? " written limited" : " without '=full' (defmember " + d.defmember().name().toLowerCase(java.util.Locale.ROOT)
                    + "): limited"), m.ref())));
            v.put("written", String.format("0x%04x", d.pkeyAsWritten()));
            v.put("line", d.ref().toString());
            if (ffff.isPresent()) {
                variant = "ffff";
                summary = String.format("%s writes the default partition as 0x%04x (line %d), meaning full membership, but opensm clears that bit: "
                        + "%s are not full members (0x7fff) and cannot talk to each other", file, d.pkeyAsWritten(), d.ref().line(), who);
            } else {
                variant = "limited";
                summary = file + " (line " + d.ref().line() + ") leaves " + who + " out of full membership of the default partition 0x7fff"
                        + " (no '=full' for them, no defmember=full): they cannot talk to each other";
            }
        }
        if (!notFull.isEmpty()) ev.add(Evidence.of("not full members by the file: " + String.join(", ", notFull.stream().limit(8).toList())
                + (notFull.size() > 8 ? ", ..." : ""), ps.file()));
        List<String> limitedHosts = c.data.hosts().values().stream().filter(h -> h.pkeys() != null && h.pkeys().contains(DEFAULT)
                && !h.pkeys().contains(0xffff)).map(HostData::host).toList();
        limitedHosts.stream().limit(3).forEach(h -> ev.add(Evidence.of(h + ": P_Key 0x7fff (limited), no 0xffff", Cmd.PKEYS.path(h))));
        if (!limitedHosts.isEmpty()) summary += "; live: " + limitedHosts.size() + " host(s) hold 0x7fff only";
        Finding f = c.problem(Status.FAIL, List.of(sm.host() + " " + file), ev, summary, variant, v);
        c.covers(f, List.of(SmFacts.DEFAULT_LIMITED));
        return 1;
    }

    /**
     * The master SM runs without a partitions.conf (opensm's default partition only) while another SM node's file
     * defines partitions: each of those partitions is lost by its members, one FAIL per partition naming the SM that
     * lacks it, under sm.config.consistency's finding on that SM. Live P_Key tables, where collected, confirm it.
     */
    private int lostToDefaults(Ctx c, SmConfig master) {
        Optional<SmConfig> site = SmFacts.configs(c).values().stream().filter(s -> s != master && s.partitions() != null
                && s.partitions().errors().stream().noneMatch(SmConfig.SyntaxError::rejected)).findFirst();
        if (site.isEmpty()) return 0;
        Map<Long, String> guids = SmFacts.guidHosts(c);
        java.util.TreeSet<String> allHosts = new java.util.TreeSet<>(c.data.hosts().keySet());
        Map<Integer, List<Partition>> byKey = new TreeMap<>();
        for (Partition p : site.get().partitions().partitions())
            if (p.pkey() != DEFAULT && p.pkey() != 0) byKey.computeIfAbsent(p.pkey(), k -> new ArrayList<>()).add(p);
        String file = site.get().process() != null && !site.get().process().partitionsFile().isEmpty() ? site.get().process().partitionsFile() : "partitions.conf";
        int bad = 0;
        for (var e : byKey.entrySet()) {
            Partition p = e.getValue().get(0);
            java.util.TreeSet<String> members = new java.util.TreeSet<>();
            for (Partition q : e.getValue())
                for (Member m : q.members()) {
                    if (m.name().equals("ALL") || m.name().equals("ALL_CAS")) members.addAll(allHosts);
                    else if (m.name().equals("SELF")) members.add(site.get().host());
                    else if (m.isGuid() && guids.containsKey(m.guid())) members.add(guids.get(m.guid()));
                }
            String name = (p.name().isEmpty() ? "" : "'" + p.name() + "' ") + String.format("(0x%04x)", e.getKey());
            String hosts = members.isEmpty() ? "its members" : io.ibaccept.rules.Hostlists.compress(members);
            List<Evidence> ev = new ArrayList<>();
            ev.add(Evidence.of(master.host() + ": opensm runs without a partitions.conf (" + master.process().partitionsFile()
                    + " not present): opensm's default partition only", master.process().ref()));
            ev.add(Evidence.of(String.format("%s: %s=0x%04x in %s", site.get().host(), p.name(), p.pkeyAsWritten(), file), p.ref()));
            // live tables, where read: the members hold no key of the partition any more
            members.stream().map(h -> c.data.hosts().get(h)).filter(h -> h != null && h.pkeys() != null
                            && h.pkeys().stream().noneMatch(k -> (k & 0x7fff) == e.getKey())).limit(3)
                    .forEach(h -> ev.add(Evidence.of(h.host() + " P_Keys: " + h.pkeys().stream().map(k -> String.format("0x%04x", k))
                            .collect(Collectors.joining(" ")) + String.format(" (no 0x%04x)", e.getKey()), Cmd.PKEYS.path(h.host()))));
            Map<String, Object> v = vars(site.get(), file, p);
            v.put("master", master.host());
            v.put("members", hosts);
            Finding f = c.problem(Status.FAIL, List.of("partition " + (p.name().isEmpty() ? String.format("0x%04x", e.getKey()) : p.name())), ev,
                    "partition " + name + " is not served: the master SM " + master.host() + " runs without a partitions.conf (opensm's default"
                            + " partition only), so " + hosts + " lost it; " + site.get().host() + "'s " + file + " defines it (line " + p.ref().line() + ")",
                    "lost", v);
            c.explainedBy(f, List.of(SmFacts.defaultsKey(master.host())));
            bad++;
        }
        return bad;
    }

    /** Whether a member line names the host's port: ALL/ALL_CAS, SELF on the SM node, or its port GUID. */
    private int perPartition(Ctx c, SmConfig sm, SmConfig.Partitions ps, String file, Map<Long, String> guids) {
        int bad = 0;
        // a partition may be split over several definitions with the same key
        Map<Integer, List<Partition>> byKey = new TreeMap<>();
        for (Partition p : ps.partitions()) if (p.pkey() != 0) byKey.computeIfAbsent(p.pkey(), k -> new ArrayList<>()).add(p);
        for (var e : byKey.entrySet()) {
            int key = e.getKey();
            for (Partition p : e.getValue()) {
                Map<String, Object> v = vars(sm, file, p);
                if (key == DEFAULT && !p.name().isEmpty() && !p.name().equalsIgnoreCase("Default")) {
                    bad++;
                    c.problem(Status.WARN, List.of("partition " + p.name()), List.of(Evidence.of(String.format("%s=0x%04x", p.name(), p.pkeyAsWritten()), p.ref())),
                            "partition '" + p.name() + "' is written with P_Key " + String.format("0x%04x", p.pkeyAsWritten())
                                    + ": that is the default partition, its members are merged into it instead of a partition of their own", "merged", v);
                } else if (key != DEFAULT && p.pkeyAsWritten() != p.pkey()) {
                    bad++;
                    boolean anyLimited = p.members().stream().anyMatch(m -> m.membership() == Membership.LIMITED);
                    c.problem(anyLimited ? Status.FAIL : Status.WARN, List.of("partition " + p.name()),
                            List.of(Evidence.of(String.format("%s=0x%04x", p.name(), p.pkeyAsWritten()), p.ref())),
                            String.format("partition '%s' is written as 0x%04x: opensm clears the membership bit (partition 0x%04x); membership comes from "
                                    + "'=full' per member%s", p.name(), p.pkeyAsWritten(), key, anyLimited ? ", so its members without it are LIMITED" : ""), "highbit", v);
                }
            }
            if (key == DEFAULT) continue;
            List<Member> members = e.getValue().stream().flatMap(p -> p.members().stream()).toList();
            List<Member> limited = members.stream().filter(m -> m.membership() == Membership.LIMITED).toList();
            // members written limited on purpose ('=limited', defmember=limited) reach the full ones only by design
            List<Member> limitedByDefault = limited.stream().filter(m -> !m.flagWritten() && !e.getValue().stream()
                    .anyMatch(d -> d.defmemberWritten() && d.members().contains(m))).toList();
            boolean anyFull = members.stream().anyMatch(m -> m.membership() != Membership.LIMITED);
            Partition p = e.getValue().get(0);
            if (members.size() >= 2 && !anyFull) {
                bad++;
                Finding f = c.problem(Status.FAIL, List.of("partition " + p.name()), memberEvidence(guids, limited),
                        String.format("partition '%s' (0x%04x) has no full member: its %d members are all LIMITED and cannot talk to each other",
                                p.name(), key, members.size()), "nofull", vars(sm, file, p));
                c.covers(f, List.of(SmFacts.limitedKey(key)));
            } else if (anyFull && limitedByDefault.stream().filter(Member::isGuid).count() >= 2) {
                bad++;
                List<String> names = limitedByDefault.stream().filter(Member::isGuid).map(m -> name(guids, m)).toList();
                Map<String, Object> v = vars(sm, file, p);
                v.put("limited", String.join(", ", names));
                Finding f = c.problem(Status.WARN, names, memberEvidence(guids, limited),
                        String.format("partition '%s' (0x%04x): %s are LIMITED members: each reaches the full members only, not the other limited ones",
                                p.name(), key, String.join(", ", names)), "limitedpeers", v);
                c.covers(f, List.of(SmFacts.limitedKey(key)));
            }
        }
        return bad;
    }

    /** P_Keys in the HCAs' tables that no definition of the file gives (a stale table, another SM, another file). */
    private int undefinedKeys(Ctx c, SmConfig sm, SmConfig.Partitions ps, String file) {
        TreeSet<Integer> defined = new TreeSet<>();
        defined.add(DEFAULT);
        boolean generated = false;
        for (Partition p : ps.partitions()) {
            if (p.pkey() == 0) generated = true;
            else defined.add(p.pkey());
        }
        Map<Integer, List<String>> extra = new TreeMap<>();
        for (HostData h : c.data.hosts().values())
            if (h.pkeys() != null)
                for (int k : h.pkeys()) {
                    int b = k & 0x7fff;
                    if (b == 0 || defined.contains(b)) continue;
                    // a definition without a key gets one generated from 0x0001 up: low keys may be those
                    if (generated && b < 0x0100) continue;
                    List<String> hs = extra.computeIfAbsent(b, x -> new ArrayList<>());
                    if (hs.isEmpty() || !hs.get(hs.size() - 1).equals(h.host())) hs.add(h.host()); // hosts come in order
                }
        if (extra.isEmpty()) return 0;
        List<String> hosts = extra.values().stream().flatMap(List::stream).distinct().toList();
        List<Evidence> ev = new ArrayList<>();
        extra.forEach((k, hs) -> ev.add(Evidence.of(String.format("P_Key 0x%04x on %s", k, String.join(", ", hs.stream().limit(5).toList())),
                Cmd.PKEYS.path(hs.get(0)))));
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("host", sm.host());
        v.put("file", file);
        v.put("keys", extra.keySet().stream().map(k -> String.format("0x%04x", k)).collect(Collectors.joining(", ")));
        c.problem(Status.WARN, hosts, ev, hosts.size() + " host(s) hold P_Key(s) " + v.get("keys") + " that no partition of " + file + " on "
                + sm.host() + " defines", "stale", v);
        return 1;
    }

    /** Each SM node's own port must be a full member of the default partition (0xffff in its P_Key table). */
    private int smPort(Ctx c) {
        int bad = 0;
        for (String h : SmFacts.configs(c).keySet()) {
            HostData hd = c.data.hosts().get(h);
            if (hd == null || hd.pkeys() == null || hd.pkeys().contains(0xffff)) continue;
            bad++;
            Finding f = c.problem(Status.FAIL, List.of(h), List.of(Evidence.of(h + " P_Keys: " + hd.pkeys().stream()
                            .map(k -> String.format("0x%04x", k)).collect(Collectors.joining(" ")), Cmd.PKEYS.path(h))),
                    "the SM node " + h + " is not a full member of the default partition (no 0xffff in its port's P_Key table): "
                            + "limited members cannot reach its SA", "smport", Map.of("host", h));
            c.explainedBy(f, List.of(SmFacts.DEFAULT_LIMITED));
        }
        return bad;
    }

    private static Map<String, Object> vars(SmConfig sm, String file, Partition p) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("host", sm.host());
        v.put("file", file);
        v.put("partition", p.name());
        v.put("pkey", String.format("0x%04x", p.pkey()));
        v.put("line", p.ref().toString());
        return v;
    }

    private static List<Evidence> memberEvidence(Map<Long, String> guids, List<Member> ms) {
        return ms.stream().limit(10).map(m -> Evidence.of(name(guids, m) + " limited" + (m.flagWritten() ? "" : " (no '=full')"), m.ref())).toList();
    }

    private static String name(Map<Long, String> guids, Member m) {
        return m.isGuid() ? guids.getOrDefault(m.guid(), m.name()) : m.name();
    }
}
