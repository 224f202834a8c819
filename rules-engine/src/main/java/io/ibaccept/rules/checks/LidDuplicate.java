package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibdiagnet;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.InputProblem;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.Perftest;
import io.ibaccept.model.PerftestRun;
import io.ibaccept.model.SmInfo;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.FabricIndex;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** LIDs unique across HCA ports and switches, and all in the unicast range. */
final class LidDuplicate implements Check {
    public String id() {
        return "lid.duplicate";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBSTAT, Cmd.IBLINKINFO));
    }

    public void evaluate(Ctx c) {
        Map<Integer, Map<String, Evidence>> holders = new TreeMap<>();
        // 0xc000-0xfffe are multicast LIDs: a port given one is unreachable (0xffff: no LID, a port not yet swept)
        Map<String, Evidence> outside = new LinkedHashMap<>();
        for (HostData h : c.data.hosts().values()) {
            if (h.ibstat() == null) continue;
            for (Ibstat.Ca ca : h.ibstat())
                for (Ibstat.Port p : ca.ports()) {
                    if (p.baseLid() >= 0xc000 && p.baseLid() < 0xffff)
                        outside.put(h.host() + "/" + ca.name() + " port " + p.number(), Evidence.of(h.host() + " " + ca.name() + " port " + p.number()
                                + ": Base lid " + p.baseLid(), p.ref()));
                    if (p.baseLid() <= 0 || p.baseLid() >= 0xc000) continue; // unassigned / multicast range
                    holders.computeIfAbsent(p.baseLid(), k -> new LinkedHashMap<>())
                            .putIfAbsent(h.host() + "/" + ca.name() + " port " + p.number(), Evidence.of(h.host() + " " + ca.name() + " port " + p.number() + ": Base lid " + p.baseLid(), p.ref()));
                }
        }
        if (c.data.fabric().links() != null) {
            Map<String, Integer> lidOfNode = new LinkedHashMap<>();
            for (LinkInfo l : c.data.fabric().links()) if (l.switchNode()) lidOfNode.putIfAbsent(l.nodeName() + "@" + Long.toHexString(l.nodeGuid()), l.lid());
            for (LinkInfo l : c.data.fabric().links())
                // LID 0 means "not assigned" (no SM has swept the switch): a sentinel, never a duplicate
                if (l.switchNode() && l.lid() > 0 && l.lid() < 0xc000 && lidOfNode.remove(l.nodeName() + "@" + Long.toHexString(l.nodeGuid())) != null)
                    holders.computeIfAbsent(l.lid(), k -> new LinkedHashMap<>()).putIfAbsent("switch " + l.nodeName(),
                            Evidence.of("switch " + l.nodeName() + ": lid " + l.lid(), l.ref()));
        }
        if (holders.isEmpty() && outside.isEmpty()) {
            c.skip("no LIDs known (ibstat/iblinkinfo unusable)");
            return;
        }
        boolean bad = !outside.isEmpty();
        if (bad) {
            List<String> ports = new ArrayList<>(outside.keySet());
            c.problem(Status.FAIL, ports, outside.values().stream().limit(10).toList(), ports.size() + " port(s) hold a LID outside the unicast range"
                    + " (0x1-0xbfff), where no unicast packet can reach them: " + String.join(", ", ports.subList(0, Math.min(10, ports.size())))
                    + (ports.size() > 10 ? " and " + (ports.size() - 10) + " more" : ""), "multicast_range", Map.of("ports", String.join(", ", ports.subList(0, Math.min(10, ports.size())))));
        }
        for (var e : holders.entrySet()) {
            if (e.getValue().size() < 2) continue;
            bad = true;
            c.problem(Status.FAIL, new ArrayList<>(e.getValue().keySet()), new ArrayList<>(e.getValue().values()),
                    "LID " + e.getKey() + " is used by " + String.join(", ", e.getValue().keySet()), "",
                    Map.of("lid", e.getKey(), "holders", String.join(", ", e.getValue().keySet())));
        }
        if (!bad) c.pass(holders.size() + " LIDs, all unique", List.of(), List.of());
    }
}
