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

/** Every host of the manifest is a CA in the ibnetdiscover topology (by GUID or node description). */
final class FabricInventory implements Check {
    public String id() {
        return "fabric.inventory";
    }

    /** A host missing from the topology follows from whatever cut it off; it explains nothing itself. */
    public RootRole rootRole(io.ibaccept.rules.Finding f) {
        return null;
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBNETDISCOVER));
    }

    public void evaluate(Ctx c) {
        io.ibaccept.model.Topology topo = c.data.fabric().topology();
        java.util.Set<Long> guids = new java.util.HashSet<>();
        java.util.Set<String> descHosts = new java.util.HashSet<>();
        int switches = 0, cas = 0;
        for (io.ibaccept.model.Topology.Node n : topo.nodes()) {
            if (n.type() == io.ibaccept.model.Topology.NodeType.SWITCH) {
                switches++;
                continue;
            }
            cas++;
            guids.add(n.guid());
            n.ports().forEach(p -> guids.add(p.portGuid()));
            descHosts.add(n.description().split("\\s+")[0]);
        }
        List<String> missing = new ArrayList<>();
        List<Evidence> ev = new ArrayList<>();
        for (HostData h : c.data.hosts().values()) {
            boolean byGuid = h.ibstat() != null && h.ibstat().stream().anyMatch(ca -> guids.contains(ca.nodeGuid())
                    || ca.ports().stream().anyMatch(p -> guids.contains(p.portGuid())));
            if (byGuid || descHosts.contains(h.host())) continue;
            missing.add(h.host());
            ev.add(Evidence.of(h.host() + ": no CA with its GUID or node description in the topology", Cmd.IBNETDISCOVER.path(null)));
        }
        String inv = switches + " switches, " + cas + " CAs";
        if (missing.isEmpty()) {
            c.pass("all " + c.data.hosts().size() + " hosts found in the fabric (" + inv + ")", List.of(), List.of());
            return;
        }
        Finding f = c.problem(Status.FAIL, missing, ev, missing.size() + " of " + c.data.hosts().size() + " hosts not in the fabric (" + inv + "): "
                + String.join(", ", missing), "", Map.of("hosts", String.join(", ", missing)));
        // hosts whose HCA port is down are missing because of it
        c.explainedBy(f, missing.stream().map(PortState::hostDown).toList());
    }
}
