package io.ibaccept.fabric;

import io.ibaccept.fabric.Fabric.End;
import io.ibaccept.fabric.Fabric.Link;
import io.ibaccept.fabric.Issue.Fact;
import io.ibaccept.parse.SourceRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The fabric as cabled against the customer's plan: planned cables that are missing, cables the plan does not have,
 * and miswired ones. Cables that are wrong together (two swapped cables, a chain of moves) are one issue with the
 * moves to make; a planned switch that is absent is one issue, not one per cable. Plus the work order for the
 * data-centre technician. Pure and linear in plan + fabric size.
 */
public final class PlanDiff {
    private PlanDiff() {}

    /** One line of the work order: action is connect, disconnect, swap, reseat or check. */
    public record Work(int step, String action, String a, int aPort, String b, int bPort, String cableId, String reason) {}

    /** missing: the planned cables that are not there (ends in the fabric), for drawing them. */
    public record Result(int planned, int matched, List<Issue> issues, List<Work> workOrder, List<CablingPlan.Problem> planProblems,
                         List<End[]> missing) {}

    /** Each planned end resolved in the fabric -> its planned peer (both directions); unresolved names are left out. */
    public static Map<End, End> plannedPeers(Fabric f, CablingPlan plan) {
        Resolver names = new Resolver(f);
        Map<End, End> m = new HashMap<>();
        for (CablingPlan.Cable c : plan.cables()) {
            Long a = names.resolve(c.a(), c.b(), c.bPort()), b = names.resolve(c.b(), c.a(), c.aPort());
            if (a == null || b == null) continue;
            m.putIfAbsent(new End(a, c.aPort()), new End(b, c.bPort()));
            m.putIfAbsent(new End(b, c.bPort()), new End(a, c.aPort()));
        }
        return m;
    }

    public static Result compare(Fabric f, CablingPlan plan) {
        Resolver names = new Resolver(f);
        Map<End, End> planPeer = new LinkedHashMap<>();
        Map<End, CablingPlan.Cable> planCable = new HashMap<>();
        Map<String, List<CablingPlan.Cable>> absentNodes = new LinkedHashMap<>();
        List<CablingPlan.Problem> problems = new ArrayList<>(plan.problems());
        Set<Long> planNodes = new java.util.HashSet<>();
        for (CablingPlan.Cable c : plan.cables()) {
            Long a = names.resolve(c.a(), c.b(), c.bPort()), b = names.resolve(c.b(), c.a(), c.aPort());
            if (a == null || b == null) {
                // each end on its own: a host with several HCAs is in the fabric (the plan must say which HCA), not missing
                for (String end : a == null && b == null ? List.of(c.a(), c.b()) : List.of(a == null ? c.a() : c.b()))
                    if (!names.severalHcas.contains(end.trim())) absentNodes.computeIfAbsent(end, k -> new ArrayList<>()).add(c);
                continue;
            }
            End ea = new End(a, c.aPort()), eb = new End(b, c.bPort());
            if (planPeer.containsKey(ea) || planPeer.containsKey(eb)) {
                problems.add(new CablingPlan.Problem(c.ref(), "port planned twice: " + (planPeer.containsKey(ea) ? f.name(ea) : f.name(eb))));
                continue;
            }
            planPeer.put(ea, eb);
            planPeer.put(eb, ea);
            planCable.put(ea, c);
            planCable.put(eb, c);
            planNodes.add(a);
            planNodes.add(b);
        }
        for (String n : names.ambiguous) problems.add(new CablingPlan.Problem(SourceRef.file(plan.source()), "'" + n + "' names several nodes; use GUIDs"));
        for (String n : names.severalHcas)
            problems.add(new CablingPlan.Problem(SourceRef.file(plan.source()), "ambiguous: '" + n + "' has " + names.hostNames.get(n).size()
                    + " HCAs in the fabric and the planned port has none of them; name the HCA ('" + f.name(names.hostNames.get(n).get(0)) + "') or its GUID"));

        List<Issue> issues = new ArrayList<>();
        List<Work> work = new ArrayList<>();
        absentNodes.forEach((name, cables) -> {
            String list = cables.stream().limit(6).map(c -> c.a() + " port " + c.aPort() + " <-> " + c.b() + " port " + c.bPort())
                    .collect(Collectors.joining(", ")) + (cables.size() > 6 ? ", ..." : "");
            issues.add(new Issue("node_missing", true, List.of(name),
                    name + " is in the cabling plan but not in the fabric: its " + cables.size() + " planned cable(s) are absent (" + list + ")",
                    cables.stream().limit(6).map(c -> new Fact("plan: " + c.a() + " port " + c.aPort() + " <-> " + c.b() + " port " + c.bPort(), c.ref())).toList(),
                    Map.of("node", name, "count", String.valueOf(cables.size()))));
            work.add(new Work(0, "check", name, 0, "", 0, "", "not in the fabric: power, management link, or a different name/GUID in the plan"));
        });

        // union-find over the ends of every cable that is not where the plan wants it
        Map<End, End> parent = new HashMap<>();
        List<Link> wrongActual = new ArrayList<>();
        Set<String> seenPlan = new java.util.HashSet<>();
        List<End[]> wrongPlanned = new ArrayList<>();
        int matched = 0;
        for (Map.Entry<End, End> e : planPeer.entrySet()) {
            End a = e.getKey(), b = e.getValue();
            if (a.compareTo(b) > 0 || !seenPlan.add(a + "|" + b)) continue;
            Link l = f.linkAt(a).orElse(null);
            if (l != null && l.other(a).equals(b)) {
                matched++;
                continue;
            }
            wrongPlanned.add(new End[] {a, b});
            union(parent, a, b);
        }
        List<Link> extra = new ArrayList<>();
        for (Link l : f.links()) {
            End a = l.a(), b = l.b();
            boolean pa = planPeer.containsKey(a), pb = planPeer.containsKey(b);
            if (pa && planPeer.get(a).equals(b)) continue;
            if (pa || pb) {
                wrongActual.add(l);
                union(parent, a, b);
            } else if (planNodes.contains(a.guid()) && planNodes.contains(b.guid()) && f.isSwitchToSwitch(l)) {
                extra.add(l);
            }
        }
        Map<End, List<End[]>> plannedByRoot = new LinkedHashMap<>();
        for (End[] p : wrongPlanned) plannedByRoot.computeIfAbsent(find(parent, p[0]), k -> new ArrayList<>()).add(p);
        Map<End, List<Link>> actualByRoot = new LinkedHashMap<>();
        for (Link l : wrongActual) actualByRoot.computeIfAbsent(find(parent, l.a()), k -> new ArrayList<>()).add(l);
        Set<End> roots = new LinkedHashSet<>(plannedByRoot.keySet());
        roots.addAll(actualByRoot.keySet());
        List<End[]> missingCables = new ArrayList<>();
        for (End root : roots) {
            List<End[]> planned = plannedByRoot.getOrDefault(root, List.of());
            List<Link> actual = actualByRoot.getOrDefault(root, List.of());
            if (actual.isEmpty()) for (End[] p : planned) {
                missing(f, p, planCable.get(p[0]), issues, work);
                missingCables.add(p);
            }
            else if (planned.isEmpty()) for (Link l : actual) extra(f, l, issues, work);
            else miswired(f, planned, actual, planPeer, planCable, issues, work);
        }
        for (Link l : extra) extra(f, l, issues, work);
        List<Work> numbered = new ArrayList<>();
        for (Work w : work) numbered.add(new Work(numbered.size() + 1, w.action(), w.a(), w.aPort(), w.b(), w.bPort(), w.cableId(), w.reason()));
        return new Result(seenPlan.size() + absentNodes.values().stream().mapToInt(List::size).sum(), matched, issues, numbered, problems, missingCables);
    }

    private static void missing(Fabric f, End[] p, CablingPlan.Cable c, List<Issue> issues, List<Work> work) {
        End a = ordered(f, p[0], p[1]), b = a.equals(p[0]) ? p[1] : p[0];
        String cable = c.cableId().isEmpty() ? "" : " (cable " + c.cableId() + ")";
        String summary = f.name(a) + " <-> " + f.name(b) + cable + " is not connected: " + f.name(a) + " " + FatTree.portState(f, a)
                + ", " + f.name(b) + " " + FatTree.portState(f, b);
        List<Fact> facts = new ArrayList<>(List.of(new Fact("plan: " + f.name(a) + " <-> " + f.name(b) + cable, c.ref()), FatTree.portFact(f, a), FatTree.portFact(f, b)));
        issues.add(new Issue("missing", true, List.of(f.name(a), f.name(b)), summary, facts,
                Map.of("a", f.name(a), "b", f.name(b), "cable", c.cableId())));
        work.add(new Work(0, "connect", f.name(a.guid()), a.port(), f.name(b.guid()), b.port(), c.cableId(),
                "planned cable missing or down: reseat/replace it"));
    }

    private static void extra(Fabric f, Link l, List<Issue> issues, List<Work> work) {
        End a = ordered(f, l.a(), l.b()), b = l.other(a);
        issues.add(new Issue("extra", false, List.of(f.name(a), f.name(b)), f.name(a) + " <-> " + f.name(b) + " is cabled but not in the plan",
                l.refs().stream().limit(2).map(r -> new Fact(f.name(l) + " " + l.rate(), r)).toList(), Map.of("a", f.name(a), "b", f.name(b), "cable", "")));
        work.add(new Work(0, "disconnect", f.name(a.guid()), a.port(), f.name(b.guid()), b.port(), "", "not in the cabling plan"));
    }

    private static void miswired(Fabric f, List<End[]> planned, List<Link> actual, Map<End, End> planPeer,
                                 Map<End, CablingPlan.Cable> planCable, List<Issue> issues, List<Work> work) {
        List<String> says = new ArrayList<>();
        List<String> objects = new ArrayList<>();
        List<Fact> facts = new ArrayList<>();
        for (Link l : actual) {
            End x = ordered(f, l.a(), l.b()), y = l.other(x);
            if (!planPeer.containsKey(x)) {
                End t = x;
                x = y;
                y = t;
            }
            End z = planPeer.get(x);
            says.add(f.name(x) + " goes to " + f.name(y) + (z == null ? ", which the plan does not have" : ", plan says " + f.name(z)));
            objects.add(f.name(x));
            for (SourceRef r : l.refs().subList(0, Math.min(2, l.refs().size()))) facts.add(new Fact(f.name(l) + " " + l.rate(), r));
            if (z != null) facts.add(new Fact("plan: " + f.name(x) + " <-> " + f.name(z), planCable.get(x).ref()));
        }
        String move;
        End[] swap = actual.size() == 2 && planned.size() == 2 ? swapPair(f, actual, planPeer) : null;
        if (swap != null) {
            move = "swap the cables at " + f.name(swap[0]) + " and " + f.name(swap[1]);
            work.add(new Work(0, "swap", f.name(swap[0].guid()), swap[0].port(), f.name(swap[1].guid()), swap[1].port(),
                    cableIds(planned, planCable), String.join("; ", says)));
        } else {
            List<String> moves = new ArrayList<>();
            for (Link l : actual) {
                End a = ordered(f, l.a(), l.b()), b = l.other(a);
                moves.add("disconnect " + f.name(a) + " <-> " + f.name(b));
                work.add(new Work(0, "disconnect", f.name(a.guid()), a.port(), f.name(b.guid()), b.port(), "", "miswired"));
            }
            for (End[] p : planned) {
                End a = ordered(f, p[0], p[1]), b = a.equals(p[0]) ? p[1] : p[0];
                moves.add("connect " + f.name(a) + " <-> " + f.name(b));
                work.add(new Work(0, "connect", f.name(a.guid()), a.port(), f.name(b.guid()), b.port(), planCable.get(a).cableId(), "as planned"));
            }
            move = String.join(", then ", moves);
        }
        // the switches the wrong cables land on: a ratio over its limit there may come from them
        java.util.Set<String> at = new java.util.TreeSet<>();
        for (Link l : actual)
            for (End e : new End[] {l.a(), l.b()}) if (f.node(e.guid()) != null && f.node(e.guid()).isSwitch()) at.add(f.name(e.guid()));
        issues.add(new Issue("miswired", true, objects, String.join("; ", says), facts, Map.of("move", move,
                "a", objects.get(0), "b", objects.size() > 1 ? objects.get(1) : "", "cable", cableIds(planned, planCable),
                "switches", String.join("|", at))));
    }

    /** For two crossed cables: the two ends on one switch whose cables should trade places, or null. */
    private static End[] swapPair(Fabric f, List<Link> actual, Map<End, End> planPeer) {
        Link l1 = actual.get(0), l2 = actual.get(1);
        for (End x1 : new End[] {l1.a(), l1.b()})
            for (End x2 : new End[] {l2.a(), l2.b()}) {
                // swapping the plugs at x1 and x2 gives x1 the peer of x2 and vice versa
                End y1 = l1.other(x1), y2 = l2.other(x2);
                if (y2.equals(planPeer.get(x1)) && y1.equals(planPeer.get(x2))) {
                    // swapping at either pair of ends is the same fix; the pair on one switch is one trip for the technician
                    if (x1.guid() != x2.guid() && y1.guid() == y2.guid()) return sorted(y1, y2);
                    return sorted(x1, x2);
                }
            }
        return null;
    }

    private static End[] sorted(End a, End b) {
        return a.compareTo(b) <= 0 ? new End[] {a, b} : new End[] {b, a};
    }

    private static String cableIds(List<End[]> planned, Map<End, CablingPlan.Cable> planCable) {
        return planned.stream().map(p -> planCable.get(p[0]).cableId()).filter(s -> !s.isEmpty()).collect(Collectors.joining(" "));
    }

    /** The end on the lower level first (leaf before spine), so sentences read from the leaf. */
    private static End ordered(Fabric f, End a, End b) {
        Fabric.Node na = f.node(a.guid()), nb = f.node(b.guid());
        int la = na == null ? 99 : na.isSwitch() ? na.level() : 0, lb = nb == null ? 99 : nb.isSwitch() ? nb.level() : 0;
        if (la != lb) return la < lb ? a : b;
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static End find(Map<End, End> parent, End e) {
        End r = e;
        while (parent.containsKey(r) && !parent.get(r).equals(r)) r = parent.get(r);
        End c = e;
        while (!c.equals(r)) {
            End next = parent.get(c);
            parent.put(c, r);
            c = next;
        }
        return r;
    }

    private static void union(Map<End, End> parent, End a, End b) {
        parent.putIfAbsent(a, a);
        parent.putIfAbsent(b, b);
        End ra = find(parent, a), rb = find(parent, b);
        if (!ra.equals(rb)) parent.put(ra, rb);
    }

    /**
     * Plan names to fabric nodes: GUID, name or node description, a CA's host name ("node01" for "node01 HCA-1"), or a
     * switch's short name as customers write it ("sw-leaf02" for "MF0;sw-leaf02:MQM8790/U1"; a chassis ASIC as
     * "core01/L03"). A host name with several HCAs is resolved by the planned peer port when one of them is cabled
     * there; otherwise it is ambiguous and the plan must name the HCA.
     */
    static final class Resolver {
        private static final java.util.regex.Pattern SHORT = java.util.regex.Pattern.compile("^(?:[A-Za-z0-9]+;)?([^;:]+):[^/]*(?:/([^/]+))?(?:/.*)?$");
        final Fabric f;
        final Map<String, Long> cache = new HashMap<>();
        final Map<String, List<Long>> hostNames = new HashMap<>();
        final Map<String, List<Long>> shortNames = new HashMap<>();
        final Set<String> ambiguous = new LinkedHashSet<>();
        final Set<String> severalHcas = new LinkedHashSet<>();

        Resolver(Fabric f) {
            this.f = f;
            for (Fabric.Node n : f.cas()) {
                int sp = n.name().indexOf(' ');
                if (sp > 0) hostNames.computeIfAbsent(n.name().substring(0, sp), k -> new ArrayList<>()).add(n.guid());
            }
            for (Fabric.Node n : f.switches()) {
                java.util.regex.Matcher m = SHORT.matcher(n.description());
                if (!m.matches()) continue;
                shortNames.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(n.guid());
                if (m.group(2) != null && !m.group(2).startsWith("U")) shortNames.computeIfAbsent(m.group(1) + "/" + m.group(2), k -> new ArrayList<>()).add(n.guid());
            }
        }

        Long resolve(String name) {
            if (cache.containsKey(name)) return cache.get(name);
            Long r = null;
            String t = name.trim();
            if (t.matches("(?i)0x[0-9a-f]{1,16}")) {
                long g = Long.parseUnsignedLong(t.substring(2), 16);
                if (f.node(g) != null) r = g;
                else for (Fabric.Node n : f.cas()) if (n.guid() == g) r = g; // port GUIDs of CAs are keyed by node GUID already
            } else {
                List<Fabric.Node> ns = f.byName(t);
                if (ns.size() == 1) r = ns.get(0).guid();
                else if (ns.size() > 1) ambiguous.add(t);
                else {
                    List<Long> hs = hostNames.getOrDefault(t, List.of()), ss = shortNames.getOrDefault(t, List.of());
                    if (hs.size() == 1) r = hs.get(0);
                    else if (hs.isEmpty() && ss.size() == 1) r = ss.get(0);
                    else if (hs.isEmpty() && ss.size() > 1) ambiguous.add(t);
                }
            }
            cache.put(name, r);
            return r;
        }

        /** The node an end of a planned cable names, using the other end where a host name has several HCAs. */
        Long resolve(String name, String peer, int peerPort) {
            Long r = resolve(name);
            List<Long> hcas = hostNames.getOrDefault(name.trim(), List.of());
            if (r != null || hcas.size() < 2) return r;
            Long p = resolve(peer);
            if (p != null) {
                Optional<Fabric.Link> l = f.linkAt(new End(p, peerPort));
                if (l.isPresent()) {
                    long other = l.get().other(l.get().endAt(p)).guid();
                    if (hcas.contains(other)) return other;
                }
            }
            severalHcas.add(name.trim());
            return null;
        }
    }
}
