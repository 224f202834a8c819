package io.ibaccept.report;

import io.ibaccept.fabric.Fabric;
import io.ibaccept.fabric.Fabric.End;
import io.ibaccept.fabric.Fabric.Link;
import io.ibaccept.fabric.Fabric.Node;
import io.ibaccept.fabric.PlanDiff;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The fabric as a picture: the top level of switches at the top, leaves below, hosts folded into a count under each
 * leaf, one line per pair of boxes coloured by the worst cable in it (red = down or missing vs the plan, orange =
 * degraded, grey = as expected). Levels with more than {@link #MAX_BOXES} switches are drawn as groups of consecutive
 * switches, so a 2,000 or 20,000 node fabric stays a readable picture of bounded size. Output is standalone SVG text.
 */
public final class FabricSvg {
    private FabricSvg() {}

    static final int MAX_BOXES = 32;
    private static final int BOX_W = 110, BOX_H = 34, GAP = 16, ROW = 150, MARGIN = 20;

    /** One drawn box: a switch or a group of switches of one level. */
    private record Box(String label, String tooltip, int level, int index, int count) {}

    private static final class Bundle {
        int ok, degraded, down, missing;
        final List<String> samples = new ArrayList<>();
    }

    /**
     * The "Fabric" section of the HTML report, inserted before the per-node table: the picture of the dump's fabric,
     * with the cables fabric.plan found missing dashed. Nothing is added when the dump has no usable topology.
     */
    public static void appendSection(org.jsoup.nodes.Document doc, io.ibaccept.rules.Report r) {
        var fd = r.data().fabric();
        if (fd == null || fd.topology() == null && fd.links() == null) return;
        Fabric f = io.ibaccept.fabric.FabricBuilder.build(fd.topology(), fd.links(), null);
        if (f.switches().isEmpty()) return;
        List<End[]> missing = new ArrayList<>();
        for (io.ibaccept.rules.Finding x : r.findings()) {
            if (!x.check().equals("fabric.plan") || x.objects().size() != 2 || !x.summary().contains(" is not connected")) continue;
            End a = end(f, x.objects().get(0)), b = end(f, x.objects().get(1));
            if (a != null && b != null) missing.add(new End[] {a, b});
        }
        PlanDiff.Result plan = new PlanDiff.Result(0, 0, List.of(), List.of(), List.of(), missing);
        org.jsoup.nodes.Element section = new org.jsoup.nodes.Element("section").attr("id", "fabric");
        section.appendElement("h2").text("Fabric");
        section.appendElement("div").addClass("fabric-picture").append(render(f, plan));
        org.jsoup.nodes.Element nodes = doc.getElementById("nodes");
        if (nodes != null) nodes.before(section);
        else doc.body().appendChild(section);
    }

    /** "leaf03 port 20" back to its end, by node name or description. */
    private static End end(Fabric f, String object) {
        int i = object.lastIndexOf(" port ");
        if (i < 0) return null;
        List<Node> n = f.byName(object.substring(0, i));
        try {
            return n.size() == 1 ? new End(n.get(0).guid(), Integer.parseInt(object.substring(i + 6).trim())) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    public static String render(Fabric f, PlanDiff.Result plan) {
        int top = Math.max(1, f.maxLevel());
        Map<Integer, List<Box>> rows = new LinkedHashMap<>();
        Map<Long, Box> boxOf = new HashMap<>();
        for (int lvl = top; lvl >= 1; lvl--) {
            List<Node> sw = new ArrayList<>(f.atLevel(lvl));
            sw.sort(Comparator.comparing(Node::name));
            List<Box> boxes = new ArrayList<>();
            int groups = Math.min(MAX_BOXES, sw.size());
            for (int g = 0; g < groups; g++) {
                int from = (int) ((long) g * sw.size() / groups), to = (int) ((long) (g + 1) * sw.size() / groups);
                List<Node> members = sw.subList(from, to);
                String label = members.size() == 1 ? members.get(0).name() : members.get(0).name() + "\u2013" + members.get(members.size() - 1).name();
                Box b = new Box(label, members.size() == 1 ? members.get(0).name() + " (lid " + members.get(0).lid() + ")" : members.size() + " switches: " + label,
                        lvl, g, members.size());
                boxes.add(b);
                for (Node n : members) boxOf.put(n.guid(), b);
            }
            rows.put(lvl, boxes);
        }
        List<Node> unleveled = f.switches().stream().filter(n -> n.level() < 0).toList();

        LinkWidth islW = mode(f.links().stream().filter(f::isSwitchToSwitch).map(Link::width).toList());
        LinkSpeed islS = mode(f.links().stream().filter(f::isSwitchToSwitch).map(Link::speed).toList());
        LinkWidth hostW = mode(f.links().stream().filter(l -> !f.isSwitchToSwitch(l)).map(Link::width).toList());
        LinkSpeed hostS = mode(f.links().stream().filter(l -> !f.isSwitchToSwitch(l)).map(Link::speed).toList());

        Map<String, Bundle> bundles = new LinkedHashMap<>();
        Map<Box, Bundle> hosts = new LinkedHashMap<>();
        for (Link l : f.links()) {
            Node a = f.node(l.a().guid()), b = f.node(l.b().guid());
            if (a == null || b == null) continue;
            boolean isl = a.isSwitch() && b.isSwitch();
            boolean degraded = l.width() != null && (isl ? islW : hostW) != null && l.width().compareTo(isl ? islW : hostW) < 0
                    || l.speed() != null && (isl ? islS : hostS) != null && l.speed().compareTo(isl ? islS : hostS) < 0;
            Bundle bundle;
            if (isl) {
                Box ba = boxOf.get(a.guid()), bb = boxOf.get(b.guid());
                if (ba == null || bb == null || ba == bb) continue;
                bundle = bundles.computeIfAbsent(key(ba, bb), k -> new Bundle());
            } else {
                Node sw = a.isSwitch() ? a : b.isSwitch() ? b : null;
                if (sw == null || boxOf.get(sw.guid()) == null) continue;
                bundle = hosts.computeIfAbsent(boxOf.get(sw.guid()), k -> new Bundle());
            }
            if (!l.isActive()) {
                bundle.down++;
                if (bundle.samples.size() < 3) bundle.samples.add(f.name(l) + " " + l.state());
            } else if (degraded) {
                bundle.degraded++;
                if (bundle.samples.size() < 3) bundle.samples.add(f.name(l) + " " + l.rate());
            } else bundle.ok++;
        }
        if (plan != null)
            for (End[] m : plan.missing()) {
                Box ba = boxOf.get(m[0].guid()), bb = boxOf.get(m[1].guid());
                if (ba == null || bb == null || ba == bb) continue;
                Bundle bundle = bundles.computeIfAbsent(key(ba, bb), k -> new Bundle());
                bundle.missing++;
                boolean aLower = ba.level() <= bb.level();
                if (bundle.samples.size() < 3) bundle.samples.add("missing vs plan: " + f.name(aLower ? m[0] : m[1]) + " <-> " + f.name(aLower ? m[1] : m[0]));
            }

        int widest = rows.values().stream().mapToInt(List::size).max().orElse(1);
        int width = Math.max(640, 2 * MARGIN + widest * (BOX_W + GAP));
        int height = 2 * MARGIN + (rows.size()) * ROW + 60 + (unleveled.isEmpty() ? 0 : 40);
        Map<Box, int[]> pos = new HashMap<>();
        int y = MARGIN + 20;
        for (List<Box> boxes : rows.values()) {
            int rowWidth = boxes.size() * (BOX_W + GAP) - GAP;
            int x = (width - rowWidth) / 2;
            for (Box b : boxes) {
                pos.put(b, new int[] {x, y});
                x += BOX_W + GAP;
            }
            y += ROW;
        }

        StringBuilder sb = new StringBuilder(64 * 1024);
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"fabric\" viewBox=\"0 0 ").append(width).append(' ').append(height)
                .append("\" width=\"").append(width).append("\" height=\"").append(height).append("\" font-family=\"sans-serif\" font-size=\"11\">\n");
        sb.append("<title>").append(esc(f.switches().size() + " switches, " + f.cas().size() + " hosts, " + f.links().size() + " cables")).append("</title>\n");
        sb.append("<g class=\"links\">\n");
        for (Map.Entry<String, Bundle> e : bundles.entrySet()) {
            String[] k = e.getKey().split("\\|");
            Box ba = find(rows, k[0]), bb = find(rows, k[1]);
            int[] pa = pos.get(ba), pb = pos.get(bb);
            Bundle b = e.getValue();
            int n = b.ok + b.degraded + b.down + b.missing;
            String cls = b.down + b.missing > 0 ? "down" : b.degraded > 0 ? "degraded" : "ok";
            String color = cls.equals("down") ? "#d62728" : cls.equals("degraded") ? "#ff7f0e" : "#999999";
            int upper = pa[1] < pb[1] ? 0 : 1;
            int[] hi = upper == 0 ? pa : pb, lo = upper == 0 ? pb : pa;
            sb.append("<line class=\"").append(cls).append("\" x1=\"").append(hi[0] + BOX_W / 2).append("\" y1=\"").append(hi[1] + BOX_H)
                    .append("\" x2=\"").append(lo[0] + BOX_W / 2).append("\" y2=\"").append(lo[1]).append("\" stroke=\"").append(color)
                    .append("\" stroke-width=\"").append(String.format(Locale.ROOT, "%.1f", Math.min(6, 1 + Math.log(n) / Math.log(2))))
                    .append(b.missing > 0 ? "\" stroke-dasharray=\"6 4" : "").append("\"><title>")
                    .append(esc(ba.label() + " - " + bb.label() + ": " + n + " cable(s)" + counts(b) + (b.samples.isEmpty() ? "" : "; " + String.join("; ", b.samples))))
                    .append("</title></line>\n");
        }
        sb.append("</g>\n<g class=\"switches\">\n");
        for (List<Box> boxes : rows.values())
            for (Box b : boxes) {
                int[] p = pos.get(b);
                sb.append("<g class=\"switch level").append(b.level()).append("\"><title>").append(esc(b.tooltip())).append("</title>")
                        .append("<rect x=\"").append(p[0]).append("\" y=\"").append(p[1]).append("\" width=\"").append(BOX_W).append("\" height=\"").append(BOX_H)
                        .append("\" rx=\"4\" fill=\"").append(b.level() == 1 ? "#e8f0fb" : "#dfe9d6").append("\" stroke=\"#444\"/>")
                        .append("<text x=\"").append(p[0] + BOX_W / 2).append("\" y=\"").append(p[1] + (b.count() > 1 ? 15 : 21)).append("\" text-anchor=\"middle\">")
                        .append(esc(clip(b.label(), 20))).append("</text>");
                if (b.count() > 1)
                    sb.append("<text x=\"").append(p[0] + BOX_W / 2).append("\" y=\"").append(p[1] + 28).append("\" text-anchor=\"middle\" font-size=\"9\">")
                            .append(b.count()).append(" switches</text>");
                sb.append("</g>\n");
                Bundle h = hosts.get(b);
                if (b.level() == 1 && h != null) {
                    int n = h.ok + h.degraded + h.down;
                    String color = h.down > 0 ? "#d62728" : h.degraded > 0 ? "#ff7f0e" : "#333";
                    sb.append("<text class=\"hosts\" x=\"").append(p[0] + BOX_W / 2).append("\" y=\"").append(p[1] + BOX_H + 16)
                            .append("\" text-anchor=\"middle\" fill=\"").append(color).append("\">").append(n).append(" hosts")
                            .append(h.degraded + h.down > 0 ? " (" + (h.degraded + h.down) + " degraded)" : "")
                            .append("<title>").append(esc(b.label() + ": " + n + " host cable(s)" + counts(h) + (h.samples.isEmpty() ? "" : "; " + String.join("; ", h.samples))))
                            .append("</title></text>\n");
                }
            }
        if (!unleveled.isEmpty())
            sb.append("<text x=\"").append(MARGIN).append("\" y=\"").append(height - 20).append("\" fill=\"#d62728\">")
                    .append(esc(unleveled.size() + " switch(es) not connected to any leaf: " + clip(String.join(", ", unleveled.stream().map(Node::name).toList()), 200)))
                    .append("</text>\n");
        sb.append("</g>\n<g class=\"legend\" transform=\"translate(").append(MARGIN).append(',').append(height - (unleveled.isEmpty() ? 20 : 45)).append(")\">")
                .append("<line x1=\"0\" y1=\"-4\" x2=\"24\" y2=\"-4\" stroke=\"#999999\" stroke-width=\"2\"/><text x=\"30\" y=\"0\">as expected</text>")
                .append("<line x1=\"110\" y1=\"-4\" x2=\"134\" y2=\"-4\" stroke=\"#ff7f0e\" stroke-width=\"2\"/><text x=\"140\" y=\"0\">degraded (width/speed)</text>")
                .append("<line x1=\"290\" y1=\"-4\" x2=\"314\" y2=\"-4\" stroke=\"#d62728\" stroke-width=\"2\"/><text x=\"320\" y=\"0\">down</text>")
                .append("<line x1=\"370\" y1=\"-4\" x2=\"394\" y2=\"-4\" stroke=\"#d62728\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/><text x=\"400\" y=\"0\">missing vs plan</text>")
                .append("</g>\n</svg>\n");
        return sb.toString();
    }

    private static String counts(Bundle b) {
        List<String> parts = new ArrayList<>();
        if (b.degraded > 0) parts.add(b.degraded + " degraded");
        if (b.down > 0) parts.add(b.down + " down");
        if (b.missing > 0) parts.add(b.missing + " missing vs plan");
        return parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")";
    }

    private static String key(Box a, Box b) {
        String ka = a.level() + ":" + a.index(), kb = b.level() + ":" + b.index();
        return ka.compareTo(kb) < 0 ? ka + "|" + kb : kb + "|" + ka;
    }

    private static Box find(Map<Integer, List<Box>> rows, String key) {
        int colon = key.indexOf(':');
        return rows.get(Integer.parseInt(key.substring(0, colon))).get(Integer.parseInt(key.substring(colon + 1)));
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
