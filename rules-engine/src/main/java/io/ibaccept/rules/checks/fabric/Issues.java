package io.ibaccept.rules.checks.fabric;

import io.ibaccept.fabric.Issue;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Status;
import java.util.List;

/**
 * Turns the fabric analyses' issues into findings: the issue kind picks the cause/fix variant of the check's texts.
 * Root-cause keys: a planned cable that is missing covers "cable-down:END" for both its ends, and a lost uplink is
 * explained by its ends, so with a plan the blocking finding is listed under the cable to connect; a planned switch
 * that is absent covers "switch-absent", which explains a switch count below the expected one; that count (or the
 * planned switch) in turn explains every leaf being over the blocking ratio, as when a spine is gone; a switch over the
 * ratio only because some of its uplinks trained slower is explained by those cables ("cable-degraded:END", covered by
 * their link.width / link.speed finding), and one over it only because of host cables the plan puts elsewhere by the
 * miswired plan finding ("miswired-at:SWITCH"), and one over it only by hosts moved onto it from another leaf by that
 * move ("hosts-moved-onto:SWITCH"); a leaf absent from its run of names covers "switch-absent" as a planned one does. A switch that lost uplinks ("uplinks-lost:SWITCH") explains the leaves below
 * it that lost their only path to some top switches.
 */
public final class Issues {
    private Issues() {}

    static final String SWITCH_ABSENT = "switch-absent";

    static String cableDown(String end) {
        return "cable-down:" + end;
    }

    /** Covered by the plan's miswired finding, per switch a wrong cable lands on: explains a ratio the moved hosts cause. */
    static String miswiredAt(String sw) {
        return "miswired-at:" + sw;
    }

    /** Covered by the finding of hosts moved between leaves, per leaf they were moved onto: explains its ratio. */
    static String hostsMovedOnto(String sw) {
        return "hosts-moved-onto:" + sw;
    }

    /** Covered by the finding of a switch that lost uplinks: explains the leaves below it that reach no path to some tops. */
    static String uplinksLost(String sw) {
        return "uplinks-lost:" + sw;
    }

    /** Covered by the link.width/link.speed finding of a degraded cable, per end: explains the ratio it causes. */
    public static String cableDegraded(String end) {
        return "cable-degraded:" + end;
    }

    static void report(Ctx c, List<Issue> issues) {
        for (Issue i : issues) {
            Finding f = c.problem(i.severe() ? Status.FAIL : Status.WARN, i.objects(),
                    i.facts().stream().map(x -> Evidence.of(x.text(), x.ref())).toList(), i.summary(), i.kind(), i.vars());
            List<String> ends = i.objects().stream().filter(o -> o.contains(" port ")).map(Issues::cableDown).toList();
            switch (i.kind()) {
                case "missing" -> c.covers(f, ends);
                case "miswired" -> {
                    if (!i.vars().getOrDefault("switches", "").isEmpty())
                        c.covers(f, java.util.Arrays.stream(i.vars().get("switches").split("\\|")).map(Issues::miswiredAt).toList());
                }
                case "uplinks_lost" -> {
                    if (!ends.isEmpty()) c.explainedBy(f, ends);
                    c.covers(f, List.of(uplinksLost(i.vars().get("leaf"))));
                }
                // a switch on the leaves' way up that lost its uplinks cut them off those tops
                case "unreachable_top" -> {
                    if (i.vars().containsKey("lost_above"))
                        c.explainedBy(f, List.of(uplinksLost(i.vars().get("lost_above"))));
                }
                case "hosts_moved" -> c.covers(f, java.util.Arrays.stream(i.vars().get("moved_to").split("\\|")).map(Issues::hostsMovedOnto).toList());
                // a leaf absent from its run of names is the switch the count misses
                case "leaf_absent" -> c.covers(f, List.of(SWITCH_ABSENT));
                // the planned switch names the device, so it is the root over the bare count
                case "node_missing" -> c.covers(f, List.of(SWITCH_ABSENT, "planned:" + i.vars().get("node")));
                case "switch_count" -> {
                    if (Integer.parseInt(i.vars().get("found")) < Integer.parseInt(i.vars().get("expected"))) {
                        c.covers(f, List.of(SWITCH_ABSENT));
                        c.explainedBy(f, List.of(SWITCH_ABSENT));
                    }
                }
                case "ratio" -> {
                    if ("true".equals(i.vars().get("every_leaf"))) c.explainedBy(f, List.of(SWITCH_ABSENT));
                    // uplinks trained below their peers account for the whole excess: the ratio follows from them
                    else if (i.vars().containsKey("degraded_ends"))
                        c.explainedBy(f, java.util.Arrays.stream(i.vars().get("degraded_ends").split("\\|")).map(Issues::cableDegraded).toList());
                    // hosts the plan puts on another switch account for the whole excess: the miswired cables are the root
                    else if (i.vars().containsKey("miswired_at"))
                        c.explainedBy(f, java.util.Arrays.stream(i.vars().get("miswired_at").split("\\|")).map(Issues::miswiredAt).toList());
                    // hosts moved onto the switch account for the excess: the move is the root
                    else if (i.vars().containsKey("moved_to"))
                        c.explainedBy(f, java.util.Arrays.stream(i.vars().get("moved_to").split("\\|")).map(Issues::hostsMovedOnto).toList());
                }
                default -> { }
            }
        }
    }
}
