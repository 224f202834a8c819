package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.LinkInfo;
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
import java.util.Map;
import java.util.Optional;

/** HCA ports (ibstat) and linked switch ports (iblinkinfo) that are not Active, with the cause their state points at. */
final class PortState implements Check {
    public String id() {
        return "port.state";
    }

    /** A port that is down or disabled explains what is about that port; a port stuck in Init is a fault of its own. */
    public RootRole rootRole(io.ibaccept.rules.Finding f) {
        return f.variant().equals("down") || f.variant().equals("disabled") ? RootRole.PORT_DOWN : null;
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBSTAT, Cmd.IBSTATUS, Cmd.IBLINKINFO));
    }

    public List<Setting> settings() {
        return List.of(Setting.of("ignore", Setting.Type.LIST, "",
                "HCA ports not cabled on purpose, as CA/PORT globs separated by commas, e.g. mlx5_1/*,mlx5_0/2; empty: check every port"));
    }

    public void evaluate(Ctx c) {
        int checked = 0;
        boolean noMaster = noMaster(c);
        List<String> missing = new ArrayList<>();
        java.util.function.Predicate<String> ignored = globs(c.text("ignore"));
        int skippedPorts = 0;
        for (HostData h : c.data.hosts().values()) {
            if (h.ibstat() == null && h.ibstatus() == null) {
                missing.add(h.host());
                continue;
            }
            int before = c.findings().size(), judged = checked, downPorts = 0;
            for (Ibstat.Ca ca : h.cas()) { // ibstat, else ibstatus (the fallback input)
                for (Ibstat.Port p : ca.ports()) {
                    if (!p.linkLayer().isEmpty() && !p.linkLayer().startsWith("I")) continue; // Ethernet ports
                    if (ignored.test(ca.name() + "/" + p.number())) {
                        skippedPorts++;
                        continue;
                    }
                    checked++;
                    if (p.isActive()) continue;
                    if (!p.physicalState().equalsIgnoreCase("LinkUp") && !p.physicalState().equalsIgnoreCase("Disabled")) downPorts++;
                    String obj = h.host() + "/" + ca.name() + " port " + p.number();
                    Map<String, Object> v = new LinkedHashMap<>();
                    v.put("host", h.host());
                    v.put("ca", ca.name());
                    v.put("port", p.number());
                    v.put("lid", p.baseLid());
                    v.put("guid", String.format("0x%016x", p.portGuid()));
                    Optional<LinkInfo> peer = c.index.peerOf(p.portGuid());
                    v.put("peer_lid", peer.map(l -> String.valueOf(l.lid())).orElse("<switch lid>"));
                    v.put("peer_port", peer.map(l -> String.valueOf(l.port())).orElse("<port>"));
                    String variant;
                    String what;
                    if (p.physicalState().equalsIgnoreCase("Disabled")) {
                        variant = "disabled";
                        what = "disabled";
                    } else if (p.physicalState().equalsIgnoreCase("LinkUp")) {
                        variant = noMaster ? "init.nosm" : "init";
                        what = "stuck in " + p.state() + " with the physical link up";
                    } else {
                        variant = "down";
                        what = "down (physical state " + p.physicalState() + ")";
                    }
                    Finding f = c.problem(Status.FAIL, List.of(obj),
                            List.of(Evidence.of("State: " + p.state() + ", Physical state: " + p.physicalState(), p.ref())),
                            obj + " is " + what, variant, v);
                    if (variant.equals("init.nosm")) c.explainedBy(f, List.of(SmCount.NO_SM));
                }
            }
            // a host with every port physically down: its other findings (inventory, inputs, perftest) follow from it,
            // and it may itself follow from the switch it hangs off being gone
            if (downPorts > 0 && downPorts == checked - judged)
                for (Finding f : c.findings().subList(before, c.findings().size())) {
                    c.covers(f, List.of(hostDown(h.host())));
                    c.explainedBy(f, List.of(hostDown(h.host())));
                }
        }
        int switchChecked = switchPorts(c, noMaster);
        if (checked + switchChecked == 0) {
            c.skip("no usable ibstat output from any host" + (missing.isEmpty() ? "" : c.inputs(missing.get(0), "ibstat")));
            return;
        }
        if (c.findings().stream().noneMatch(f -> f.check().equals(id())))
            c.pass("all " + checked + " HCA ports are Active" + (skippedPorts == 0 ? "" : "; " + skippedPorts + " port(s) ignored by port.state.ignore")
                    + (switchChecked == 0 ? "" : "; all " + switchChecked + " linked switch ports Active")
                    + (missing.isEmpty() ? "" : " (ibstat unusable on " + missing.size() + " host(s))"), List.of(), List.of());
    }

    /** Switch ports with the physical link up but not Active, one finding per switch. Returns ports looked at. */
    static int switchPorts(Ctx c, boolean noMaster) {
        if (c.data.fabric().links() == null) return 0;
        Map<String, List<LinkInfo>> stuck = new LinkedHashMap<>();
        int n = 0;
        for (LinkInfo l : c.data.fabric().links()) {
            if (!l.switchNode() || !"LinkUp".equalsIgnoreCase(l.physState())) continue;
            n++;
            if (!l.isActive()) stuck.computeIfAbsent(l.nodeName(), k -> new ArrayList<>()).add(l);
        }
        for (Map.Entry<String, List<LinkInfo>> e : stuck.entrySet()) {
            List<LinkInfo> ports = e.getValue();
            String list = ports.stream().map(l -> String.valueOf(l.port())).collect(java.util.stream.Collectors.joining(","));
            LinkInfo first = ports.get(0);
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("host", e.getKey());
            v.put("ca", "<switch>");
            v.put("port", list);
            v.put("lid", first.lid());
            v.put("guid", String.format("0x%016x", first.nodeGuid()));
            List<Evidence> ev = ports.stream().limit(10).map(l -> Evidence.of(DegradedLink.line(l), l.ref())).toList();
            Finding f = c.problem(Status.FAIL, List.of(e.getKey() + " ports " + list), ev,
                    e.getKey() + ": " + ports.size() + " port(s) with the physical link up but " + first.state() + " (ports " + list + ")",
                    noMaster ? "init.nosm" : "init", v);
            if (noMaster) c.explainedBy(f, List.of(SmCount.NO_SM));
        }
        return n;
    }

    /** Root-cause key of a host whose every HCA port is physically down. */
    static String hostDown(String host) {
        return "host-down:" + host;
    }

    /** No master SM: sminfo answered with none, or failed (the SM may be dead). */
    static boolean noMaster(Ctx c) {
        // an sminfo line that could not be read may be the master's: not known, so nothing is blamed on it
        if (!c.data.unreadableLines(null, "sminfo").isEmpty()) return false;
        if (c.data.fabric().smsOrIbdiagnet() != null) return c.data.fabric().smsOrIbdiagnet().stream().noneMatch(io.ibaccept.model.SmInfo::isMaster);
        return !c.data.problemsFor(null, "sminfo").isEmpty();
    }

    /** "mlx5_1/*,mlx5_0/2" -> matcher of "ca/port" strings. */
    static java.util.function.Predicate<String> globs(String spec) {
        List<java.util.regex.Pattern> ps = new ArrayList<>();
        for (String g : spec.split(",")) {
            String t = g.trim();
            if (t.isEmpty()) continue;
            StringBuilder re = new StringBuilder();
            for (char ch : t.toCharArray()) re.append(ch == '*' ? ".*" : ch == '?' ? "." : java.util.regex.Pattern.quote(String.valueOf(ch)));
            ps.add(java.util.regex.Pattern.compile(re.toString()));
        }
        return s -> ps.stream().anyMatch(p -> p.matcher(s).matches());
    }
}
