package io.ibaccept.rules.checks;

import io.ibaccept.contract.Contract;
import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.SmConfig;
import io.ibaccept.model.SmInfo;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Hostlists;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The declared design that no other check holds: the number of switch levels, the partitions (defined by the SM, on
 * their members' HCAs) and the SM roles (a standby running where one is declared, the master on the primary). Each
 * part is judged only where the contract declares it and the dump holds what shows it; what could not be judged is
 * said in the PASS line.
 */
final class ContractDesign extends ContractCheck {
    public String id() {
        return "contract.design";
    }


    String inferredInstead() {
        return "the design is inferred from the fabric";
    }

    void evaluate(Ctx c, Contract k) {
        List<String> judged = new ArrayList<>(), notJudged = new ArrayList<>();
        int bad = levels(c, k, judged, notJudged) + partitions(c, k, judged, notJudged) + sms(c, k, judged, notJudged)
                + switchFirmware(c, k, judged, notJudged);
        if (bad == 0 && judged.isEmpty() && notJudged.isEmpty()) {
            c.skip("the contract declares no levels, partitions or SM nodes");
            return;
        }
        if (bad == 0)
            c.pass((judged.isEmpty() ? "nothing declared could be judged" : "as declared: " + String.join("; ", judged))
                    + (notJudged.isEmpty() ? "" : "; not judged: " + String.join("; ", notJudged)), List.of(), List.of());
    }

    private static int levels(Ctx c, Contract k, List<String> judged, List<String> notJudged) {
        if (k.fabric() == null || k.fabric().levels() == null && k.fabric().leaves() == null && k.fabric().spines() == null && k.fabric().cores() == null)
            return 0;
        io.ibaccept.fabric.Fabric f = c.facts.fabricOrNull();
        if (f == null) {
            notJudged.add("levels (no topology)");
            return 0;
        }
        int bad = 0;
        int levels = f.maxLevel();
        if (k.fabric().levels() != null) {
            if (levels == k.fabric().levels()) judged.add(levels + " switch level(s)");
            else {
                bad++;
                c.problem(Status.FAIL, List.of("fabric"), List.of(Evidence.of("the fabric has " + levels + " switch level(s)", Cmd.IBNETDISCOVER.path(null)),
                                Evidence.of("the contract declares " + k.fabric().levels(), k.where("fabric.levels"))),
                        "the fabric has " + levels + " switch level(s), the contract declares " + k.fabric().levels(), "levels",
                        Map.of("found", levels, "declared", k.fabric().levels()));
            }
        }
        Integer[] declared = {k.fabric().leaves(), k.fabric().spines(), k.fabric().cores()};
        for (int level = 1; level <= 3; level++) {
            Integer want = declared[level - 1];
            if (want == null) continue;
            String role = Contract.ROLES.get(level - 1);
            // switch levels as the fabric model counts them (from the hosts up; an empty leaf is a leaf)
            List<io.ibaccept.fabric.Fabric.Node> at = f.atLevel(level);
            if (at.size() == want) {
                judged.add(want + " " + role);
                continue;
            }
            bad++;
            List<String> names = at.stream().map(io.ibaccept.fabric.Fabric.Node::name).sorted().limit(20).toList();
            c.problem(Status.FAIL, List.of("fabric"), List.of(Evidence.of("level " + level + ": " + String.join(", ", names) + (at.size() > 20 ? " ..." : ""),
                                    Cmd.IBNETDISCOVER.path(null)), Evidence.of("the contract declares " + want + " " + role, k.where("fabric." + role))),
                    "the fabric has " + at.size() + " " + role + " (switch level " + level + "), the contract declares " + want, "role_count",
                    Map.of("found", at.size(), "declared", want, "role", role));
        }
        return bad;
    }

    private static int partitions(Ctx c, Contract k, List<String> judged, List<String> notJudged) {
        if (k.partitions().isEmpty()) return 0;
        Set<Integer> defined = new LinkedHashSet<>();
        String where = null;
        for (SmConfig s : c.data.fabric().smConfigs().values())
            if (s.partitions() != null) {
                where = s.partitions().file();
                for (SmConfig.Partition p : s.partitions().partitions()) defined.add(p.pkey());
            }
        int bad = 0;
        for (Contract.Partition p : k.partitions()) {
            String name = p.name() + String.format(" (0x%04x)", p.pkey());
            if (where != null && !defined.contains(p.pkey())) {
                bad++;
                c.problem(Status.FAIL, List.of(name), List.of(Evidence.of("partitions.conf defines " + hex(defined), where),
                                Evidence.of("the contract declares " + name, k.where("partitions." + p.name()))),
                        "partition " + name + " is not in the SM's partitions.conf", "partition",
                        Map.of("partition", p.name(), "pkey", String.format("0x%04x", p.pkey())));
                continue;
            }
            List<String> lacking = new ArrayList<>();
            int seen = 0;
            for (String h : p.members()) {
                HostData d = c.data.hosts().get(h);
                if (d == null || d.pkeys() == null) continue;
                seen++;
                boolean full = "full".equals(p.membership()), limited = "limited".equals(p.membership());
                // the top bit of a P_Key table entry is the membership: set for full, clear for limited
                if (d.pkeys().stream().noneMatch(x -> (x & 0x7fff) == p.pkey() && (!full || (x & 0x8000) != 0) && (!limited || (x & 0x8000) == 0)))
                    lacking.add(h);
            }
            if (!lacking.isEmpty()) {
                bad++;
                c.problem(Status.FAIL, lacking, List.of(Evidence.of(lacking.get(0) + ": P_Key table without " + String.format("0x%04x", p.pkey()),
                                Cmd.PKEYS.path(lacking.get(0))), Evidence.of("the contract declares the members", k.where("partitions." + p.name()))),
                        lacking.size() + " declared member(s) of " + name + " lack its P_Key" + (p.membership() == null ? "" : " as " + p.membership() + " members")
                                + ": " + Hostlists.compress(lacking), "member",
                        Map.of("partition", p.name(), "pkey", String.format("0x%04x", p.pkey()), "hosts", Hostlists.compress(lacking)));
            } else if (where != null || seen > 0) judged.add("partition " + name + (seen > 0 ? " on its " + seen + " member(s)" : ""));
            if (where == null && seen == 0) notJudged.add("partition " + name + " (no partitions.conf, no member P_Key tables)");
        }
        return bad;
    }

    private static int sms(Ctx c, Contract k, List<String> judged, List<String> notJudged) {
        if (k.sm() == null || k.sm().nodes().isEmpty()) return 0;
        List<SmInfo> sms = SmCount.dedupe(c.data.fabric().smsOrIbdiagnet());
        if (sms.isEmpty()) {
            notJudged.add("SM roles (no sminfo)");
            return 0;
        }
        Set<String> running = new LinkedHashSet<>();
        String master = null;
        for (SmInfo s : sms) {
            String h = SmCount.host(c, s);
            running.add(h);
            if (s.isMaster()) master = h;
        }
        int bad = 0;
        List<Evidence> ev = new ArrayList<>();
        for (SmInfo s : sms) ev.add(Evidence.of(SmCount.host(c, s) + ": " + s.stateName() + " priority " + s.priority(), s.ref().toString()));
        List<String> silent = k.sm().nodes().stream().filter(h -> !running.contains(h)).toList();
        if (!silent.isEmpty()) {
            bad++;
            List<Evidence> all = new ArrayList<>(ev);
            all.add(Evidence.of("the contract declares SM nodes " + String.join(", ", k.sm().nodes()), k.where("sm")));
            Finding f = c.problem(Status.FAIL, silent, all, "no SM answers on declared SM node(s) " + String.join(", ", silent)
                    + " (SMs running on " + String.join(", ", running) + ")", "sm_missing", Map.of("hosts", String.join(", ", silent)));
            c.explainedBy(f, silent.stream().map(io.ibaccept.rules.checks.sm.SmFacts::downKey).toList());
        }
        if (master != null && k.sm().primary() != null && !master.equals(k.sm().primary()) && running.contains(k.sm().primary())) {
            bad++;
            List<Evidence> all = new ArrayList<>(ev);
            all.add(Evidence.of("the contract declares primary " + k.sm().primary(), k.where("sm.primary")));
            Finding f = c.problem(Status.WARN, List.of(master), all, "the master SM is " + master + ", the contract's primary " + k.sm().primary()
                    + " runs as a standby (a takeover that was not handed back)", "takeover", Map.of("master", master, "primary", k.sm().primary()));
            c.explainedBy(f, List.of(io.ibaccept.rules.checks.sm.SmFacts.takeoverKey(master)));
        }
        if (bad == 0) judged.add("SM " + String.join(", ", k.sm().nodes()) + (master != null ? ", master " + master : ""));
        return bad;
    }

    /**
     * The switches' firmware from ibdiagnet's NODES (type 2, DeviceID) and NODES_INFO (FWInfo_Extended_*, else
     * FWInfo_Major/Minor/SubMinor, printed in hex), against the version declared for their device ID.
     */
    private static int switchFirmware(Ctx c, Contract k, List<String> judged, List<String> notJudged) {
        Map<String, String> want = k.versions().switchFirmware();
        if (want.isEmpty()) return 0;
        List<SwitchFirmware> all = switchFirmwares(c.data);
        if (all == null) {
            notJudged.add("switch firmware (no ibdiagnet NODES_INFO: collect --ibdiagnet)");
            return 0;
        }
        record Off(String device, String found, String declared) {}
        Map<Off, List<SwitchFirmware>> off = new java.util.TreeMap<>(java.util.Comparator.comparing(Off::device).thenComparing(Off::found)
                .thenComparing(Off::declared));
        int seen = 0;
        for (SwitchFirmware s : all) {
            String declared = want.getOrDefault(s.device(), want.get("*"));
            if (declared == null) continue;
            seen++;
            if (!s.firmware().equals(declared)) off.computeIfAbsent(new Off(s.device(), s.firmware(), declared), x -> new ArrayList<>()).add(s);
        }
        if (seen == 0) {
            notJudged.add("switch firmware (no switch of a declared device ID in NODES)");
            return 0;
        }
        for (Map.Entry<Off, List<SwitchFirmware>> e : off.entrySet()) {
            Off o = e.getKey();
            List<String> sw = e.getValue().stream().map(SwitchFirmware::name).toList();
            c.problem(Status.FAIL, sw, List.of(Evidence.of(sw.get(0) + ": firmware " + o.found(), e.getValue().get(0).ref()),
                            Evidence.of("the contract declares " + o.declared(), k.where("versions.switch_firmware." + (want.containsKey(o.device()) ? o.device() : "")))),
                    sw.size() + " switch(es) of device " + o.device() + " run firmware " + o.found() + ", the contract declares " + o.declared() + ": "
                            + String.join(", ", sw.subList(0, Math.min(5, sw.size()))) + (sw.size() > 5 ? " and " + (sw.size() - 5) + " more" : ""),
                    "switch_firmware", Map.of("device", o.device(), "found", o.found(), "declared", o.declared()));
        }
        if (off.isEmpty()) judged.add("switch firmware on " + seen + " switch(es)");
        return off.size();
    }

    /** One switch of ibdiagnet's NODES with its firmware from NODES_INFO: name is "description (GUID)". */
    record SwitchFirmware(String device, String name, String firmware, String ref) {}

    /** Every switch in NODES that NODES_INFO has firmware for, in NODES order; null without either section. */
    static List<SwitchFirmware> switchFirmwares(io.ibaccept.model.ClusterData d) {
        io.ibaccept.model.Ibdiagnet.Db db = d.fabric() == null ? null : d.fabric().diagDb();
        io.ibaccept.model.Ibdiagnet.Section nodes = db == null ? null : db.section("NODES"), info = db == null ? null : db.section("NODES_INFO");
        if (nodes == null || info == null) return null;
        Map<String, io.ibaccept.model.Ibdiagnet.Row> infoByGuid = new java.util.HashMap<>();
        for (io.ibaccept.model.Ibdiagnet.Row r : info.rows()) infoByGuid.put(r.get("NodeGUID").toLowerCase(java.util.Locale.ROOT), r);
        List<SwitchFirmware> out = new ArrayList<>();
        for (io.ibaccept.model.Ibdiagnet.Row n : nodes.rows()) {
            io.ibaccept.model.Ibdiagnet.Row i = infoByGuid.get(n.get("NodeGUID").toLowerCase(java.util.Locale.ROOT));
            if (n.get("NodeType").equals("2") && i != null)
                out.add(new SwitchFirmware(n.get("DeviceID"), n.get("NodeDesc").replace("\"", "") + " (" + n.get("NodeGUID") + ")", firmware(i), i.ref().toString()));
        }
        return out;
    }

    /** "31.2012.1024" from NODES_INFO's hex fields: the extended version where the switch reports one. */
    static String firmware(io.ibaccept.model.Ibdiagnet.Row r) {
        long xMajor = hex(r.get("FWInfo_Extended_Major"));
        return xMajor > 0 ? xMajor + "." + hex(r.get("FWInfo_Extended_Minor")) + "." + hex(r.get("FWInfo_Extended_SubMinor"))
                : hex(r.get("FWInfo_Major")) + "." + hex(r.get("FWInfo_Minor")) + "." + hex(r.get("FWInfo_SubMinor"));
    }

    private static long hex(String v) {
        try {
            String t = v.trim().toLowerCase(java.util.Locale.ROOT);
            return t.startsWith("0x") ? Long.parseLong(t.substring(2), 16) : Long.parseLong(t);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String hex(Set<Integer> keys) {
        return keys.isEmpty() ? "no partition" : String.join(", ", keys.stream().map(x -> String.format("0x%04x", x)).toList());
    }
}
