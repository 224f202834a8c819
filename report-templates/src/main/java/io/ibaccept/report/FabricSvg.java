package io.ibaccept.report;

import io.ibaccept.analysis.Analysis.PartProblem;
import io.ibaccept.fabric.Fabric;
import io.ibaccept.fabric.Fabric.End;
import io.ibaccept.fabric.Fabric.Link;
import io.ibaccept.fabric.Fabric.LinkClass;
import io.ibaccept.fabric.Fabric.Node;
import io.ibaccept.fabric.PlanDiff;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.rules.Ref;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The fabric as a picture that fits a page at any size: one row per switch level (the top at the top), a chassis
 * switch as one box, and when a level has more than {@link #MAX_PER_ROW} switches, the switches with a problem as
 * boxes of their own and the others folded into boxes per group (scalable unit, plane) or run of names. Parallel cables
 * between two boxes are one line, coloured by the worst of them and labelled with their count when any is not as
 * expected. Under each leaf its hosts: each one with its state while they are few, else a count with the hosts that
 * have a problem named. Problems come from the fabric (a link down, slower or narrower than its peers, a looped cable, a
 * cable the plan has and the fabric has not) and from the FAIL/WARN findings' typed references to ports, cables, HCA
 * ends, nodes and SMs, so the picture shows what the checks judged; the subnet managers are marked on their nodes. Labels are at least 10 units in a picture at most
 * {@link #MAX_WIDTH} wide: 8 pt when the PDF scales it to a landscape A4 page. Output is standalone SVG text.
 */
public final class FabricSvg {
    private FabricSvg() {}

    static final int MAX_PER_ROW = 7, PROBLEM_BOXES = 3, MAX_HOSTS_LISTED = 12, MAX_MARKS = 3;
    /** A finding naming more parts than this is about a class of them (every leaf 2:1, all storage hosts at EDR), not a place: not drawn. */
    static final int MAX_REFS_PLACED = 24;
    /** Up to this many lines, every line of parallel cables says how many it bundles (beyond, its tooltip does). */
    static final int MAX_COUNTED_BUNDLES = 16;
    private static final int BOX_W = 118, GAP = 14, MARGIN = 20, LINE_H = 13, BOX_BASE_H = 36, ROW_GAP = 110;
    static final int MAX_WIDTH = 2 * MARGIN + MAX_PER_ROW * (BOX_W + GAP);
    static final String OK = "#8c8c8c", WARN = "#e07800", FAIL = "#d62728", TEXT = "#1d2733";

    /** What the picture is drawn from: the fabric, the plan comparison, problems by Ref key, and how hosts are named. */
    record Inputs(Fabric fabric, PlanDiff.Result plan, Map<String, PartProblem> problems, Function<Node, String> hostName, List<String> notInFabric,
                  Map<Long, Mark> sms) {
        static Inputs of(Fabric f, PlanDiff.Result plan) {
            return new Inputs(f, plan, Map.of(), n -> io.ibaccept.fabric.Fabric.hostPart(n.name()), List.of(), Map.of());
        }
    }

    /** The worst FAIL/WARN finding naming each part, from the findings that name few enough parts to be placed. */
    private static Map<String, PartProblem> problems(ReportFacts facts) {
        return facts.analysis().problemsByRef(MAX_REFS_PLACED);
    }

    /** A line of text in a box or under it, with its state. */
    record Mark(String text, Status status) {}

    /** A drawn box: one switch, one chassis, or several switches folded together. */
    private static final class Box {
        final List<Node> members = new ArrayList<>();
        final List<Mark> marks = new ArrayList<>();
        final List<Mark> hosts = new ArrayList<>();
        String label, sublabel = "";
        int level, hostCount, hostProblems, x, y, h = BOX_BASE_H;
        Status worst, hostWorst;

        void problem(Mark m) {
            marks.add(m);
            worst = worse(worst, m.status());
        }
    }

    /** The cables drawn as one line between two boxes. */
    private static final class Bundle {
        final Box a, b;
        int ok, warn, fail, missing;
        final List<String> samples = new ArrayList<>();

        Bundle(Box a, Box b) {
            this.a = a;
            this.b = b;
        }

        int total() {
            return ok + warn + fail + missing;
        }
    }

    /**
     * The "Fabric" section of the HTML report, inserted before the per-node table. Nothing is added when the dump has
     * no usable topology.
     */
    static void appendSection(org.jsoup.nodes.Document doc, ReportFacts facts) {
        Picture pic = facts.fabricPicture();
        if (pic == null) return;
        org.jsoup.nodes.Element section = new org.jsoup.nodes.Element("section").attr("id", "fabric");
        section.appendElement("h2").text("Fabric");
        section.appendElement("p").addClass("fabric-caption").text(pic.title + ". " + pic.caption);
        section.appendElement("div").addClass("fabric-picture").append(svg(pic));
        org.jsoup.nodes.Element nodes = doc.getElementById("nodes");
        if (nodes != null) nodes.before(section);
        else doc.body().appendChild(section);
    }

    static Inputs inputs(ReportFacts facts) {
        Fabric f = facts.fabric();
        if (f == null) return null;
        FabricView view = facts.view();
        java.util.Set<String> inFabric = new java.util.HashSet<>(view.caHost.values());
        List<String> absent = facts.data().hosts().keySet().stream().filter(h -> !inFabric.contains(h)).sorted().toList();
        Function<Node, String> hostName = n -> view.caHost.getOrDefault(n.guid(), io.ibaccept.fabric.Fabric.hostPart(n.name()));
        Map<String, PartProblem> problems = problems(facts);
        return new Inputs(f, facts.plan(), problems, hostName, absent, sms(facts, f, problems, hostName));
    }

    /**
     * The subnet managers by the node they run on: "SM master", "SM standby" from sminfo, "SM" for an IsSM port saquery
     * lists that sminfo did not answer for, in the colour of the worst finding naming the SM (a rogue or a second master).
     */
    static Map<Long, Mark> sms(ReportFacts facts, Fabric f, Map<String, PartProblem> problems, Function<Node, String> hostName) {
        var fd = facts.data().fabric();
        if (fd == null) return Map.of();
        Map<Long, Mark> out = new HashMap<>();
        java.util.Set<Integer> lids = new java.util.HashSet<>();
        List<Object[]> found = new ArrayList<>();
        if (fd.sms() != null)
            for (io.ibaccept.model.SmInfo sm : fd.sms()) {
                Node n = f.caOfPort(sm.guid());
                if (n == null) n = f.node(sm.guid());
                if (n == null) n = f.nodeOfLid(sm.lid());
                String state = sm.stateName() == null ? "" : sm.stateName().replace("SMINFO_", "").toLowerCase(Locale.ROOT);
                if (n != null) found.add(new Object[] {n, sm.lid(), "SM" + (state.isEmpty() || state.equals("unknown") ? "" : " " + state)});
                lids.add(sm.lid());
            }
        if (fd.smPorts() != null)
            for (io.ibaccept.model.SmPort p : fd.smPorts()) {
                if (p.smDisabled() || lids.contains(p.endPortLid())) continue;
                Node n = f.nodeOfLid(p.endPortLid());
                if (n != null) found.add(new Object[] {n, p.endPortLid(), "SM"});
            }
        for (Object[] x : found) {
            Node n = (Node) x[0];
            String name = n.isSwitch() ? n.name() : hostName.apply(n);
            PartProblem pr = worst(problems, new Ref.Sm(name), new Ref.Sm("SM lid " + x[1]), new Ref.Sm(n.name()));
            out.merge(n.guid(), new Mark((String) x[2], pr == null ? null : pr.status()), (a, b) -> new Mark(a.text() + ", " + b.text(), worse(a.status(), b.status())));
        }
        return out;
    }

    public static String render(Fabric f, PlanDiff.Result plan) {
        return svg(layout(Inputs.of(f, plan)));
    }

    static Picture layout(Inputs in) {
        Fabric f = in.fabric();
        Map<String, PartProblem> problems = in.problems();
        // the units of each level: a switch, or all ASICs of one chassis (at the level of its highest ASIC)
        Map<Long, List<Node>> chassis = f.chassis();
        TreeMap<Integer, List<Box>> units = new TreeMap<>(Comparator.reverseOrder());
        Map<Long, Box> unitOf = new HashMap<>();
        List<Node> unleveled = new ArrayList<>();
        for (Node n : f.switches()) {
            if (n.level() < 0 && !chassis.containsKey(n.system())) {
                unleveled.add(n);
                continue;
            }
            List<Node> members = chassis.getOrDefault(n.system(), List.of(n));
            if (unitOf.containsKey(members.get(0).guid())) {
                unitOf.put(n.guid(), unitOf.get(members.get(0).guid()));
                continue;
            }
            Box b = new Box();
            b.members.addAll(members);
            b.level = Math.max(1, members.stream().mapToInt(Node::level).max().orElse(1));
            b.label = members.size() > 1 ? FabricView.slurmName(n.description(), n.system()) : n.shortName();
            if (members.size() > 1) b.sublabel = "chassis, " + members.size() + " ASICs";
            for (Node m : members) unitOf.put(m.guid(), b);
            units.computeIfAbsent(b.level, k -> new ArrayList<>()).add(b);
        }

        // problems of each unit and the state of each link
        LinkWidth islW = mode(f.links().stream().filter(f::isSwitchToSwitch).map(Link::width).toList());
        LinkSpeed islS = mode(f.links().stream().filter(f::isSwitchToSwitch).map(Link::speed).toList());
        LinkWidth hostW = mode(f.links().stream().filter(f::isHostLink).map(Link::width).toList());
        LinkSpeed hostS = mode(f.links().stream().filter(f::isHostLink).map(Link::speed).toList());
        Map<Box, List<Link>> hostLinks = new LinkedHashMap<>();
        List<Link> isls = new ArrayList<>();
        List<String> backToBack = new ArrayList<>();
        for (Link l : f.links()) {
            Node a = f.node(l.a().guid()), b = f.node(l.b().guid());
            if (a == null || b == null) continue;
            LinkClass c = f.linkClass(l);
            switch (c) {
                case SWITCH_TO_SWITCH -> isls.add(l);
                case HOST -> {
                    Box leaf = unitOf.get((a.isSwitch() ? a : b).guid());
                    if (leaf != null) hostLinks.computeIfAbsent(leaf, k -> new ArrayList<>()).add(l);
                }
                case LOOPBACK -> {
                    Box u = unitOf.get(a.guid());
                    if (u != null) u.problem(new Mark("looped p" + l.a().port() + "\u2013p" + l.b().port(), Status.FAIL));
                }
                case CHASSIS_INTERNAL -> {
                    Status s = linkStatus(f, l, problems);
                    if (s != null && unitOf.get(a.guid()) != null)
                        unitOf.get(a.guid()).problem(new Mark("backplane " + shortName(f, l.a()) + "\u2013" + shortName(f, l.b()) + ": " + state(f, l, islW, islS), s));
                }
                case HOST_TO_HOST -> backToBack.add(in.hostName().apply(a) + " \u2013 " + in.hostName().apply(b));
                default -> {}
            }
        }
        // a switch-to-switch cable with a problem makes both of its switches problem units (kept as boxes of their own)
        Map<Link, Status> islStatus = new java.util.IdentityHashMap<>();
        for (Link l : isls) {
            Status st = linkStatus(f, l, problems);
            if (st == null) continue;
            islStatus.put(l, st);
            for (long g : new long[] {l.a().guid(), l.b().guid()}) {
                Box u = unitOf.get(g);
                if (u != null) u.worst = worse(u.worst, st);
            }
        }
        // ports the findings name that carry no drawn cable (a port down, a cable pulled)
        for (Box u : units.values().stream().flatMap(List::stream).toList())
            for (Node m : u.members) {
                int top = f.topPort(m.guid());
                for (int p = 1; p <= top; p++) {
                    if (f.linkAt(new End(m.guid(), p)).isPresent()) continue;
                    PartProblem pr = worst(problems, new Ref.Port(m.name(), p), new Ref.Port(m.description(), p));
                    if (pr != null) u.problem(new Mark((u.members.size() > 1 ? shortName(f, new End(m.guid(), p)) : "p" + p) + " " + pr.check(), pr.status()));
                }
                PartProblem pr = worst(problems, new Ref.Node(m.name()), new Ref.Node(m.description()));
                if (pr != null) u.problem(new Mark(u.members.size() > 1 ? m.shortName() + " " + pr.check() : pr.check(), pr.status()));
                Mark sm = in.sms().get(m.guid());
                if (sm != null) u.problem(new Mark(u.members.size() > 1 ? m.shortName() + " " + sm.text() : sm.text(), sm.status()));
            }
        // hosts by name (a host with two HCA ports on one leaf is one host, drawn in the worse state); a name several CAs
        // share (a vendor default description) gets the end of each CA's GUID
        Map<String, Integer> sameName = new HashMap<>();
        for (Node h : f.hosts()) sameName.merge(in.hostName().apply(h), 1, Integer::sum);
        for (Map.Entry<Box, List<Link>> e : hostLinks.entrySet()) {
            Box leaf = e.getKey();
            Map<String, Mark> byHost = new TreeMap<>();
            for (Link l : e.getValue()) {
                Node ca = f.node(hostEnd(f, l).guid());
                String host = in.hostName().apply(ca);
                Status s = linkStatus(f, l, problems);
                PartProblem named = worst(problems, new Ref.HcaEnd(host), new Ref.Node(host), new Ref.Node(ca.name()));
                if (named != null) s = worse(s, named.status());
                Mark sm = in.sms().get(ca.guid());
                if (sm != null) s = worse(s, sm.status());
                String name = (sameName.getOrDefault(host, 1) > 1 ? host + String.format(" ..%06x", ca.guid() & 0xffffff) : host) + (sm == null ? "" : " (" + sm.text() + ")");
                String detail = s == null ? "" : hostDetail(f, l, problems, hostW, hostS, named);
                Mark m = new Mark(name + (detail.isEmpty() ? "" : " " + detail), s);
                byHost.merge(name, m, (x, y) -> y.status() != null && (x.status() == null || y.status().worseThan(x.status())) ? y : x);
            }
            for (Mark m : byHost.values()) {
                leaf.hosts.add(m);
                leaf.hostCount++;
                if (m.status() != null) {
                    leaf.hostProblems++;
                    leaf.hostWorst = worse(leaf.hostWorst, m.status());
                }
            }
        }

        // rows: every unit when they fit, else the problem units and the rest folded
        Map<Integer, List<Box>> rows = new LinkedHashMap<>();
        for (Map.Entry<Integer, List<Box>> e : units.entrySet()) {
            List<Box> row = e.getValue();
            row.sort(Comparator.comparing((Box b) -> b.label));
            rows.put(e.getKey(), row.size() <= MAX_PER_ROW ? row : fold(row, e.getKey(), unitOf));
        }
        Map<Long, Box> boxOf = new HashMap<>();
        for (List<Box> row : rows.values()) for (Box b : row) for (Node n : b.members) boxOf.put(n.guid(), b);

        // boxes compare by identity: one bundle per pair, found from either side
        Map<Box, Map<Box, Bundle>> bundles = new HashMap<>();
        List<Bundle> drawn = new ArrayList<>();
        for (Link l : isls) {
            Box ba = boxOf.get(l.a().guid()), bb = boxOf.get(l.b().guid());
            if (ba == null || bb == null || ba == bb) continue;
            Bundle bundle = bundle(bundles, drawn, ba, bb);
            Status s = islStatus.get(l);
            if (s == null) bundle.ok++;
            else {
                if (s == Status.FAIL) bundle.fail++;
                else bundle.warn++;
                if (bundle.samples.size() < MAX_MARKS) bundle.samples.add(f.name(l) + ": " + state(f, l, islW, islS));
            }
        }
        if (in.plan() != null)
            for (End[] m : in.plan().missing()) {
                Box ba = boxOf.get(m[0].guid()), bb = boxOf.get(m[1].guid());
                if (ba == null || bb == null) continue;
                if (ba == bb) {
                    ba.problem(new Mark("missing vs plan: " + shortName(f, m[0]) + "\u2013" + shortName(f, m[1]), Status.FAIL));
                    continue;
                }
                Bundle bundle = bundle(bundles, drawn, ba, bb);
                bundle.missing++;
                boolean aLower = ba.level <= bb.level;
                if (bundle.samples.size() < MAX_MARKS) bundle.samples.add("missing vs plan: " + f.name(aLower ? m[0] : m[1]) + " <-> " + f.name(aLower ? m[1] : m[0]));
            }

        // geometry
        boolean listHosts = rows.values().stream().flatMap(List::stream).filter(b -> b.hostCount > 0)
                .allMatch(b -> b.members.size() == 1 || !b.sublabel.startsWith("chassis") && b.hostCount <= MAX_HOSTS_LISTED)
                && rows.values().stream().flatMap(List::stream).mapToInt(b -> b.hostCount).max().orElse(0) <= MAX_HOSTS_LISTED;
        int widest = rows.values().stream().mapToInt(List::size).max().orElse(1);
        int width = Math.max(640, 2 * MARGIN + widest * (BOX_W + GAP));
        Picture pic = new Picture(width, 0, title(f, chassis.size(), sameName.size()));
        // a host with several HCAs (a DGX on eight rails) is under a leaf once per HCA: a leaf's count is of HCAs then
        boolean multiHca = sameName.values().stream().anyMatch(n -> n > 1);
        int y = MARGIN;
        int hostArea = 0;
        for (List<Box> row : rows.values()) {
            int rowWidth = row.size() * (BOX_W + GAP) - GAP, x = (width - rowWidth) / 2, rowH = 0;
            for (Box b : row) {
                b.x = x;
                b.y = y;
                b.h = BOX_BASE_H + LINE_H * Math.min(b.marks.size(), MAX_MARKS + 1);
                rowH = Math.max(rowH, b.h);
                x += BOX_W + GAP;
                if (b.hostCount > 0) hostArea = Math.max(hostArea, LINE_H * (listHosts ? b.hosts.size()
                        : 1 + (b.hostProblems > 0 ? 1 : 0) + Math.min(b.hostProblems, MAX_MARKS) + (b.hostProblems > MAX_MARKS ? 1 : 0)));
            }
            y += rowH + ROW_GAP;
        }
        y -= ROW_GAP;
        int notes = (unleveled.isEmpty() ? 0 : 1) + (backToBack.isEmpty() ? 0 : 1) + (in.notInFabric().isEmpty() ? 0 : 1);
        int height = y + 8 + hostArea + 20 + notes * LINE_H + 34;
        pic.height = height;

        drawn.sort(Comparator.comparingInt((Bundle b) -> b.fail + b.missing > 0 ? 2 : b.warn > 0 ? 1 : 0)); // problems drawn on top
        for (Bundle b : drawn) {
            Box hi = b.a.y <= b.b.y ? b.a : b.b, lo = hi == b.a ? b.b : b.a;
            Status s = b.fail + b.missing > 0 ? Status.FAIL : b.warn > 0 ? Status.WARN : null;
            int x1 = hi.x + BOX_W / 2, y1 = hi.y + hi.h, x2 = lo.x + BOX_W / 2, y2 = lo.y;
            if (hi.y == lo.y) { // two switches of one level (a ring, a back-to-back pair of switches): side to side
                Box left = hi.x < lo.x ? hi : lo, right = left == hi ? lo : hi;
                x1 = left.x + BOX_W;
                x2 = right.x;
                y1 = y2 = left.y + BOX_BASE_H / 2;
            }
            String tip = hi.label + " \u2013 " + lo.label + ": " + b.total() + " cable(s)" + counts(b) + (b.samples.isEmpty() ? "" : "; " + String.join("; ", b.samples));
            pic.lines.add(new Line(x1, y1, x2, y2, color(s), s == null ? Math.min(4, 1 + Math.log(b.total()) / Math.log(4)) : 2.5, b.missing > 0, cls(s), tip));
            if (s != null) {
                String text = (b.fail + b.warn + b.missing) + " of " + b.total() + (b.missing > 0 ? " missing" : b.fail > 0 ? " down" : " degraded");
                pic.labels.add(new Label((x1 + x2) / 2, (y1 + y2) / 2, text, color(s), 10, "bundle " + cls(s), tip, true));
            } else if (drawn.size() <= MAX_COUNTED_BUNDLES && b.total() > 1) {
                // the cable count of a healthy bundle, near its lower end where the lines into one box are apart
                pic.labels.add(new Label((int) (x1 + 0.7 * (x2 - x1)), (int) (y1 + 0.7 * (y2 - y1)) + 4, "\u00d7" + b.total(), TEXT, 10, "bundle count", tip, true));
            }
        }
        for (List<Box> row : rows.values())
            for (Box b : row) {
                Status s = worse(b.worst, b.hostWorst);
                pic.rects.add(new Rect(b.x, b.y, BOX_W, b.h, b.level == 1 ? "#e8f0fb" : "#dfe9d6", s == null ? "#444444" : color(s), s == null ? 0.8 : 2,
                        "switch level" + b.level + (s == null ? "" : " " + cls(s)), tooltip(b)));
                pic.labels.add(new Label(b.x + BOX_W / 2, b.y + 15, clip(b.label, 19), TEXT, 11, "name", null, false));
                if (!b.sublabel.isEmpty()) pic.labels.add(new Label(b.x + BOX_W / 2, b.y + 28, clip(b.sublabel, 22), TEXT, 10, null, null, false));
                int my = b.y + BOX_BASE_H + 8;
                for (int i = 0; i < b.marks.size() && i < MAX_MARKS; i++, my += LINE_H)
                    pic.labels.add(new Label(b.x + BOX_W / 2, my, clip(b.marks.get(i).text(), 22), color(b.marks.get(i).status()), 10, "problem " + cls(b.marks.get(i).status()), b.marks.get(i).text(), false));
                if (b.marks.size() > MAX_MARKS) pic.labels.add(new Label(b.x + BOX_W / 2, my, "+" + (b.marks.size() - MAX_MARKS) + " more", color(b.worst), 10, null, null, false));
                if (b.hostCount == 0) continue;
                int hy = b.y + b.h + 8 + LINE_H;
                if (listHosts) {
                    for (Mark h : b.hosts) {
                        pic.rects.add(new Rect(b.x + 4, hy - 8, 8, 8, h.status() == null ? "#9cc79c" : color(h.status()), "#444444", 0.5, "host " + cls(h.status()), h.text()));
                        pic.labels.add(new Label(-(b.x + 16), hy, clip(h.text(), 19), h.status() == null ? TEXT : color(h.status()), 10, "host " + cls(h.status()), h.text(), false));
                        hy += LINE_H;
                    }
                } else {
                    pic.labels.add(new Label(b.x + BOX_W / 2, hy, count(b.hostCount) + (multiHca ? " HCAs" : " hosts"), TEXT, 10, "hosts", null, false));
                    if (b.hostProblems > 0) {
                        hy += LINE_H;
                        pic.labels.add(new Label(b.x + BOX_W / 2, hy, b.hostProblems + " with problems:", color(b.hostWorst), 10, "hosts " + cls(b.hostWorst), null, false));
                    }
                    int shown = 0;
                    for (Mark h : b.hosts) {
                        if (h.status() == null) continue;
                        if (shown++ == MAX_MARKS) {
                            hy += LINE_H;
                            pic.labels.add(new Label(b.x + BOX_W / 2, hy, "+" + (b.hostProblems - MAX_MARKS) + " more", TEXT, 10, null, null, false));
                            break;
                        }
                        hy += LINE_H;
                        pic.labels.add(new Label(b.x + BOX_W / 2, hy, clip(h.text(), 22), color(h.status()), 10, "host " + cls(h.status()), h.text(), false));
                    }
                }
            }
        int ny = height - 34 - notes * LINE_H + 4;
        if (!unleveled.isEmpty()) {
            pic.labels.add(new Label(-MARGIN, ny, clip(unleveled.size() + " switch(es) not connected to any leaf: " + String.join(", ", unleveled.stream().map(Node::name).toList()), 130),
                    FAIL, 10, "problem FAIL", null, false));
            ny += LINE_H;
        }
        if (!backToBack.isEmpty()) {
            pic.labels.add(new Label(-MARGIN, ny, clip("cabled back to back, without a switch: " + String.join(", ", backToBack), 130), TEXT, 10, null, null, false));
            ny += LINE_H;
        }
        if (!in.notInFabric().isEmpty())
            pic.labels.add(new Label(-MARGIN, ny, clip(in.notInFabric().size() + " host(s) of the dump not in the fabric: " + String.join(", ", in.notInFabric()), 130),
                    FAIL, 10, "problem FAIL absent", null, false));
        pic.caption = "every switch " + (rows.values().stream().allMatch(r -> r.stream().allMatch(b -> b.members.size() == 1 || b.sublabel.startsWith("chassis")))
                ? "is a box" : "with a problem is a box; the others are folded per group or run of names")
                + "; parallel cables are one line; " + (listHosts ? "every host is listed under its leaf" : "hosts are counted under their leaf, those with a problem named");
        return pic;
    }

    /** A level with too many units: the worst few as boxes of their own, the rest folded per group, or in runs of names. */
    private static List<Box> fold(List<Box> row, int level, Map<Long, Box> unitOf) {
        List<Box> bad = row.stream().filter(b -> worse(b.worst, b.hostWorst) != null)
                .sorted(Comparator.comparing((Box b) -> worse(b.worst, b.hostWorst)).thenComparing(b -> b.label)).toList();
        List<Box> out = new ArrayList<>(bad.subList(0, Math.min(PROBLEM_BOXES, bad.size())));
        List<Box> rest = row.stream().filter(b -> !out.contains(b)).toList();
        int slots = MAX_PER_ROW - out.size();
        Map<Integer, List<Box>> byGroup = new TreeMap<>();
        for (Box b : rest) byGroup.computeIfAbsent(b.members.get(0).group(), k -> new ArrayList<>()).add(b);
        // a box never folds switches of two name families (leaves and management leaves) while each can have its own
        Map<String, List<Box>> byFamily = new TreeMap<>(), byGroupAndFamily = new TreeMap<>();
        for (Box b : rest) {
            byFamily.computeIfAbsent(b.members.get(0).family(), k -> new ArrayList<>()).add(b);
            byGroupAndFamily.computeIfAbsent(String.format(Locale.ROOT, "%09d/%s", b.members.get(0).group(), b.members.get(0).family()), k -> new ArrayList<>()).add(b);
        }
        List<List<Box>> chunks = new ArrayList<>();
        if (byGroup.size() > 1 && byGroupAndFamily.size() <= slots) chunks.addAll(byGroupAndFamily.values());
        else if (byFamily.size() <= slots) {
            // each family its share of the boxes (at least one), its switches in runs of groups and names
            int[] share = shares(byFamily.values().stream().mapToInt(List::size).toArray(), Math.min(slots, rest.size()));
            int i = 0;
            for (List<Box> family : byFamily.values()) chunks.addAll(runs(family, share[i++]));
        } else chunks.addAll(runs(rest, slots));
        boolean groups = byGroup.size() > 1;
        for (List<Box> chunk : chunks) {
            if (chunk.size() == 1) {
                out.add(chunk.get(0));
                continue;
            }
            Box f = new Box();
            f.level = level;
            f.label = range(chunk.get(0).label, chunk.get(chunk.size() - 1).label);
            int g = chunk.get(0).members.get(0).group();
            boolean oneGroup = chunk.stream().allMatch(b -> b.members.get(0).group() == g);
            f.sublabel = chunk.size() + " switches" + (groups && oneGroup && g > 0 ? ", group " + g : "");
            for (Box b : chunk) {
                f.members.addAll(b.members);
                f.worst = worse(f.worst, b.worst);
                // one line per switch with problems; its own box's lines are in the tooltip
                if (!b.marks.isEmpty())
                    f.problem(new Mark(b.label + (b.marks.size() > 1 ? " (" + b.marks.size() + ")" : " " + b.marks.get(0).text()), b.worst));
                f.hostCount += b.hostCount;
                f.hostProblems += b.hostProblems;
                f.hostWorst = worse(f.hostWorst, b.hostWorst);
                f.hosts.addAll(b.hosts);
            }
            out.add(f);
        }
        out.sort(Comparator.comparing((Box b) -> b.members.get(0).group()).thenComparing(b -> b.label));
        return out;
    }

    /** The boxes split into n runs of about the same size, in the order of their groups and names. */
    private static List<List<Box>> runs(List<Box> boxes, int n) {
        if (boxes.isEmpty()) return List.of();
        List<Box> sorted = new ArrayList<>(boxes);
        sorted.sort(Comparator.comparingInt((Box b) -> b.members.get(0).group()).thenComparing(b -> b.label));
        int k = Math.max(1, Math.min(n, sorted.size()));
        List<List<Box>> out = new ArrayList<>();
        for (int g = 0; g < k; g++) out.add(sorted.subList((int) ((long) g * sorted.size() / k), (int) ((long) (g + 1) * sorted.size() / k)));
        return out;
    }

    /** slots split over parts of these sizes: one each, the rest by size (largest remainder). */
    static int[] shares(int[] sizes, int slots) {
        int[] out = new int[sizes.length];
        java.util.Arrays.fill(out, 1);
        int left = slots - sizes.length;
        long total = java.util.Arrays.stream(sizes).sum();
        if (left <= 0 || total == 0) return out;
        double[] exact = new double[sizes.length];
        int given = 0;
        for (int i = 0; i < sizes.length; i++) {
            exact[i] = (double) left * sizes[i] / total;
            int whole = Math.min((int) exact[i], sizes[i] - 1);
            out[i] += whole;
            given += whole;
        }
        while (given < left) {
            int best = -1;
            for (int i = 0; i < sizes.length; i++)
                if (out[i] < sizes[i] && (best < 0 || exact[i] - (int) exact[i] > exact[best] - (int) exact[best])) best = i;
            if (best < 0) break;
            out[best]++;
            exact[best] = (int) exact[best]; // its remainder is spent
            given++;
        }
        return out;
    }

    /** "spine0001–0020": a run of names with their common prefix said once (up to where the numbers start). */
    static String range(String first, String last) {
        int p = 0;
        while (p < first.length() && p < last.length() && first.charAt(p) == last.charAt(p)) p++;
        while (p > 0 && Character.isDigit(last.charAt(p - 1))) p--;
        return first + "\u2013" + (p > 0 && p < last.length() ? last.substring(p) : last);
    }

    private static Bundle bundle(Map<Box, Map<Box, Bundle>> bundles, List<Bundle> all, Box a, Box b) {
        Bundle known = bundles.getOrDefault(b, Map.of()).get(a);
        if (known != null) return known;
        return bundles.computeIfAbsent(a, k -> new HashMap<>()).computeIfAbsent(b, k -> {
            Bundle n = new Bundle(a, b);
            all.add(n);
            return n;
        });
    }

    private static End hostEnd(Fabric f, Link l) {
        return f.node(l.a().guid()).isSwitch() ? l.b() : l.a();
    }

    /**
     * null: as expected; FAIL: not active; else what the findings naming the cable or its ports say. A link slower than
     * its peers is only worded as such: whether that is wrong is the link checks' call (a class of hosts may be EDR by design).
     */
    private static Status linkStatus(Fabric f, Link l, Map<String, PartProblem> problems) {
        if (!l.isActive()) return Status.FAIL;
        PartProblem p = linkProblem(f, l, problems);
        return p == null ? null : p.status();
    }

    /** The worst finding naming the cable or one of its ports (a host's port by its host name, a switch's by name or description). */
    private static PartProblem linkProblem(Fabric f, Link l, Map<String, PartProblem> problems) {
        return worst(problems, new Ref.Cable(f.name(l)), portRef(f, l.a(), false), portRef(f, l.b(), false), portRef(f, l.a(), true), portRef(f, l.b(), true));
    }

    private static String hostDetail(Fabric f, Link l, Map<String, PartProblem> problems, LinkWidth w, LinkSpeed s, PartProblem byHost) {
        if (!l.isActive() || degraded(l, w, s)) return state(f, l, w, s);
        PartProblem p = linkProblem(f, l, problems);
        PartProblem named = p == null ? byHost : p.worse(byHost);
        return named == null ? "" : named.check();
    }

    private static String state(Fabric f, Link l, LinkWidth w, LinkSpeed s) {
        if (!l.isActive()) return l.state() == null ? "down" : l.state().toLowerCase(Locale.ROOT);
        return l.width() != null && w != null && l.width().compareTo(w) < 0 ? l.width().toString() : l.speed() == null ? "degraded" : l.speed().toString();
    }

    private static boolean degraded(Link l, LinkWidth w, LinkSpeed s) {
        return l.width() != null && w != null && l.width().compareTo(w) < 0 || l.speed() != null && s != null && l.speed().compareTo(s) < 0;
    }

    /** The port by its node's name, or (alt) as findings also name it: a host's by its host name, a switch's by its description. */
    private static Ref.Port portRef(Fabric f, End e, boolean alt) {
        Node n = f.node(e.guid());
        return new Ref.Port(!alt ? n.name() : n.isSwitch() ? n.description() : io.ibaccept.fabric.Fabric.hostPart(n.description()), e.port());
    }

    private static PartProblem worst(Map<String, PartProblem> problems, Ref... refs) {
        PartProblem w = null;
        for (Ref r : refs) {
            PartProblem p = problems.get(r.key());
            if (p != null) w = p.worse(w);
        }
        return w;
    }

    /** A port as drawn: "L03/P5" on a chassis ASIC ("MF0;core01:CS7500/L03/U1": the module says where), else "switch/P5". */
    private static String shortName(Fabric f, End e) {
        Node n = f.node(e.guid());
        String d = n.description() == null ? "" : n.description();
        int colon = d.indexOf(':');
        String where = n.inChassis() && colon >= 0 ? d.substring(colon + 1).replaceFirst("^[^/]*/", "").replaceFirst("/U\\d+$", "") : n.shortName();
        return where + "/P" + e.port();
    }

    private static Status worse(Status a, Status b) {
        if (a == null) return b;
        if (b == null) return a;
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static String color(Status s) {
        return s == null ? OK : s == Status.FAIL || s == Status.ERROR ? FAIL : WARN;
    }

    private static String cls(Status s) {
        return s == null ? "ok" : s == Status.FAIL || s == Status.ERROR ? "down" : "degraded";
    }

    /** hosts: the host names the HCAs carry (a DGX is one host with eight HCAs). */
    private static String title(Fabric f, int chassis, int hosts) {
        return count(f.switches().size()) + " switches" + (chassis > 0 ? " (" + chassis + " chassis)" : "") + ", " + hostsAndHcas(hosts, f.hosts().size())
                + ", " + count(f.links().size()) + " cables" + (f.aggregationNodes().isEmpty() ? "" : ", " + f.aggregationNodes().size() + " SHARP aggregation nodes (not drawn)");
    }

    /** "469 hosts, 3,675 HCAs": hosts and HCAs apart, however many HCAs a host has. */
    static String hostsAndHcas(int hosts, int hcas) {
        return count(hosts) + (hosts == 1 ? " host, " : " hosts, ") + count(hcas) + (hcas == 1 ? " HCA" : " HCAs");
    }

    /** A count with thousands separated: 3,675. */
    static String count(long n) {
        return String.format(java.util.Locale.ROOT, "%,d", n);
    }

    private static String tooltip(Box b) {
        String names = b.members.size() == 1 ? b.members.get(0).name() + " (lid " + b.members.get(0).lid() + ")"
                : b.members.size() + " switches: " + String.join(", ", b.members.stream().limit(40).map(Node::name).toList()) + (b.members.size() > 40 ? ", ..." : "");
        return names + (b.marks.isEmpty() ? "" : "; " + String.join("; ", b.marks.stream().map(Mark::text).toList()));
    }

    private static String counts(Bundle b) {
        List<String> parts = new ArrayList<>();
        if (b.warn > 0) parts.add(b.warn + " degraded");
        if (b.fail > 0) parts.add(b.fail + " down or failed");
        if (b.missing > 0) parts.add(b.missing + " missing vs plan");
        return parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")";
    }

    /** The picture as drawing primitives, so the HTML (SVG) and the PDF draw the same thing. */
    static final class Picture {
        final int width;
        int height;
        final String title;
        String caption = "";
        final List<Line> lines = new ArrayList<>();
        final List<Rect> rects = new ArrayList<>();
        final List<Label> labels = new ArrayList<>();

        Picture(int width, int height, String title) {
            this.width = width;
            this.height = height;
            this.title = title;
        }
    }

    record Line(int x1, int y1, int x2, int y2, String color, double width, boolean dashed, String cls, String tooltip) {}

    record Rect(int x, int y, int w, int h, String fill, String stroke, double strokeWidth, String cls, String tooltip) {}

    /** x < 0: left-aligned at -x; otherwise centred on x. halo: a white outline under the text, to read it across lines. */
    record Label(int x, int y, String text, String color, float size, String cls, String tooltip, boolean halo) {}

    static String svg(Picture pic) {
        StringBuilder sb = new StringBuilder(64 * 1024);
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"fabric\" viewBox=\"0 0 ").append(pic.width).append(' ').append(pic.height)
                .append("\" width=\"").append(pic.width).append("\" height=\"").append(pic.height).append("\" font-family=\"sans-serif\" font-size=\"11\">\n");
        sb.append("<title>").append(esc(pic.title)).append("</title>\n<g class=\"links\">\n");
        for (Line l : pic.lines)
            sb.append("<line class=\"").append(l.cls()).append("\" x1=\"").append(l.x1()).append("\" y1=\"").append(l.y1()).append("\" x2=\"").append(l.x2())
                    .append("\" y2=\"").append(l.y2()).append("\" stroke=\"").append(l.color()).append("\" stroke-width=\"")
                    .append(String.format(Locale.ROOT, "%.1f", l.width())).append(l.cls().equals("ok") ? "\" stroke-opacity=\"0.6" : "").append(l.dashed() ? "\" stroke-dasharray=\"6 4" : "").append("\"><title>")
                    .append(esc(l.tooltip())).append("</title></line>\n");
        sb.append("</g>\n<g class=\"switches\">\n");
        for (Rect r : pic.rects)
            sb.append("<rect class=\"").append(r.cls()).append("\" x=\"").append(r.x()).append("\" y=\"").append(r.y()).append("\" width=\"").append(r.w())
                    .append("\" height=\"").append(r.h()).append("\" rx=\"").append(r.w() > 10 ? 4 : 1).append("\" fill=\"").append(r.fill()).append("\" stroke=\"").append(r.stroke())
                    .append("\" stroke-width=\"").append(String.format(Locale.ROOT, "%.1f", r.strokeWidth())).append("\"><title>")
                    .append(esc(r.tooltip())).append("</title></rect>\n");
        for (Label t : pic.labels) {
            sb.append("<text").append(t.cls() == null ? "" : " class=\"" + t.cls() + "\"").append(" x=\"").append(Math.abs(t.x())).append("\" y=\"").append(t.y())
                    .append(t.x() >= 0 ? "\" text-anchor=\"middle" : "").append("\" fill=\"").append(t.color()).append('"')
                    .append(t.halo() ? " stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\"" : "")
                    .append(t.size() != 11 ? " font-size=\"" + (int) t.size() + "\"" : "").append('>').append(esc(t.text()));
            if (t.tooltip() != null) sb.append("<title>").append(esc(t.tooltip())).append("</title>");
            sb.append("</text>\n");
        }
        sb.append("</g>\n<g class=\"legend\" font-size=\"10\" transform=\"translate(").append(MARGIN).append(',').append(pic.height - 12).append(")\">");
        int x = 0;
        for (String[] item : LEGEND) {
            sb.append("<line x1=\"").append(x).append("\" y1=\"-4\" x2=\"").append(x + 24).append("\" y2=\"-4\" stroke=\"").append(item[1])
                    .append("\" stroke-width=\"2.5\"").append(item[2].isEmpty() ? "" : " stroke-dasharray=\"6 4\"").append("/><text x=\"").append(x + 30)
                    .append("\" y=\"0\">").append(item[0]).append("</text>");
            x += Integer.parseInt(item[3]);
        }
        sb.append("</g>\n</svg>\n");
        return sb.toString();
    }

    /** text, colour, dashed, width taken */
    private static final String[][] LEGEND = {{"as expected", OK, "", "100"}, {"degraded or WARN", WARN, "", "135"}, {"down or FAIL", FAIL, "", "115"},
            {"missing vs plan", FAIL, "d", "0"}};

    /**
     * The same picture in the PDF report (vector, scaled to the page width), under a "Fabric" heading. Nothing is added
     * when the dump has no usable topology.
     */
    static void addToPdf(com.lowagie.text.Document doc, com.lowagie.text.pdf.PdfWriter writer, ReportFacts facts) {
        Picture pic = facts.fabricPicture();
        if (pic == null) return;
        com.lowagie.text.pdf.PdfTemplate tp = writer.getDirectContent().createTemplate(pic.width, pic.height);
        com.lowagie.text.pdf.BaseFont font = PdfFonts.SANS;
        // PDF y grows upwards: flip every y of the SVG layout
        for (Line l : pic.lines) {
            tp.setColorStroke(java.awt.Color.decode(l.color()));
            tp.setLineWidth((float) l.width());
            if (l.dashed()) tp.setLineDash(6, 4, 0);
            else tp.setLineDash(0);
            tp.moveTo(l.x1(), pic.height - l.y1());
            tp.lineTo(l.x2(), pic.height - l.y2());
            tp.stroke();
        }
        tp.setLineDash(0);
        for (Rect b : pic.rects) {
            tp.setLineWidth((float) b.strokeWidth());
            tp.setColorFill(java.awt.Color.decode(b.fill()));
            tp.setColorStroke(java.awt.Color.decode(b.stroke()));
            tp.roundRectangle(b.x(), pic.height - b.y() - b.h(), b.w(), b.h(), b.w() > 10 ? 4 : 1);
            tp.fillStroke();
        }
        for (Label t : pic.labels) {
            float x = Math.abs(t.x()), y = pic.height - t.y();
            if (t.halo()) {
                float w = font.getWidthPoint(t.text(), t.size());
                tp.setColorFill(java.awt.Color.WHITE);
                tp.rectangle(x - w / 2 - 2, y - 3, w + 4, t.size() + 2);
                tp.fill();
            }
            tp.beginText();
            tp.setFontAndSize(font, t.size());
            tp.setColorFill(java.awt.Color.decode(t.color()));
            tp.showTextAligned(t.x() >= 0 ? com.lowagie.text.Element.ALIGN_CENTER : com.lowagie.text.Element.ALIGN_LEFT, t.text(), x, y, 0);
            tp.endText();
        }
        float lx = MARGIN, ly = 12;
        for (String[] item : LEGEND) {
            tp.setColorStroke(java.awt.Color.decode(item[1]));
            tp.setLineWidth(2.5f);
            if (!item[2].isEmpty()) tp.setLineDash(6, 4, 0);
            else tp.setLineDash(0);
            tp.moveTo(lx, ly + 4);
            tp.lineTo(lx + 24, ly + 4);
            tp.stroke();
            tp.beginText();
            tp.setFontAndSize(font, 10);
            tp.setColorFill(java.awt.Color.decode(TEXT));
            tp.showTextAligned(com.lowagie.text.Element.ALIGN_LEFT, item[0], lx + 30, ly, 0);
            tp.endText();
            lx += Integer.parseInt(item[3]);
        }
        tp.setLineDash(0);
        try {
            com.lowagie.text.Image img = com.lowagie.text.Image.getInstance(tp);
            float maxW = doc.getPageSize().getWidth() - doc.leftMargin() - doc.rightMargin();
            float maxH = doc.getPageSize().getHeight() - doc.topMargin() - doc.bottomMargin() - 40;
            img.scaleToFit(Math.min(maxW, pic.width), maxH);
            doc.add(new com.lowagie.text.Paragraph("Fabric", PdfFonts.bold(14)));
            doc.add(new com.lowagie.text.Paragraph(pic.title + ". " + pic.caption + ".", PdfFonts.sans(8.5f)));
            doc.add(img);
        } catch (com.lowagie.text.DocumentException e) {
            throw new IllegalStateException(e);
        }
    }

    private static <T extends Comparable<T>> T mode(List<T> values) {
        Map<T, Integer> n = new HashMap<>();
        for (T v : values) if (v != null) n.merge(v, 1, Integer::sum);
        return n.entrySet().stream().max(Map.Entry.<T, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                .map(Map.Entry::getKey).orElse(null);
    }

    private static String clip(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n - 1) + "\u2026";
    }

    /** XML text/attribute escaping; drops characters XML 1.0 cannot hold (node descriptions are device-controlled). */
    static String esc(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> {
                    if (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') {
                        if (Character.isSurrogate(c)) {
                            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                                sb.append(c).append(s.charAt(++i));
                            }
                        } else if (c != 0xFFFE && c != 0xFFFF) sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }
}
