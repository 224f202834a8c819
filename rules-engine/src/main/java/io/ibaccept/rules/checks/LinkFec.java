package io.ibaccept.rules.checks;

import io.ibaccept.fabric.Fabric;
import io.ibaccept.model.CableModule;
import io.ibaccept.model.DiagPort;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The FEC mode every active link runs, as ibdiagnet reports it per port (net_dump_ext, else net_dump), per link class:
 * the class of the fabric model (host links, switch-to-switch links...) and, where ibdiagnet2.cables gives the module,
 * the medium (copper or optical: Quantum-2 picks a low-latency RS-FEC on short copper and the standard RS(544,514) on
 * optics by design). A PAM4 link (HDR, NDR, XDR) without a Reed-Solomon FEC is a FAIL; links of one class on another
 * FEC than the class declares (setting), else than most of it runs, a WARN, one finding per switch. A port with no FEC
 * reported (N/A) is counted as not reported, never judged. Silent when neither file was collected.
 */
final class LinkFec implements Check {
    private static final int EVIDENCE = 8;

    public String id() {
        return "link.fec";
    }

    /** None declared: without ibdiagnet's port dumps the check says nothing. */
    public List<Input> inputs() {
        return List.of();
    }

    /** Its PASS line is the FEC every class runs: a fact for page 1. */
    public boolean statesFacts() {
        return true;
    }

    public List<Setting> settings() {
        return List.of(Setting.of("expected.host", Setting.Type.TEXT, "auto", "FEC mode host links must run, as ibdiagnet prints it (RS_FEC_544_514...); auto = what most host links of the same medium run"),
                Setting.of("expected.isl", Setting.Type.TEXT, "auto", "FEC mode switch-to-switch links must run; auto = what most of them of the same medium run"));
    }

    /** One active link as judged: the port row it was read from (a switch end where there is one). */
    private record Judged(Fabric.Link link, DiagPort row, String cls) {}

    public void evaluate(Ctx c) {
        if (c.data.fabric() == null) return;
        List<DiagPort> rows = c.data.fabric().diagPorts();
        if (rows.isEmpty()) return;
        Fabric fabric = CableModules.fabricOf(c, rows.stream().filter(DiagPort::switchPort).findFirst().orElse(rows.get(0)).guid());
        if (fabric == null) {
            c.skip("no topology to class the links of ibdiagnet's port dump by (ibnetdiscover or ibdiagnet2.ibnetdiscover)");
            return;
        }
        Map<Fabric.End, CableModule> modules = new HashMap<>();
        if (c.data.fabric().diagCables() != null)
            for (CableModule m : c.data.fabric().diagCables()) modules.putIfAbsent(new Fabric.End(m.guid(), m.port()), m);
        // per link the row it is judged by: one with a FEC reported, a switch end before a CA end
        Map<Fabric.Link, DiagPort> best = new LinkedHashMap<>();
        int unclassed = 0;
        boolean ber = false;
        for (DiagPort p : rows) {
            if (!p.active()) continue;
            ber |= p.berReported();
            Fabric.End end = new Fabric.End(p.guid(), p.port());
            var link = fabric.linkAt(end);
            // the graph may be of another moment than ibdiagnet's run (a recabled fabric): judge a port only where the
            // peer the graph gives it is the one the row names
            if (link.isEmpty() || !samePeer(fabric, link.get(), end, p)) {
                unclassed++;
                continue;
            }
            Fabric.LinkClass lc = fabric.linkClass(link.get());
            // a switch's own SHARP node and loopbacks are no cables of the design
            if (lc == Fabric.LinkClass.AGGREGATION || lc == Fabric.LinkClass.LOOPBACK) continue;
            DiagPort prev = best.get(link.get());
            if (prev == null || p.fecReported() && !prev.fecReported() || p.fecReported() == prev.fecReported() && p.switchPort() && !prev.switchPort())
                best.put(link.get(), p);
        }
        Map<Fabric.Link, Judged> links = new LinkedHashMap<>();
        int notReported = 0;
        for (var e : best.entrySet()) {
            if (!e.getValue().fecReported()) notReported++;
            else links.put(e.getKey(), new Judged(e.getKey(), e.getValue(), label(fabric.linkClass(e.getKey()))
                    + medium(modules, new Fabric.End(e.getValue().guid(), e.getValue().port()), e.getKey())));
        }
        List<Judged> noRs = new ArrayList<>();
        Map<String, Map<String, List<Judged>>> byClass = new TreeMap<>();
        for (Judged j : links.values()) {
            if (j.link().speed() != null && j.link().speed().dataGbpsPerLane() >= 50 && !j.row().reedSolomon()) noRs.add(j);
            byClass.computeIfAbsent(j.cls(), k -> new TreeMap<>()).computeIfAbsent(j.row().fec(), k -> new ArrayList<>()).add(j);
        }
        String notes = (notReported > 0 ? "; " + notReported + " active link(s) with no FEC reported (N/A), not judged" : "")
                + (unclassed > 0 ? "; " + unclassed + " active port(s) whose neighbour the topology does not confirm (not in it, or recabled since), not judged" : "")
                + (ber ? "" : "; ibdiagnet reported no BER (its Raw/Effective/Symbol BER columns are empty): BER not checked here");
        boolean found = report(c, fabric, noRs, Status.FAIL, "no_rs", j -> j.link().speed().name() + " link runs " + j.row().fec() + ", not a Reed-Solomon FEC", Map.of());
        List<String> facts = new ArrayList<>();
        for (var e : byClass.entrySet()) {
            Map<String, List<Judged>> fecs = e.getValue();
            String key = e.getKey().startsWith("host links") ? "expected.host" : e.getKey().startsWith("switch-to-switch") ? "expected.isl" : null;
            String declared = key == null ? "auto" : c.text(key).trim();
            boolean byDeclaration = !declared.isEmpty() && !declared.equalsIgnoreCase("auto");
            String want = byDeclaration ? declared : fecs.entrySet().stream().max(Map.Entry.comparingByValue(java.util.Comparator.comparingInt(List::size)))
                    .map(Map.Entry::getKey).orElseThrow();
            String counts = fecs.entrySet().stream().map(f -> f.getKey() + " (" + f.getValue().size() + ")").collect(Collectors.joining(", "));
            facts.add(e.getKey() + ": " + counts);
            List<Judged> odd = fecs.entrySet().stream().filter(f -> !f.getKey().equals(want)).flatMap(f -> f.getValue().stream()).toList();
            if (odd.isEmpty()) continue;
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("class", e.getKey());
            v.put("expected", want);
            v.put("counts", counts);
            v.put("basis", byDeclaration ? "as declared (link.fec." + key + ")" : "as most of the class runs");
            found |= report(c, fabric, odd, Status.WARN, "mixed", j -> e.getKey() + " link runs " + j.row().fec() + ", not " + want, v);
        }
        if (!found) c.pass("FEC per link class: " + String.join("; ", facts) + notes, List.of(), List.of());
    }

    /** One finding per switch for these links; true if any. */
    private static boolean report(Ctx c, Fabric fabric, List<Judged> links, Status status, String variant,
                                  java.util.function.Function<Judged, String> what, Map<String, Object> vars) {
        Map<Long, List<Judged>> bySwitch = new TreeMap<>();
        for (Judged j : links) {
            Fabric.End e = new Fabric.End(j.row().guid(), j.row().port());
            Fabric.Node n = fabric.node(e.guid());
            long sw = n != null && n.isSwitch() ? e.guid() : j.link().other(e).guid();
            bySwitch.computeIfAbsent(sw, k -> new ArrayList<>()).add(j);
        }
        for (var e : bySwitch.entrySet()) {
            List<Judged> js = e.getValue();
            String sw = CableModules.nodeName(c, fabric, e.getKey());
            // the switch's end of each link: its port is what the finding names
            List<String> objects = js.stream().map(j -> CableModules.portName(c, fabric, j.link().endAt(e.getKey()))).toList();
            String ports = js.stream().limit(EVIDENCE).map(j -> "port " + j.link().endAt(e.getKey()).port() + " " + j.row().fec())
                    .collect(Collectors.joining(", ")) + (js.size() > EVIDENCE ? ", +" + (js.size() - EVIDENCE) + " more" : "");
            Map<String, Object> v = new LinkedHashMap<>(vars);
            v.put("switch", sw);
            v.put("count", js.size());
            v.put("ports", ports);
            List<Evidence> ev = js.stream().limit(EVIDENCE).map(j -> Evidence.of(fabric.name(j.link()) + ": " + what.apply(j), j.row().ref())).toList();
            c.problem(status, objects, ev, sw + ": " + js.size() + " link(s) " + (status == Status.FAIL ? "without Reed-Solomon FEC" : "on another FEC than their class")
                    + ": " + ports, variant, v);
        }
        return !bySwitch.isEmpty();
    }

    private static String label(Fabric.LinkClass lc) {
        return switch (lc) {
            case HOST -> "host links";
            case SWITCH_TO_SWITCH -> "switch-to-switch links";
            case CHASSIS_INTERNAL -> "chassis backplane links";
            case HOST_TO_HOST -> "back-to-back host links";
            default -> "other links";
        };
    }

    /** Whether the row's own neighbour (LID, and GUID where printed) is the far end of the graph's link. */
    private static boolean samePeer(Fabric fabric, Fabric.Link link, Fabric.End end, DiagPort p) {
        Fabric.End other = link.other(end);
        Fabric.Node n = fabric.node(other.guid());
        if (p.neighborGuid() != 0 && p.neighborGuid() != other.guid()) return false;
        return p.neighborLid() <= 0 || n == null || n.lid() <= 0 || n.lid() == p.neighborLid();
    }

    /** " on copper" / " on optics" from the module at the row's end, else the far end; "" where ibdiagnet2.cables has neither. */
    private static String medium(Map<Fabric.End, CableModule> modules, Fabric.End own, Fabric.Link l) {
        CableModule m = modules.get(own);
        if (m == null) m = modules.get(l.other(own));
        if (m == null) return "";
        return m.copper() ? " on copper" : " on optics";
    }
}
