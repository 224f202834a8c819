package io.ibaccept.rules;

import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.model.PortCounters;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Port state, link width/speed, and error-counter checks. */
final class LinkRules {
    private LinkRules() {}

    static final class PortState implements Rule {
        public String id() {
            return "port.state";
        }

        public void evaluate(Ctx c) {
            int checked = 0;
            boolean noMaster = c.data.fabric().sms() != null && c.data.fabric().sms().stream().noneMatch(s -> s.isMaster())
                    || c.data.fabric().sms() == null && !c.data.problemsFor(null, "sminfo").isEmpty();
            List<String> missing = new ArrayList<>();
            java.util.function.Predicate<String> ignored = globs(c.text("ignore"));
            int skippedPorts = 0;
            for (HostData h : c.data.hosts().values()) {
                if (h.ibstat() == null) {
                    missing.add(h.host());
                    continue;
                }
                for (Ibstat.Ca ca : h.ibstat()) {
                    for (Ibstat.Port p : ca.ports()) {
                        if (!p.linkLayer().isEmpty() && !p.linkLayer().startsWith("I")) continue; // Ethernet ports
                        if (ignored.test(ca.name() + "/" + p.number())) {
                            skippedPorts++;
                            continue;
                        }
                        checked++;
                        if (p.isActive()) continue;
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
                        c.problem(Status.FAIL, List.of(obj),
                                List.of(Evidence.of("State: " + p.state() + ", Physical state: " + p.physicalState(), p.ref())),
                                obj + " is " + what, variant, v);
                    }
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
                List<Evidence> ev = ports.stream().limit(10).map(l -> Evidence.of(Degraded.line(l), l.ref())).toList();
                c.problem(Status.FAIL, List.of(e.getKey() + " ports " + list), ev,
                        e.getKey() + ": " + ports.size() + " port(s) with the physical link up but " + first.state() + " (ports " + list + ")",
                        noMaster ? "init.nosm" : "init", v);
            }
            return n;
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

    /** Shared by width and speed: compares each active link's value with the expected one. */
    private abstract static class Degraded<T extends Comparable<T>> implements Rule {
        abstract T value(LinkInfo l);

        abstract Optional<T> parse(String s);

        abstract double scale(T v);

        public void evaluate(Ctx c) {
            if (c.data.fabric().links() == null) {
                c.skip("no usable iblinkinfo output" + c.inputs(null, "iblinkinfo"));
                return;
            }
            List<FabricIndex.Link> active = c.index.links().stream()
                    .filter(l -> l.a().isActive() && value(l.a()) != null).toList();
            if (active.isEmpty()) {
                c.skip("no active links in iblinkinfo");
                return;
            }
            String exp = c.text("expected");
            T expected;
            String how;
            if (exp.equalsIgnoreCase("auto")) {
                expected = Majority.of(active.stream().map(l -> value(l.a())).toList(), Comparator.naturalOrder()).orElseThrow();
                how = "most common in this fabric";
            } else {
                expected = parse(exp).orElseThrow(() -> new IllegalStateException(id() + ".expected: unknown value '" + exp + "'"));
                how = "configured";
            }
            int bad = 0;
            for (FabricIndex.Link l : active) {
                T got = value(l.a());
                if (got.compareTo(expected) >= 0) continue;
                bad++;
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("active", got);
                v.put("expected", expected);
                v.put("ratio", Math.round(100 * scale(got) / scale(expected)) + "%");
                v.put("a", FabricIndex.Link.end(l.a()));
                v.put("b", l.b() != null ? FabricIndex.Link.end(l.b()) : l.a().remoteName());
                v.put("a_short", l.a().nodeName());
                v.put("lid", l.a().lid());
                v.put("port", l.a().port());
                List<Evidence> ev = new ArrayList<>();
                ev.add(Evidence.of(line(l.a()), l.a().ref()));
                if (l.b() != null) ev.add(Evidence.of(line(l.b()), l.b().ref()));
                List<String> objs = new ArrayList<>(List.of(FabricIndex.Link.end(l.a())));
                if (l.b() != null) objs.add(FabricIndex.Link.end(l.b()));
                c.problem(Status.FAIL, objs, ev, l.name() + " runs at " + got + ", expected " + expected + " (" + how + ")", "", v);
            }
            if (bad == 0) c.pass("all " + active.size() + " active links run at " + expected + " (" + how + ")", List.of(), List.of());
        }

        static String line(LinkInfo l) {
            return l.nodeName() + " port " + l.port() + ": " + (l.width() == null ? "" : l.width() + " ")
                    + (l.speed() == null ? "" : l.speed() + " ") + l.state() + "/" + l.physState() + " -> \"" + l.remoteName() + "\" port " + l.remotePort();
        }
    }

    static final class Width extends Degraded<LinkWidth> {
        public String id() {
            return "link.width";
        }

        LinkWidth value(LinkInfo l) {
            return l.width();
        }

        Optional<LinkWidth> parse(String s) {
            return LinkWidth.parse(s);
        }

        double scale(LinkWidth w) {
            return w.lanes();
        }
    }

    static final class Speed extends Degraded<LinkSpeed> {
        public String id() {
            return "link.speed";
        }

        LinkSpeed value(LinkInfo l) {
            return l.speed();
        }

        Optional<LinkSpeed> parse(String s) {
            return LinkSpeed.parse(s);
        }

        double scale(LinkSpeed s) {
            return s.dataGbpsPerLane();
        }
    }

    static final class Errors implements Rule {
        public String id() {
            return "link.errors";
        }

        private static final List<String> OTHER = List.of("PortRcvErrors", "PortRcvRemotePhysicalErrors",
                "LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors", "PortXmitDiscards");

        /** ibdiagnet2.db_csv column -> the perfquery counter name the thresholds use. */
        static final Map<String, String> PM_COLUMNS = Map.of(
                "port_symbol_error_counter", "SymbolErrorCounter",
                "port_link_downed_counter", "LinkDownedCounter",
                "port_link_error_recovery_counter", "LinkErrorRecoveryCounter",
                "port_rcv_errors", "PortRcvErrors",
                "port_rcv_remote_physical_errors", "PortRcvRemotePhysicalErrors",
                "port_xmit_discard", "PortXmitDiscards",
                "local_link_integrity_errors", "LocalLinkIntegrityErrors",
                "excessive_buffer_overrun_errors", "ExcessiveBufferOverrunErrors");

        /** PM_INFO rows of ibdiagnet2.db_csv for ports not already reported by ibqueryerrors/perfquery. */
        static List<PortCounters> fromIbdiagnet(Ctx c, Map<String, Boolean> seen) {
            List<PortCounters> out = new ArrayList<>();
            io.ibaccept.model.Ibdiagnet.Db db = c.data.fabric().diagDb();
            if (db == null || db.section("PM_INFO") == null) return out;
            Map<String, String> names = new java.util.HashMap<>();
            if (db.section("NODES") != null)
                for (var row : db.section("NODES").rows()) names.put(row.get("NodeGUID").toLowerCase(java.util.Locale.ROOT), row.get("NodeDesc"));
            for (var row : db.section("PM_INFO").rows()) {
                String guid = row.get("NodeGUID").toLowerCase(java.util.Locale.ROOT);
                String name = names.getOrDefault(guid, guid);
                int port;
                try {
                    port = Integer.parseInt(row.get("PortNumber").trim());
                } catch (NumberFormatException e) {
                    continue;
                }
                if (seen.containsKey(name + ":" + port)) continue;
                Map<String, Long> counters = new LinkedHashMap<>();
                PM_COLUMNS.forEach((col, counter) -> {
                    String v = row.get(col).trim();
                    if (v.matches("\\d+")) counters.put(counter, Long.parseLong(v));
                });
                seen.put(name + ":" + port, true);
                out.add(new PortCounters(0, name, -1, port, counters, row.ref()));
            }
            return out;
        }

        public void evaluate(Ctx c) {
            if (io.ibaccept.rules.counters.ErrorsWindowRule.judgesWindow(c.data)) {
                c.pass("the dump has a counter window: errors are judged on what changed during it (link.errors.window), not on the cumulative snapshot", List.of(), List.of());
                return;
            }
            List<PortCounters> recs = new ArrayList<>();
            Map<String, Boolean> seen = new LinkedHashMap<>();
            if (c.data.fabric().errorCounters() != null)
                for (PortCounters pc : c.data.fabric().errorCounters()) {
                    seen.put(pc.nodeName() + ":" + pc.port(), true);
                    recs.add(pc);
                }
            if (c.data.fabric().perfCounters() != null)
                for (PortCounters pc : c.data.fabric().perfCounters()) {
                    String name = c.index.nameOfLid(pc.lid()).orElse("lid " + pc.lid());
                    if (seen.containsKey(name + ":" + pc.port())) continue;
                    recs.add(new PortCounters(pc.nodeGuid(), name, pc.lid(), pc.port(), pc.counters(), pc.ref()));
                }
            recs.addAll(fromIbdiagnet(c, seen));
            if (c.data.fabric().errorCounters() == null && c.data.fabric().perfCounters() == null && c.data.fabric().diagDb() == null) {
                c.skip("neither ibqueryerrors, perfquery nor ibdiagnet2.db_csv output is usable" + c.inputs(null, "ibqueryerrors"));
                return;
            }
            double downMax = c.number("link_downed_max"), recMax = c.number("link_recovery_max");
            double symWarn = c.number("symbol_warn"), symFail = c.number("symbol_fail"), otherWarn = c.number("other_warn");
            int bad = 0;
            for (PortCounters pc : recs) {
                long down = pc.get("LinkDownedCounter"), rec = pc.get("LinkErrorRecoveryCounter"), sym = pc.get("SymbolErrorCounter");
                List<String> parts = new ArrayList<>();
                List<String> what = new ArrayList<>();
                Status st = null;
                if (down > downMax) {
                    parts.add("LinkDownedCounter=" + down);
                    what.add("flapping (went down " + down + " times)");
                    st = Status.FAIL;
                }
                if (rec > recMax) {
                    parts.add("LinkErrorRecoveryCounter=" + rec);
                    what.add("retraining (" + rec + " error recoveries)");
                    st = Status.FAIL;
                }
                if (sym > symWarn) {
                    parts.add("SymbolErrorCounter=" + sym);
                    what.add("seeing symbol errors");
                    if (sym > symFail) st = Status.FAIL;
                    else if (st == null) st = Status.WARN;
                }
                for (String o : OTHER) {
                    if (pc.get(o) > otherWarn) {
                        parts.add(o + "=" + pc.get(o));
                        if (st == null) st = Status.WARN;
                        if (what.isEmpty()) what.add("dropping or corrupting packets");
                    }
                }
                if (st == null) continue;
                bad++;
                String obj = pc.nodeName() + " port " + pc.port();
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("counters", String.join(", ", parts));
                v.put("a", obj);
                v.put("what", String.join(" and ", what));
                v.put("lid", pc.lid() > 0 ? String.valueOf(pc.lid())
                        : c.index.lidOfName(pc.nodeName()).map(String::valueOf).orElse("<lid of " + pc.nodeName() + ">"));
                v.put("port", pc.port());
                c.problem(st, List.of(obj), List.of(Evidence.of(String.join(" ", parts), pc.ref())),
                        obj + ": " + String.join(", ", parts), "", v);
            }
            if (bad == 0) c.pass("no port has error counters above thresholds (" + recs.size() + " port records read)", List.of(), List.of());
        }
    }
}
