package io.ibaccept.rules;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibdiagnet;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.InputProblem;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.Perftest;
import io.ibaccept.model.PerftestRun;
import io.ibaccept.model.SmInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Subnet manager, identity, perftest, ibdiagnet and input checks. */
final class FabricRules {
    private FabricRules() {}

    static final class SmCount implements Rule {
        public String id() {
            return "sm.count";
        }

        public void evaluate(Ctx c) {
            List<SmInfo> sms = c.data.fabric().sms();
            List<InputProblem> smProblems = c.data.problemsFor(null, Cmd.SMINFO.fileName());
            // Hosts whose ports say "SM lid: 0" corroborate "no SM"
            List<Evidence> noSmLid = new ArrayList<>();
            int activeOrInit = 0;
            for (HostData h : c.data.hosts().values())
                if (h.ibstat() != null)
                    for (Ibstat.Ca ca : h.ibstat())
                        for (Ibstat.Port p : ca.ports()) {
                            if (!p.physicalState().equalsIgnoreCase("LinkUp")) continue;
                            activeOrInit++;
                            if (p.smLid() == 0 && noSmLid.size() < 5) noSmLid.add(Evidence.of(h.host() + " " + ca.name() + " port " + p.number() + ": SM lid 0, State " + p.state(), p.ref()));
                        }
            if (sms == null) {
                boolean failedQuery = smProblems.stream().anyMatch(p -> p.kind() == InputProblem.Kind.COMMAND_FAILED
                        || p.kind() == InputProblem.Kind.TIMEOUT);
                if (failedQuery && (!noSmLid.isEmpty() || activeOrInit == 0)) {
                    List<Evidence> ev = new ArrayList<>();
                    ev.add(Evidence.of(smProblems.get(0).message(), smProblems.get(0).where()));
                    ev.addAll(noSmLid);
                    c.problem(Status.FAIL, List.of("fabric"), ev, "no subnet manager answers (sminfo failed, ports report SM lid 0)", "none", Map.of());
                } else {
                    c.skip("no usable sminfo output" + c.inputs(null, Cmd.SMINFO.fileName()));
                }
                return;
            }
            List<SmInfo> masters = sms.stream().filter(SmInfo::isMaster).toList();
            List<Evidence> ev = sms.stream().map(s -> Evidence.of(describe(s), s.ref())).collect(Collectors.toList());
            if (masters.isEmpty()) {
                ev.addAll(noSmLid);
                c.problem(Status.FAIL, List.of("fabric"), ev, "no master SM (" + sms.size() + " SM(s) answered, none MASTER)", "none", Map.of());
            } else if (masters.size() > 1) {
                c.problem(Status.FAIL, masters.stream().map(s -> "SM lid " + s.lid()).toList(), ev,
                        masters.size() + " SMs in MASTER state (split brain)", "many", Map.of("count", masters.size()));
            } else {
                c.pass("exactly one master SM: " + describe(masters.get(0)) + (sms.size() > 1 ? "; " + (sms.size() - 1) + " standby" : ""),
                        List.of("SM lid " + masters.get(0).lid()), ev);
            }
        }
    }

    static String describe(SmInfo s) {
        return String.format("SM lid %d guid 0x%x priority %d %s", s.lid(), s.guid(), s.priority(), s.stateName());
    }

    /** Every host of the manifest must show up as a CA in ibnetdiscover (matched by port GUID or node description). */
    static final class Inventory implements Rule {
        public String id() {
            return "fabric.inventory";
        }

        public void evaluate(Ctx c) {
            io.ibaccept.model.Topology topo = c.data.fabric().topology();
            if (topo == null) {
                c.skip("no usable ibnetdiscover output" + c.inputs(null, Cmd.IBNETDISCOVER.fileName()));
                return;
            }
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
            c.problem(Status.FAIL, missing, ev, missing.size() + " of " + c.data.hosts().size() + " hosts not in the fabric (" + inv + "): "
                    + String.join(", ", missing), "", Map.of("hosts", String.join(", ", missing)));
        }
    }

    static final class SmPriority implements Rule {
        public String id() {
            return "sm.priority";
        }

        public void evaluate(Ctx c) {
            List<SmInfo> sms = c.data.fabric().sms();
            if (sms == null || sms.isEmpty()) {
                c.skip("no SM information" + c.inputs(null, Cmd.SMINFO.fileName()));
                return;
            }
            if (sms.size() == 1) {
                c.pass("single SM (priority " + sms.get(0).priority() + "); no standby SM to fail over to", List.of(), List.of());
                return;
            }
            Map<Integer, List<SmInfo>> byPrio = sms.stream().collect(Collectors.groupingBy(SmInfo::priority, TreeMap::new, Collectors.toList()));
            boolean bad = false;
            for (var e : byPrio.entrySet()) {
                if (e.getValue().size() < 2) continue;
                bad = true;
                String names = e.getValue().stream().map(s -> "lid " + s.lid()).collect(Collectors.joining(", "));
                c.problem(Status.WARN, e.getValue().stream().map(s -> "SM lid " + s.lid()).toList(),
                        e.getValue().stream().map(s -> Evidence.of(describe(s), s.ref())).toList(),
                        e.getValue().size() + " SMs share priority " + e.getKey(), "", Map.of("sms", names, "priority", e.getKey()));
            }
            if (!bad) c.pass(sms.size() + " SMs with distinct priorities " + byPrio.keySet(), List.of(), List.of());
        }
    }

    static final class DuplicateGuid implements Rule {
        public String id() {
            return "guid.duplicate";
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
            if (hosts == 0) {
                c.skip("no usable ibstat output");
                return;
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

    static final class DuplicateLid implements Rule {
        public String id() {
            return "lid.duplicate";
        }

        public void evaluate(Ctx c) {
            Map<Integer, Map<String, Evidence>> holders = new TreeMap<>();
            for (HostData h : c.data.hosts().values()) {
                if (h.ibstat() == null) continue;
                for (Ibstat.Ca ca : h.ibstat())
                    for (Ibstat.Port p : ca.ports()) {
                        if (p.baseLid() <= 0 || p.baseLid() >= 0xc000) continue; // unassigned / multicast range
                        holders.computeIfAbsent(p.baseLid(), k -> new LinkedHashMap<>())
                                .putIfAbsent(h.host() + "/" + ca.name() + " port " + p.number(), Evidence.of(h.host() + " " + ca.name() + " port " + p.number() + ": Base lid " + p.baseLid(), p.ref()));
                    }
            }
            if (c.data.fabric().links() != null) {
                Map<String, Integer> lidOfNode = new LinkedHashMap<>();
                for (LinkInfo l : c.data.fabric().links()) if (l.switchNode()) lidOfNode.putIfAbsent(l.nodeName() + "@" + Long.toHexString(l.nodeGuid()), l.lid());
                for (LinkInfo l : c.data.fabric().links())
                    if (l.switchNode() && lidOfNode.remove(l.nodeName() + "@" + Long.toHexString(l.nodeGuid())) != null)
                        holders.computeIfAbsent(l.lid(), k -> new LinkedHashMap<>()).putIfAbsent("switch " + l.nodeName(),
                                Evidence.of("switch " + l.nodeName() + ": lid " + l.lid(), l.ref()));
            }
            if (holders.isEmpty()) {
                c.skip("no LIDs known (ibstat/iblinkinfo unusable)");
                return;
            }
            boolean bad = false;
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

    static final class PerftestBw implements Rule {
        public String id() {
            return "perftest.bw";
        }

        public void evaluate(Ctx c) {
            double minPct = c.number("min_percent");
            int judged = 0, bad = 0;
            for (PerftestRun r : c.data.perftests()) {
                Perftest p = r.result();
                if (p == null || !p.bandwidthTest()) continue;
                Optional<FabricIndex.Rate> rc = c.index.rateOf(r.client()), rs = c.index.rateOf(r.server());
                if (rc.isEmpty() || rs.isEmpty()) {
                    c.skip(r.test() + " " + r.client() + "->" + r.server() + ": negotiated rate of " + (rc.isEmpty() ? r.client() : r.server()) + " unknown");
                    continue;
                }
                judged++;
                FabricIndex.Rate rate = rc.get().dataGbps() <= rs.get().dataGbps() ? rc.get() : rs.get();
                Perftest.Row row = p.largest();
                double gbps = p.toGbps(row.bwAverage());
                double pct = 100 * gbps / rate.dataGbps();
                if (pct >= minPct) continue;
                bad++;
                String hint = pct < 60 ? "About half of line rate usually means the HCA sits in a PCIe Gen3 or x8 slot (see the pcie check)." : "";
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("test", r.test());
                v.put("client", r.client());
                v.put("server", r.server());
                v.put("measured", String.format(Locale.ROOT, "%.1f", gbps));
                v.put("percent", String.format(Locale.ROOT, "%.0f", pct));
                v.put("expected", String.format(Locale.ROOT, "%.0f", rate.dataGbps()));
                v.put("rate", rate.toString());
                v.put("hint", hint);
                c.problem(Status.FAIL, List.of(r.client(), r.server()),
                        List.of(Evidence.of(String.format(Locale.ROOT, "%d bytes: BW average %.2f %s = %.1f Gb/s", row.bytes(), row.bwAverage(), p.bwUnit(), gbps), row.ref()),
                                Evidence.of("negotiated " + rate + " = " + String.format(Locale.ROOT, "%.0f", rate.dataGbps()) + " Gb/s data rate", rate.where())),
                        String.format(Locale.ROOT, "%s %s->%s: %.1f Gb/s = %.0f%% of %.0f Gb/s (minimum %.0f%%)", r.test(), r.client(), r.server(), gbps, pct, rate.dataGbps(), minPct),
                        "", v);
            }
            if (judged > 0 && bad == 0) c.pass(judged + " bandwidth test(s) at or above " + (int) minPct + "% of the negotiated rate", List.of(), List.of());
            if (judged == 0 && c.data.perftests().stream().noneMatch(r -> r.result() != null && r.result().bandwidthTest()))
                c.skip("no usable bandwidth test results in the dump");
        }
    }

    static final class PerftestLat implements Rule {
        public String id() {
            return "perftest.lat";
        }

        public void evaluate(Ctx c) {
            double max = c.number("max_usec");
            int judged = 0, bad = 0;
            for (PerftestRun r : c.data.perftests()) {
                Perftest p = r.result();
                if (p == null || p.bandwidthTest()) continue;
                judged++;
                Perftest.Row row = p.largest();
                if (row.tTypical() <= max) continue;
                bad++;
                Map<String, Object> v = Map.of("test", r.test(), "client", r.client(), "server", r.server(),
                        "value", row.tTypical(), "max", max, "client_lid", c.index.lidOf(r.client()), "server_lid", c.index.lidOf(r.server()));
                c.problem(Status.FAIL, List.of(r.client(), r.server()),
                        List.of(Evidence.of(String.format(Locale.ROOT, "%d bytes: t_typical %.2f us, t_avg %.2f us, 99.9%% %.2f us", row.bytes(), row.tTypical(), row.tAvg(), row.p999()), row.ref())),
                        String.format(Locale.ROOT, "%s %s->%s: typical latency %.2f us > %.2f us", r.test(), r.client(), r.server(), row.tTypical(), max), "", v);
            }
            if (judged == 0) c.skip("no usable latency test results in the dump");
            else if (bad == 0) c.pass(judged + " latency test(s) at or below " + max + " us typical", List.of(), List.of());
        }
    }

    static final class IbdiagnetCheck implements Rule {
        public String id() {
            return "ibdiagnet";
        }

        public void evaluate(Ctx c) {
            Ibdiagnet.Log log = c.data.fabric().diagLog();
            if (log == null) {
                c.skip("no usable ibdiagnet2.log" + (c.data.problemsFor(null, Cmd.IBDIAGNET_LOG.fileName()).isEmpty() ? " (collect with --ibdiagnet)" : c.inputs(null, Cmd.IBDIAGNET_LOG.fileName())));
                return;
            }
            int n = 0;
            for (Ibdiagnet.Message m : log.messages()) {
                n++;
                Status st = m.level() == Ibdiagnet.Level.ERROR ? Status.FAIL : Status.WARN;
                c.problem(st, List.of("fabric"), List.of(Evidence.of((st == Status.FAIL ? "-E- " : "-W- ") + m.text(), m.ref())),
                        m.text(), "", Map.of("message", m.text(), "where", m.ref().toString()));
            }
            if (n == 0) c.pass("ibdiagnet2 " + log.version() + " reported no errors or warnings", List.of(), List.of());
        }
    }

    /** Every unusable input becomes a finding of its own, so the report says exactly what is missing where. */
    static final class Inputs implements Rule {
        public String id() {
            return "input";
        }

        public void evaluate(Ctx c) {
            // One finding per problem kind+command; hosts and locations listed
            Map<String, List<InputProblem>> groups = new LinkedHashMap<>();
            for (InputProblem p : c.data.problems()) {
                String message = p.host() == null ? p.message() : p.message().replace(p.host(), "HOST");
                groups.computeIfAbsent(p.kind() + " " + p.command() + " " + message, k -> new ArrayList<>()).add(p);
            }
            for (List<InputProblem> g : groups.values()) {
                InputProblem p = g.get(0);
                Status st = switch (p.kind()) {
                    case MISSING, TOOL_MISSING -> Status.SKIP;
                    default -> Status.ERROR;
                };
                // a MAD query that failed because the host's own port is down is a consequence, not an input error
                boolean downHost = st == Status.ERROR && p.command().startsWith("smpquery") && g.stream().allMatch(x -> portDown(c, x.host()));
                if (downHost) st = Status.SKIP;
                List<String> hosts = g.stream().map(x -> x.host() == null ? "fabric" : x.host()).distinct().toList();
                List<Evidence> ev = g.stream().limit(20).map(x -> Evidence.of(x.message(), x.where())).collect(Collectors.toList());
                if (g.size() > 20) ev.add(Evidence.of("... and " + (g.size() - 20) + " more", ""));
                String summary = p.where() + ": " + p.message() + (g.size() > 1 ? " (and " + (g.size() - 1) + " more like it)" : "")
                        + (downHost ? " - expected: the HCA port is down (see port.state)" : "");
                c.add(new Finding(id(), c.cfg.text(id(), "title"), st, hosts, ev, p.command() + ": " + summary,
                        c.cfg.fill(id(), "cause", Map.of("message", p.message())),
                        c.cfg.fill(id(), "fix", Map.of("command", p.command(), "host", String.join(",", hosts)))));
            }
            if (groups.isEmpty()) c.pass("all " + c.data.commands().size() + " collected command outputs were read and parsed", List.of(), List.of());
        }

        static boolean portDown(Ctx c, String host) {
            HostData h = host == null ? null : c.data.hosts().get(host);
            return h != null && h.ibstat() != null && h.ibstat().stream().allMatch(ca -> ca.ports().stream().noneMatch(Ibstat.Port::isActive));
        }
    }
}
