package io.ibaccept.rules.perf;

import io.ibaccept.rules.perf.PairMatrix.Pair;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Names the likely culprit behind a set of bad pairs, the way a field engineer reads a pair matrix:
 * <ol>
 * <li>a node present in most of its own tested pairs as a bad pair (with partners on its own leaf too) is the node
 * (or its HCA, when other checks have PCIe/port/link findings on that host); nodes are taken greedily, each explaining
 * the bad pairs the previous ones did not;</li>
 * <li>where the forwarding tables were collected: bad pairs left over whose routes share one switch-to-switch cable
 * that the good pairs' routes avoid point at that cable (a degraded or erroring ISL the routing put them on);</li>
 * <li>bad pairs left over that all cross leaves, cluster on one leaf, and leave that leaf's intra-leaf pairs clean
 * point at the leaf's uplinks (a shared switch-to-switch link); when they all go to one other leaf, at the path
 * between the two; a degraded uplink (narrower/slower than the fabric's usual uplink) is named;</li>
 * <li>several bad nodes covering all of one leaf are the leaf switch itself;</li>
 * <li>whatever is left is reported as unlocalised pairs.</li>
 * </ol>
 * Each suspect says how sure it is with counts ("node07 is in 15 of 15 bad pairs").
 */
public final class Localisation {
    private Localisation() {}

    public enum Kind { NODE, HCA, LEAF, ISL, LEAF_UPLINKS, PATH, UNLOCALISED }

    public enum Confidence { HIGH, MEDIUM, LOW }

    public record Suspect(Kind kind, String name, Confidence confidence, String statement, List<Pair> pairs,
                          List<String> evidence) {
        public Suspect {
            pairs = List.copyOf(pairs);
            evidence = List.copyOf(evidence);
        }
    }

    /**
     * @param tested       every pair that was measured
     * @param bad          the pairs judged bad (confirmed or not retested outliers)
     * @param view         leaf of each host and uplinks of each leaf (may know nothing)
     * @param hostFindings per host, other checks' hardware findings ("pcie: Gen3 x8 (Gen4 x16 enabled)")
     */
    public static List<Suspect> analyse(Collection<Pair> tested, Collection<Pair> bad, FabricView view,
                                        Map<String, List<String>> hostFindings) {
        Set<Pair> badSet = new LinkedHashSet<>(bad);
        Set<Pair> left = new LinkedHashSet<>(bad);
        List<Suspect> out = new ArrayList<>();
        if (badSet.isEmpty()) return out;
        int total = badSet.size();
        Map<String, Integer> testedOf = count(tested), badOf = count(badSet);

        // 1. nodes, greedily
        List<String> badNodes = new ArrayList<>();
        while (true) {
            String pick = null;
            int pickN = 0;
            double pickRatio = 0;
            for (String n : new TreeSet<>(badOf.keySet())) {
                int b = (int) left.stream().filter(p -> p.has(n)).count();
                int t = testedOf.getOrDefault(n, 0);
                double ratio = t == 0 ? 0 : badOf.get(n) / (double) t;
                int min = t <= 2 ? 1 : 2;
                if (b < min || ratio < 0.5 || !nodeLike(n, badSet, tested, view, ratio)) continue;
                if (b == 1 && !hostFindings.containsKey(n) && !otherEndClean(n, left, testedOf, badOf)) continue;
                if (b > pickN || (b == pickN && ratio > pickRatio)) {
                    pick = n;
                    pickN = b;
                    pickRatio = ratio;
                }
            }
            if (pick == null) break;
            String n = pick;
            List<Pair> mine = badSet.stream().filter(p -> p.has(n)).toList();
            left.removeAll(mine);
            badNodes.add(n);
            int t = testedOf.get(n), b = badOf.get(n);
            List<String> hw = hostFindings.getOrDefault(n, List.of());
            String stmt = n + " is in " + mine.size() + " of " + total + " bad pairs (" + b + " of its " + t
                    + " tested pairs are bad)";
            List<String> ev = new ArrayList<>();
            view.leafOf(n).ifPresent(l -> ev.add(n + " is on leaf " + l));
            Kind kind = Kind.NODE;
            if (!hw.isEmpty()) {
                kind = Kind.HCA;
                stmt += "; its HCA has findings: " + String.join("; ", hw);
                ev.addAll(hw);
            }
            // how consistently the node is slow, not its share of all bad pairs (other faults may add their own)
            Confidence c = (pickRatio >= 0.8 && mine.size() >= 3) || (kind == Kind.HCA && pickRatio >= 0.5) ? Confidence.HIGH
                    : pickRatio >= 0.5 && mine.size() >= 2 ? Confidence.MEDIUM : Confidence.LOW;
            if (t == 1 && kind == Kind.NODE) c = Confidence.LOW; // one pair cannot tell which end is slow
            out.add(new Suspect(kind, n, c, stmt, mine, ev));
        }
        mergeWholeLeaves(out, view, testedOf, total);

        // 2. a switch-to-switch port the bad pairs' routes share and the good pairs' routes avoid
        if (view.knowsRoutes()) sharedIsls(tested, badSet, left, view, total, out);

        // 2. leaf uplinks / leaf-to-leaf path for what no node explains
        if (view.knowsLeaves()) {
            while (true) {
                Map<String, List<Pair>> perLeaf = new TreeMap<>();
                for (Pair p : left) {
                    String la = view.leafOf(p.a()).orElse(null), lb = view.leafOf(p.b()).orElse(null);
                    if (la == null || lb == null || la.equals(lb)) continue;
                    perLeaf.computeIfAbsent(la, k -> new ArrayList<>()).add(p);
                    perLeaf.computeIfAbsent(lb, k -> new ArrayList<>()).add(p);
                }
                String leaf = null;
                for (var e : perLeaf.entrySet()) {
                    if (e.getValue().size() < 2 || intraLeafBad(e.getKey(), badSet, view) > 0) continue;
                    if (leaf == null || e.getValue().size() > perLeaf.get(leaf).size()) leaf = e.getKey();
                }
                if (leaf == null) break;
                String l = leaf;
                List<Pair> mine = perLeaf.get(l);
                int leftBefore = left.size();
                left.removeAll(mine);
                Set<String> partners = new TreeSet<>(), localNodes = new TreeSet<>();
                for (Pair p : mine) {
                    String local = view.leafOf(p.a()).orElseThrow().equals(l) ? p.a() : p.b();
                    localNodes.add(local);
                    partners.add(view.leafOf(p.other(local)).orElseThrow());
                }
                long interTested = tested.stream().filter(p -> crosses(p, l, view)).count();
                long intraTested = tested.stream().filter(p -> onLeaf(p, l, view)).count();
                List<String> ev = new ArrayList<>();
                ev.add("none of the " + intraTested + " tested pairs within " + l + " is bad; " + localNodes.size()
                        + " of its nodes are in the bad pairs, none of them alone explains them");
                List<FabricView.Uplink> degraded = new ArrayList<>(degradedUplinks(view, l, partners));
                if (partners.size() == 1) degraded.addAll(degradedUplinks(view, partners.iterator().next(), Set.of(l)));
                Map<String, Integer> perNode = count(mine);
                perNode.entrySet().stream().max(Map.Entry.comparingByValue()).filter(e -> e.getValue() >= 0.8 * mine.size() && mine.size() >= 3)
                        .ifPresent(e -> ev.add("the bad pairs converge on " + e.getKey() + " (" + e.getValue() + " of " + mine.size()
                                + ") although its pairs within " + view.leafOf(e.getKey()).orElse("its leaf")
                                + " are fine: the route towards it (a spine port or the leaf's downlink on that route), not the node"));
                degraded.forEach(u -> ev.add("degraded uplink: " + u + (u.where().isEmpty() ? "" : " at " + u.where())));
                if (degraded.isEmpty() && !view.uplinks(l).isEmpty())
                    ev.add("uplinks of " + l + ": " + view.uplinks(l).size() + " (none narrower/slower than the fabric's usual; check their error counters)");
                Kind kind;
                String name, stmt;
                if (partners.size() == 1) {
                    String m = partners.iterator().next();
                    kind = Kind.PATH;
                    name = l + " <-> " + m;
                    stmt = "the switch path between " + l + " and " + m + " is in " + mine.size() + " of " + total
                            + " bad pairs (" + mine.size() + " of " + countBetween(tested, l, m, view) + " tested pairs between them)";
                } else {
                    kind = Kind.LEAF_UPLINKS;
                    name = l;
                    stmt = "the uplinks of " + l + " (switch-to-switch links) are in " + mine.size() + " of " + total
                            + " bad pairs (" + mine.size() + " of its " + interTested + " tested inter-leaf pairs)";
                }
                double share = mine.size() / (double) leftBefore; // of the bad pairs no node explains
                Confidence c = share >= 0.8 && !degraded.isEmpty() ? Confidence.HIGH : share >= 0.5 ? Confidence.MEDIUM : Confidence.LOW;
                out.add(new Suspect(kind, name, c, stmt, mine, ev));
            }
        }

        // 3. the rest
        if (!left.isEmpty()) {
            List<Pair> rest = new ArrayList<>(left);
            boolean once = rest.stream().anyMatch(p -> testedOf.getOrDefault(p.a(), 0) <= 1 && testedOf.getOrDefault(p.b(), 0) <= 1);
            out.add(new Suspect(Kind.UNLOCALISED, rest.size() + " pair(s)", Confidence.LOW,
                    rest.size() + " of " + total + " bad pairs share no node or leaf uplink: " + abbreviate(rest)
                            + (once ? "; their ends were tested with one partner only, so either end may be slow (rerun with"
                            + " --pattern all-pairs, or one-to-all --reference on a known-good node)" : "")
                            + " (check the cable path of each: ibtracert between the two LIDs)", rest, List.of()));
        }
        return out;
    }

    /** Share of the pairs routed over a port that must be bad for the port to be named. */
    static final double ISL_BAD_SHARE = 0.8;

    private static void sharedIsls(Collection<Pair> tested, Set<Pair> badSet, Set<Pair> left, FabricView view, int total, List<Suspect> out) {
        Map<String, Integer> good = new HashMap<>();
        for (Pair p : tested) if (!badSet.contains(p)) for (String isl : view.isls(p.a(), p.b())) good.merge(isl, 1, Integer::sum);
        while (true) {
            Map<String, List<Pair>> bad = new TreeMap<>();
            for (Pair p : left) for (String isl : view.isls(p.a(), p.b())) bad.computeIfAbsent(isl, k -> new ArrayList<>()).add(p);
            String pick = null;
            for (var e : bad.entrySet()) {
                int b = e.getValue().size(), g = good.getOrDefault(e.getKey(), 0);
                if (b < 2 || b < ISL_BAD_SHARE * (b + g)) continue;
                if (pick == null || b > bad.get(pick).size()) pick = e.getKey();
            }
            if (pick == null) return;
            List<Pair> mine = bad.get(pick);
            int leftBefore = left.size();
            left.removeAll(mine);
            int g = good.getOrDefault(pick, 0);
            List<String> ev = new ArrayList<>();
            ev.add("routed over " + pick + ": " + mine.size() + " bad pair(s) and " + g + " good one(s); the forwarding tables (dump_fts) give each pair's route");
            for (Pair p : mine.subList(0, Math.min(5, mine.size()))) ev.add("route of " + p + ": " + String.join(", ", view.isls(p.a(), p.b())));
            double share = mine.size() / (double) leftBefore;
            Confidence c = g == 0 && share >= 0.8 && mine.size() >= 3 ? Confidence.HIGH : share >= 0.5 ? Confidence.MEDIUM : Confidence.LOW;
            out.add(new Suspect(Kind.ISL, pick, c, "the switch-to-switch link " + pick + " is on the route of " + mine.size() + " of " + total
                    + " bad pairs and of " + g + " good pair(s)", mine, ev));
        }
    }

    /**
     * One bad pair names one of its ends only when the other end is clean with its other partners (one-to-all: the
     * reference is fine elsewhere); with both ends tested once the pair cannot tell which end is slow.
     */
    private static boolean otherEndClean(String n, Set<Pair> left, Map<String, Integer> testedOf, Map<String, Integer> badOf) {
        for (Pair p : left) {
            if (!p.has(n)) continue;
            String o = p.other(n);
            return testedOf.getOrDefault(o, 0) >= 2 && badOf.getOrDefault(o, 0) == 1;
        }
        return false;
    }

    /** Bad nodes that together are every tested node of a leaf, bad within the leaf too: the leaf switch. */
    private static void mergeWholeLeaves(List<Suspect> out, FabricView view, Map<String, Integer> testedOf, int total) {
        Map<String, List<Suspect>> byLeaf = new TreeMap<>();
        for (Suspect s : out)
            if (s.kind() == Kind.NODE) view.leafOf(s.name()).ifPresent(l -> byLeaf.computeIfAbsent(l, k -> new ArrayList<>()).add(s));
        for (var e : byLeaf.entrySet()) {
            List<String> leafNodes = view.groupByLeaf(List.copyOf(testedOf.keySet())).getOrDefault(e.getKey(), List.of());
            if (e.getValue().size() < 3 || e.getValue().size() < leafNodes.size()) continue;
            Set<Pair> pairs = new LinkedHashSet<>();
            e.getValue().forEach(s -> pairs.addAll(s.pairs()));
            out.removeAll(e.getValue());
            out.add(0, new Suspect(Kind.LEAF, e.getKey(), pairs.size() >= 0.8 * total ? Confidence.HIGH : Confidence.MEDIUM,
                    "all " + leafNodes.size() + " tested nodes of leaf " + e.getKey() + " are slow, also between themselves: "
                            + "the leaf switch (or its power/firmware) rather than " + leafNodes.size() + " separate HCAs; "
                            + pairs.size() + " of " + total + " bad pairs",
                    List.copyOf(pairs), e.getValue().stream().map(Suspect::statement).toList()));
        }
    }

    /** A node is node-like unless its bad pairs look like a shared leaf uplink (only cross-leaf, with leaf-mates also bad). */
    private static boolean nodeLike(String n, Set<Pair> bad, Collection<Pair> tested, FabricView view, double ratio) {
        String leaf = view.leafOf(n).orElse(null);
        if (leaf == null) return true;
        // a slow node is slow with its leaf-mates too: clean intra-leaf pairs and bad cross-leaf ones point at a path
        long intraTested = tested.stream().filter(p -> p.has(n) && onLeaf(p, leaf, view)).count();
        long intraBad = bad.stream().filter(p -> p.has(n) && onLeaf(p, leaf, view)).count();
        if (intraTested > 0 && intraBad == 0) return false;
        if (ratio >= 0.8) return true;
        for (Pair p : bad)
            if (p.has(n) && leaf.equals(view.leafOf(p.other(n)).orElse(null))) return true;
        for (Pair p : bad) {
            if (p.has(n)) continue;
            if (leaf.equals(view.leafOf(p.a()).orElse(null)) || leaf.equals(view.leafOf(p.b()).orElse(null))) return false;
        }
        return true;
    }

    /** Uplinks of the leaf narrower or slower than the most common uplink width/speed in the fabric. */
    static List<FabricView.Uplink> degradedUplinks(FabricView view, String leaf, Set<String> partners) {
        List<FabricView.Uplink> all = new ArrayList<>();
        for (String l : partners) all.addAll(view.uplinks(l));
        all.addAll(view.uplinks(leaf));
        Map<String, Integer> freq = new HashMap<>();
        for (FabricView.Uplink u : all) if (u.width() != null && u.speed() != null) freq.merge(u.width() + " " + u.speed(), 1, Integer::sum);
        String usual = freq.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
        if (usual == null) return List.of();
        FabricView.Uplink ref = all.stream().filter(u -> (u.width() + " " + u.speed()).equals(usual)).findFirst().orElseThrow();
        double usualGbps = ref.speed().dataGbps(ref.width());
        return view.uplinks(leaf).stream()
                .filter(u -> u.width() != null && u.speed() != null && u.speed().dataGbps(u.width()) < usualGbps).toList();
    }

    private static Map<String, Integer> count(Collection<Pair> ps) {
        Map<String, Integer> m = new HashMap<>();
        for (Pair p : ps) {
            m.merge(p.a(), 1, Integer::sum);
            m.merge(p.b(), 1, Integer::sum);
        }
        return m;
    }

    private static long intraLeafBad(String leaf, Set<Pair> bad, FabricView view) {
        return bad.stream().filter(p -> onLeaf(p, leaf, view)).count();
    }

    private static boolean onLeaf(Pair p, String leaf, FabricView view) {
        return leaf.equals(view.leafOf(p.a()).orElse(null)) && leaf.equals(view.leafOf(p.b()).orElse(null));
    }

    private static boolean crosses(Pair p, String leaf, FabricView view) {
        String la = view.leafOf(p.a()).orElse(null), lb = view.leafOf(p.b()).orElse(null);
        return la != null && lb != null && !la.equals(lb) && (la.equals(leaf) || lb.equals(leaf));
    }

    private static long countBetween(Collection<Pair> tested, String l, String m, FabricView view) {
        return tested.stream().filter(p -> {
            String la = view.leafOf(p.a()).orElse(null), lb = view.leafOf(p.b()).orElse(null);
            return (l.equals(la) && m.equals(lb)) || (m.equals(la) && l.equals(lb));
        }).count();
    }

    private static String abbreviate(List<Pair> ps) {
        List<String> s = ps.stream().limit(5).map(Pair::toString).toList();
        return String.join(", ", s) + (ps.size() > 5 ? ", +" + (ps.size() - 5) + " more" : "");
    }
}
