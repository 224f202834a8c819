package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.FabricIndex;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Shared by width and speed: each active link against what its class (host links, switch-to-switch links) is
 * expected to run at. A link below expectation whose ports could do more (iblinkinfo's "Could be", the HCA's
 * PortInfo) is a FAIL: cable, signal or a disabled rate; one that runs at the most its hardware supports is a
 * different finding (WARN: "HCA supports only ...").
 */
abstract class DegradedLink<T extends Comparable<T>> implements Check {
    /** Its PASS line is the version or rate every host shares: a fact for page 1. */
    public boolean statesFacts() {
        return true;
    }

    /** A link trained below its class is the cable's fault (or its module's). */
    public RootRole rootRole(io.ibaccept.rules.Finding f) {
        return RootRole.CABLE;
    }

    public List<Input> inputs() {
        // iblinkinfo has the state and the "Could be" rate; ibnetdiscover alone still prints every link's width and speed
        return List.of(Input.of(Cmd.IBLINKINFO, Cmd.IBNETDISCOVER));
    }

    public List<Setting> settings() {
        Setting.Type t = type();
        return List.of(Setting.of("expected", t, "auto", "expected value for every active link, unless its class setting (.host, .isl) is given; auto = per link class"),
                Setting.of("expected.host", t, "auto", "expected value for host (HCA-to-switch) links; auto = what most of them run at"),
                Setting.of("expected.isl", t, "auto", "expected value for switch-to-switch links (ISLs); auto = what most of them run at"));
    }

    abstract Setting.Type type();

    abstract T value(LinkInfo l);

    /** The link's value as judged: the fabric line's, unless a check knows better from the host (see Speed). */
    T value(Ctx c, FabricIndex.Link k) {
        return value(k.a());
    }

    abstract Optional<T> parse(String s);

    abstract double scale(T v);

    /** The better value iblinkinfo says the link could run at ("Could be 4X", "Could be 53.125 Gbps"), if it says so. */
    abstract Optional<T> couldBe(LinkInfo l);

    /** The best value the host's own port supports and enables (smpquery portinfo), if known. */
    abstract Optional<T> hostMax(HostData h);

    /** "HCA" wording: "width" / "speed". */
    abstract String what();

    public void evaluate(Ctx c) {
        List<FabricIndex.Link> active = c.index.links().stream()
                .filter(l -> l.a().isActive() && value(l.a()) != null).toList();
        if (active.isEmpty()) {
            c.skip("no active links in iblinkinfo or ibnetdiscover");
            return;
        }
        boolean hintsPrinted = c.data.fabric().links() != null && c.data.fabric().links().stream().anyMatch(l -> !l.couldBe().isBlank());
        int bad = 0;
        List<String> passes = new ArrayList<>();
        for (boolean isl : new boolean[] {false, true}) {
            // aggregation nodes, looped cables and back-to-back pairs are neither class; a chassis backplane is judged as an ISL
            List<FabricIndex.Link> cls = active.stream().filter(l -> isl ? isIsl(c.index.linkClass(l)) : c.index.linkClass(l) == io.ibaccept.fabric.Fabric.LinkClass.HOST).toList();
            if (cls.isEmpty()) continue;
            String name = isl ? "switch-to-switch" : "host";
            Optional<T> perClass = parse(c.text(isl ? "expected.isl" : "expected.host"));
            Optional<T> all = parse(c.text("expected"));
            T expected;
            String how;
            boolean inferred = false;
            if (perClass.isPresent()) {
                expected = perClass.get();
                how = "configured for " + name + " links";
            } else if (all.isPresent()) {
                expected = all.get();
                how = "configured";
            } else {
                List<T> values = cls.stream().map(l -> value(c, l)).toList();
                expected = Majority.of(values, Comparator.naturalOrder()).orElseThrow();
                how = Majority.tie(values) ? "no majority among " + name + " links (" + Majority.describe(values) + "): the better value expected"
                        : "most common among " + name + " links";
                inferred = true;
            }
            int badHere = 0;
            // by the majority only: a whole class of hosts (by name) below it alike is one warning, not a fault per cable
            Map<String, T> classValue = inferred && !isl && !declaredPerHost(c) ? hostClassesBelow(c, cls, expected) : Map.of();
            for (String hostClass : classValue.keySet()) {
                List<FabricIndex.Link> members = cls.stream().filter(l -> hostClassOf(c, l).equals(hostClass)).toList();
                badHere++;
                classWarning(c, hostClass, members, classValue.get(hostClass), expected);
            }
            List<FabricIndex.Link> belowCapable = new ArrayList<>();
            T best = cls.stream().map(l -> value(c, l)).max(Comparator.naturalOrder()).orElseThrow();
            for (FabricIndex.Link l : cls) {
                T got = value(c, l);
                T want = expected;
                String why = how;
                Evidence declaredAt = null;
                Optional<T> declared = isl ? Optional.empty() : declaredFor(c, hostAt(c, l));
                if (declared.isPresent()) {
                    want = declared.get();
                    why = "declared for " + hostAt(c, l) + " in the contract";
                    declaredAt = declaredAt(c, hostAt(c, l));
                }
                boolean ofClass = declared.isEmpty() && got.equals(classValue.get(hostClassOf(c, l)));
                if (got.compareTo(want) >= 0 || ofClass) {
                    // the majority is no proof: a link below what its ends could run is degraded however many are like it;
                    // when other links of its class run at that better value, it is a fault, else one warning for them all
                    Optional<T> cap = inferred && declared.isEmpty() && !ofClass ? couldBoth(l).map(x -> ceiling(best).filter(top -> x.compareTo(top) > 0).orElse(x))
                            : Optional.empty();
                    if (cap.isPresent() && cap.get().compareTo(got) > 0) {
                        T proven = cap.get().compareTo(best) < 0 ? cap.get() : best;
                        if (proven.compareTo(got) > 0) {
                            badHere++;
                            judge(c, l, got, proven, "other " + name + " links run at " + proven + " and this one could; " + how, hintsPrinted, null);
                        } else belowCapable.add(l);
                    }
                    continue;
                }
                badHere++;
                judge(c, l, got, want, why, hintsPrinted, declaredAt);
            }
            if (!belowCapable.isEmpty()) {
                badHere++;
                belowCapableWarning(c, belowCapable, name);
            }
            bad += badHere;
            if (badHere == 0) passes.add("all " + cls.size() + " active " + name + " links run at " + expected + " (" + how + ")");
        }
        if (bad == 0) c.pass(String.join("; ", passes), List.of(), List.of());
    }

    /** Whether the contract declares this dimension of some host's link (per class or for all host links). */
    private boolean declaredPerHost(Ctx c) {
        return c.contract().map(k -> k.classes().stream().anyMatch(cl -> cl.link() != null && declared(cl.link()).isPresent())
                || k.hostLink() != null && declared(k.hostLink()).isPresent()).orElse(false);
    }

    /** What the contract declares for this host's links (its class's, else every host link's), if anything. */
    private Optional<T> declaredFor(Ctx c, String host) {
        return c.contract().map(k -> k.hostLinkFor(host)).flatMap(this::declared);
    }

    /** This dimension of a declared link (its width or its speed). */
    abstract Optional<T> declared(io.ibaccept.contract.Contract.Link l);

    /** The most a link can be expected to run at when the best link of its class runs at best; empty: no limit. */
    Optional<T> ceiling(T best) {
        return Optional.empty();
    }

    /**
     * The better value iblinkinfo says both ends could run, if it says so on either end. The HCA's own maximum is not
     * enough: an NDR-capable HCA on an HDR leaf runs HDR by design.
     */
    private Optional<T> couldBoth(FabricIndex.Link l) {
        return couldBe(l.a()).or(() -> l.b() == null ? Optional.empty() : couldBe(l.b()));
    }

    /** Links at the expected (most common) value though both of their ends could run better: one WARN for them all. */
    private void belowCapableWarning(Ctx c, List<FabricIndex.Link> links, String name) {
        List<Evidence> ev = new ArrayList<>();
        for (FabricIndex.Link l : links.subList(0, Math.min(5, links.size()))) ev.add(Evidence.of(line(l.a()), l.a().ref()));
        if (links.size() > 5) ev.add(Evidence.of("... and " + (links.size() - 5) + " more " + name + " links", ""));
        List<String> objs = links.stream().map(l -> FabricIndex.Link.end(l.a())).limit(50).toList();
        T got = value(links.get(0).a());
        T could = couldBoth(links.get(0)).orElse(got);
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("count", links.size());
        v.put("active", got);
        v.put("could", could);
        v.put("class", name);
        v.put("key", name.equals("host") ? "host" : "isl");
        c.problem(Status.WARN, objs, ev, links.size() + " " + name + " link(s) run at " + got + " though both ends could run " + could
                + " (e.g. " + links.get(0).name() + "): the most common value is no proof, declare the expected " + what()
                + " (link." + what() + ".expected." + v.get("key") + " or the acceptance contract)", "below_capable", v);
    }

    private static boolean isIsl(io.ibaccept.fabric.Fabric.LinkClass c) {
        return c == io.ibaccept.fabric.Fabric.LinkClass.SWITCH_TO_SWITCH || c == io.ibaccept.fabric.Fabric.LinkClass.CHASSIS_INTERNAL;
    }

    /** Fewer host links than this in a class are judged one by one. */
    static final int MIN_CLASS = 4;

    /**
     * The classes of hosts (by name: "stor-07" and "stor-12" are "stor-#") whose every host link runs at one value below
     * the expected one: storage nodes at EDR among HDR compute nodes, built so or all cabled wrong alike.
     */
    private Map<String, T> hostClassesBelow(Ctx c, List<FabricIndex.Link> hostLinks, T expected) {
        Map<String, List<T>> byClass = new LinkedHashMap<>();
        for (FabricIndex.Link l : hostLinks) byClass.computeIfAbsent(hostClassOf(c, l), k -> new ArrayList<>()).add(value(c, l));
        if (byClass.size() < 2) return Map.of();
        Map<String, T> out = new java.util.TreeMap<>();
        byClass.forEach((k, vs) -> {
            if (vs.size() >= MIN_CLASS && vs.stream().distinct().count() == 1 && vs.get(0).compareTo(expected) < 0) out.put(k, vs.get(0));
        });
        return out;
    }

    /** The host's name with its numbers as '#': the naming class of the host at the link's HCA end. */
    private static final java.util.regex.Pattern DIGITS = java.util.regex.Pattern.compile("\\d+");

    private static String hostClassOf(Ctx c, FabricIndex.Link l) {
        return DIGITS.matcher(hostAt(c, l)).replaceAll("#");
    }

    /** The host at the link's HCA end, by the GUID its ibstat gives (else the first word of its description); "" for an ISL. */
    static String hostAt(Ctx c, FabricIndex.Link l) {
        LinkInfo ca = c.index.caEnd(l);
        return ca == null ? "" : c.index.hostOf(ca);
    }

    private void classWarning(Ctx c, String hostClass, List<FabricIndex.Link> members, T got, T expected) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("class", hostClass);
        v.put("count", members.size());
        v.put("active", got);
        v.put("expected", expected);
        v.put("ratio", Math.round(100 * scale(got) / scale(expected)) + "%");
        List<Evidence> ev = new ArrayList<>();
        for (FabricIndex.Link l : members.subList(0, Math.min(5, members.size()))) ev.add(Evidence.of(line(l.a()), l.a().ref()));
        if (members.size() > 5) ev.add(Evidence.of("... and " + (members.size() - 5) + " more links of " + hostClass + " hosts", ""));
        List<String> hosts = members.stream().map(l -> hostAt(c, l)).distinct().toList();
        c.problem(Status.WARN, hosts, ev, "all " + members.size() + " host links of the " + hostClass + " hosts ("
                + io.ibaccept.rules.Hostlists.compress(hosts) + ") run at " + got + ", the other hosts at " + expected, "class", v);
    }

    /** Where the contract declares the host's link: its class's line, else the host links' line. */
    private static Evidence declaredAt(Ctx c, String host) {
        io.ibaccept.contract.Contract k = c.contract().orElseThrow();
        io.ibaccept.contract.Contract.NodeClass cl = k.classOf(host);
        return cl != null && cl.link() != null ? Evidence.of("class " + cl.name() + ": " + cl.link(), k.where("classes." + cl.name() + ".link"))
                : Evidence.of("host links: " + k.hostLink(), k.where("links.host"));
    }

    private void judge(Ctx c, FabricIndex.Link l, T got, T expected, String how, boolean hintsPrinted, Evidence declaredAt) {
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
        if (declaredAt != null) ev.add(declaredAt);
        List<String> objs = new ArrayList<>(List.of(FabricIndex.Link.end(l.a())));
        if (l.b() != null) objs.add(FabricIndex.Link.end(l.b()));
        // what the hardware can do: the HCA's PortInfo, else iblinkinfo's hint
        HostData h = c.data.hosts().get(hostAt(c, l));
        Optional<T> hw = h == null ? Optional.empty() : hostMax(h);
        Optional<T> could = couldBe(l.a()).or(() -> l.b() == null ? Optional.empty() : couldBe(l.b()));
        boolean capped = hw.isPresent() && hw.get().compareTo(got) <= 0
                || hw.isEmpty() && could.isEmpty() && hintsPrinted;
        if (capped && could.map(x -> x.compareTo(got) <= 0).orElse(true)) {
            String who = hw.isPresent() ? "HCA of " + h.host() : "ports of this link";
            v.put("who", who);
            if (hw.isPresent()) ev.add(Evidence.of(h.host() + " PortInfo: supports/enables at most " + hw.get(), h.portInfo().ref()));
            c.problem(Status.WARN, objs, ev, l.name() + " runs at " + got + " because the " + who + (hw.isPresent() ? " supports" : " support") + " only " + got
                    + " (expected " + expected + ", " + how + ")", "capability", v);
            return;
        }
        // two ASICs of one chassis are joined by the backplane, not a cable: the fix is the module or the chassis
        boolean backplane = c.index.linkClass(l) == io.ibaccept.fabric.Fabric.LinkClass.CHASSIS_INTERNAL;
        Finding f = c.problem(Status.FAIL, objs, ev, l.name() + (backplane ? " (chassis backplane)" : "") + " runs at " + got + ", expected " + expected + " (" + how + ")"
                + could.map(x -> "; both ends could run " + x).orElse(""), backplane ? "backplane" : "", v);
        // a switch over its blocking ratio only because of this link is listed under it
        c.covers(f, objs.stream().map(io.ibaccept.rules.checks.fabric.Issues::cableDegraded).toList());
    }

    static String line(LinkInfo l) {
        return l.nodeName() + " port " + l.port() + ": " + (l.width() == null ? "" : l.width() + " ")
                + (l.speed() == null ? "" : l.speed() + " ") + l.state() + "/" + l.physState() + " -> \"" + l.remoteName() + "\" port " + l.remotePort()
                + (l.couldBe().isBlank() ? "" : " (" + l.couldBe().trim() + ")");
    }
}
