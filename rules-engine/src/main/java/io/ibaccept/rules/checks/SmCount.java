package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.InputProblem;
import io.ibaccept.model.SmConfig;
import io.ibaccept.model.SmInfo;
import io.ibaccept.rules.checks.sm.SmFacts;
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
import java.util.stream.Collectors;

/**
 * Exactly one master subnet manager, on a designated SM node. sminfo (every SM the SA lists, plus the one the local
 * port points to) is cross-checked with the SMLid every port reports, so a dead SM, a rogue master and an SM stuck
 * in DISCOVERING are told apart. SMs are named by host (GUID/LID -> ibstat, topology).
 */
public final class SmCount implements SmCheck {
    /** Root-cause key: the fabric has no working master SM (ports in Init, SA queries empty are its consequences). */
    public static final String NO_SM = "sm:none";

    public String id() {
        return "sm.count";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.SMINFO, Cmd.SAQUERY_SM, Cmd.IBSTAT, Cmd.PORTINFO, Cmd.IBDIAGNET_SM));
    }

    public List<Setting> settings() {
        return List.of(Setting.of("designated", Setting.Type.LIST, "",
                "hosts meant to run the SM, comma-separated (e.g. sm01,sm02); a master SM elsewhere fails. Empty: any host may"));
    }

    public void evaluate(Ctx c) {
        List<SmInfo> sms = dedupe(c.data.fabric().smsOrIbdiagnet());
        // SMLid of every port with the physical link up: where the ports think the SM is
        SmFacts.PortSmLids ports = SmFacts.portSmLids(c);
        Map<Integer, List<Evidence>> pointedBy = ports.bySmLid();
        int linkUp = ports.linkUp();
        int pointed = ports.common();
        List<Evidence> portEv = pointedBy.getOrDefault(pointed, List.of()).stream().limit(5).collect(Collectors.toList());
        int pointing = ports.carrying(pointed);
        List<Evidence> ev = sms.stream().map(s -> Evidence.of(describe(s) + " (" + host(c, s) + ")", s.ref())).collect(Collectors.toList());

        List<SmInfo> masters = sms.stream().filter(SmInfo::isMaster).toList();
        if (masters.size() > 1) {
            splitBrain(c, masters, ev);
            return;
        }
        if (masters.size() == 1) {
            master(c, masters.get(0), sms, ev);
            return;
        }
        List<Evidence> all = new ArrayList<>(ev);
        List<InputProblem> unreadable = c.data.unreadableLines(null, Cmd.SMINFO.fileName());
        if (!unreadable.isEmpty()) {
            // the master may be on the line that could not be read: damage, not a dead SM
            InputProblem u = unreadable.get(0);
            List<Evidence> damaged = new ArrayList<>(ev);
            unreadable.stream().limit(5).forEach(p -> damaged.add(Evidence.of(p.message(), p.where())));
            c.problem(Status.ERROR, List.of("fabric"), damaged, "cannot tell whether a master SM runs: " + unreadable.size()
                    + " line(s) of sminfo could not be read (" + u.where() + ": " + u.message() + ")" + (sms.isEmpty() ? ""
                    : "; the readable ones name no master"), "unreadable", Map.of("where", u.where()));
            return;
        }
        if (sms.isEmpty()) all.addAll(smProblems(c));
        all.addAll(portEv);
        List<SmInfo> discovering = sms.stream().filter(s -> s.state() == 1 || "SMINFO_DISCOVERING".equals(s.stateName())).toList();
        String standbys = sms.stream().filter(s -> s.state() == 2).map(s -> host(c, s) + " (priority " + s.priority() + ")")
                .collect(Collectors.joining(", "));
        Finding f;
        if (!discovering.isEmpty()) {
            SmInfo d = discovering.get(0);
            f = c.problem(Status.FAIL, List.of(host(c, d)), all, "no master SM: the SM on " + host(c, d) + " (lid " + d.lid()
                    + ", priority " + d.priority() + ") is stuck in DISCOVERING", "discovering",
                    Map.of("host", host(c, d), "lid", d.lid()));
        } else if (pointed > 0 && sms.stream().noneMatch(s -> s.lid() == pointed)) {
            String was = c.index.whoIs(0, pointed);
            String at = was.equals("lid " + pointed) ? "" : " (" + firstWord(c, was) + ")";
            f = c.problem(Status.FAIL, List.of("SM lid " + pointed), all, "no SM answers at SM lid " + pointed + at + " that "
                    + (pointing == linkUp ? "every port points to" : pointing + " of " + linkUp + " ports point to") + ": the SM died; "
                    + (standbys.isEmpty() ? "no standby configured" : "standby SM(s) " + standbys + " did not take over"),
                    "dead", Map.of("lid", pointed, "host", at.isEmpty() ? "the SM node" : firstWord(c, was),
                            "standbys", standbys.isEmpty() ? "none" : standbys));
        } else if (sms.isEmpty() && linkUp == 0 && !smQueryFailed(c)) {
            c.skip("no SM information and no port with the physical link up");
            return;
        } else {
            f = c.problem(Status.FAIL, List.of("fabric"), all, sms.isEmpty()
                    ? "no subnet manager answers (sminfo " + (smQueryFailed(c) ? "failed" : "found none") + ", ports report SM lid " + pointed + ")"
                    : "no master SM (" + sms.size() + " SM(s) answered, none MASTER" + (standbys.isEmpty() ? "" : ": standby " + standbys) + ")",
                    "none", Map.of());
        }
        c.covers(f, List.of(NO_SM));
    }

    /**
     * Two or more masters, with the reason from the SM nodes' files where they give one: an SM with another sm_key
     * (ERR 2F18 in a log: each ignores the other's SMInfo) or ignore_other_sm TRUE.
     */
    private static void splitBrain(Ctx c, List<SmInfo> masters, List<Evidence> ev) {
        String hosts = masters.stream().map(s -> host(c, s)).collect(Collectors.joining(", "));
        List<Evidence> all = new ArrayList<>(ev);
        List<String> mismatchLogs = new ArrayList<>(), ignoring = new ArrayList<>();
        for (SmConfig s : SmFacts.configs(c).values()) {
            SmFacts.smkeyMismatches(s).stream().findFirst().ifPresent(e -> {
                mismatchLogs.add(s.host());
                all.add(Evidence.of(s.host() + ": " + e.message(), e.ref()));
            });
            SmFacts.ignoresOtherSms(s).ifPresent(o -> {
                ignoring.add(s.host());
                all.add(Evidence.of(s.host() + ": ignore_other_sm " + o.value().trim(), o.ref()));
            });
        }
        SmFacts.Designated designated = SmFacts.designated(c);
        List<String> extra = masters.stream().map(s -> host(c, s)).filter(h -> !designated.contains(h)).toList();
        // not declared: an SM node by design is one whose opensm has an opensm.conf; one on opensm's defaults is not
        List<String> onDefaults = masters.stream().map(s -> host(c, s)).filter(h -> runsOnDefaults(c, h)).toList();
        boolean named = designated.how() == SmFacts.How.DECLARED || designated.how() == SmFacts.How.NAMED;
        if (!named) extra = onDefaults;
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("count", masters.size());
        v.put("hosts", hosts);
        v.put("logs", String.join(", ", mismatchLogs));
        v.put("ignoring", String.join(", ", ignoring));
        v.put("extra", extra.isEmpty() ? "the one that is not meant to be an SM node" : String.join(", ", extra));
        String variant = !mismatchLogs.isEmpty() ? "many_smkey" : !ignoring.isEmpty() ? "many_ignore" : "many";
        String why = !mismatchLogs.isEmpty() ? ": they ignore each other, their sm_key differs (ERR 2F18 in the opensm.log of " + v.get("logs") + ")"
                : !ignoring.isEmpty() ? ": ignore_other_sm TRUE on " + v.get("ignoring") : "";
        Finding f = c.problem(Status.FAIL, masters.stream().map(s -> "SM lid " + s.lid()).toList(), all,
                masters.size() + " SMs in MASTER state (split brain): " + hosts + why
                        + (extra.isEmpty() ? "" : named ? "; not a designated SM node: " + String.join(", ", extra)
                        : "; opensm without an opensm.conf (its package defaults), not an SM node by design: " + String.join(", ", extra)), variant, v);
        List<String> keys = new ArrayList<>(extra.stream().map(SmFacts::rogueKey).toList());
        onDefaults.forEach(h -> keys.add(SmFacts.defaultsKey(h)));
        if (!variant.equals("many")) keys.add(SmFacts.SPLIT);
        c.covers(f, keys);
    }

    private void master(Ctx c, SmInfo m, List<SmInfo> sms, List<Evidence> ev) {
        String where = host(c, m);
        SmFacts.Designated d = SmFacts.designated(c);
        List<String> designated = d.hosts();
        boolean named = d.how() == SmFacts.How.DECLARED || d.how() == SmFacts.How.NAMED;
        // an opensm without any option file runs on its package defaults: no SM node is set up that way by design
        boolean onDefaults = runsOnDefaults(c, where);
        Optional<SmFacts.Former> former = SmFacts.formerMaster(c, m).filter(f -> !f.host().equals(where));
        // inferred from which collected SM nodes have an opensm.conf: only a master on a collected node without one is
        // suspicious, and a guess is a WARN to confirm unless the master's own opensm runs on its defaults
        boolean judged = named || d.how() == SmFacts.How.INFERRED && (c.data.hosts().containsKey(where) || SmFacts.configs(c).containsKey(where));
        boolean outside = judged && !designated.isEmpty() && !designated.contains(where);
        // no SM node known by design: a master on a compute node that took over from another SM is named, a FAIL when
        // it runs on opensm's defaults, else a WARN to confirm
        boolean movedToHost = !outside && !named && !designated.contains(where) && c.index.isHost(where) && (onDefaults || former.isPresent());
        if (outside || movedToHost) {
            List<SmInfo> others = sms.stream().filter(s -> s != m).toList();
            String above = others.isEmpty() ? "" : ", priority " + m.priority() + (others.stream().allMatch(s -> s.priority() < m.priority())
                    ? " above the designated SMs (" : " vs the other SMs (")
                    + others.stream().map(s -> host(c, s) + " " + s.priority()).collect(Collectors.joining(", ")) + ")";
            String kind = c.index.isHost(where) ? ", a compute node" : "";
            boolean fail = named || onDefaults;
            List<Evidence> all = new ArrayList<>(ev);
            former.ifPresent(f -> all.addAll(f.evidence()));
            SmConfig own = SmFacts.configs(c).get(where);
            if (onDefaults) all.add(Evidence.of(where + ": opensm runs without an opensm.conf (no -F file, none at the default paths)", own.process().ref()));
            String from = former.map(f -> "; it took over from " + f.host() + " (" + f.how() + ")").orElse("");
            String defaults = onDefaults ? "; its opensm runs without an opensm.conf (package defaults)" : "";
            String why = outside ? "; designated SM nodes: " + String.join(", ", designated) + " (" + d.how().text + ")"
                    : "; no SM nodes declared (contract sm:, collect --sm-nodes or sm.count.designated)";
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("host", where);
            v.put("priority", m.priority());
            v.put("designated", designated.isEmpty() ? "none declared" : String.join(", ", designated));
            v.put("former", former.map(SmFacts.Former::host).orElse("the SM that was master before"));
            String variant = fail ? (outside ? "rogue" : "rogue_moved") : outside ? "rogue_inferred" : "moved";
            Finding f = c.problem(fail ? Status.FAIL : Status.WARN, List.of(where), all, "master SM is on " + where + kind + " (lid " + m.lid() + ")" + above
                    + from + defaults + why, variant, v);
            // the SM is the fault; what its package defaults do (no partitions.conf) lies under it
            if (fail) c.covers(f, onDefaults ? List.of(SmFacts.rogueKey(where), SmFacts.defaultsKey(where)) : List.of(SmFacts.rogueKey(where)));
            return;
        }
        c.pass("exactly one master SM: " + where + " (" + describe(m) + ")" + (sms.size() > 1 ? "; " + (sms.size() - 1) + " other SM(s)" : "")
                        + (former.isPresent() ? "; it took over from " + former.get().host() + " (" + former.get().how() + ")" : ""),
                List.of(where), ev);
    }

    /**
     * The host's opensm runs without any option file (its package defaults: another sm_key, no partitions.conf) while
     * another SM node of the dump runs with one: the site sets its SMs up with a file and this one is not. Where no SM
     * node has a file, the defaults are the site's own choice, not a sign of a rogue.
     */
    private static boolean runsOnDefaults(Ctx c, String host) {
        SmConfig s = SmFacts.configs(c).get(host);
        return s != null && SmFacts.withoutConfigFile(s)
                && SmFacts.configs(c).values().stream().anyMatch(o -> o.conf() != null && !o.host().equals(host));
    }

    /** The host (first word of a CA's node description) or switch holding the SM port. */
    static String host(Ctx c, SmInfo s) {
        return firstWord(c, c.index.whoIs(s.guid(), s.lid()));
    }

    private static String firstWord(Ctx c, String name) {
        String w = io.ibaccept.fabric.Fabric.hostPart(name);
        return c.index.isHost(w) ? w : name;
    }

    /** sminfo of the local port's SM and of every SA-listed SM may name the same SM twice. */
    static List<SmInfo> dedupe(List<SmInfo> sms) {
        if (sms == null) return List.of();
        Map<Integer, SmInfo> byLid = new LinkedHashMap<>();
        for (SmInfo s : sms) byLid.putIfAbsent(s.lid(), s);
        return new ArrayList<>(byLid.values());
    }

    private static boolean smQueryFailed(Ctx c) {
        return c.data.problemsFor(null, Cmd.SMINFO.fileName()).stream().anyMatch(p -> p.kind() == InputProblem.Kind.COMMAND_FAILED
                || p.kind() == InputProblem.Kind.TIMEOUT);
    }

    private static List<Evidence> smProblems(Ctx c) {
        return c.data.problemsFor(null, Cmd.SMINFO.fileName()).stream().limit(1).map(p -> Evidence.of(p.message(), p.where())).toList();
    }

    public static String describe(SmInfo s) {
        return String.format("SM lid %d guid 0x%x priority %d %s", s.lid(), s.guid(), s.priority(), s.stateName());
    }
}
