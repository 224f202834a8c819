package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * A leaf switch lost with its hosts (power, dead switch): several hosts whose every port is physically down, none of
 * them seen by any switch, while every leaf that answers has all its host ports up. One root finding; the host
 * ports, their input skips and inventory gaps are listed under it as consequences.
 */
final class FabricSwitches implements Check {
    public String id() {
        return "fabric.switches";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBSTAT), Input.of(Cmd.IBLINKINFO));
    }

    public List<Setting> settings() {
        return List.of(Setting.number("min_hosts", "2", "hosts down together (none seen by any switch, every answering leaf full) before a lost leaf switch is reported"));
    }

    public void evaluate(Ctx c) {
        Predicate<String> ignored = PortState.globs(c.cfg.text("port.state", "ignore"));
        List<String> down = new ArrayList<>();
        List<Evidence> ev = new ArrayList<>();
        for (HostData h : c.data.hosts().values()) {
            if (h.ibstat() == null) continue;
            int ports = 0, dead = 0;
            Evidence first = null;
            for (Ibstat.Ca ca : h.ibstat())
                for (Ibstat.Port p : ca.ports()) {
                    if (!p.linkLayer().isEmpty() && !p.linkLayer().startsWith("I") || ignored.test(ca.name() + "/" + p.number())) continue;
                    ports++;
                    String phys = p.physicalState();
                    if (!phys.equalsIgnoreCase("LinkUp") && !phys.equalsIgnoreCase("Disabled")) {
                        dead++;
                        if (first == null) first = Evidence.of(h.host() + " " + ca.name() + " port " + p.number() + ": " + p.state() + "/" + phys, p.ref());
                    }
                }
            if (ports > 0 && dead == ports) {
                down.add(h.host());
                ev.add(first);
            }
        }
        // hosts per answering leaf (switches with active CA links), and which CAs any switch sees
        Map<String, Integer> hostsPerLeaf = new TreeMap<>();
        Set<String> seen = new HashSet<>();
        Set<Integer> caLids = new HashSet<>();
        for (LinkInfo l : c.data.fabric().links()) if (!l.switchNode()) caLids.add(l.lid());
        for (LinkInfo l : c.data.fabric().links()) {
            if (!l.switchNode() || !l.isActive()) continue;
            if (caLids.contains(l.remoteLid())) {
                hostsPerLeaf.merge(l.nodeName(), 1, Integer::sum);
                seen.add(io.ibaccept.fabric.Fabric.hostPart(l.remoteName()));
            }
        }
        down.removeIf(seen::contains);
        int full = hostsPerLeaf.values().stream().max(Integer::compare).orElse(0);
        boolean leavesFull = !hostsPerLeaf.isEmpty() && hostsPerLeaf.values().stream().allMatch(n -> n == full);
        if (down.size() < c.number("min_hosts") || !leavesFull || down.size() < full) {
            c.pass(hostsPerLeaf.size() + " leaf switch(es) answer" + (down.isEmpty() ? "" : "; " + down.size()
                    + " host(s) down do not point at a lost switch"), List.of(), List.of());
            return;
        }
        int lost = (down.size() + full - 1) / full;
        String hosts = String.join(", ", down);
        Finding f = c.problem(Status.FAIL, down, ev, (lost == 1 ? "a leaf switch is missing: " : lost + " leaf switches are missing: ")
                        + down.size() + " hosts behind it are down together (" + hosts + ") and no switch sees them, while each of the "
                        + hostsPerLeaf.size() + " answering leaves has all its " + full + " hosts up",
                "", Map.of("hosts", hosts, "count", down.size(), "per_leaf", full));
        c.covers(f, down.stream().map(PortState::hostDown).toList());
    }
}
