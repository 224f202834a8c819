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

    static final int MAX_BOXES = 24;
    private static final int BOX_W = 110, BOX_H = 34, GAP = 16, MARGIN = 20;

    /** One drawn box: a switch or a group of switches of one level. */
    private record Box(String label, String tooltip, int level, int index, int count) {}

    private static final class Bundle {
        int ok, degraded, down, missing;
        final List<String> samples = new ArrayList<>();
    }

    /**
     * The "Fabric" section of the HTML report, inserted before the per-node table: the picture of the dump's fabric,
     * with the cables missing against the cabling plan (the comparison fabric.plan judged) dashed. Nothing is added when the dump has no usable topology.
     */
    static void appendSection(org.jsoup.nodes.Document doc, ReportFacts facts) {
        Fabric f = facts.fabric();
        if (f == null) return;
        org.jsoup.nodes.Element section = new org.jsoup.nodes.Element("section").attr("id", "fabric");
        section.appendElement("h2").text("Fabric");
        section.appendElement("div").addClass("fabric-picture").append(render(f, facts.plan()));
        org.jsoup.nodes.Element nodes = doc.getElementById("nodes");
        if (nodes != null) nodes.before(section);
        else doc.body().appendChild(section);
    }

    static Picture layout(Fabric f, PlanDiff.Result plan) {
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
        LinkWidth hostW = mode(f.links().stream().filter(f::isHostLink).map(Link::width).toList());
        LinkSpeed hostS = mode(f.links().stream().filter(f::isHostLink).map(Link::speed).toList());

        Map<String, Bundle> bundles = new LinkedHashMap<>();
        Map<Box, Bundle> hosts = new LinkedHashMap<>();
        for (Link l : f.links()) {
            Node a = f.node(l.a().guid()), b = f.node(l.b().guid());
            if (a == null || b == null) continue;
            boolean isl = f.isSwitchToSwitch(l);
            if (!isl && !f.isHostLink(l)) continue; // aggregation nodes, loops and back-to-back pairs are not drawn as bundles
            boolean degraded = l.width() != null && (isl ? islW : hostW) != null && l.width().compareTo(isl ? islW : hostW) < 0
                    || l.speed() != null && (isl ? islS : hostS) != null && l.speed().compareTo(isl ? islS : hostS) < 0;
            Bundle bundle;
            if (isl) {
                Box ba = boxOf.get(a.guid()), bb = boxOf.get(b.guid());
                if (ba == null || bb == null || ba == bb) continue;
                bundle = bundles.computeIfAbsent(key(ba, bb), k -> new Bundle());
            } else {
                Node sw = a.isSwitch() ? a : b;
                if (boxOf.get(sw.guid()) == null) continue;
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
        // taller rows for wide pictures, so the bundles between levels stay distinguishable
        int rowHeight = Math.max(150, width / 8);
        // last row of boxes, its host counts, then the legend (and the unconnected switches)
        int height = MARGIN + 20 + (rows.size() - 1) * rowHeight + BOX_H + 30 + 40 + (unleveled.isEmpty() ? 0 : 25);
        Picture pic = new Picture(width, height, f.switches().size() + " switches, " + f.hosts().size() + " hosts, " + f.links().size() + " cables");
        Map<Box, int[]> pos = new HashMap<>();
        int y = MARGIN + 20;
        for (List<Box> boxes : rows.values()) {
            int rowWidth = boxes.size() * (BOX_W + GAP) - GAP;
            int x = (width - rowWidth) / 2;
            for (Box b : boxes) {
                pos.put(b, new int[] {x, y});
                x += BOX_W + GAP;
            }
            y += rowHeight;
        }
        for (Map.Entry<String, Bundle> e : bundles.entrySet()) {
            String[] k = e.getKey().split("\\|");
            Box ba = find(rows, k[0]), bb = find(rows, k[1]);
            int[] pa = pos.get(ba), pb = pos.get(bb);
            Bundle b = e.getValue();
            int n = b.ok + b.degraded + b.down + b.missing;
            String cls = b.down + b.missing > 0 ? "down" : b.degraded > 0 ? "degraded" : "ok";
            int[] hi = pa[1] < pb[1] ? pa : pb, lo = hi == pa ? pb : pa;
            pic.lines.add(new Line(hi[0] + BOX_W / 2, hi[1] + BOX_H, lo[0] + BOX_W / 2, lo[1], COLORS.get(cls), Math.min(6, 1 + Math.log(n) / Math.log(2)),
                    b.missing > 0, cls, ba.label() + " - " + bb.label() + ": " + n + " cable(s)" + counts(b) + (b.samples.isEmpty() ? "" : "; " + String.join("; ", b.samples))));
        }
        for (List<Box> boxes : rows.values())
            for (Box b : boxes) {
                int[] p = pos.get(b);
                pic.rects.add(new Rect(p[0], p[1], BOX_W, BOX_H, b.level() == 1 ? "#e8f0fb" : "#dfe9d6", "switch level" + b.level(), b.tooltip()));
                pic.labels.add(new Label(p[0] + BOX_W / 2, p[1] + (b.count() > 1 ? 15 : 21), clip(b.label(), 20), "#000000", 11, null, null));
                if (b.count() > 1) pic.labels.add(new Label(p[0] + BOX_W / 2, p[1] + 28, b.count() + " switches", "#000000", 9, null, null));
                Bundle h = hosts.get(b);
                if (b.level() == 1 && h != null) {
                    int n = h.ok + h.degraded + h.down;
                    String color = h.down > 0 ? COLORS.get("down") : h.degraded > 0 ? COLORS.get("degraded") : "#333333";
                    pic.labels.add(new Label(p[0] + BOX_W / 2, p[1] + BOX_H + 16, n + " hosts" + (h.degraded + h.down > 0 ? " (" + (h.degraded + h.down) + " degraded)" : ""),
                            color, 11, "hosts", b.label() + ": " + n + " host cable(s)" + counts(h) + (h.samples.isEmpty() ? "" : "; " + String.join("; ", h.samples))));
                }
            }
        if (!unleveled.isEmpty())
            pic.labels.add(new Label(-MARGIN, height - 45, unleveled.size() + " switch(es) not connected to any leaf: "
                    + clip(String.join(", ", unleveled.stream().map(Node::name).toList()), 200), COLORS.get("down"), 11, null, null));
        return pic;
    }

    private static final Map<String, String> COLORS = Map.of("ok", "#999999", "degraded", "#ff7f0e", "down", "#d62728");

    /** The picture as drawing primitives, so the HTML (SVG) and the PDF draw the same thing. */
    static final class Picture {
        final int width, height;
        final String title;
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

    record Rect(int x, int y, int w, int h, String fill, String cls, String tooltip) {}

    /** x < 0: left-aligned at -x; otherwise centred on x. */
    record Label(int x, int y, String text, String color, float size, String cls, String tooltip) {}

    public static String render(Fabric f, PlanDiff.Result plan) {
        return svg(layout(f, plan));
    }

    static String svg(Picture pic) {
        StringBuilder sb = new StringBuilder(64 * 1024);
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"fabric\" viewBox=\"0 0 ").append(pic.width).append(' ').append(pic.height)
                .append("\" width=\"").append(pic.width).append("\" height=\"").append(pic.height).append("\" font-family=\"sans-serif\" font-size=\"11\">\n");
        sb.append("<title>").append(esc(pic.title)).append("</title>\n<g class=\"links\">\n");
        for (Line l : pic.lines)
            sb.append("<line class=\"").append(l.cls()).append("\" x1=\"").append(l.x1()).append("\" y1=\"").append(l.y1()).append("\" x2=\"").append(l.x2())
                    .append("\" y2=\"").append(l.y2()).append("\" stroke=\"").append(l.color()).append("\" stroke-width=\"")
                    .append(String.format(Locale.ROOT, "%.1f", l.width())).append(l.cls().equals("ok") ? "\" stroke-opacity=\"0.5" : "").append(l.dashed() ? "\" stroke-dasharray=\"6 4" : "").append("\"><title>")
                    .append(esc(l.tooltip())).append("</title></line>\n");
        sb.append("</g>\n<g class=\"switches\">\n");
        for (Rect r : pic.rects)
            sb.append("<rect class=\"").append(r.cls()).append("\" x=\"").append(r.x()).append("\" y=\"").append(r.y()).append("\" width=\"").append(r.w())
                    .append("\" height=\"").append(r.h()).append("\" rx=\"4\" fill=\"").append(r.fill()).append("\" stroke=\"#444\"><title>")
                    .append(esc(r.tooltip())).append("</title></rect>\n");
        for (Label t : pic.labels) {
            sb.append("<text").append(t.cls() == null ? "" : " class=\"" + t.cls() + "\"").append(" x=\"").append(Math.abs(t.x())).append("\" y=\"").append(t.y())
                    .append(t.x() >= 0 ? "\" text-anchor=\"middle" : "").append("\" fill=\"").append(t.color()).append('"')
                    .append(t.size() != 11 ? " font-size=\"" + (int) t.size() + "\"" : "").append('>').append(esc(t.text()));
            if (t.tooltip() != null) sb.append("<title>").append(esc(t.tooltip())).append("</title>");
            sb.append("</text>\n");
        }
        sb.append("</g>\n<g class=\"legend\" transform=\"translate(").append(MARGIN).append(',').append(pic.height - 20).append(")\">")
                .append("<line x1=\"0\" y1=\"-4\" x2=\"24\" y2=\"-4\" stroke=\"#999999\" stroke-width=\"2\"/><text x=\"30\" y=\"0\">as expected</text>")
                .append("<line x1=\"110\" y1=\"-4\" x2=\"134\" y2=\"-4\" stroke=\"#ff7f0e\" stroke-width=\"2\"/><text x=\"140\" y=\"0\">degraded (width/speed)</text>")
                .append("<line x1=\"290\" y1=\"-4\" x2=\"314\" y2=\"-4\" stroke=\"#d62728\" stroke-width=\"2\"/><text x=\"320\" y=\"0\">down</text>")
                .append("<line x1=\"370\" y1=\"-4\" x2=\"394\" y2=\"-4\" stroke=\"#d62728\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/><text x=\"400\" y=\"0\">missing vs plan</text>")
                .append("</g>\n</svg>\n");
        return sb.toString();
    }

    /**
     * The same picture in the PDF report (vector, scaled to the page width), under a "Fabric" heading. Nothing is added
     * when the dump has no usable topology.
     */
    static void addToPdf(com.lowagie.text.Document doc, com.lowagie.text.pdf.PdfWriter writer, ReportFacts facts) {
        Fabric f = facts.fabric();
        if (f == null) return;
        Picture pic = layout(f, facts.plan());
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
        tp.setLineWidth(0.8f);
        for (Rect b : pic.rects) {
            tp.setColorFill(java.awt.Color.decode(b.fill()));
            tp.setColorStroke(java.awt.Color.decode("#444444"));
            tp.roundRectangle(b.x(), pic.height - b.y() - b.h(), b.w(), b.h(), 4);
            tp.fillStroke();
        }
        for (Label t : pic.labels) {
            tp.beginText();
            tp.setFontAndSize(font, t.size());
            tp.setColorFill(java.awt.Color.decode(t.color()));
            String text = t.text();
            if (t.x() >= 0) tp.showTextAligned(com.lowagie.text.Element.ALIGN_CENTER, text, t.x(), pic.height - t.y(), 0);
            else tp.showTextAligned(com.lowagie.text.Element.ALIGN_LEFT, text, -t.x(), pic.height - t.y(), 0);
            tp.endText();
        }
        try {
            com.lowagie.text.Image img = com.lowagie.text.Image.getInstance(tp);
            float maxW = doc.getPageSize().getWidth() - doc.leftMargin() - doc.rightMargin();
            float maxH = doc.getPageSize().getHeight() - doc.topMargin() - doc.bottomMargin() - 40;
            img.scaleToFit(maxW, maxH);
            doc.add(new com.lowagie.text.Paragraph("Fabric", PdfFonts.bold(14)));
            doc.add(new com.lowagie.text.Paragraph(pic.title + "; grey = as expected, orange = degraded, red = down, dashed = missing vs plan",
                    PdfFonts.sans(8.5f)));
            doc.add(img);
        } catch (com.lowagie.text.DocumentException e) {
            throw new IllegalStateException(e);
        }
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
