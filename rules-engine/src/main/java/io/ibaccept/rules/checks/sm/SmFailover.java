package io.ibaccept.rules.checks.sm;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.SmConfig;
import io.ibaccept.model.SmConfig.LogEvent;
import io.ibaccept.model.SmInfo;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.checks.SmCheck;
import io.ibaccept.rules.checks.SmCount;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Does the SM pair fail over: which SM is master and which stands by, whether a standby took over (from its
 * opensm.log: STANDBY, unanswered SMInfo polls of the master, then MASTER), whether each designated SM node runs
 * opensm at all, whether an SM would ignore the others (ignore_other_sm) and whether an SM with another sm_key was
 * seen (each ignores the other: two masters).
 */
public final class SmFailover implements SmCheck {
    public String id() {
        return "sm.failover";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.OPENSM_PROCESS, Cmd.OPENSM_LOG, Cmd.OPENSM_CONF));
    }

    /** A standby that became master in the log tail; polls: the unanswered SMInfo polls of its master before that. */
    record Takeover(String host, LogEvent standby, LogEvent master, List<LogEvent> polls, Optional<LogEvent> backToStandby) {
        String when() {
            return master.stamp() == null ? "at " + master.ref() : "at " + master.stamp().text();
        }

        /** "50 s after its first unanswered poll of the master (05:17:15)", or "" where the log gives no poll. */
        String afterPolls() {
            if (polls.isEmpty()) return "";
            LogEvent first = polls.get(0);
            if (first.stamp() == null || master.stamp() == null) return ", after " + polls.size() + " unanswered SMInfo poll(s) of the master";
            return String.format(Locale.ROOT, ", %.0f s after its first unanswered SMInfo poll of the master (%s; %d unanswered)",
                    first.stamp().secondsUntil(master.stamp()), first.stamp().text(), polls.size());
        }
    }

    /** Takeovers in one SM node's log: a MASTER entered from STANDBY (DISCOVERING in between), with the polls that failed. */
    static List<Takeover> takeovers(SmConfig s) {
        List<Takeover> out = new ArrayList<>();
        if (s.log() == null) return out;
        LogEvent standby = null;
        List<LogEvent> polls = new ArrayList<>();
        List<LogEvent> events = s.log().events();
        for (int i = 0; i < events.size(); i++) {
            LogEvent e = events.get(i);
            switch (e.kind()) {
                case "standby" -> {
                    standby = e;
                    polls = new ArrayList<>();
                }
                case "sminfo-timeout" -> {
                    if (standby != null) polls.add(e);
                }
                case "master" -> {
                    if (standby != null) {
                        Optional<LogEvent> back = events.subList(i + 1, events.size()).stream().filter(x -> x.kind().equals("standby")).findFirst();
                        out.add(new Takeover(s.host(), standby, e, List.copyOf(polls), back));
                    }
                    standby = null;
                }
                default -> { }
            }
        }
        return out;
    }

    public void evaluate(Ctx c) {
        Map<String, SmConfig> cfgs = SmFacts.configs(c);
        SmFacts.Designated designated = SmFacts.designated(c);
        List<SmInfo> live = SmFacts.liveSms(c);
        if (cfgs.isEmpty() && live.isEmpty()) {
            c.skip("no SM node files and no sminfo: " + "collect with --sm-nodes");
            return;
        }
        Map<String, SmInfo> liveByHost = new LinkedHashMap<>();
        for (SmInfo s : live) liveByHost.putIfAbsent(SmFacts.host(c, s), s);
        List<Takeover> takeovers = new ArrayList<>();
        for (SmConfig s : cfgs.values()) takeovers.addAll(takeovers(s));
        int logs = (int) cfgs.values().stream().filter(s -> s.log() != null).count();
        boolean bad = false;

        // designated SM nodes whose opensm does not run (the record of a node named with --sm-nodes says so), or that
        // no SM answers from when they are declared
        LinkedHashSet<String> smNodes = new LinkedHashSet<>(designated.hosts());
        if (designated.how() != SmFacts.How.DECLARED) cfgs.keySet().forEach(smNodes::add);
        List<Takeover> reported = new ArrayList<>();
        for (String h : smNodes) {
            SmConfig s = cfgs.get(h);
            boolean recordSaysDown = s != null && s.process() != null && !s.process().running();
            // declared or named, no record of its opensm (not installed, unreachable) and no SM answering from it
            boolean silent = (s == null || s.process() == null) && (designated.how() == SmFacts.How.DECLARED || designated.how() == SmFacts.How.NAMED)
                    && !live.isEmpty() && !liveByHost.containsKey(h);
            if (!recordSaysDown && !silent || liveByHost.containsKey(h)) continue;
            bad = true;
            List<Evidence> ev = new ArrayList<>();
            if (recordSaysDown) ev.add(Evidence.of(h + ": no opensm process runs", s.process().ref()));
            else ev.add(Evidence.of(h + ": designated SM node (" + designated.how().text + "), not among the SMs sminfo lists", live.get(0).ref()));
            live.forEach(x -> ev.add(Evidence.of(String.format("sminfo: SM lid %d priority %d %s (%s)", x.lid(), x.priority(), x.stateName(),
                    SmFacts.host(c, x)), x.ref())));
            Optional<Takeover> by = takeovers.stream().filter(t -> !t.host().equals(h) && t.backToStandby().isEmpty()).reduce((a, b) -> b);
            by.ifPresent(t -> {
                ev.add(Evidence.of(t.host() + ": " + t.master().message() + " (" + t.when() + ")", t.master().ref()));
                if (!t.polls().isEmpty()) ev.add(Evidence.of(t.host() + ": " + t.polls().get(0).message(), t.polls().get(0).ref()));
                reported.add(t);
            });
            long standbys = live.stream().filter(x -> x.state() == 2).count();
            Optional<SmInfo> master = SmFacts.liveMaster(c);
            String now = master.map(m -> "; now " + SmFacts.host(c, m) + " is master and " + (standbys == 0 ? "no standby SM runs"
                    : standbys + " standby SM(s) run")).orElse("");
            String summary = (recordSaysDown ? "opensm is not running on " + h : "no SM answers on " + h) + ", a designated SM node ("
                    + designated.how().text + ")" + by.map(t -> "; " + t.host() + " took over as master " + t.when() + t.afterPolls()).orElse("") + now;
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("host", h);
            v.put("master", master.map(m -> SmFacts.host(c, m)).orElse("no SM"));
            Finding f = c.problem(Status.FAIL, List.of(h), ev, summary, "down", v);
            List<String> keys = new ArrayList<>(List.of(SmFacts.downKey(h)));
            by.ifPresent(t -> keys.add(SmFacts.takeoverKey(t.host())));
            master.ifPresent(m -> keys.add(SmFacts.takeoverKey(SmFacts.host(c, m))));
            c.covers(f, keys);
            // with no SM at all, sm.count's "no master" is the root
            c.explainedBy(f, List.of(SmCount.NO_SM));
        }

        // takeovers not already told as the consequence of a designated node that is down
        for (Takeover t : takeovers) {
            if (reported.contains(t)) continue;
            bad = true;
            List<Evidence> ev = new ArrayList<>();
            ev.add(Evidence.of(t.host() + ": " + t.standby().message() + (t.standby().stamp() == null ? "" : " (" + t.standby().stamp().text() + ")"),
                    t.standby().ref()));
            if (!t.polls().isEmpty()) ev.add(Evidence.of(t.host() + ": " + t.polls().get(0).message(), t.polls().get(0).ref()));
            ev.add(Evidence.of(t.host() + ": " + t.master().message() + " (" + t.when() + ")", t.master().ref()));
            t.backToStandby().ifPresent(b -> ev.add(Evidence.of(t.host() + ": " + b.message(), b.ref())));
            String states = live.stream().map(x -> SmFacts.host(c, x) + " " + x.stateName().replace("SMINFO_", "")).collect(Collectors.joining(", "));
            // the former master: as the dump records it (ports' SM LID, ibdiagnet2.sm, another SM node's log), else the one
            // other SM node where only one is known
            Optional<SmFacts.Former> former = SmFacts.liveMaster(c).filter(m -> SmFacts.host(c, m).equals(t.host()))
                    .flatMap(m -> SmFacts.formerMaster(c, m)).filter(f -> !f.host().equals(t.host()));
            former.ifPresent(f -> ev.addAll(f.evidence()));
            List<String> others = smNodes.stream().filter(h -> !h.equals(t.host())).toList();
            String from = former.map(f -> " from " + f.host() + " (" + f.how() + ")").orElse(others.size() == 1 ? " from " + others.get(0) : "");
            String summary = t.host() + " took over as master" + from + " " + t.when() + t.afterPolls()
                    + t.backToStandby().map(b -> " and handed mastership back " + (b.stamp() == null ? "at " + b.ref() : "at " + b.stamp().text())).orElse("")
                    + (states.isEmpty() ? "" : "; now " + states);
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("host", t.host());
            v.put("when", t.when());
            Finding f = c.problem(Status.WARN, List.of(t.host()), ev, summary, t.polls().isEmpty() ? "handover" : "takeover", v);
            c.covers(f, List.of(SmFacts.takeoverKey(t.host())));
        }

        // an SM that neither yields to nor watches the others
        List<SmConfig> ignoring = cfgs.values().stream().filter(s -> SmFacts.ignoresOtherSms(s).isPresent()).toList();
        if (!ignoring.isEmpty() && (cfgs.size() > 1 || live.size() > 1 || designated.hosts().size() > 1)) {
            bad = true;
            String hosts = ignoring.stream().map(SmConfig::host).collect(Collectors.joining(", "));
            Finding f = c.problem(Status.WARN, ignoring.stream().map(SmConfig::host).toList(),
                    ignoring.stream().map(s -> SmFacts.evidence(s, "ignore_other_sm", "FALSE")).toList(),
                    "opensm on " + hosts + " is configured with ignore_other_sm TRUE beside other SMs: it neither hands over nor takes"
                            + " part in the election, so it and another SM can both be MASTER", "ignore", Map.of("hosts", hosts));
            c.explainedBy(f, List.of(SmFacts.SPLIT));
        }

        // an SM with another sm_key seen: the two ignore each other's SMInfo
        for (SmConfig s : cfgs.values()) {
            List<LogEvent> mismatch = SmFacts.smkeyMismatches(s);
            if (mismatch.isEmpty()) continue;
            bad = true;
            LogEvent last = mismatch.get(mismatch.size() - 1);
            Finding f = c.problem(Status.WARN, List.of(s.host()), List.of(Evidence.of(s.host() + ": " + mismatch.get(0).message(), mismatch.get(0).ref()),
                            Evidence.of(s.host() + " (last): " + last.message(), last.ref())),
                    "opensm on " + s.host() + " found an SM with another sm_key (" + mismatch.size() + " log line(s), last "
                            + (last.stamp() == null ? "at " + last.ref() : last.stamp().text()) + "): the two ignore each other and both act as MASTER",
                    "smkey", Map.of("host", s.host()));
            c.explainedBy(f, List.of(SmFacts.SPLIT));
        }

        if (!bad) {
            String states = live.stream().map(x -> SmFacts.host(c, x) + " " + x.stateName().replace("SMINFO_", "") + " (priority " + x.priority() + ")")
                    .collect(Collectors.joining(", "));
            String dn = designated.hosts().isEmpty() ? "no designated SM nodes (declare them: contract sm:, collect --sm-nodes or sm.count.designated)"
                    : "designated SM nodes " + String.join(", ", designated.hosts()) + " (" + designated.how().text + ") all run opensm";
            String checked = logs == 0 ? "takeovers not checked (no opensm.log collected)" : "no takeover in " + logs + " opensm.log tail(s)";
            c.pass((states.isEmpty() ? "" : states + "; ") + dn + "; " + checked, List.copyOf(smNodes),
                    live.stream().map(x -> Evidence.of(SmCount.describe(x), x.ref())).toList());
        }
    }
}
