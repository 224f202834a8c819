package io.ibaccept.rules;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.Mlxlink;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Per-host checks and cross-host consistency checks. */
final class HostRules {
    private HostRules() {}

    static final class Memlock implements Rule {
        public String id() {
            return "memlock";
        }

        public void evaluate(Ctx c) {
            String min = c.text("min_kib");
            long minKib = min.equalsIgnoreCase("unlimited") ? Long.MAX_VALUE : (long) c.number("min_kib");
            int ok = 0;
            List<String> missing = new ArrayList<>();
            for (HostData h : c.data.hosts().values()) {
                Long kib = h.memlockKib();
                String src = Cmd.ULIMIT.path(h.host());
                if (kib == null && h.nativeProbe() != null && h.nativeProbe().containsKey("memlock_soft_kib")) {
                    String s = h.nativeProbe().get("memlock_soft_kib");
                    kib = s.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(s);
                    src = Cmd.NATIVE_PROBE.path(h.host());
                }
                if (kib == null) {
                    missing.add(h.host());
                    continue;
                }
                if (kib >= minKib) {
                    ok++;
                    continue;
                }
                String val = kib + " KiB";
                c.problem(Status.FAIL, List.of(h.host()), List.of(Evidence.of("ulimit -l: " + kib, src)),
                        h.host() + ": memlock limit " + val + " (required: " + min + ")", "", Map.of("host", h.host(), "value", val));
            }
            if (ok + missing.size() == c.data.hosts().size() && ok > 0)
                c.pass(ok + " host(s) have memlock " + min + (missing.isEmpty() ? "" : "; not collected on " + missing.size()), List.of(), List.of());
            if (ok == 0 && missing.size() == c.data.hosts().size())
                c.skip("ulimit -l not usable on any host" + (missing.isEmpty() ? "" : c.inputs(missing.get(0), Cmd.ULIMIT.fileName())));
        }
    }

    /** "Same value on every host" checks (OFED version, firmware per CA type, MTU). */
    private static void consistency(Ctx c, Map<String, String> byHost, Map<String, String> srcByHost, String what,
                                    Status status, Map<String, Object> extraVars) {
        if (byHost.isEmpty()) return;
        Map<String, List<String>> groups = Majority.groups(byHost);
        String majority = Majority.of(byHost.values(), Comparator.naturalOrder()).orElseThrow();
        if (groups.size() == 1) {
            c.pass("all " + byHost.size() + " host(s) " + what + " " + majority, List.of(), List.of());
            return;
        }
        String versions = groups.entrySet().stream().map(e -> e.getKey() + " on " + e.getValue().size())
                .collect(Collectors.joining(", "));
        for (Map.Entry<String, List<String>> g : groups.entrySet()) {
            if (g.getKey().equals(majority)) continue;
            List<Evidence> ev = new ArrayList<>();
            for (String h : g.getValue()) ev.add(Evidence.of(h + ": " + g.getKey(), srcByHost.get(h)));
            String first = groups.get(majority).get(0);
            ev.add(Evidence.of(first + ": " + majority + " (majority, " + groups.get(majority).size() + " hosts)", srcByHost.get(first)));
            Map<String, Object> v = new LinkedHashMap<>(extraVars);
            v.put("versions", versions);
            v.put("majority", majority);
            v.put("value", g.getKey());
            v.put("hosts", String.join(",", g.getValue()));
            c.problem(status, g.getValue(), ev, g.getValue().size() + " host(s) " + what + " " + g.getKey() + " instead of " + majority,
                    "", v);
        }
    }

    static final class Ofed implements Rule {
        public String id() {
            return "ofed";
        }

        public void evaluate(Ctx c) {
            Map<String, String> v = new TreeMap<>(), src = new TreeMap<>();
            for (HostData h : c.data.hosts().values())
                if (h.ofedVersion() != null) {
                    v.put(h.host(), h.ofedVersion());
                    src.put(h.host(), Cmd.OFED_INFO.path(h.host()));
                }
            if (v.isEmpty()) {
                c.skip("ofed_info not usable on any host");
                return;
            }
            consistency(c, v, src, "run", Status.FAIL, Map.of());
        }
    }

    static final class Firmware implements Rule {
        public String id() {
            return "firmware";
        }

        public void evaluate(Ctx c) {
            Map<String, Map<String, String>> byType = new TreeMap<>();
            Map<String, String> src = new TreeMap<>();
            for (HostData h : c.data.hosts().values()) {
                if (h.ibstat() == null) continue;
                for (Ibstat.Ca ca : h.ibstat()) {
                    if (ca.firmware().isEmpty()) continue;
                    byType.computeIfAbsent(ca.caType(), k -> new TreeMap<>()).putIfAbsent(h.host(), ca.firmware());
                    src.putIfAbsent(h.host(), ca.ref().toString());
                }
            }
            if (byType.isEmpty()) {
                c.skip("no firmware versions in ibstat output");
                return;
            }
            byType.forEach((type, m) -> consistency(c, m, src, "with " + type + " run firmware", Status.WARN, Map.of("ca_type", type)));
        }
    }

    static final class Pcie implements Rule {
        public String id() {
            return "pcie";
        }

        public void evaluate(Ctx c) {
            int checked = 0, bad = 0;
            for (HostData h : c.data.hosts().values()) {
                Mlxlink m = h.mlxlinkPcie();
                if (m == null || m.pcieGenActive() == null) continue;
                checked++;
                int ga = m.pcieGenActive(), ge = m.pcieGenEnabled() == null ? ga : m.pcieGenEnabled();
                int wa = m.pcieWidthActive() == null ? 0 : m.pcieWidthActive();
                int we = m.pcieWidthEnabled() == null ? wa : m.pcieWidthEnabled();
                if (ga >= ge && wa >= we) continue;
                bad++;
                String ca = h.ibstat() != null && !h.ibstat().isEmpty() ? h.ibstat().get(0).name() : "<dev>";
                Map<String, Object> v = Map.of("host", h.host(), "ca", ca, "gen_active", ga, "gen_enabled", ge,
                        "width_active", wa, "width_enabled", we);
                List<Evidence> ev = new ArrayList<>();
                ev.add(Evidence.of("Link Speed Active (Enabled): Gen " + ga + " (Gen " + ge + ")", m.ref("Link Speed Active (Enabled)")));
                if (m.ref("Link Width Active (Enabled)") != null)
                    ev.add(Evidence.of("Link Width Active (Enabled): " + wa + "X (" + we + "X)", m.ref("Link Width Active (Enabled)")));
                c.problem(Status.FAIL, List.of(h.host()), ev, h.host() + ": HCA PCIe at Gen" + ga + " x" + wa + ", capable of Gen" + ge + " x" + we, "", v);
            }
            if (checked == 0) c.skip("no 'mlxlink --port_type PCIE' output in the dump (collect with --mlxlink; needs MFT on the nodes)");
            else if (bad == 0) c.pass(checked + " HCA(s) run PCIe at their enabled generation and width", List.of(), List.of());
        }
    }

    static final class MlxlinkCheck implements Rule {
        public String id() {
            return "mlxlink";
        }

        public void evaluate(Ctx c) {
            double rawWarn = c.number("raw_ber_warn"), effFail = c.number("effective_ber_fail");
            int checked = 0, bad = 0;
            for (HostData h : c.data.hosts().values()) {
                Mlxlink m = h.mlxlink();
                if (m == null) continue;
                checked++;
                if (m.statusOpcode() != null && m.statusOpcode() != 0) {
                    bad++;
                    c.problem(Status.FAIL, List.of(h.host()),
                            List.of(Evidence.of("Status Opcode: " + m.statusOpcode(), m.ref("Status Opcode")),
                                    Evidence.of("Recommendation: " + m.recommendation(), m.ref("Recommendation"))),
                            h.host() + ": mlxlink troubleshooting status " + m.statusOpcode(), "",
                            Map.of("host", h.host(), "problem", "status opcode " + m.statusOpcode() + " (" + m.recommendation() + ")",
                                    "recommendation", m.recommendation() == null ? "" : m.recommendation()));
                }
                if (m.effectiveBer() != null && m.effectiveBer() > effFail) {
                    bad++;
                    c.problem(Status.FAIL, List.of(h.host()), List.of(Evidence.of("Effective Physical BER: " + m.effectiveBer(), m.ref("Effective Physical BER"))),
                            h.host() + ": effective (post-FEC) BER " + m.effectiveBer() + " above " + effFail, "",
                            Map.of("host", h.host(), "problem", "effective BER " + m.effectiveBer(),
                                    "recommendation", "Replace the cable/transceiver; post-FEC errors reach the application."));
                } else if (m.rawBer() != null && m.rawBer() > rawWarn) {
                    bad++;
                    c.problem(Status.WARN, List.of(h.host()), List.of(Evidence.of("Raw Physical BER: " + m.rawBer(), m.ref("Raw Physical BER"))),
                            h.host() + ": raw (pre-FEC) BER " + m.rawBer() + " above " + rawWarn, "",
                            Map.of("host", h.host(), "problem", "raw BER " + m.rawBer() + " (FEC still corrects it)",
                                    "recommendation", "Clean/reseat the connector and watch 'mlxlink -d <dev> -c' (Raw Physical Errors Per Lane); replace the cable if the BER keeps rising."));
                }
            }
            if (checked == 0) c.skip("no mlxlink output in the dump (collect with --mlxlink; needs MFT on the nodes)");
            else if (bad == 0) c.pass(checked + " host(s): mlxlink reports no issue, BER within limits", List.of(), List.of());
        }
    }

    static final class Ethtool implements Rule {
        public String id() {
            return "ethtool";
        }

        public void evaluate(Ctx c) {
            int checked = 0, bad = 0;
            for (HostData h : c.data.hosts().values()) {
                if (h.ethtool() == null) continue;
                checked++;
                List<String> errs = h.ethtool().entrySet().stream()
                        .filter(e -> e.getValue() > 0 && (e.getKey().contains("crc") || e.getKey().contains("symbol")
                                || e.getKey().contains("err") || e.getKey().contains("link_down")))
                        .map(e -> e.getKey() + "=" + e.getValue()).toList();
                if (errs.isEmpty()) continue;
                bad++;
                c.problem(Status.WARN, List.of(h.host()), List.of(Evidence.of(String.join(" ", errs), Cmd.ETHTOOL.path(h.host()))),
                        h.host() + ": " + String.join(", ", errs), "", Map.of("host", h.host(), "counters", String.join(", ", errs)));
            }
            if (checked == 0) c.skip("no 'ethtool -S' output in the dump (collect with --ethtool IFACE for RoCE/Ethernet ports)");
            else if (bad == 0) c.pass(checked + " host(s): no physical error counters", List.of(), List.of());
        }
    }

    static final class Pkey implements Rule {
        public String id() {
            return "pkey";
        }

        public void evaluate(Ctx c) {
            int compared = 0, bad = 0;
            Map<String, SortedSet<Integer>> sets = new TreeMap<>();
            for (HostData h : c.data.hosts().values()) {
                if (h.pkeys() == null) continue;
                sets.put(h.host(), h.pkeys());
                if (h.peerPkeys() == null) continue;
                compared++;
                Map<Integer, Integer> mine = base(h.pkeys()), peer = base(h.peerPkeys());
                String peerName = peerName(c, h);
                for (var side : List.of(true, false)) {
                    Map<Integer, Integer> from = side ? mine : peer, to = side ? peer : mine;
                    for (Map.Entry<Integer, Integer> e : from.entrySet()) {
                        if (to.containsKey(e.getKey())) continue;
                        bad++;
                        String present = side ? h.host() + " HCA" : peerName;
                        String missingSide = side ? peerName : h.host() + " HCA";
                        Map<String, Object> v = new LinkedHashMap<>();
                        v.put("pkey", String.format("0x%04x", e.getValue()));
                        v.put("pkey_base", String.format("%04x", e.getKey()));
                        v.put("present_side", present);
                        v.put("missing_side", missingSide);
                        v.put("guid", portGuid(h));
                        v.put("lid", c.index.lidOf(h.host()));
                        c.problem(Status.FAIL, List.of(h.host()),
                                List.of(Evidence.of(h.host() + " HCA P_Keys: " + hex(h.pkeys()), Cmd.PKEYS.path(h.host())),
                                        Evidence.of(peerName + " P_Keys: " + hex(h.peerPkeys()), Cmd.PEER_PKEYS.path(h.host()))),
                                h.host() + ": P_Key " + v.get("pkey") + " only on " + present, "", v);
                    }
                }
            }
            if (sets.isEmpty()) {
                c.skip("no usable 'smpquery pkeys' output");
                return;
            }
            // cross-host: every host should be in the same partitions
            Map<String, String> keys = new TreeMap<>();
            sets.forEach((h, s) -> keys.put(h, hex(s)));
            Map<String, List<String>> groups = Majority.groups(keys);
            if (groups.size() > 1) {
                String majority = Majority.of(keys.values(), Comparator.naturalOrder()).orElseThrow();
                for (var g : groups.entrySet()) {
                    if (g.getKey().equals(majority)) continue;
                    for (String host : g.getValue()) {
                        bad++;
                        c.problem(Status.WARN, List.of(host), List.of(Evidence.of(host + ": " + g.getKey(), Cmd.PKEYS.path(host))),
                                host + " is in partitions " + g.getKey() + ", most hosts " + majority, "majority",
                                Map.of("host", host, "keys", g.getKey(), "majority", majority));
                    }
                }
            }
            if (bad == 0) c.pass(sets.size() + " host(s) share P_Keys " + keys.values().iterator().next()
                    + (compared > 0 ? "; both link ends match on " + compared : "; switch-side tables not collected"), List.of(), List.of());
        }

        private static String peerName(Ctx c, HostData h) {
            if (h.ibstat() != null)
                for (Ibstat.Ca ca : h.ibstat())
                    for (Ibstat.Port p : ca.ports()) {
                        Optional<LinkInfo> peer = c.index.peerOf(p.portGuid());
                        if (peer.isPresent()) return peer.get().nodeName() + " port " + peer.get().port();
                    }
            return "switch port facing " + h.host();
        }

        private static String portGuid(HostData h) {
            if (h.ibstat() == null || h.ibstat().isEmpty() || h.ibstat().get(0).ports().isEmpty()) return "<port guid>";
            return String.format("0x%016x", h.ibstat().get(0).ports().get(0).portGuid());
        }

        private static Map<Integer, Integer> base(SortedSet<Integer> keys) {
            return keys.stream().collect(Collectors.toMap(k -> k & 0x7fff, Function.identity(), (a, b) -> a | b, TreeMap::new));
        }

        private static String hex(SortedSet<Integer> keys) {
            return keys.stream().map(k -> String.format("0x%04x", k)).collect(Collectors.joining(" "));
        }
    }

    static final class Mtu implements Rule {
        public String id() {
            return "mtu";
        }

        public void evaluate(Ctx c) {
            Map<String, String> v = new TreeMap<>(), src = new TreeMap<>();
            for (HostData h : c.data.hosts().values())
                if (h.portInfo() != null && h.portInfo().neighborMtu() > 0) {
                    v.put(h.host(), String.valueOf(h.portInfo().neighborMtu()));
                    src.put(h.host(), h.portInfo().ref().toString());
                }
            c.data.perftests().forEach(r -> {
                if (r.result() != null && r.result().mtu() > 0 && !v.containsKey(r.client())) {
                    v.put(r.client(), String.valueOf(r.result().mtu()));
                    src.put(r.client(), r.file());
                }
            });
            if (v.isEmpty()) {
                c.skip("no MTU information (smpquery portinfo NeighborMTU or perftest Mtu)");
                return;
            }
            consistency(c, v, src, "use MTU", Status.FAIL, Map.of());
        }
    }
}
