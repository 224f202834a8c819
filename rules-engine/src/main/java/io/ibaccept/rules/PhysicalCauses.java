package io.ibaccept.rules;

import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.LinkInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Groups findings by the physical object they concern (host, HCA port, cable with both ends, switch port), after the
 * declared root causes ({@link RootCauses}): one fault, one root, the rest listed under it. Priorities, strongest first:
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

    /** Root classes, strongest first. */
    private enum Kind { DOWN, CABLE, HOST_HW, OTHER }

    /** Checks about the host itself, not its fabric connection: a down port explains none of them. */
    private static final Set<String> HOST_LOCAL = Set.of("pcie", "memlock", "ofed", "firmware", "ethtool", "guid.duplicate", "node.names");
    /** Checks judging RDMA pairs between hosts. */
    private static final Set<String> PERF = Set.of("perftest.bw", "perftest.lat", "perftest.outlier", "perftest.localisation", "collective");
    /** Cable-class checks, in order of the strength of their evidence (error counters first). */
    private static final List<String> CABLE_CHECKS = List.of("link.errors", "link.errors.window", "link.width", "link.speed", "mlxlink");
    /** Counters that point at the cable (link.errors' physical-layer class). */
    private static final Pattern PHYS_COUNTER = Pattern.compile("SymbolError|LinkDowned|LinkErrorRecovery|LocalLinkIntegrity|PortRcvErrors|ExcessiveBufferOverrun|[Ss]ymbol errors|flap|BER");
    private static final Pattern STAGE_SUMMARY = Pattern.compile("(?i)\\bfinished with (\\d+ )?(errors|warnings)\\s*$|^Note: ");
    /** Inputs that need the host's fabric port (MAD queries, RDMA tests); ulimit or ofed_info do not. */
    private static final Pattern FABRIC_INPUT = Pattern.compile("(smpquery|perfquery|saquery|sminfo|ibqueryerrors|iblinkinfo|ibnetdiscover|ibdiagnet|perftest|ib_|collective|osu_|nccl)");
    private static final Pattern PORT_OBJECT = Pattern.compile("^(.+) port (\\d+)$");
    private static final Pattern DIAG_PORT = Pattern.compile("/U\\d+/P(\\d+)");
    /** ibdiagnet's name of a port whose node description is not unique: S(system GUID)/N(node GUID)/P(port). */
    private static final Pattern DIAG_GUID_PORT = Pattern.compile("\\bS[0-9a-fA-F]{16}/N([0-9a-fA-F]{16})/P(\\d+)");
    private static final Pattern DIAG_DUP_DESC = Pattern.compile("duplicated node description - (.+)$");
    private static final Pattern DIAG_LID = Pattern.compile("lid=(0x[0-9a-fA-F]+|\\d+)");
    private static final Pattern PAIR = Pattern.compile("(?:^|bad pair )([^\\s<>]+) ?(?:->|<->) ?([^\\s:<>]+)");

    static List<Finding> group(List<Finding> findings, Ctx ctx) {
        try {
            return correlate(findings, ctx);
        } catch (RuntimeException e) {
            // grouping is presentation: a bug here must not cost the report (the ungrouped findings give the same verdict)
            return findings;
        }
    }

    private static List<Finding> correlate(List<Finding> findings, Ctx ctx) {
        Resolver where = new Resolver(ctx);
        int n = findings.size();
        List<Set<String>> units = new ArrayList<>(n);
        List<Kind> kinds = new ArrayList<>(n);
        List<Set<String>> hostsDown = new ArrayList<>(n);
        for (Finding f : findings) {
            units.add(where.units(f));
            kinds.add(kind(f));
            Set<String> down = new LinkedHashSet<>();
            if (kinds.get(kinds.size() - 1) == Kind.DOWN) for (String h : f.hosts()) if (where.allPortsDown(h)) down.add(h);
            hostsDown.add(down);
        }
        // process candidate roots strongest first, then everything else in report order
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) order.add(i);
        order.sort(Comparator.comparingInt((Integer i) -> kinds.get(i) == null ? Kind.values().length : kinds.get(i).ordinal())
                .thenComparing(i -> findings.get(i).status())
                .thenComparingInt(i -> strength(findings.get(i)))
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
                if (kinds.get(i) == Kind.DOWN) register(i, f, units.get(i), roots, position, byKey);
                continue;
            }
            Set<String> us = units.get(i);
            Integer best = null;
            List<Integer> explainers = new ArrayList<>();
            if (!us.isEmpty()) {
                Map<Integer, Integer> votes = new LinkedHashMap<>();
                boolean all = true;
                for (String u : us) {
                    if (u.startsWith("ca:")) continue; // marks the HCA end of a root's cable, nothing to explain
                    Integer r = null;
                    for (int ri : candidates(byKey, position, u)) {
                        // never under a milder root: the verdict must still see a FAIL
                        Finding top = top(findings.get(ri), byId);
                        if (top.id().equals(f.id())) continue; // a port down behind a lost switch does not explain the switch
                        if (!f.status().worseThan(top.status()) && explains(kinds.get(ri), findings.get(ri), units.get(ri), hostsDown.get(ri), f, u)) {
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
        sameWarnings(findings, units, parent);
        stageSummaries(findings, units, parent);
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

    /**
     * ibdiagnet's "-E- <stage> Check finished with errors" line (and a stage's "-W- Note: ...") only announces the
     * messages of its stage that follow: it goes under the root of the first of them.
     */
    private static void stageSummaries(List<Finding> findings, List<Set<String>> units, Map<Integer, Integer> parent) {
        for (int i = 0; i < findings.size(); i++) {
            Finding f = findings.get(i);
            if (!f.check().equals("ibdiagnet") || f.isConsequence() || parent.containsKey(i) || !units.get(i).isEmpty()
                    || !STAGE_SUMMARY.matcher(f.summary()).find()) continue;
            for (int j = i + 1; j < findings.size(); j++) {
                Finding g = findings.get(j);
                if (!g.check().equals("ibdiagnet")) break;
                if (STAGE_SUMMARY.matcher(g.summary()).find()) continue;
                Integer r = parent.getOrDefault(j, j);
                if (!f.status().worseThan(findings.get(r).status())) parent.put(i, r);
                break;
            }
        }
    }

    /**
     * ibdiagnet warnings of one kind about whole nodes (the same message on every switch with the vendor's default
     * description, an old firmware, no answer to a vendor MAD) are one finding: the first, the others under it. Errors
     * and messages about ports stay apart: two cables are two faults.
     */
    private static void sameWarnings(List<Finding> findings, List<Set<String>> units, Map<Integer, Integer> parent) {
        Map<String, Integer> first = new HashMap<>();
        for (int i = 0; i < findings.size(); i++) {
            Finding f = findings.get(i);
            if (!f.check().equals("ibdiagnet") || f.status() != Status.WARN || f.isConsequence() || parent.containsKey(i)
                    || STAGE_SUMMARY.matcher(f.summary()).find()
                    || units.get(i).stream().anyMatch(u -> u.startsWith("cable:") || u.startsWith("port:"))) continue;
            Integer r = first.putIfAbsent(template(f.summary()), i);
            if (r != null) parent.put(i, r);
        }
    }

    /** A message without the node it names and its numbers: "S.../N... - No response for MAD X, status = 4" -> "No response for MAD X, status = #". */
    static String template(String message) {
        int dash = message.indexOf(" - ");
        String t = dash > 0 && dash < 120 ? message.substring(dash + 3) : message;
        return t.replaceAll("0x[0-9a-fA-F]+|\\b[0-9a-fA-F]{16}\\b|\\d+", "#");
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

    /** The root class a finding can be, or null. */
    private static Kind kind(Finding f) {
        if (f.status() != Status.FAIL && f.status() != Status.WARN) return null;
        return switch (f.check()) {
            case "port.state" -> f.variant().equals("down") || f.variant().equals("disabled") ? Kind.DOWN : null;
            case "link.width", "link.speed", "mlxlink" -> Kind.CABLE;
            case "link.errors", "link.errors.window" -> PHYS_COUNTER.matcher(f.summary()).find() ? Kind.CABLE : null;
            case "pcie" -> Kind.HOST_HW;
            case "ibdiagnet", "input", "fabric.inventory" -> null;
            default -> PERF.contains(f.check()) ? null : Kind.OTHER;
        };
    }

    /** Lower is stronger evidence among findings of one class. */
    private static int strength(Finding f) {
        int i = CABLE_CHECKS.indexOf(f.check());
        return i < 0 ? CABLE_CHECKS.size() : i;
    }

    /** Whether root r (of kind k, about rUnits) explains unit u of finding f. */
    private static boolean explains(Kind k, Finding r, Set<String> rUnits, Set<String> down, Finding f, String u) {
        String host = u.startsWith("host:") ? u.substring(5) : null;
        return switch (k) {
            case DOWN -> !HOST_LOCAL.contains(f.check()) && (!f.check().equals("input") || FABRIC_INPUT.matcher(f.summary()).lookingAt())
                    && (rUnits.contains(u)
                    || host != null && down.contains(host)
                    || u.startsWith("pair:") && pairHosts(u).stream().anyMatch(down::contains));
            case CABLE -> !HOST_LOCAL.contains(f.check()) && (u.startsWith("cable:") || u.startsWith("port:")) && rUnits.contains(u)
                    || (PERF.contains(f.check()) || f.check().equals("mlxlink")) && caHostOf(rUnits, host, u);
            case HOST_HW -> PERF.contains(f.check()) && (host != null && r.hosts().contains(host)
                    || u.startsWith("pair:") && pairHosts(u).stream().anyMatch(r.hosts()::contains));
            case OTHER -> f.check().equals("ibdiagnet") && (u.startsWith("cable:") || u.startsWith("port:")
                    || u.startsWith("node:") && r.check().equals("node.names")) && rUnits.contains(u);
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

    /** Maps the object names of findings onto physical units: "cable:...", "port:NODE:N", "host:H", "pair:A|B", "ca:H". */
    private static final class Resolver {
        private final Ctx ctx;
        private final Map<String, String> canonical = new HashMap<>();
        private final Set<String> linkNames = new java.util.HashSet<>();
        private final Map<Long, String> names = new HashMap<>();

        Resolver(Ctx ctx) {
            this.ctx = ctx;
            for (FabricIndex.Link k : ctx.index.links())
                for (LinkInfo l : new LinkInfo[] {k.a(), k.b()})
                    if (l != null) canonical.putIfAbsent(l.nodeName(), canonicalNode(l.nodeName(), !l.switchNode()));
            if (ctx.data.fabric().links() != null)
                for (LinkInfo l : ctx.data.fabric().links()) canonical.putIfAbsent(l.nodeName(), canonicalNode(l.nodeName(), !l.switchNode()));
            linkNames.addAll(canonical.keySet());
            for (String h : ctx.data.hosts().keySet()) canonical.put(h, h);
        }

        /** "node11 HCA-1" -> "node11" when node11 is a host of the dump; switch names stay. */
        private String canonicalNode(String name, boolean ca) {
            String first = name.split("\\s+")[0];
            return ca && ctx.data.hosts().containsKey(first) ? first : name;
        }

        Set<String> units(Finding f) {
            Set<String> u = new LinkedHashSet<>();
            if (PERF.contains(f.check())) {
                for (Evidence e : f.evidence()) {
                    Matcher m = PAIR.matcher(e.text());
                    if (m.find() && ctx.data.hosts().containsKey(m.group(1)) && ctx.data.hosts().containsKey(m.group(2))) u.add(pair(m.group(1), m.group(2)));
                }
                boolean pairFinding = !f.check().equals("perftest.localisation") && !f.check().equals("perftest.outlier");
                if (u.isEmpty() && pairFinding && f.objects().size() == 2) u.add(pair(f.objects().get(0), f.objects().get(1)));
                if (f.check().equals("perftest.localisation") && f.objects().size() == 1) return Set.of("host:" + f.objects().get(0));
                return u;
            }
            if (f.check().equals("ibdiagnet")) {
                for (Evidence e : f.evidence()) ibdiagnetPorts(e.text(), u);
                if (u.isEmpty()) ibdiagnetPorts(f.summary(), u);
                // "Node with GUID=... is configured with duplicated node description - NAME": what node.names reports
                Matcher dup = DIAG_DUP_DESC.matcher(f.summary());
                if (u.isEmpty() && dup.find()) u.add("node:" + dup.group(1).trim());
                return u;
            }
            for (String o : f.objects()) {
                Matcher m = PORT_OBJECT.matcher(o);
                if (m.matches()) {
                    port(m.group(1), Integer.parseInt(m.group(2)), u);
                } else if (ctx.data.hosts().containsKey(o)) {
                    // mlxlink and the cable inventory checks speak of the host's cable
                    if (f.check().equals("mlxlink") || f.check().startsWith("cable.")) hostCables(o, u);
                    else u.add("host:" + o);
                } else if (!o.isEmpty() && !o.equals("fabric")) {
                    u.add("node:" + o);
                }
            }
            return u;
        }

        private static String pair(String a, String b) {
            return a.compareTo(b) < 0 ? "pair:" + a + "|" + b : "pair:" + b + "|" + a;
        }

        /** "leaf03", "node06 HCA-1" or "node16/ibsim0" with a port number -> its port and cable units. */
        private void port(String node, int port, Set<String> u) {
            int slash = node.indexOf('/');
            if (slash > 0 && ctx.data.hosts().containsKey(node.substring(0, slash))) {
                String host = node.substring(0, slash), caName = node.substring(slash + 1);
                u.add("port:" + host + ":" + port);
                HostData h = ctx.data.hosts().get(host);
                if (h.ibstat() != null)
                    for (Ibstat.Ca ca : h.ibstat())
                        if (ca.name().equals(caName)) cable(ca.nodeGuid(), -1, null, port, u);
                return;
            }
            String c = canonical.getOrDefault(node, node);
            u.add("port:" + c + ":" + port);
            if (!linkNames.contains(node) && ctx.data.hosts().containsKey(c)) hostPort(c, port, u);
            else cable(0, -1, node, port, u);
        }

        private void hostPort(String host, int port, Set<String> u) {
            HostData h = ctx.data.hosts().get(host);
            if (h == null || h.ibstat() == null) return;
            for (Ibstat.Ca ca : h.ibstat()) cable(ca.nodeGuid(), -1, null, port, u);
        }

        /** The cables of a host's InfiniBand ports (mlxlink judges the host's link). */
        private void hostCables(String host, Set<String> u) {
            int before = u.size();
            HostData h = ctx.data.hosts().get(host);
            if (h != null && h.ibstat() != null)
                for (Ibstat.Ca ca : h.ibstat())
                    for (Ibstat.Port p : ca.ports())
                        if (p.linkLayer().isEmpty() || p.linkLayer().startsWith("I")) {
                            u.add("port:" + host + ":" + p.number());
                            cable(ca.nodeGuid(), -1, null, p.number(), u);
                        }
            if (u.size() == before) u.add("host:" + host);
        }

        private void cable(long guid, int lid, String name, int port, Set<String> u) {
            ctx.index.linkAt(guid, lid, name, port).ifPresent(k -> {
                u.add("cable:" + k.name());
                for (LinkInfo l : new LinkInfo[] {k.a(), k.b()}) {
                    if (l == null) continue;
                    String c = canonicalNode(l.nodeName(), !l.switchNode());
                    u.add("port:" + c + ":" + l.port());
                    if (!l.switchNode() && ctx.data.hosts().containsKey(c)) u.add("ca:" + c);
                }
                LinkInfo ca = ctx.index.caEnd(k);
                if (ca == null && k.b() == null && ctx.data.hosts().containsKey(k.a().remoteName().split("\\s+")[0]))
                    u.add("ca:" + k.a().remoteName().split("\\s+")[0]);
            });
        }

        /**
         * ibdiagnet names ports "NODE/U1/P3" (NODE may contain spaces: the longest known name before it wins) and
         * counters by "lid=0x0007 ... /P3".
         */
        private void ibdiagnetPorts(String text, Set<String> u) {
            Matcher g = DIAG_GUID_PORT.matcher(text);
            while (g.find()) {
                long guid = Long.parseUnsignedLong(g.group(1), 16);
                int port = Integer.parseInt(g.group(2));
                u.add("port:" + names.computeIfAbsent(guid, x -> ctx.index.whoIs(x, -1)) + ":" + port);
                cable(guid, -1, null, port, u);
            }
            Matcher m = DIAG_PORT.matcher(text);
            while (m.find()) {
                int port = Integer.parseInt(m.group(1));
                String before = text.substring(Math.max(0, m.start() - 80), m.start());
                String[] cut = before.split("-->|<--|[<>;=,(]");
                String tail = cut.length == 0 ? "" : cut[cut.length - 1];
                String[] words = tail.trim().split("\\s+");
                String found = null;
                for (int s = 0; s < words.length && found == null; s++) {
                    String name = String.join(" ", java.util.Arrays.copyOfRange(words, s, words.length));
                    if (canonical.containsKey(name)) found = name;
                }
                if (found == null && words.length > 0 && ctx.data.hosts().containsKey(words[0])) found = words[0];
                if (found == null) {
                    Matcher lid = DIAG_LID.matcher(text);
                    if (lid.find()) found = ctx.index.nameOfLid(Integer.decode(lid.group(1))).orElse(null);
                }
                if (found != null) port(found, port, u);
            }
        }

        boolean allPortsDown(String host) {
            HostData h = ctx.data.hosts().get(host);
            return h != null && h.ibstat() != null && h.ibstat().stream().allMatch(ca -> ca.ports().stream().noneMatch(Ibstat.Port::isActive));
        }
    }
}
