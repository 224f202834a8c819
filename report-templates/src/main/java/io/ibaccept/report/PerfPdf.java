package io.ibaccept.report;

import com.lowagie.text.Element;
import com.lowagie.text.pdf.BaseFont;
import com.lowagie.text.pdf.PdfContentByte;
import com.lowagie.text.pdf.PdfTemplate;
import java.awt.Color;
import java.util.HashMap;
import java.util.Map;

/**
 * Draws the SVG that {@link PerfSvg} writes (its own small flat subset: rect, line, path with M/L, circle, text with
 * translate/rotate) as PDF vector graphics on a template, for the PDF report. Vectors instead of a raster: no Java2D,
 * no PNG encoded and decoded again (that was most of the PDF's time), sharp at any zoom, and a figure of any fabric size
 * costs what its SVG costs. Not a general SVG renderer.
 */
final class PerfPdf {
    private PerfPdf() {}

    private static final BaseFont REGULAR = PdfFonts.SANS, BOLD = PdfFonts.SANS_BOLD;

    /** The figure as a template of the SVG's size (one PDF point per SVG unit); IllegalArgumentException if it is not one of ours. */
    static PdfTemplate render(String svg, PdfContentByte cb) {
        int i = svg.indexOf("<svg");
        if (i < 0) throw new IllegalArgumentException("not a PerfSvg figure: no <svg> element");
        Tag root = tag(svg, i);
        float w = (float) Math.max(1, num(root.attrs, "width", 100)), h = (float) Math.max(1, num(root.attrs, "height", 100));
        PdfTemplate tp = cb.createTemplate(w, h);
        for (int at = root.end; (at = svg.indexOf('<', at)) >= 0; ) {
            if (svg.startsWith("</", at) || svg.startsWith("<!", at) || svg.startsWith("<?", at)) {
                at = svg.indexOf('>', at) + 1;
                if (at == 0) break;
                continue;
            }
            Tag t = tag(svg, at);
            at = t.end;
            switch (t.name) {
                case "title" -> at = skipTo(svg, at, "</title>"); // tooltip: not drawn
                case "rect" -> {
                    tp.rectangle((float) num(t.attrs, "x", 0), h - (float) (num(t.attrs, "y", 0) + num(t.attrs, "height", 0)),
                            (float) num(t.attrs, "width", 0), (float) num(t.attrs, "height", 0));
                    paint(tp, t.attrs, true);
                }
                case "circle" -> {
                    tp.circle((float) num(t.attrs, "cx", 0), h - (float) num(t.attrs, "cy", 0), (float) num(t.attrs, "r", 1));
                    paint(tp, t.attrs, true);
                }
                case "line" -> {
                    tp.moveTo((float) num(t.attrs, "x1", 0), h - (float) num(t.attrs, "y1", 0));
                    tp.lineTo((float) num(t.attrs, "x2", 0), h - (float) num(t.attrs, "y2", 0));
                    paint(tp, t.attrs, false);
                }
                case "path" -> {
                    if (path(tp, t.attrs.getOrDefault("d", ""), h)) paint(tp, t.attrs, false);
                }
                case "text" -> {
                    int close = svg.indexOf("</text>", at);
                    if (close < 0) break;
                    text(tp, t.attrs, unescape(svg.substring(at, close)), h);
                    at = close + 7;
                }
                default -> { } // anything else: not drawn
            }
        }
        return tp;
    }

    private record Tag(String name, Map<String, String> attrs, int end) {}

    /** The start tag at i ('<' + name + attributes); end = index after its '>'. Attribute values are unescaped. */
    private static Tag tag(String s, int i) {
        int n = i + 1;
        while (n < s.length() && !Character.isWhitespace(s.charAt(n)) && s.charAt(n) != '>' && s.charAt(n) != '/') n++;
        String name = s.substring(i + 1, n);
        Map<String, String> attrs = new HashMap<>();
        int p = n;
        while (p < s.length()) {
            char c = s.charAt(p);
            if (c == '>') return new Tag(name, attrs, p + 1);
            if (Character.isWhitespace(c) || c == '/') {
                p++;
                continue;
            }
            int eq = s.indexOf('=', p);
            if (eq < 0 || eq + 1 >= s.length()) break;
            char q = s.charAt(eq + 1);
            int close = s.indexOf(q, eq + 2);
            if ((q != '"' && q != '\'') || close < 0) throw new IllegalArgumentException("not a PerfSvg figure: bad attribute in <" + name + ">");
            attrs.put(s.substring(p, eq).strip(), unescape(s.substring(eq + 2, close)));
            p = close + 1;
        }
        throw new IllegalArgumentException("not a PerfSvg figure: unterminated <" + name + ">");
    }

    private static int skipTo(String s, int from, String end) {
        int e = s.indexOf(end, from);
        return e < 0 ? s.length() : e + end.length();
    }

    /** M/L path data; false when it has no point. */
    private static boolean path(PdfContentByte tp, String d, float h) {
        boolean any = false;
        int i = 0;
        while (i < d.length()) {
            char op = d.charAt(i);
            if (op != 'M' && op != 'L') {
                i++;
                continue;
            }
            int comma = d.indexOf(',', i);
            if (comma < 0) break;
            int end = comma + 1;
            while (end < d.length() && (Character.isDigit(d.charAt(end)) || d.charAt(end) == '.' || d.charAt(end) == '-')) end++;
            float x, y;
            try {
                x = Float.parseFloat(d.substring(i + 1, comma).strip());
                y = h - Float.parseFloat(d.substring(comma + 1, end));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a PerfSvg figure: path data '" + d + "'");
            }
            if (op == 'M' || !any) tp.moveTo(x, y);
            else tp.lineTo(x, y);
            any = true;
            i = end;
        }
        return any;
    }

    /** Fills (shapes only; SVG's default fill is black) and strokes the current path as the attributes say. */
    private static void paint(PdfContentByte tp, Map<String, String> a, boolean shape) {
        Color fill = shape ? colour(a.get("fill"), Color.BLACK) : null;
        Color stroke = colour(a.get("stroke"), null);
        float width = (float) num(a, "stroke-width", 1);
        if (width <= 0) stroke = null;
        if (fill != null) tp.setColorFill(fill);
        if (stroke != null) {
            tp.setColorStroke(stroke);
            tp.setLineWidth(width);
            String dash = a.getOrDefault("stroke-dasharray", "");
            if (dash.isEmpty()) tp.setLineDash(0);
            else tp.setLineDash(dashes(dash), 0);
        }
        if (fill != null && stroke != null) tp.fillStroke();
        else if (fill != null) tp.fill();
        else if (stroke != null) tp.stroke();
        else tp.newPath();
    }

    private static void text(PdfContentByte tp, Map<String, String> a, String s, float h) {
        if (s.isBlank()) return;
        double x = num(a, "x", 0), y = num(a, "y", 0), rot = 0;
        String tf = a.getOrDefault("transform", "");
        if (tf.startsWith("translate(")) {
            int comma = tf.indexOf(','), close = tf.indexOf(')');
            double tx = Double.parseDouble(tf.substring(10, comma).strip()), ty = Double.parseDouble(tf.substring(comma + 1, close).strip());
            int r = tf.indexOf("rotate(", close);
            if (r >= 0) rot = Double.parseDouble(tf.substring(r + 7, tf.indexOf(')', r)).strip());
            // the point (x, y) of the rotated frame, in the figure's coordinates
            double rad = Math.toRadians(rot), px = tx + x * Math.cos(rad) - y * Math.sin(rad), py = ty + x * Math.sin(rad) + y * Math.cos(rad);
            x = px;
            y = py;
        }
        String anchor = a.getOrDefault("text-anchor", "");
        int align = anchor.equals("end") ? Element.ALIGN_RIGHT : anchor.equals("middle") ? Element.ALIGN_CENTER : Element.ALIGN_LEFT;
        tp.beginText();
        tp.setFontAndSize("bold".equals(a.get("font-weight")) ? BOLD : REGULAR, (float) num(a, "font-size", 10));
        Color fill = colour(a.get("fill"), Color.BLACK);
        tp.setColorFill(fill == null ? Color.BLACK : fill);
        // SVG turns clockwise with y pointing down; PDF's y points up, so the angle changes sign
        tp.showTextAligned(align, s, (float) x, h - (float) y, (float) -rot);
        tp.endText();
    }

    /** null for "none"; def when absent or unreadable. */
    static Color colour(String v, Color def) {
        if (v == null || v.isEmpty()) return def;
        if (v.equals("none")) return null;
        try {
            if (v.startsWith("hsl(") && v.endsWith(")")) {
                String[] p = v.substring(4, v.length() - 1).split(",");
                return hsl(Double.parseDouble(p[0].strip()), pct(p[1]), pct(p[2]));
            }
            if (v.startsWith("#") && v.length() == 4)
                return new Color(Integer.parseInt("" + v.charAt(1) + v.charAt(1) + v.charAt(2) + v.charAt(2) + v.charAt(3) + v.charAt(3), 16));
            if (v.startsWith("#") && v.length() == 7) return new Color(Integer.parseInt(v.substring(1), 16));
        } catch (RuntimeException ignored) {
            // fall through to the default
        }
        return def;
    }

    private static double pct(String s) {
        s = s.strip();
        return Double.parseDouble(s.endsWith("%") ? s.substring(0, s.length() - 1) : s) / 100;
    }

    private static Color hsl(double h, double s, double l) {
        double c = (1 - Math.abs(2 * l - 1)) * s, x = c * (1 - Math.abs((h / 60) % 2 - 1)), m = l - c / 2;
        double r, g, b;
        if (h < 60) { r = c; g = x; b = 0; } else if (h < 120) { r = x; g = c; b = 0; } else if (h < 180) { r = 0; g = c; b = x; }
        else if (h < 240) { r = 0; g = x; b = c; } else if (h < 300) { r = x; g = 0; b = c; } else { r = c; g = 0; b = x; }
        return new Color(clamp(r + m), clamp(g + m), clamp(b + m));
    }

    private static float clamp(double v) {
        return (float) Math.max(0, Math.min(1, v));
    }

    private static float[] dashes(String s) {
        String[] p = s.strip().split("[,\\s]+");
        float[] f = new float[p.length];
        for (int i = 0; i < p.length; i++) f[i] = Float.parseFloat(p[i]);
        return f;
    }

    private static double num(Map<String, String> a, String attr, double def) {
        String v = a.get(attr);
        if (v == null || v.isEmpty()) return def;
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException ex) {
            return def;
        }
    }

    /** The entities PerfSvg.esc writes. */
    static String unescape(String s) {
        if (s.indexOf('&') < 0) return s;
        return s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&");
    }
}
