package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/** P_Key tables of both ends of each host link, and partition membership across hosts. */
final class Pkey implements Check {
    public String id() {
        return "pkey";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.PKEYS));
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
