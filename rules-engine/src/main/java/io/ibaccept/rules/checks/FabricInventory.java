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
        java.util.Set<String> descHosts = new java.util.HashSet<>(), unlinkedHosts = new java.util.HashSet<>();
        java.util.Set<Long> unlinked = new java.util.HashSet<>();
        int switches = 0, cas = 0;
        for (io.ibaccept.model.Topology.Node n : topo.nodes()) {
            if (n.type() == io.ibaccept.model.Topology.NodeType.SWITCH) {
                switches++;
                // a CA cabled to this switch is in the fabric even when its own record is missing (a cut output)
                for (io.ibaccept.model.Topology.Port p : n.ports())
                    if (p.remoteId().startsWith("H-")) {
                        guids.add(p.remoteGuid());
                        if (!p.remoteDescription().isEmpty()) descHosts.add(io.ibaccept.fabric.Fabric.hostPart(p.remoteDescription()));
                    }
                continue;
            }
            cas++;
            // a CA record with no port line: ibnetdiscover saw the CA (the one it ran on) but no link from it
            if (n.ports().isEmpty()) {
                unlinked.add(n.guid());
                unlinkedHosts.add(io.ibaccept.fabric.Fabric.hostPart(n.description()));
                continue;
            }
            guids.add(n.guid());
            n.ports().forEach(p -> guids.add(p.portGuid()));
            descHosts.add(io.ibaccept.fabric.Fabric.hostPart(n.description()));
        }
        List<String> missing = new ArrayList<>(), alone = new ArrayList<>();
        for (HostData h : c.data.hosts().values()) {
            boolean byGuid = h.ibstat() != null && h.ibstat().stream().anyMatch(ca -> guids.contains(ca.nodeGuid())
                    || ca.ports().stream().anyMatch(p -> guids.contains(p.portGuid())));
            if (byGuid || descHosts.contains(h.host())) continue;
            boolean seenAlone = unlinkedHosts.contains(h.host()) || h.ibstat() != null && h.ibstat().stream().anyMatch(ca -> unlinked.contains(ca.nodeGuid()));
            (seenAlone ? alone : missing).add(h.host());
        }
        String inv = switches + " switches, " + cas + " CAs";
        if (!alone.isEmpty()) {
            // the topology holds the host's CA and nothing it is cabled to: discovery never left the host
            c.problem(Status.FAIL, alone, alone.stream().map(h -> Evidence.of(h + ": its CA is in the topology with no port line (no link from it)",
                    Cmd.IBNETDISCOVER.path(null))).toList(), alone.size() + " of " + c.data.hosts().size() + " hosts in the topology with no link ("
                    + inv + "): " + String.join(", ", alone), "unlinked", Map.of("hosts", String.join(", ", alone)));
            if (missing.isEmpty()) return;
        }
        if (missing.isEmpty()) {
            c.pass("all " + c.data.hosts().size() + " hosts found in the fabric (" + inv + ")", List.of(), List.of());
            return;
        }
        // lines of the topology that could not be read (a cut output, a garbled record) may be where the hosts are: a
        // missing host whose own port is not down is then the dump's damage, not the fabric's
        List<InputProblem> damage = c.data.unreadableLines(null, Cmd.IBNETDISCOVER.fileName());
        List<String> unexplained = damage.isEmpty() ? List.of() : missing.stream().filter(h -> !InputCheck.portDown(c, h)).toList();
        if (!unexplained.isEmpty()) {
            List<Evidence> dev = new ArrayList<>();
            damage.stream().limit(3).forEach(p -> dev.add(Evidence.of(p.message(), p.where())));
            dev.addAll(notInTopology(unexplained));
            c.problem(Status.ERROR, unexplained, dev, unexplained.size() + " of " + c.data.hosts().size() + " hosts not in the readable part of"
                    + " the topology (" + inv + "; " + damage.size() + " unreadable part(s), e.g. " + damage.get(0).where() + "): "
                    + String.join(", ", unexplained), "damaged", Map.of("where", damage.get(0).where()));
            missing = missing.stream().filter(h -> !unexplained.contains(h)).toList();
            if (missing.isEmpty()) return;
        }
        Finding f = c.problem(Status.FAIL, missing, notInTopology(missing), missing.size() + " of " + c.data.hosts().size()
                + " hosts not in the fabric (" + inv + "): " + String.join(", ", missing), "", Map.of("hosts", String.join(", ", missing)));
        // hosts whose HCA port is down are missing because of it
        c.explainedBy(f, missing.stream().map(PortState::hostDown).toList());
    }

    private static List<Evidence> notInTopology(List<String> hosts) {
        return hosts.stream().map(h -> Evidence.of(h + ": no CA with its GUID or node description in the topology", Cmd.IBNETDISCOVER.path(null))).toList();
    }
}
