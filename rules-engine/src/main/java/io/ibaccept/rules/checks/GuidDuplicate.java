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

/** Node and port GUIDs unique across hosts. */
final class GuidDuplicate implements HostLocalCheck {
    public String id() {
        return "guid.duplicate";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBSTAT));
    }

    public void evaluate(Ctx c) {
        Map<Long, List<String>> holders = new TreeMap<>();
        Map<Long, List<Evidence>> ev = new TreeMap<>();
        int hosts = 0;
        for (HostData h : c.data.hosts().values()) {
            if (h.ibstat() == null) continue;
            hosts++;
            for (Ibstat.Ca ca : h.ibstat()) {
                add(holders, ev, ca.nodeGuid(), h.host() + "/" + ca.name(), "Node GUID", ca.ref());
                for (Ibstat.Port p : ca.ports())
                    if (p.portGuid() != ca.nodeGuid())
                        add(holders, ev, p.portGuid(), h.host() + "/" + ca.name() + " port " + p.number(), "Port GUID", p.ref());
            }
        }
        boolean bad = false;
        for (var e : holders.entrySet()) {
            List<String> hs = e.getValue().stream().map(s -> s.split("/")[0]).distinct().toList();
            if (hs.size() < 2) continue;
            bad = true;
            String g = String.format("0x%016x", e.getKey());
            c.problem(Status.FAIL, e.getValue(), ev.get(e.getKey()), "GUID " + g + " appears on " + String.join(", ", hs), "",
                    Map.of("guid", g, "hosts", String.join(", ", hs)));
        }
        if (!bad) c.pass("all node and port GUIDs unique across " + hosts + " hosts", List.of(), List.of());
    }

    private static void add(Map<Long, List<String>> holders, Map<Long, List<Evidence>> ev, long guid, String who, String what, Object ref) {
        if (guid == 0) return;
        holders.computeIfAbsent(guid, k -> new ArrayList<>()).add(who);
        ev.computeIfAbsent(guid, k -> new ArrayList<>()).add(Evidence.of(who + " " + what + String.format(" 0x%016x", guid), ref));
    }
}
