package io.ibaccept.rules;

import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Groups findings by the physical things they reference ({@link Ref}: host, HCA port, cable with both ends, switch
 * port), after the declared root causes ({@link RootCauses}): one fault, one root, the rest listed under it. Which
 * findings can be roots and which roots may explain a finding is what each check declares ({@link Check#rootRole},
 * {@link Check#explainedBy}); nothing here knows a check by its id. Root roles, strongest first:
 * <ol>
 * <li>a port that is down explains everything about its port and cable and, when it is the host's only way into the
 *     fabric, everything fabric-facing about the host (inventory, inputs, RDMA pairs, ibdiagnet messages);</li>
 * <li>a physical-layer fault on a cable (width, speed, symbol/recovery/LinkDowned errors, mlxlink status or BER)
 *     explains every other finding on that cable, and the RDMA pairs of the host at its HCA end;</li>
 * <li>a host hardware fault (the HCA's PCIe link) explains the RDMA pair findings of pairs that include the host;</li>
 * <li>an ibdiagnet message about a port or cable another check already reported repeats that finding.</li>
 * </ol>
 * A finding becomes a consequence only when every object it concerns is explained, and never under a root of a milder
 * status (the verdict still sees each distinct fault). Each root with consequences says how many in its evidence.
 */
final class PhysicalCauses {
    private PhysicalCauses() {}

    static List<Finding> group(List<Finding> findings, Ctx ctx, List<Check> checks) {
        try {
            Map<String, Check> byId = new HashMap<>();
            for (Check c : checks) byId.put(c.id(), c);
            return correlate(findings, ctx, id -> byId.getOrDefault(id, DEFAULT));
        } catch (RuntimeException e) {
            // grouping is presentation: a bug here must not cost the report (the ungrouped findings give the same verdict)
            return findings;
        }
    }

    /** The declarations of a finding whose check is not among the engine's (a waiver note): the defaults. */
    private static final Check DEFAULT = new Check() {
        public String id() {
            return "";
        }

        public List<Input> inputs() {
            return List.of();
        }

        public void evaluate(Ctx ctx) {}
    };

    private static List<Finding> correlate(List<Finding> findings, Ctx ctx, java.util.function.Function<String, Check> checkOf) {
        int n = findings.size();
        List<Set<String>> units = new ArrayList<>(n);
        List<Check.RootRole> kinds = new ArrayList<>(n);
        List<Set<String>> hostsDown = new ArrayList<>(n);
        for (Finding f : findings) {
            Set<String> u = new LinkedHashSet<>();
            for (Ref r : f.refs()) u.add(r.key());
            units.add(u);
            kinds.add(f.status() == Status.FAIL || f.status() == Status.WARN ? checkOf.apply(f.check()).rootRole(f) : null);
            Set<String> down = new LinkedHashSet<>();
            if (kinds.get(kinds.size() - 1) == Check.RootRole.PORT_DOWN) for (String h : f.hosts()) if (allPortsDown(ctx, h)) down.add(h);
            hostsDown.add(down);
        }
        // process candidate roots strongest first, then everything else in report order
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) order.add(i);
        order.sort(Comparator.comparingInt((Integer i) -> kinds.get(i) == null ? Check.RootRole.values().length : kinds.get(i).ordinal())
                .thenComparing(i -> findings.get(i).status())
                .thenComparingInt(i -> checkOf.apply(findings.get(i).check()).rootStrength())
                .thenComparingInt(i -> i));
        Map<Integer, Integer> parent = new HashMap<>();
        Map<Integer, List<Integer>> also = new HashMap<>();
        List<Integer> roots = new ArrayList<>();
        Map<Integer, Integer> position = new HashMap<>();
        // roots by the units they may explain (their own, their hosts, the host at their cable's HCA end): a large
        // fabric with a fault on every host stays linear
        Map<String, List<Integer>> byKey = new HashMap<>();
        Map<String, Finding> byId = new HashMap<>();
        for (Finding f : findings) byId.put(f.id(), f);
        for (int i : order) {
            Finding f = findings.get(i);
            if (f.status() == Status.PASS) continue;
            if (f.isConsequence()) {
                // a port down behind a lost switch still explains what is about that port: listed under the switch
                if (kinds.get(i) == Check.RootRole.PORT_DOWN) register(i, f, units.get(i), roots, position, byKey);
                continue;
            }
            Set<String> us = units.get(i);
            Integer best = null;
            List<Integer> explainers = new ArrayList<>();
            if (!us.isEmpty()) {
                Map<Integer, Integer> votes = new LinkedHashMap<>();
                boolean all = true;
                for (String u : us) {
                    // the HCA end of a root's cable, a partition or an SM are what a finding is about, not faults to explain
                    if (u.startsWith("ca:") || u.startsWith("partition:") || u.startsWith("sm:")) continue;
                    Integer r = null;
                    for (int ri : candidates(byKey, position, u)) {
                        // never under a milder root: the verdict must still see a FAIL
                        Finding top = top(findings.get(ri), byId);
                        if (top.id().equals(f.id())) continue; // a port down behind a lost switch does not explain the switch
                        if (!f.status().worseThan(top.status())
                                && explains(kinds.get(ri), findings.get(ri), units.get(ri), hostsDown.get(ri), checkOf.apply(f.check()).explainedBy(f), u)) {
                            r = ri;
                            break;
                        }
                    }
                    if (r == null) {
                        all = false;
                        break;
                    }
                    votes.merge(r, 1, Integer::sum);
                }
                if (all && !votes.isEmpty()) {
                    best = votes.entrySet().stream().max(Comparator.comparingInt((Map.Entry<Integer, Integer> e) -> e.getValue())
                            .thenComparingInt(e -> -position.get(e.getKey()))).orElseThrow().getKey();
                    for (int r : votes.keySet()) if (r != best) explainers.add(r);
                }
            }
            if (best != null) {
                parent.put(i, best);
                if (!explainers.isEmpty()) also.put(i, explainers);
            } else if (kinds.get(i) != null && (f.status() == Status.FAIL || f.status() == Status.WARN)) {
                register(i, f, units.get(i), roots, position, byKey);
            }
        }
        sameKind(findings, units, parent, checkOf);
        announcements(findings, units, parent, checkOf);
        if (parent.isEmpty()) return withCounts(findings);
        Map<String, String> newParent = new HashMap<>();
        parent.forEach((c, r) -> newParent.put(findings.get(c).id(), findings.get(r).id()));
        List<Finding> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Finding f = findings.get(i);
            String p = newParent.getOrDefault(f.id(), f.parent());
            // a consequence of a finding that is now a consequence itself moves up to the root
            for (int hops = 0; p != null && hops < 8; hops++) {
                String up = newParent.containsKey(p) ? newParent.get(p) : byId.containsKey(p) ? byId.get(p).parent() : null;
                if (up == null) break;
                p = up;
            }
            List<Evidence> ev = new ArrayList<>(f.evidence());
            if (also.containsKey(i))
                ev.add(Evidence.of("also explained by " + String.join(", ", also.get(i).stream().map(r -> findings.get(r).id() + " ("
                        + findings.get(r).summary() + ")").toList()), ""));
            out.add(f.with(ev, p));
        }
        return withCounts(out);
    }

    private static void register(int i, Finding f, Set<String> units, List<Integer> roots, Map<Integer, Integer> position,
                                 Map<String, List<Integer>> byKey) {
        position.put(i, roots.size());
        roots.add(i);
        Set<String> keys = new LinkedHashSet<>(units);
        for (String h : f.hosts()) keys.add("host:" + h);
        for (String u : units) if (u.startsWith("ca:")) keys.add("host:" + u.substring(3));
        for (String k : keys) byKey.computeIfAbsent(k, x -> new ArrayList<>()).add(i);
    }

    /** The root a finding is listed under (itself if it is a root). */
    private static Finding top(Finding f, Map<String, Finding> byId) {
        for (int hops = 0; f.isConsequence() && byId.containsKey(f.parent()) && hops < 8; hops++) f = byId.get(f.parent());
        return f;
    }

    /** The roots that may explain unit u, strongest first. */
    private static List<Integer> candidates(Map<String, List<Integer>> byKey, Map<Integer, Integer> position, String u) {
        Set<Integer> c = new java.util.TreeSet<>(Comparator.comparingInt(position::get));
        c.addAll(byKey.getOrDefault(u, List.of()));
        if (u.startsWith("pair:")) for (String h : pairHosts(u)) c.addAll(byKey.getOrDefault("host:" + h, List.of()));
        return new ArrayList<>(c);
    }

    /** A finding that only announces its check's next finding (a tool's stage note) goes under that finding's root. */
    private static void announcements(List<Finding> findings, List<Set<String>> units, Map<Integer, Integer> parent,
                                      java.util.function.Function<String, Check> checkOf) {
        for (int i = 0; i < findings.size(); i++) {
            Finding f = findings.get(i);
            Check c = checkOf.apply(f.check());
            if (f.isConsequence() || parent.containsKey(i) || !units.get(i).isEmpty() || !c.announcesNext(f)) continue;
            for (int j = i + 1; j < findings.size(); j++) {
                Finding g = findings.get(j);
                if (!g.check().equals(f.check())) break;
                if (c.announcesNext(g)) continue;
                Integer r = parent.getOrDefault(j, j);
                if (!f.status().worseThan(findings.get(r).status())) parent.put(i, r);
                break;
            }
        }
    }

    /**
     * Findings of one check about whole nodes that its check declares of the same kind are one finding: the first, the
     * others under it. Findings about ports or cables stay apart: two cables are two faults.
     */
    private static void sameKind(List<Finding> findings, List<Set<String>> units, Map<Integer, Integer> parent,
                                 java.util.function.Function<String, Check> checkOf) {
        Map<String, Integer> first = new HashMap<>();
        for (int i = 0; i < findings.size(); i++) {
            Finding f = findings.get(i);
            if (f.isConsequence() || parent.containsKey(i) || units.get(i).stream().anyMatch(u -> u.startsWith("cable:") || u.startsWith("port:")))
                continue;
            String key = checkOf.apply(f.check()).sameKind(f);
            if (key == null) continue;
            Integer r = first.putIfAbsent(f.check() + "\u0000" + key, i);
            if (r != null) parent.put(i, r);
        }
    }

    /** Every root with consequences says how many and of which checks, as its last line of evidence. */
    private static List<Finding> withCounts(List<Finding> findings) {
        Map<String, Map<String, Integer>> under = new HashMap<>();
        for (Finding f : findings)
            if (f.isConsequence()) under.computeIfAbsent(f.parent(), k -> new TreeMap<>()).merge(f.check(), 1, Integer::sum);
        if (under.isEmpty()) return findings;
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            Map<String, Integer> c = f.isConsequence() ? null : under.get(f.id());
            if (c == null) {
                out.add(f);
                continue;
            }
            int total = c.values().stream().mapToInt(Integer::intValue).sum();
            List<Evidence> ev = new ArrayList<>(f.evidence());
            ev.add(Evidence.of(total + (total == 1 ? " consequence" : " consequences") + " listed under this finding: "
                    + String.join(", ", c.entrySet().stream().map(e -> e.getKey() + (e.getValue() > 1 ? " x" + e.getValue() : "")).toList()), ""));
            out.add(f.with(ev, f.parent()));
        }
        return out;
    }

    /** Whether root r (of role k, about rUnits) explains unit u of a finding the given roots may explain. */
    private static boolean explains(Check.RootRole k, Finding r, Set<String> rUnits, Set<String> down, Set<Check.ExplainedBy> by, String u) {
        String host = u.startsWith("host:") ? u.substring(5) : null;
        return switch (k) {
            case PORT_DOWN -> by.contains(Check.ExplainedBy.PORT_DOWN) && (rUnits.contains(u)
                    || host != null && down.contains(host)
                    || u.startsWith("pair:") && pairHosts(u).stream().anyMatch(down::contains));
            case CABLE -> by.contains(Check.ExplainedBy.CABLE) && (u.startsWith("cable:") || u.startsWith("port:")) && rUnits.contains(u)
                    || by.contains(Check.ExplainedBy.CABLE_AT_HCA) && caHostOf(rUnits, host, u);
            case HOST_HARDWARE -> by.contains(Check.ExplainedBy.HOST_HARDWARE) && (host != null && r.hosts().contains(host)
                    || u.startsWith("pair:") && pairHosts(u).stream().anyMatch(r.hosts()::contains));
            case NODE_IDENTITY, OTHER -> by.contains(Check.ExplainedBy.SAME_OBJECT) && (u.startsWith("cable:") || u.startsWith("port:")
                    || u.startsWith("node:") && k == Check.RootRole.NODE_IDENTITY) && rUnits.contains(u);
        };
    }

    /** A cable root explains host/pair units of the host at its HCA end ("ca:HOST" among its units). */
    private static boolean caHostOf(Set<String> rUnits, String host, String u) {
        if (host != null) return rUnits.contains("ca:" + host);
        return u.startsWith("pair:") && pairHosts(u).stream().anyMatch(h -> rUnits.contains("ca:" + h));
    }

    private static List<String> pairHosts(String u) {
        return List.of(u.substring(5).split("\\|"));
    }

    private static boolean allPortsDown(Ctx ctx, String host) {
        HostData h = ctx.data.hosts().get(host);
        return h != null && h.ibstat() != null && h.ibstat().stream().allMatch(ca -> ca.ports().stream().noneMatch(Ibstat.Port::isActive));
    }
}
