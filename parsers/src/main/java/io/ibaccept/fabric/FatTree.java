package io.ibaccept.fabric;

import io.ibaccept.fabric.Fabric.End;
import io.ibaccept.fabric.Fabric.Link;
import io.ibaccept.fabric.Fabric.Node;
import io.ibaccept.fabric.Issue.Fact;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Fat-tree validation of a {@link Fabric}, the checks of {@code ibdiagnet --ft} plus the blocking ratio: levels
 * consistent, no links inside a level, no host on a spine, every leaf reaches every top switch, uplinks per leaf
 * equal and spread evenly, hosts per leaf balanced, switch count as expected, downlink/uplink rate per leaf and spine.
 * One fault gives one issue: a leaf that lost uplinks is one "uplinks.lost" issue naming the ports, not also an
 * uneven-uplink and a blocking one; leaves with the same shortfall (a dead spine) are one issue.
 * Linear in the fabric size except leaf-to-top reachability in trees of 3+ levels (bitsets over the top switches).
 */
public final class FatTree {
    private FatTree() {}

    /**
     * expectedSwitches 0 = not checked; maxRatio = allowed downlink/uplink rate (1.0 = 1:1); hostTolerance = hosts a
     * leaf may differ from the usual count; ratioDeclared: the ratio is the design (an acceptance contract or a ratio
     * above 1:1 set), so over it is a fault, never "oversubscribed by design?".
     */
    public record Settings(int expectedSwitches, double maxRatio, int hostTolerance, CablingPlan plan, boolean ratioDeclared,
                           Map<Integer, Double> ratioByLevel) {
        public Settings {
            ratioByLevel = ratioByLevel == null ? Map.of() : Map.copyOf(ratioByLevel);
        }

        public Settings(int expectedSwitches, double maxRatio, int hostTolerance, CablingPlan plan, boolean ratioDeclared) {
            this(expectedSwitches, maxRatio, hostTolerance, plan, ratioDeclared, Map.of());
        }

        public Settings(int expectedSwitches, double maxRatio, int hostTolerance, CablingPlan plan) {
            this(expectedSwitches, maxRatio, hostTolerance, plan, maxRatio > 1.0001);
        }

        /** The ratio allowed at a switch level (1 = leaves): the one declared for that level, else maxRatio. */
        public double maxRatio(int level) {
            return ratioByLevel.getOrDefault(level, maxRatio);
        }

        public Settings(int expectedSwitches, double maxRatio, int hostTolerance) {
            this(expectedSwitches, maxRatio, hostTolerance, null);
        }

        public static Settings defaults() {
            return new Settings(0, 1.0, 1);
        }
    }

    /** What one leaf (or spine with uplinks) carries: active downlinks and uplinks, and their data rates. */
    public record Load(Node sw, List<Link> down, List<Link> up, double downGbps, double upGbps) {
        public double ratio() {
            return upGbps == 0 ? Double.POSITIVE_INFINITY : downGbps / upGbps;
        }
    }

    /**
     * tree: structural issues (check fabric.tree); blocking: ratio and lost-uplink issues (check fabric.blocking).
     * bisectionGbps: half the smallest aggregate capacity between two adjacent levels (hosts to leaves included).
     */
    public record Result(int levels, List<Node> leaves, List<Node> tops, List<Load> loads, List<Issue> tree,
                         List<Issue> blocking, double bisectionGbps) {}

    public static Result validate(Fabric f, Settings s) {
        List<Issue> tree = new ArrayList<>(), blocking = new ArrayList<>();
        List<Node> switches = f.switches();
        int levels = f.maxLevel();
        List<Node> leaves = f.atLevel(1);
        List<Node> tops = levels >= 2 ? f.atLevel(levels) : List.of();

        if (s.expectedSwitches() > 0 && switches.size() != s.expectedSwitches()) {
            Map<Integer, Long> perLevel = new TreeMap<>();
            for (Node n : switches) perLevel.merge(n.level(), 1L, Long::sum);
            tree.add(new Issue("switch_count", true, List.of("fabric"),
                    switches.size() + " switches in the fabric, expected " + s.expectedSwitches() + " (per level: " + levelNames(perLevel) + ")",
                    List.of(), Map.of("found", String.valueOf(switches.size()), "expected", String.valueOf(s.expectedSwitches()))));
        }
        for (Node n : switches)
            if (n.level() < 0)
                tree.add(new Issue("unleveled", true, List.of(n.name()), n.name() + " is not connected to any leaf over an active link",
                        List.of(new Fact(n.name() + " (lid " + n.lid() + ")", n.ref())), Map.of("switch", n.name())));

        Map<Long, Load> loads = new LinkedHashMap<>();
        for (Node n : switches) if (n.level() >= 1) loads.put(n.guid(), load(f, n));

        // links inside a level and hosts on a spine
        for (Link l : f.links()) {
            if (!l.isUp()) continue;
            Node a = f.node(l.a().guid()), b = f.node(l.b().guid());
            if (a == null || b == null) continue;
            // without a spine level (two leaves back to back, a ring) there is no tree whose levels a cable could cross
            if (levels >= 2 && f.isSwitchToSwitch(l) && a.level() == b.level() && a.level() > 0)
                tree.add(new Issue("intralevel", true, List.of(f.name(l.a()), f.name(l.b())),
                        f.name(l) + " connects two level-" + a.level() + " switches (" + plural(levelName(a.level())) + ")", facts(f, l),
                        Map.of("a", f.name(l.a()), "b", f.name(l.b()))));
            Node sw = !f.isHostLink(l) ? null : a.isSwitch() ? a : b;
            if (sw != null && sw.level() >= 2) {
                Node host = sw == a ? b : a;
                End at = l.endAt(sw.guid());
                tree.add(new Issue("host_on_spine", true, List.of(host.name(), f.name(at)),
                        host.name() + " is cabled to " + f.name(at) + ", a level-" + sw.level() + " switch (" + levelName(sw.level()) + ")",
                        facts(f, l), Map.of("host", host.name(), "port", f.name(at), "switch", sw.name())));
            }
        }

        // per leaf: uplinks compared with the peers
        Map<Long, Integer> upCount = new HashMap<>();
        Map<Long, Map<Long, Integer>> perUpper = new HashMap<>();
        Map<Integer, Integer> portUse = new HashMap<>();
        for (Node leaf : leaves) {
            Load ld = loads.get(leaf.guid());
            upCount.put(leaf.guid(), ld.up().size());
            Map<Long, Integer> m = new TreeMap<>();
            for (Link l : ld.up()) {
                m.merge(l.other(l.endAt(leaf.guid())).guid(), 1, Integer::sum);
                portUse.merge(l.endAt(leaf.guid()).port(), 1, Integer::sum);
            }
            perUpper.put(leaf.guid(), m);
        }
        // leaves are compared with the leaves of their own class: their group (scalable unit or plane: a unit reaches its
        // own spines), and within it their name family (a management leaf "MLG01-01" cabled to a unit's spines is no
        // peer of its compute leaves "LG01-01")
        Map<Long, String> classOf = peerClasses(leaves, upCount);
        Map<String, List<Integer>> upByClass = new HashMap<>();
        for (Node leaf : leaves)
            if (upCount.get(leaf.guid()) > 0) upByClass.computeIfAbsent(classOf.get(leaf.guid()), k -> new ArrayList<>()).add(upCount.get(leaf.guid()));
        Map<String, Integer> usualUpOf = new HashMap<>();
        upByClass.forEach((g, counts) -> usualUpOf.put(g, mode(counts)));
        int usualUp = mode(upCount.values());
        // per spine: the usual number of uplinks from the leaves that use it (pods of 3-level trees see only their spines)
        Map<Long, List<Integer>> perSpine = new HashMap<>();
        for (Node leaf : leaves)
            perUpper.get(leaf.guid()).forEach((sp, c) -> perSpine.computeIfAbsent(sp, k -> new ArrayList<>()).add(c));
        Map<Long, Integer> usualPerUpper = new TreeMap<>();
        perSpine.forEach((sp, counts) -> usualPerUpper.put(sp, mode(counts)));
        Map<End, End> planned = s.plan() == null ? Map.of() : PlanDiff.plannedPeers(f, s.plan());
        TreeSet<Integer> peerUplinkPorts = new TreeSet<>();
        portUse.forEach((p, c) -> {
            if (c * 2 > leaves.size()) peerUplinkPorts.add(p);
        });
        Map<String, List<Node>> ratioGroups = new LinkedHashMap<>();
        java.util.Set<String> unevenLeaves = new java.util.HashSet<>(), judgedAlone = new java.util.HashSet<>();
        // groups where a leaf has fewer uplinks than its peers: there, a leaf with more may hold the moved cables
        java.util.Set<String> groupsShort = new java.util.HashSet<>();
        for (Node leaf : leaves) {
            int up = loads.get(leaf.guid()).up().size();
            // a leaf cut off from every spine is a group of its own: its cables may be anywhere, so every group counts
            if (up == 0) groupsShort.addAll(usualUpOf.keySet());
            Integer usual = usualUpOf.get(classOf.get(leaf.guid()));
            if (up > 0 && usual != null && up < usual) groupsShort.add(classOf.get(leaf.guid()));
        }
        for (Node leaf : leaves) {
            Load ld = loads.get(leaf.guid());
            int up = ld.up().size();
            Map<Long, Integer> mine = perUpper.get(leaf.guid());
            // a leaf cut off from every spine is a group of its own: it is compared with the whole fabric; a leaf with no
            // peer in its class (a unit of one leaf, the one management leaf on a unit's spines) is judged by its ratio
            String cls = classOf.get(leaf.guid());
            boolean alone = up > 0 && upByClass.get(cls).size() < 2;
            if (alone) judgedAlone.add(leaf.name());
            int usualHere = up == 0 ? usualUp : alone ? up : usualUpOf.get(cls);
            if (levels >= 2 && up < usualHere) {
                Map<Long, Integer> usualInGroup = new TreeMap<>();
                usualPerUpper.forEach((sp, n) -> {
                    if (f.node(sp).group() == leaf.group()) usualInGroup.put(sp, n);
                });
                blocking.add(lostUplinks(f, leaf, ld, usualHere, mine, usualInGroup, peerUplinkPorts, planned, s));
                continue;
            }
            // more uplinks than the majority is no fault by itself (a bigger leaf, a storage leaf, spare capacity): worth a
            // look only where another leaf of the group lacks uplinks, as cables moved from it
            if (levels >= 2 && up > usualHere && leaves.size() > 2 && groupsShort.contains(cls))
                tree.add(new Issue("uplinks_count", false, List.of(leaf.name()),
                        leaf.name() + " has " + up + " uplinks, the other leaves usually " + usualHere + " (" + countsOf(leaves, upCount) + ")",
                        ld.up().stream().limit(8).map(l -> fact(f, l, leaf)).toList(),
                        Map.of("leaf", leaf.name(), "count", String.valueOf(up), "usual", String.valueOf(usualHere))));
            // in a 2-level tree every leaf should use every spine; deeper trees are judged by reachability only
            Map<Long, Integer> counts = new TreeMap<>(mine);
            if (levels == 2) for (Node sp : tops) if (sp.group() == leaf.group()) counts.putIfAbsent(sp.guid(), 0);
            if (counts.size() > 1) {
                int min = counts.values().stream().min(Integer::compare).orElse(0), max = counts.values().stream().max(Integer::compare).orElse(0);
                if (max - min > 1) {
                    tree.add(new Issue("uplinks_spread", true, List.of(leaf.name()),
                            leaf.name() + " spreads its " + up + " uplinks unevenly: " + spread(f, counts),
                            ld.up().stream().limit(8).map(l -> fact(f, l, leaf)).toList(),
                            Map.of("leaf", leaf.name(), "spread", spread(f, counts))));
                    unevenLeaves.add(leaf.name());
                }
            }
            if (levels >= 2 && ld.ratio() > s.maxRatio(1) * 1.0001 && !ld.down().isEmpty())
                // leaves short of the same uplink capacity are one finding (a dead spine), whatever their hosts run at
                ratioGroups.computeIfAbsent(leaf.family() + "/" + ld.up().size() + "/" + Math.round(ld.upGbps()), k -> new ArrayList<>()).add(leaf);
        }
        // most leaves with their full uplinks over the ratio alike: the fabric is built that way (2:1, 1.5:1), a design to
        // declare, not cables to add; a minority over it lacks capacity its peers have. Only while no ratio is declared:
        // a declared one is the design, and above it is a fault
        // (counted per name family: leaves named alike are built alike)
        Map<String, Long> fullOf = leaves.stream().filter(l -> !loads.get(l.guid()).down().isEmpty() && !loads.get(l.guid()).up().isEmpty()
                && loads.get(l.guid()).up().size() >= usualUpOf.getOrDefault(classOf.get(l.guid()), usualUp))
                .collect(Collectors.groupingBy(Node::family, Collectors.counting()));
        boolean ratioDeclared = s.ratioDeclared();
        boolean portStatesKnown = f.links().stream().anyMatch(l -> !l.state().isEmpty());
        // hosts per leaf first: a leaf over the ratio only by a host moved onto it is explained by that move
        java.util.Set<Long> movedOnto = hostCounts(f, leaves, loads, s, tree);
        ratioGroups.values().forEach(group -> {
            long full = fullOf.getOrDefault(group.get(0).family(), 0L);
            boolean design = !ratioDeclared && group.size() * 2 > full && group.size() > 1
                    // a leaf with no peer in its class has no peers' uplink ports to lose: its free ports are no evidence
                    && group.stream().noneMatch(l -> loads.get(l.guid()).up().isEmpty()
                            || !judgedAlone.contains(l.name()) && downAmongUplinks(f, loads.get(l.guid())));
            if (!design) {
                blocking.add(movedHosts(ratioIssue(f, group, loads, s, planned, "leaf", group.size() == leaves.size(), -1, portStatesKnown,
                        s.maxRatio(1), ""), group, movedOnto));
                return;
            }
            // built that way: the leaves with about the usual host count are the design found; a leaf above them by more
            // hosts than the tolerance, or by hosts moved onto it, differs from its peers
            int usualDown = mode(group.stream().map(l -> loads.get(l.guid()).down().size()).toList());
            java.util.function.Predicate<Node> apart = l -> movedOnto.contains(l.guid()) || loads.get(l.guid()).down().size() > usualDown + s.hostTolerance();
            double built = group.stream().filter(apart.negate()).mapToDouble(l -> loads.get(l.guid()).ratio()).max().orElse(Double.POSITIVE_INFINITY);
            List<Node> above = group.stream().filter(l -> apart.test(l) && loads.get(l.guid()).ratio() > built * 1.0001).toList();
            List<Node> alike = group.stream().filter(l -> !above.contains(l)).toList();
            blocking.add(ratioIssue(f, alike, loads, s, planned, "leaf", false, full, portStatesKnown, s.maxRatio(1), ""));
            if (!above.isEmpty())
                blocking.add(movedHosts(ratioIssue(f, above, loads, s, planned, "leaf", false, -1, portStatesKnown, built,
                        " (the " + ratioText(built) + " the other leaves are built with; no ratio declared)"), above, movedOnto));
        });
        // spines (and higher) with uplinks of their own: one with fewer than its peers of the level lost cables, named
        // by port as at a leaf (the peers: its unit's switches of that level when there are three or more, else the level)
        java.util.Set<Long> lostAbove = new java.util.HashSet<>();
        for (int lvl = 2; lvl < levels; lvl++) {
            final int level = lvl;
            List<Node> atLevel = carryingDown(level, switches, loads);
            for (Node n : atLevel) {
                Load ld = loads.get(n.guid());
                List<Node> peers = peersIn(n, atLevel);
                if (peers.size() < 2) continue;
                int usual = mode(peers.stream().map(x -> loads.get(x.guid()).up().size()).filter(c -> c > 0).toList());
                if (usual == 0 || ld.up().size() >= usual) continue;
                Map<Long, Integer> mine = new TreeMap<>();
                for (Link l : ld.up()) mine.merge(l.other(l.endAt(n.guid())).guid(), 1, Integer::sum);
                Map<Long, List<Integer>> perUp = new HashMap<>();
                Map<Integer, Integer> ports = new HashMap<>();
                for (Node p : peers) {
                    Map<Long, Integer> theirs = new TreeMap<>();
                    for (Link l : loads.get(p.guid()).up()) {
                        theirs.merge(l.other(l.endAt(p.guid())).guid(), 1, Integer::sum);
                        ports.merge(l.endAt(p.guid()).port(), 1, Integer::sum);
                    }
                    theirs.forEach((up, c) -> perUp.computeIfAbsent(up, k -> new ArrayList<>()).add(c));
                }
                // the switches above that most of the peers reach (planes: each spine reaches its own half of the cores)
                Map<Long, Integer> usualPerUp = new TreeMap<>();
                perUp.forEach((up, counts) -> {
                    if (counts.size() * 2 > peers.size()) usualPerUp.put(up, mode(counts));
                });
                TreeSet<Integer> peerPorts = new TreeSet<>();
                // the uplink ports of at least half of the peers (two spines of four losing the same port leave half)
                ports.forEach((port, c) -> {
                    if (c * 2 >= peers.size()) peerPorts.add(port);
                });
                blocking.add(lostUplinks(f, n, ld, usual, mine, usualPerUp, peerPorts, planned, s, level));
                lostAbove.add(n.guid());
            }
        }

        if (s.plan() == null) tree.addAll(absentLeaves(f, leaves));

        // every leaf reaches every top switch (2 levels: directly; more: over upward links)
        if (levels >= 2) missingTops(f, leaves, tops, levels, blocking, tree, unevenLeaves, judgedAlone, lostAbove);

        // spines (and higher) that have uplinks of their own: the same ratio per group
        Map<String, List<Node>> spineGroups = new LinkedHashMap<>(), extraGroups = new LinkedHashMap<>();
        for (Node n : switches) {
            if (n.level() < 2 || lostAbove.contains(n.guid())) continue;
            Load ld = loads.get(n.guid());
            if (ld.up().isEmpty() || ld.ratio() <= s.maxRatio(n.level()) * 1.0001) continue;
            String key = n.level() + "/" + ld.down().size() + "/" + ld.up().size();
            (!s.ratioDeclared() && overOnlyByExtraDownlinks(n, ld, switches, loads, s) ? extraGroups : spineGroups)
                    .computeIfAbsent(key, k -> new ArrayList<>()).add(n);
        }
        spineGroups.values().forEach(group -> blocking.add(ratioIssue(f, group, loads, s, planned, levelName(group.get(0).level()), false, -1, true,
                s.maxRatio(group.get(0).level()), "")));
        extraGroups.values().forEach(group -> blocking.add(extraDownlinks(f, group, loads, switches, s)));

        return new Result(levels, leaves, tops, List.copyOf(loads.values()), tree, blocking, bisection(f, loads, levels));
    }

    /**
     * Hosts per leaf, within the leaves' name family (a family with no count shared by two leaves and a quarter of them
     * has no usual count). Leaves a few hosts above the usual count beside leaves as many below it, without a plan to
     * say where each host belongs, are hosts moved from one leaf to another: one "hosts_moved" issue naming both sides
     * (leaf02 has 7, leaf03 9), whatever the tolerance. The other leaves off the usual count by more than the tolerance are one
     * "hosts_balance" issue, grouped by count (a unit short of the same nodes on every rail shows as one group). An
     * empty leaf is spare capacity, not hosts gone missing. Returns the leaves hosts were moved onto.
     */
    private static java.util.Set<Long> hostCounts(Fabric f, List<Node> leaves, Map<Long, Load> loads, Settings s, List<Issue> tree) {
        java.util.Set<Long> movedOnto = new java.util.HashSet<>();
        Map<String, List<Node>> byFamily = new LinkedHashMap<>();
        for (Node leaf : leaves) byFamily.computeIfAbsent(leaf.family(), k -> new ArrayList<>()).add(leaf);
        byFamily.values().forEach(members -> {
            List<Integer> counts = members.stream().map(l -> loads.get(l.guid()).down().size()).filter(c -> c > 0).toList();
            int usualHosts = mode(counts);
            long holding = counts.stream().filter(c -> c == usualHosts).count();
            if (holding < 2 || holding * 4 < counts.size()) return;
            List<Node> more = new ArrayList<>(), fewer = new ArrayList<>();
            for (Node leaf : members) {
                int h = loads.get(leaf.guid()).down().size();
                if (h > usualHosts) more.add(leaf);
                else if (h > 0 && h < usualHosts) fewer.add(leaf);
            }
            List<Node> moved = new ArrayList<>();
            // a move keeps the family's hosts: as many over the usual count as under it, a few per leaf (leaves
            // built to other sizes differ by more, and their counts need not add up)
            int over = more.stream().mapToInt(n -> loads.get(n.guid()).down().size() - usualHosts).sum();
            int under = fewer.stream().mapToInt(n -> usualHosts - loads.get(n.guid()).down().size()).sum();
            int few = Math.max(2, usualHosts / 8);
            boolean small = java.util.stream.Stream.concat(more.stream(), fewer.stream())
                    .allMatch(n -> Math.abs(loads.get(n.guid()).down().size() - usualHosts) <= few);
            if (s.plan() == null && !more.isEmpty() && over == under && small) {
                tree.add(hostsMoved(f, members, more, fewer, loads, usualHosts));
                for (Node n : more) movedOnto.add(n.guid());
                moved.addAll(more);
                moved.addAll(fewer);
            }
            Map<Integer, List<Node>> off = new TreeMap<>();
            for (Node leaf : members) {
                int h = loads.get(leaf.guid()).down().size();
                if (h > 0 && !moved.contains(leaf) && Math.abs(h - usualHosts) > s.hostTolerance()) off.computeIfAbsent(h, k -> new ArrayList<>()).add(leaf);
            }
            if (off.isEmpty()) return;
            List<String> parts = new ArrayList<>();
            List<Node> all = new ArrayList<>();
            off.forEach((h, group) -> {
                group.sort(Comparator.comparing(Node::name));
                all.addAll(group);
                parts.add(h + " on " + group.stream().map(Node::name).collect(Collectors.joining(", ")));
            });
            String names = all.stream().map(Node::name).collect(Collectors.joining(", "));
            String detail = String.join("; ", parts);
            tree.add(new Issue("hosts_balance", false, all.stream().map(Node::name).toList(),
                    (all.size() == 1 ? all.get(0).name() + " has " + off.keySet().iterator().next() + " hosts"
                            : all.size() + " leaves have other host counts (" + detail + ")") + ", the other leaves usually " + usualHosts,
                    all.stream().limit(6).map(leaf -> new Fact(leaf.name() + ": " + loads.get(leaf.guid()).down().size() + " active host links", leaf.ref())).toList(),
                    Map.of("leaf", names, "count", detail, "usual", String.valueOf(usualHosts))));
        });
        return movedOnto;
    }

    /**
     * "leaf02 has 7 hosts, leaf03 9, the other leaves 8: one host seems moved", with the evidence of the move: the hosts on
     * ports no other leaf of the family gives a host (where the moved cable landed) and the host ports down on the
     * leaves short of hosts (where it came from).
     */
    private static Issue hostsMoved(Fabric f, List<Node> members, List<Node> more, List<Node> fewer, Map<Long, Load> loads, int usual) {
        int excess = more.stream().mapToInt(n -> loads.get(n.guid()).down().size() - usual).sum();
        int lack = fewer.stream().mapToInt(n -> usual - loads.get(n.guid()).down().size()).sum();
        int count = Math.min(excess, lack);
        // the ports the family's leaves use for hosts: a host on a port most leaves leave free is the one added
        Map<Integer, Integer> hostPorts = new HashMap<>();
        for (Node n : members) for (Link l : loads.get(n.guid()).down()) hostPorts.merge(l.endAt(n.guid()).port(), 1, Integer::sum);
        List<Fact> facts = new ArrayList<>();
        List<String> objects = new ArrayList<>(), landed = new ArrayList<>(), left = new ArrayList<>();
        int lastHost = members.stream().flatMap(m -> loads.get(m.guid()).down().stream().map(l -> l.endAt(m.guid()).port()))
                .max(Integer::compare).orElse(0);
        for (Node n : fewer) {
            objects.add(n.name());
            facts.add(new Fact(n.name() + ": " + loads.get(n.guid()).down().size() + " active host links", n.ref()));
            for (Fabric.Port p : f.downPortsOf(n.guid()))
                if (p.end().port() <= lastHost && hostPorts.getOrDefault(p.end().port(), 0) * 2 > members.size()) {
                    left.add(f.name(p.end()) + " " + p.state() + "/" + p.physState());
                    facts.add(new Fact(f.name(p.end()) + ": " + p.state() + "/" + p.physState() + " (a host port on the other leaves)", p.ref()));
                }
        }
        for (Node n : more) {
            objects.add(n.name());
            facts.add(new Fact(n.name() + ": " + loads.get(n.guid()).down().size() + " active host links", n.ref()));
            for (Link l : loads.get(n.guid()).down()) {
                End at = l.endAt(n.guid());
                if (hostPorts.getOrDefault(at.port(), 0) * 2 <= members.size()) {
                    landed.add(f.name(l.other(at).guid()) + " on " + f.name(at));
                    facts.add(fact(f, l, n));
                }
            }
        }
        String counts = java.util.stream.Stream.concat(fewer.stream(), more.stream())
                .map(n -> n.name() + " has " + loads.get(n.guid()).down().size() + " hosts").collect(Collectors.joining(", "));
        String summary = counts + ", the other leaves " + usual + ": " + (count == 1 ? "one host seems moved" : count + " hosts seem moved")
                + " from " + fewer.stream().map(Node::name).collect(Collectors.joining(", ")) + " to " + more.stream().map(Node::name).collect(Collectors.joining(", "))
                + (landed.isEmpty() ? "" : " (" + String.join(", ", landed) + ", a port the other leaves leave free)")
                + (left.isEmpty() ? "" : "; " + String.join(", ", left));
        return new Issue("hosts_moved", true, objects, summary, facts.stream().limit(10).toList(), Map.of(
                "from", fewer.stream().map(Node::name).collect(Collectors.joining(", ")),
                "to", more.stream().map(Node::name).collect(Collectors.joining(", ")),
                "count", String.valueOf(count), "usual", String.valueOf(usual),
                "hosts", landed.isEmpty() ? "the extra host(s) on " + more.stream().map(Node::name).collect(Collectors.joining(", ")) : String.join(", ", landed),
                "moved_to", more.stream().map(Node::name).collect(Collectors.joining("|"))));
    }

    /** A ratio issue whose every switch is over it only by hosts moved onto it: the move is its root ("moved_to"). */
    private static Issue movedHosts(Issue ratio, List<Node> group, java.util.Set<Long> movedOnto) {
        if (group.isEmpty() || !group.stream().allMatch(n -> movedOnto.contains(n.guid()))) return ratio;
        Map<String, String> vars = new HashMap<>(ratio.vars());
        vars.put("moved_to", group.stream().map(Node::name).collect(Collectors.joining("|")));
        return new Issue(ratio.kind(), ratio.severe(), ratio.objects(), ratio.summary() + "; hosts seem moved onto it", ratio.facts(), vars);
    }

    /**
     * Leaves absent from a regular run of names (A09-P1-IBLEAF-03-01 missing while pods 01, 02 and 04 have their -01, or
     * leaf03 missing between leaf02 and leaf04): per name family of the leaves, the runs are the names alike but for
     * their last number; a number is absent from a run when it lies inside the run's own range, or below its lowest
     * number while more than half of the family's runs have it (a run that ends early may be a smaller pod by design:
     * not judged). Only without a cabling plan, which names absent switches itself. One issue per family.
     */
    static List<Issue> absentLeaves(Fabric f, List<Node> leaves) {
        // names compared by their numbers ("SLG3-02" is "SLG03-02" typed short)
        java.util.Set<String> present = new java.util.HashSet<>();
        for (Node n : f.switches()) present.add(n.family() + numbers(n.shortName()));
        record Run(String family, List<Integer> head) {}
        Map<Run, TreeMap<Integer, Node>> runs = new LinkedHashMap<>();
        for (Node leaf : leaves) {
            List<Integer> nums = numbers(leaf.shortName());
            if (nums.isEmpty() || nums.get(nums.size() - 1) > 999_999) continue;
            runs.computeIfAbsent(new Run(leaf.family(), nums.subList(0, nums.size() - 1)), k -> new TreeMap<>()).put(nums.get(nums.size() - 1), leaf);
        }
        Map<String, List<Run>> byFamily = new LinkedHashMap<>();
        runs.keySet().forEach(r -> byFamily.computeIfAbsent(r.family(), k -> new ArrayList<>()).add(r));
        List<Issue> out = new ArrayList<>();
        byFamily.values().forEach(family -> {
            Map<Integer, Integer> inRuns = new HashMap<>();
            for (Run r : family) for (int v : runs.get(r).keySet()) inRuns.merge(v, 1, Integer::sum);
            List<String> absent = new ArrayList<>();
            List<Fact> facts = new ArrayList<>();
            for (Run r : family) {
                TreeMap<Integer, Node> have = runs.get(r);
                TreeSet<Integer> missing = new TreeSet<>();
                // a gap inside the run, between two leaves built alike (of one group: a management leaf numbered on
                // below another spine is no neighbour), while the run is mostly there
                for (int v = have.firstKey() + 1; v < have.lastKey(); v++)
                    if (!have.containsKey(v) && have.lowerEntry(v).getValue().group() == have.higherEntry(v).getValue().group()) missing.add(v);
                if (missing.size() * 2 > have.size()) missing.clear();
                if (family.size() >= 3)
                    inRuns.forEach((v, c) -> {
                        if (v < have.firstKey() && c * 2 > family.size()) missing.add(v);
                    });
                Node first = have.firstEntry().getValue();
                for (int v : missing) {
                    List<Integer> nums = new ArrayList<>(r.head());
                    nums.add(v);
                    if (present.contains(r.family() + nums)) continue;
                    String name = withLastNumber(first.shortName(), v);
                    absent.add(name);
                    facts.add(new Fact(name + " absent; " + first.shortName() + " and " + (have.size() - 1) + " more of its run are in the fabric", first.ref()));
                }
            }
            if (absent.isEmpty()) return;
            int of = family.stream().mapToInt(r -> runs.get(r).size()).sum();
            out.add(new Issue("leaf_absent", true, absent, (absent.size() == 1 ? "leaf " + absent.get(0) + " is" : absent.size() + " leaves ("
                    + String.join(", ", absent.subList(0, Math.min(8, absent.size()))) + (absent.size() > 8 ? ", ..." : "") + ") are")
                    + " absent from the fabric: the names of the " + of + " leaves of its family run regularly around "
                    + (absent.size() == 1 ? "it" : "them"), facts.stream().limit(8).toList(), Map.of("leaf", String.join(", ", absent))));
        });
        return out;
    }

    private static List<Integer> numbers(String name) {
        List<Integer> out = new ArrayList<>();
        java.util.regex.Matcher m = NUMBER.matcher(name);
        while (m.find()) out.add(m.group().length() > 9 ? Integer.MAX_VALUE : Integer.parseInt(m.group()));
        return out;
    }

    /** "A09-P1-IBLEAF-03-02" with its last number 1, as wide: "A09-P1-IBLEAF-03-01". */
    private static String withLastNumber(String name, int v) {
        java.util.regex.Matcher m = LAST_NUMBER.matcher(name);
        if (!m.matches()) return name;
        return m.group(1) + String.format("%0" + m.group(2).length() + "d", v) + m.group(3);
    }

    private static final java.util.regex.Pattern NUMBER = java.util.regex.Pattern.compile("[0-9]+");

    /** A name split at its last number: "A09-P1-IBLEAF-03-" "01" "". */
    private static final java.util.regex.Pattern LAST_NUMBER = java.util.regex.Pattern.compile("(.*?)([0-9]+)([^0-9]*)");

    /** The switches of a level that carry downlinks: those a switch of that level is compared with. */
    private static List<Node> carryingDown(int level, List<Node> switches, Map<Long, Load> loads) {
        return switches.stream().filter(x -> x.level() == level && !loads.get(x.guid()).down().isEmpty()).toList();
    }

    /** A switch's peers among atLevel (carryingDown of its level): its unit's when there are three or more, else all. */
    private static List<Node> peersIn(Node n, List<Node> atLevel) {
        List<Node> unit = atLevel.stream().filter(x -> x.group() == n.group()).toList();
        return unit.size() >= 3 ? unit : atLevel;
    }

    /**
     * A spine over the ratio only because it carries more downlinks than its peers, with every uplink they have: leaves
     * added on spare ports (a management or storage leaf) without uplinks to match. A design to declare, not lost capacity.
     */
    private static boolean overOnlyByExtraDownlinks(Node n, Load ld, List<Node> switches, Map<Long, Load> loads, Settings s) {
        List<Node> peers = peersIn(n, carryingDown(n.level(), switches, loads));
        if (peers.size() < 3) return false;
        int usualDown = mode(peers.stream().map(x -> loads.get(x.guid()).down().size()).toList());
        int usualUp = mode(peers.stream().map(x -> loads.get(x.guid()).up().size()).filter(c -> c > 0).toList());
        if (ld.up().size() < usualUp || ld.down().size() <= usualDown || ld.down().isEmpty()) return false;
        double perDown = ld.downGbps() / ld.down().size();
        return perDown * usualDown / ld.upGbps() <= s.maxRatio(n.level()) * 1.0001;
    }

    private static Issue extraDownlinks(Fabric f, List<Node> group, Map<Long, Load> loads, List<Node> switches, Settings s) {
        Node first = group.get(0);
        Load ld = loads.get(first.guid());
        List<Node> peers = peersIn(first, carryingDown(first.level(), switches, loads));
        int usualDown = mode(peers.stream().map(x -> loads.get(x.guid()).down().size()).toList());
        // the switches the extra cables go to: below these, those of a name family that is not the one most switches
        // below their peers have
        Map<String, Integer> families = new HashMap<>();
        for (Node p : peers)
            for (Link l : loads.get(p.guid()).down()) {
                Node o = f.node(l.other(l.endAt(p.guid())).guid());
                if (o != null && o.isSwitch()) families.merge(o.family(), 1, Integer::sum);
            }
        int most = families.values().stream().max(Integer::compare).orElse(0);
        java.util.Set<Node> below = new java.util.LinkedHashSet<>();
        for (Node n : group)
            for (Link l : loads.get(n.guid()).down()) {
                Node o = f.node(l.other(l.endAt(n.guid())).guid());
                if (o != null && o.isSwitch() && families.get(o.family()) < most) below.add(o);
            }
        List<String> to = below.stream().map(Node::name).toList();
        String names = group.stream().map(Node::name).collect(Collectors.joining(", "));
        double allowed = s.maxRatio(first.level());
        String what = levelName(first.level());
        String summary = (group.size() == 1 ? names : group.size() + " " + plural(what) + " (" + names + ")") + ": " + ld.down().size()
                + " downlinks over " + ld.up().size() + " uplinks, blocking " + ratio(ld) + " (allowed " + ratioText(allowed) + "): "
                + (ld.down().size() - usualDown) + " downlink(s) more than their peers" + (to.isEmpty() ? "" : " (to " + String.join(", ", to) + ")")
                + ", with every uplink their peers have";
        List<Fact> facts = new ArrayList<>();
        for (Node n : group.subList(0, Math.min(3, group.size()))) {
            Load l = loads.get(n.guid());
            facts.add(new Fact(n.name() + ": " + l.down().size() + " down / " + l.up().size() + " up, its peers usually " + usualDown + " down", n.ref()));
        }
        return new Issue("downlinks_extra", false, group.stream().map(Node::name).toList(), summary, facts, Map.of("switches", names,
                "ratio", ratio(ld), "allowed", ratioText(allowed), "extra", String.valueOf(ld.down().size() - usualDown),
                "to", to.isEmpty() ? "the extra leaves" : String.join(", ", to), "level", what, "role", plural(what)));
    }

    /**
     * A port down where an uplink was: among the leaf's uplink ports, or past them on the side away from its hosts (a
     * lost spine's cables sit next to the remaining uplinks, as when a spine died), which no design explains. Spare
     * ports between the host ports and the uplinks are no such evidence: a switch built 2:1 leaves them free. Without
     * iblinkinfo no down port is known: the design warning then says a lost spine would look the same.
     */
    private static boolean downAmongUplinks(Fabric f, Load ld) {
        int lastHost = ld.down().stream().mapToInt(l -> l.endAt(ld.sw().guid()).port()).max().orElse(0);
        int firstUp = ld.up().stream().mapToInt(l -> l.endAt(ld.sw().guid()).port()).min().orElse(Integer.MAX_VALUE);
        int lastUp = ld.up().stream().mapToInt(l -> l.endAt(ld.sw().guid()).port()).max().orElse(0);
        boolean upAbove = firstUp > lastHost;
        return f.downPortsOf(ld.sw().guid()).stream().mapToInt(p -> p.end().port())
                .anyMatch(p -> p > firstUp && p < lastUp || upAbove && p > lastUp || !upAbove && p > lastHost);
    }

    /** Active links of a switch split by direction: to lower levels (hosts for a leaf) and to higher levels. */
    static Load load(Fabric f, Node sw) {
        List<Link> down = new ArrayList<>(), up = new ArrayList<>();
        double dg = 0, ug = 0;
        for (Link l : f.linksOf(sw.guid())) {
            if (!l.isUp()) continue;
            Node o = f.node(l.other(l.endAt(sw.guid())).guid());
            // the switch's own aggregation node, a looped cable or a back-to-back pair carry no traffic up or down the tree
            if (o == null || !f.isHostLink(l) && !f.isSwitchToSwitch(l)) continue;
            int ol = o.isSwitch() ? o.level() : 0;
            if (ol < sw.level() && ol >= 0) {
                down.add(l);
                dg += l.dataGbps();
            } else if (ol > sw.level()) {
                up.add(l);
                ug += l.dataGbps();
            }
        }
        return new Load(sw, down, up, dg, ug);
    }

    private static Issue lostUplinks(Fabric f, Node leaf, Load ld, int usualUp, Map<Long, Integer> mine,
                                     Map<Long, Integer> usualPerUpper, TreeSet<Integer> peerPorts, Map<End, End> planned, Settings s) {
        return lostUplinks(f, leaf, ld, usualUp, mine, usualPerUpper, peerPorts, planned, s, 1);
    }

    /** level: of the switch that lost them (a leaf 1, a spine 2, ...), for its allowed ratio. */
    private static Issue lostUplinks(Fabric f, Node leaf, Load ld, int usualUp, Map<Long, Integer> mine,
                                     Map<Long, Integer> usualPerUpper, TreeSet<Integer> peerPorts, Map<End, End> planned, Settings s, int level) {
        List<String> missing = new ArrayList<>();
        List<Fact> facts = new ArrayList<>();
        List<String> objects = new ArrayList<>(List.of(leaf.name()));
        TreeSet<Integer> myPorts = new TreeSet<>();
        for (Link l : ld.up()) myPorts.add(l.endAt(leaf.guid()).port());
        // the plan knows the exact uplinks of this leaf; without one, the ports its peers use for uplinks
        TreeSet<Integer> expectedPorts = new TreeSet<>();
        for (Map.Entry<End, End> e : planned.entrySet()) {
            Node peer = f.node(e.getValue().guid());
            if (e.getKey().guid() == leaf.guid() && peer != null && peer.isSwitch() && peer.level() != 1) expectedPorts.add(e.getKey().port());
        }
        if (expectedPorts.isEmpty()) expectedPorts = peerPorts;
        for (int p : expectedPorts) {
            if (myPorts.contains(p)) continue;
            End e = new End(leaf.guid(), p);
            End to = planned.get(e);
            missing.add(f.name(e) + " (" + portState(f, e) + (to == null ? "" : "; plan: to " + f.name(to)) + ")");
            objects.add(f.name(e));
            facts.add(portFact(f, e));
        }
        List<String> spines = new ArrayList<>();
        usualPerUpper.forEach((sp, usual) -> {
            int have = mine.getOrDefault(sp, 0);
            if (have < usual) {
                String cand = candidatePorts(f, sp, usual - have);
                spines.add((usual - have) + " to " + f.name(sp) + (cand.isEmpty() ? "" : " (" + cand + ")"));
            }
        });
        String ratio = ratio(ld);
        boolean over = ld.ratio() > s.maxRatio(level) * 1.0001;
        String summary = leaf.name() + " has " + ld.up().size() + " active uplinks, its peers " + usualUp
                + (missing.isEmpty() ? "" : ": missing " + String.join(", ", missing))
                + (spines.isEmpty() ? "" : "; uplinks missing " + String.join(", ", spines))
                + "; blocking " + ratio + (over ? ", allowed " + ratioText(s.maxRatio(level)) : "");
        // the missing ports first (what to fix), then a few of the uplinks that are there (where they were read)
        facts.addAll(ld.up().stream().limit(3).map(l -> fact(f, l, leaf)).toList());
        return new Issue("uplinks_lost", over, objects, summary, facts, Map.of("leaf", leaf.name(),
                "missing", missing.isEmpty() ? spines.isEmpty() ? (usualUp - ld.up().size()) + " uplink(s)" : String.join(", ", spines)
                        : missing.stream().map(m -> m.substring(0, m.indexOf(" ("))).collect(Collectors.joining(", ")),
                "count", String.valueOf(ld.up().size()), "usual", String.valueOf(usualUp), "ratio", ratio));
    }

    /** Down ports of a spine among the ports it uses for leaves (gaps first): where the lost cable probably was. */
    private static String candidatePorts(Fabric f, long spine, int n) {
        TreeSet<Integer> used = new TreeSet<>();
        for (Link l : f.linksOf(spine)) used.add(l.endAt(spine).port());
        if (used.isEmpty()) return "";
        List<String> out = new ArrayList<>();
        for (Fabric.Port p : f.downPortsOf(spine)) {
            int port = p.end().port();
            if (port > used.first() && port < used.last()) out.add("port " + port + " " + p.state() + "/" + p.physState());
        }
        if (out.isEmpty() || out.size() > n) {
            out.clear();
            for (Fabric.Port p : f.downPortsOf(spine))
                if (p.end().port() == used.last() + 1 || p.end().port() == used.first() - 1)
                    out.add("port " + p.end().port() + " " + p.state() + "/" + p.physState());
        }
        return out.size() <= n && !out.isEmpty() ? f.name(spine) + " " + String.join(", ", out) + " is down" : "";
    }

    /**
     * everyLeaf: the group is all the leaves, as when a spine (or all its cables) is gone. designOf: -1 for a fault
     * (capacity missing); else the number of leaves with hosts most of which share this ratio, and the issue is an
     * oversubscription by design until the contract says otherwise (a warning that names the ratio to declare).
     * planned: each planned end's peer (empty without a plan), to tell hosts cabled to the wrong switch.
     */
    private static Issue ratioIssue(Fabric f, List<Node> group, Map<Long, Load> loads, Settings s, Map<End, End> planned, String what, boolean everyLeaf,
                                    long designOf, boolean portStatesKnown, double allowed, String allowedWhy) {
        // the worst switch of the group speaks for it; the others share its uplink count and rate
        Load ld = group.stream().map(n -> loads.get(n.guid())).max(Comparator.comparingDouble(Load::ratio)).orElseThrow();
        String names = group.stream().map(Node::name).collect(Collectors.joining(", "));
        int minDown = group.stream().mapToInt(n -> loads.get(n.guid()).down().size()).min().orElse(0);
        double minGbps = group.stream().mapToDouble(n -> loads.get(n.guid()).downGbps()).min().orElse(0);
        String down = group.size() == 1 || minDown == ld.down().size() && Math.round(minGbps) == Math.round(ld.downGbps())
                ? ld.down().size() + " downlinks (" + gbps(ld.downGbps()) + ")"
                : (minDown == ld.down().size() ? String.valueOf(minDown) : minDown + "-" + ld.down().size()) + " downlinks ("
                        + String.format(java.util.Locale.ROOT, "%.0f-%.0f Gb/s", minGbps, ld.downGbps()) + ")";
        boolean sameRatio = group.stream().allMatch(n -> ratio(loads.get(n.guid())).equals(ratio(ld)));
        String summary = (group.size() == 1 ? names : group.size() + " " + plural(what) + " (" + names + ")") + ": "
                + down + " over " + ld.up().size() + " uplinks (" + gbps(ld.upGbps()) + "), blocking "
                + (sameRatio ? "" : "up to ") + ratio(ld)
                + (designOf < 0 ? ", allowed " + ratioText(allowed) + allowedWhy : " - the same on most of the " + designOf
                        + " leaves with hosts: built " + ratio(ld) + ", a ratio not declared (allowed " + ratioText(allowed) + ")"
                        + (portStatesKnown ? "" : " (no port states without iblinkinfo: a spine lost by every leaf alike would look the same)"));
        List<Fact> facts = new ArrayList<>();
        for (Node n : group.subList(0, Math.min(3, group.size()))) {
            Load l = loads.get(n.guid());
            facts.add(new Fact(n.name() + ": " + l.down().size() + " down / " + l.up().size() + " up", n.ref()));
            l.up().stream().limit(4).forEach(x -> facts.add(fact(f, x, n)));
        }
        // uplinks to add at the rate of the existing ones (or of the downlinks when none is left)
        double perUp = ld.up().isEmpty() ? ld.downGbps() / ld.down().size() : ld.upGbps() / ld.up().size();
        int needed = (int) Math.ceil(ld.downGbps() / allowed / perUp - 1e-9) - ld.up().size();
        Map<String, String> vars = new java.util.HashMap<>(Map.of("switches", names,
                "ratio", ratio(ld), "allowed", ratioText(allowed), "needed", String.valueOf(Math.max(1, needed)),
                "down", String.valueOf(ld.down().size()), "up", String.valueOf(ld.up().size()), "every_leaf", String.valueOf(everyLeaf)));
        if (designOf >= 0) {
            vars.put("leaves", String.valueOf(designOf));
            vars.put("design", ratio(ld).replace(":1", ""));
        }
        // every leaf short alike with ports down where uplinks go: a spine (or all its cables) may be gone, which no
        // peer can show; say what the uplinks still reach and which ports are down next to them
        String gone = everyLeaf && designOf < 0 ? spineGone(f, group, loads) : "";
        vars.put("gone_fix", gone.isEmpty() ? "" : "Every leaf is short alike: if the fabric was built with more uplinks, a spine or all of its "
                + "cables are gone - find the switch those down ports were cabled to (power, cables, 'ibswitches') before adding any. ");
        if (!gone.isEmpty()) summary += "; " + gone;
        String degraded = degradedUplinks(f, group, loads, allowed);
        if (!degraded.isEmpty()) vars.put("degraded_ends", degraded);
        String moved = hostsPlannedElsewhere(f, group, loads, allowed, planned);
        if (!moved.isEmpty()) vars.put("miswired_at", moved);
        return new Issue(designOf < 0 ? "ratio" : "ratio_design", designOf < 0, group.stream().map(Node::name).toList(), summary, facts, vars);
    }

    /**
     * "every leaf's uplinks reach only spine01; ports 35, 36 down on every leaf": the switches the group's uplinks still
     * reach and, per leaf, the down ports where a lost spine's cables were: inside the range of its uplink ports, else
     * right above them, else right below (as many as it has uplinks left). "" without iblinkinfo's down ports.
     */
    static String spineGone(Fabric f, List<Node> group, Map<Long, Load> loads) {
        TreeSet<String> reached = new TreeSet<>();
        Map<String, List<String>> byPorts = new LinkedHashMap<>();
        for (Node n : group) {
            Load ld = loads.get(n.guid());
            TreeSet<Integer> ups = new TreeSet<>();
            for (Link l : ld.up()) {
                ups.add(l.endAt(n.guid()).port());
                reached.add(f.name(l.other(l.endAt(n.guid())).guid()));
            }
            if (ups.isEmpty()) continue;
            TreeSet<Integer> down = new TreeSet<>();
            for (Fabric.Port p : f.downPortsOf(n.guid())) down.add(p.end().port());
            List<Integer> cand = new ArrayList<>(down.subSet(ups.first(), false, ups.last(), false));
            if (cand.isEmpty())
                for (int p = ups.last() + 1; cand.size() < ups.size() && down.contains(p); p++) cand.add(p);
            if (cand.isEmpty())
                for (int p = ups.first() - 1; p > 0 && cand.size() < ups.size() && down.contains(p); p--) cand.add(0, p);
            if (!cand.isEmpty())
                byPorts.computeIfAbsent(cand.stream().map(String::valueOf).collect(Collectors.joining(", ")), k -> new ArrayList<>()).add(n.name());
        }
        String where = reached.size() <= 4 ? "only " + String.join(", ", reached) : reached.size() + " switches";
        String out = (group.size() > 1 ? "every leaf's uplinks reach " : "its uplinks reach ") + where;
        if (byPorts.size() == 1 && byPorts.values().iterator().next().size() == group.size())
            return out + "; ports " + byPorts.keySet().iterator().next() + " down on " + (group.size() > 1 ? "every leaf" : "it");
        if (!byPorts.isEmpty())
            return out + "; down next to the uplinks: " + byPorts.entrySet().stream().limit(4)
                    .map(e -> String.join(", ", e.getValue()) + " ports " + e.getKey()).collect(Collectors.joining("; "));
        return "";
    }

    /**
     * The ends of the uplinks running slower than the fastest uplink of their switch ("a|b|..."), when restoring them to
     * that rate would bring every switch of the group within the allowed ratio: the ratio then follows from those
     * degraded links (their link.width/link.speed finding is its root). "" when it does not.
     */
    static String degradedUplinks(Fabric f, List<Node> group, Map<Long, Load> loads, double allowed) {
        List<String> ends = new ArrayList<>();
        for (Node n : group) {
            Load l = loads.get(n.guid());
            double best = l.up().stream().mapToDouble(Link::dataGbps).max().orElse(0);
            List<Link> slow = l.up().stream().filter(x -> x.dataGbps() < best).toList();
            if (slow.isEmpty() || l.downGbps() / (best * l.up().size()) > allowed + 1e-9) return "";
            for (Link x : slow) {
                ends.add(f.name(x.a()));
                ends.add(f.name(x.b()));
            }
        }
        return String.join("|", ends);
    }

    /**
     * The switches of the group ("a|b") when every one is over the ratio only because of host cables the cabling plan
     * puts on another switch (a host moved to the wrong leaf): the plan's miswired finding is then the root. "" otherwise.
     */
    static String hostsPlannedElsewhere(Fabric f, List<Node> group, Map<Long, Load> loads, double allowed, Map<End, End> planned) {
        if (planned.isEmpty()) return "";
        List<String> out = new ArrayList<>();
        for (Node n : group) {
            Load l = loads.get(n.guid());
            double elsewhere = 0;
            for (Link x : l.down()) {
                End here = x.endAt(n.guid()), host = x.other(here);
                End want = planned.get(host);
                if (want != null && want.guid() != n.guid()) elsewhere += x.dataGbps();
            }
            if (elsewhere == 0 || l.upGbps() == 0 || (l.downGbps() - elsewhere) / l.upGbps() > allowed + 1e-9) return "";
            out.add(f.name(n.guid()));
        }
        return String.join("|", out);
    }

    /**
     * Leaves with no up-path to some top switches, one issue per set of leaves missing the same tops. lostAbove: switches
     * above the leaves that lost uplinks; when such a switch lies on a leaf's way up, its lost cable is why (a spine that
     * lost its one link to a core cuts every leaf below it off that core), and the issue is listed under it (under the
     * first when several are). alone: leaves with no peer of their class, cabled to part of the tree by design (a
     * management leaf on two spine ports): only one that reaches no top at all is an issue.
     */
    private static void missingTops(Fabric f, List<Node> leaves, List<Node> tops, int levels, List<Issue> blocking, List<Issue> tree,
                                    java.util.Set<String> explained, java.util.Set<String> alone, java.util.Set<Long> lostAbove) {
        Map<Long, Integer> topIndex = new HashMap<>();
        for (Node t : tops) topIndex.put(t.guid(), topIndex.size());
        // reach[s] = top switches reachable upward from s, computed from the top level down
        Map<Long, BitSet> reach = new HashMap<>();
        Map<Long, java.util.Set<Long>> lostOnTheWay = new HashMap<>();
        for (int lvl = levels; lvl >= 1; lvl--) {
            for (Node n : f.atLevel(lvl)) {
                BitSet b = new BitSet(tops.size());
                java.util.Set<Long> lost = new TreeSet<>();
                if (lvl == levels) b.set(topIndex.get(n.guid()));
                if (lostAbove.contains(n.guid())) lost.add(n.guid());
                for (Link l : f.linksOf(n.guid())) {
                    if (!l.isUp()) continue;
                    Node o = f.node(l.other(l.endAt(n.guid())).guid());
                    if (o != null && o.isSwitch() && o.level() == lvl + 1) {
                        b.or(reach.getOrDefault(o.guid(), new BitSet()));
                        lost.addAll(lostOnTheWay.getOrDefault(o.guid(), java.util.Set.of()));
                    }
                }
                reach.put(n.guid(), b);
                if (!lost.isEmpty()) lostOnTheWay.put(n.guid(), lost);
            }
        }
        java.util.Set<String> alreadyLost = new java.util.HashSet<>(explained);
        for (Issue i : blocking) if (i.kind().equals("uplinks_lost")) alreadyLost.add(i.vars().get("leaf"));
        // the leaves cut off alike: the same tops missing, out of as many, behind the same switches that lost uplinks
        record Cut(List<String> miss, int expected, List<String> lost) {}
        Map<Cut, List<Node>> byCut = new LinkedHashMap<>();
        for (Node leaf : leaves) {
            BitSet b = reach.getOrDefault(leaf.guid(), new BitSet());
            // on two levels a leaf reaches the spines of its own plane (rails are planes of their own)
            List<Node> expected = levels == 2 ? tops.stream().filter(t -> t.group() == leaf.group()).toList() : tops;
            List<String> miss = new ArrayList<>();
            for (Node t : expected) if (!b.get(topIndex.get(t.guid()))) miss.add(t.name());
            if (miss.isEmpty() || alreadyLost.contains(leaf.name()) || alone.contains(leaf.name()) && miss.size() < expected.size()) continue;
            List<String> lost = lostOnTheWay.getOrDefault(leaf.guid(), java.util.Set.of()).stream().map(f::name).toList();
            byCut.computeIfAbsent(new Cut(miss, expected.size(), lost), k -> new ArrayList<>()).add(leaf);
        }
        byCut.forEach((cut, group) -> {
            String names = group.stream().map(Node::name).collect(Collectors.joining(", "));
            Map<String, String> vars = new HashMap<>(Map.of("leaf", names, "tops", String.join(", ", cut.miss())));
            if (!cut.lost().isEmpty()) vars.put("lost_above", cut.lost().get(0));
            tree.add(new Issue("unreachable_top", true, group.stream().map(Node::name).toList(),
                    (group.size() == 1 ? names + " has" : group.size() + " leaves (" + names + ") have") + " no up-path to " + String.join(", ", cut.miss())
                            + " (" + (group.size() == 1 ? "reaches " : "each reaches ") + (cut.expected() - cut.miss().size()) + " of " + cut.expected() + " "
                            + plural(levelName(levels)) + ")" + (cut.lost().isEmpty() ? "" : ": " + String.join(", ", cut.lost()) + " on the way up lost uplinks"),
                    group.stream().limit(6).map(l -> new Fact(l.name(), l.ref())).toList(), vars));
        });
    }

    /** Half the smallest aggregate rate between two adjacent levels: hosts-leaves, leaves-spines, ... */
    private static double bisection(Fabric f, Map<Long, Load> loads, int levels) {
        double min = Double.POSITIVE_INFINITY;
        for (int lvl = 1; lvl <= Math.max(1, levels); lvl++) {
            double down = 0;
            for (Node n : f.atLevel(lvl)) {
                Load ld = loads.get(n.guid());
                if (ld != null) down += ld.downGbps();
            }
            if (down > 0) min = Math.min(min, down);
        }
        return min == Double.POSITIVE_INFINITY ? 0 : min / 2;
    }

    static Fact fact(Fabric f, Link l, Node from) {
        End me = l.endAt(from.guid());
        String state = l.state().isEmpty() ? "" : " " + l.state() + (l.physState().isEmpty() ? "" : "/" + l.physState());
        return new Fact(f.name(me) + " -> " + f.name(l.other(me)) + " " + l.rate() + state, refFor(l, f, me));
    }

    static io.ibaccept.parse.SourceRef refFor(Link l, Fabric f, End me) {
        return l.refs().isEmpty() ? null : l.refs().get(0);
    }

    static String portState(Fabric f, End e) {
        for (Fabric.Port p : f.downPortsOf(e.guid())) if (p.end().equals(e)) return p.state() + "/" + p.physState();
        return f.linkAt(e).map(l -> l.state().isEmpty() ? "no cable" : l.state() + "/" + l.physState() + " to " + f.name(l.other(e))).orElse("not seen by iblinkinfo");
    }

    static Fact portFact(Fabric f, End e) {
        for (Fabric.Port p : f.downPortsOf(e.guid())) if (p.end().equals(e)) return new Fact(f.name(e) + ": " + p.state() + "/" + p.physState(), p.ref());
        return new Fact(f.name(e) + ": " + portState(f, e), null);
    }

    /**
     * Leaf -> the class it is compared in: its group, and within it its name family when the group holds leaves of
     * several families: a family (other than the group's main one) that two or more leaves of the group share is a class of its own, and so is a leaf whose
     * name no other leaf of the group shares and that has under half the uplinks usual in the group (a management
     * leaf on spare spine ports). A leaf named apart that is cabled like the others (a node-name-map naming only one
     * leaf) stays in its group.
     */
    static Map<Long, String> peerClasses(List<Node> leaves, Map<Long, Integer> upCount) {
        Map<Integer, Map<String, Integer>> families = new HashMap<>(), familyUp = new HashMap<>();
        Map<Integer, List<Integer>> ups = new HashMap<>();
        for (Node l : leaves) {
            families.computeIfAbsent(l.group(), k -> new HashMap<>()).merge(l.family(), 1, Integer::sum);
            familyUp.computeIfAbsent(l.group(), k -> new HashMap<>()).merge(l.family(), upCount.get(l.guid()), Integer::sum);
            if (upCount.get(l.guid()) > 0) ups.computeIfAbsent(l.group(), k -> new ArrayList<>()).add(upCount.get(l.guid()));
        }
        Map<Long, String> out = new HashMap<>();
        for (Node l : leaves) {
            Map<String, Integer> here = families.get(l.group()), up = familyUp.get(l.group());
            boolean byName = here.size() > 1 && here.values().stream().anyMatch(c -> c >= 2);
            int usual = mode(ups.getOrDefault(l.group(), List.of()));
            // the group's main family: the most leaves, then the most uplinks
            String main = here.keySet().stream().max(Comparator.<String>comparingInt(here::get).thenComparingInt(up::get)
                    .thenComparing(Comparator.reverseOrder())).orElse("");
            boolean apart = byName && !l.family().equals(main) && (here.get(l.family()) >= 2 || upCount.get(l.guid()) * 2 < usual);
            out.put(l.guid(), l.group() + (apart ? "/" + l.family() : ""));
        }
        return out;
    }

    static int mode(java.util.Collection<Integer> values) {
        Map<Integer, Integer> c = new HashMap<>();
        for (int v : values) c.merge(v, 1, Integer::sum);
        // ties go to the larger value: the design is what most leaves have, and a tie means half of them lost something
        return c.entrySet().stream().max(Comparator.<Map.Entry<Integer, Integer>>comparingInt(Map.Entry::getValue)
                .thenComparingInt(Map.Entry::getKey)).map(Map.Entry::getKey).orElse(0);
    }

    private static String countsOf(List<Node> leaves, Map<Long, Integer> counts) {
        return leaves.stream().limit(12).map(l -> String.valueOf(counts.get(l.guid()))).collect(Collectors.joining("/")) + (leaves.size() > 12 ? "/..." : "");
    }

    private static String spread(Fabric f, Map<Long, Integer> m) {
        return m.entrySet().stream().map(e -> e.getValue() + " to " + f.name(e.getKey())).collect(Collectors.joining(", "));
    }

    static String ratio(Load ld) {
        if (ld.upGbps() == 0) return ld.down().size() + ":0";
        return ratioText(ld.ratio());
    }

    static String ratioText(double r) {
        return (Math.abs(r - Math.rint(r)) < 0.01 ? String.valueOf((long) Math.rint(r)) : String.format(java.util.Locale.ROOT, "%.2f", r)) + ":1";
    }

    static String gbps(double g) {
        return String.format(java.util.Locale.ROOT, "%.0f Gb/s", g);
    }

    static String plural(String what) {
        return what.equals("leaf") ? "leaves" : what.endsWith("switch") ? what + "es" : what + "s";
    }

    static String levelName(int level) {
        return switch (level) {
            case 1 -> "leaf";
            case 2 -> "spine";
            case 3 -> "core";
            default -> "level-" + level + " switch";
        };
    }

    private static String levelNames(Map<Integer, Long> perLevel) {
        return perLevel.entrySet().stream().map(e -> e.getValue() + " " + (e.getKey() < 0 ? "unconnected" : levelName(e.getKey())))
                .collect(Collectors.joining(", "));
    }

    private static List<Fact> facts(Fabric f, Link l) {
        List<Fact> out = new ArrayList<>();
        for (io.ibaccept.parse.SourceRef r : l.refs()) out.add(new Fact(f.name(l) + " " + l.rate(), r));
        return out;
    }

    /** "1:1", "2:1", "1.5" -> downlink/uplink ratio. */
    public static double parseRatio(String s) {
        String t = s.trim();
        int colon = t.indexOf(':');
        if (colon < 0) return Double.parseDouble(t);
        return Double.parseDouble(t.substring(0, colon).trim()) / Double.parseDouble(t.substring(colon + 1).trim());
    }
}
