package io.ibaccept.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Rasterises the SVG that {@link PerfSvg} writes (its own small subset: rect, line, path with M/L, circle, text with
 * translate/rotate) to PNG with Java2D, for the PDF report (OpenPDF embeds images, not SVG). Not a general SVG renderer.
 */
public final class PerfPng {
    private PerfPng() {}

    private static final Pattern HSL = Pattern.compile("hsl\\(([\\d.]+),\\s*([\\d.]+)%,\\s*([\\d.]+)%\\)");
    private static final Pattern TRANSFORM = Pattern.compile("translate\\(([-\\d.]+),([-\\d.]+)\\)(?:\\s*rotate\\(([-\\d.]+)\\))?");

    /** PNG bytes of the SVG at scale (1 = one pixel per SVG unit; 2 for print). */
    /** Largest image drawn (4 bytes per pixel): 4 Mpx = 16 MiB, an A4 page at 300 dpi is about 8.7 Mpx. */
    static final double MAX_PIXELS = 4_000_000;

    public static byte[] render(String svg, double scale) {
        Document d;
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            d = f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalArgumentException("not a PerfSvg figure: " + e.getMessage(), e);
        }
        Element root = d.getDocumentElement();
        double w0 = Math.max(1, num(root, "width", 100)), h0 = Math.max(1, num(root, "height", 100));
        // a figure of a very large fabric is drawn smaller rather than allocating an image the heap cannot hold
        double s = Math.min(scale, Math.sqrt(MAX_PIXELS / (w0 * h0)));
        int w = (int) Math.ceil(w0 * s), h = (int) Math.ceil(h0 * s);
        BufferedImage img = new BufferedImage(Math.max(1, w), Math.max(1, h), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, w, h);
            g.scale(s, s);
            for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) if (n instanceof Element e) draw(g, e);
        } finally {
            g.dispose();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(img, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void draw(Graphics2D g, Element e) {
        switch (e.getTagName()) {
            case "rect" -> {
                Rectangle2D r = new Rectangle2D.Double(num(e, "x", 0), num(e, "y", 0), num(e, "width", 0), num(e, "height", 0));
                fillAndStroke(g, e, r);
            }
            case "line" -> stroke(g, e, new Line2D.Double(num(e, "x1", 0), num(e, "y1", 0), num(e, "x2", 0), num(e, "y2", 0)));
            case "circle" -> {
                double r = num(e, "r", 1);
                fillAndStroke(g, e, new Ellipse2D.Double(num(e, "cx", 0) - r, num(e, "cy", 0) - r, 2 * r, 2 * r));
            }
            case "path" -> {
                Path2D p = new Path2D.Double();
                Matcher m = Pattern.compile("([ML])\\s*([-\\d.]+),([-\\d.]+)").matcher(e.getAttribute("d"));
                while (m.find()) {
                    double x = Double.parseDouble(m.group(2)), y = Double.parseDouble(m.group(3));
                    if (m.group(1).equals("M")) p.moveTo(x, y);
                    else p.lineTo(x, y);
                }
                stroke(g, e, p);
            }
            case "text" -> text(g, e);
            default -> { } // title and anything else: not drawn
        }
    }

    private static void fillAndStroke(Graphics2D g, Element e, java.awt.Shape s) {
        Color fill = colour(e.getAttribute("fill"), Color.BLACK);
        if (fill != null) {
            g.setColor(fill);
            g.fill(s);
        }
        if (e.hasAttribute("stroke")) stroke(g, e, s);
    }

    private static void stroke(Graphics2D g, Element e, java.awt.Shape s) {
        Color c = colour(e.getAttribute("stroke"), null);
        if (c == null) return;
        float width = (float) num(e, "stroke-width", 1);
        if (width <= 0) return;
        String dash = e.getAttribute("stroke-dasharray");
        BasicStroke st = dash.isEmpty() ? new BasicStroke(width)
                : new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, dashes(dash), 0f);
        g.setStroke(st);
        g.setColor(c);
        g.draw(s);
    }

    private static void text(Graphics2D g, Element e) {
        String s = e.getTextContent();
        if (s == null || s.isBlank()) return;
        AffineTransform saved = g.getTransform();
        double x = num(e, "x", 0), y = num(e, "y", 0);
        Matcher t = TRANSFORM.matcher(e.getAttribute("transform"));
        if (t.find()) {
            g.translate(Double.parseDouble(t.group(1)), Double.parseDouble(t.group(2)));
            if (t.group(3) != null) g.rotate(Math.toRadians(Double.parseDouble(t.group(3))));
        }
        int style = "bold".equals(e.getAttribute("font-weight")) ? Font.BOLD : Font.PLAIN;
        g.setFont(new Font(Font.SANS_SERIF, style, 1).deriveFont((float) num(e, "font-size", 10)));
        g.setColor(colour(e.getAttribute("fill"), Color.BLACK));
        double wd = g.getFontMetrics().stringWidth(s);
        String anchor = e.getAttribute("text-anchor");
        if (anchor.equals("end")) x -= wd;
        else if (anchor.equals("middle")) x -= wd / 2;
        g.drawString(s, (float) x, (float) y);
        g.setTransform(saved);
    }

    /** null for "none"; def when absent. */
    static Color colour(String v, Color def) {
        if (v == null || v.isEmpty()) return def;
        if (v.equals("none")) return null;
        Matcher m = HSL.matcher(v);
        if (m.matches()) return hsl(Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)) / 100, Double.parseDouble(m.group(3)) / 100);
        try {
            if (v.startsWith("#") && v.length() == 4)
                return new Color(Integer.parseInt("" + v.charAt(1) + v.charAt(1) + v.charAt(2) + v.charAt(2) + v.charAt(3) + v.charAt(3), 16));
            if (v.startsWith("#")) return new Color(Integer.parseInt(v.substring(1), 16));
        } catch (NumberFormatException ignored) {
            // fall through to the default
        }
        return def;
    }

    private static Color hsl(double h, double s, double l) {
        double c = (1 - Math.abs(2 * l - 1)) * s, x = c * (1 - Math.abs((h / 60) % 2 - 1)), m = l - c / 2;
        double r, gr, b;
        if (h < 60) { r = c; gr = x; b = 0; } else if (h < 120) { r = x; gr = c; b = 0; } else if (h < 180) { r = 0; gr = c; b = x; }
        else if (h < 240) { r = 0; gr = x; b = c; } else if (h < 300) { r = x; gr = 0; b = c; } else { r = c; gr = 0; b = x; }
        return new Color(clamp(r + m), clamp(gr + m), clamp(b + m));
    }

    private static float clamp(double v) {
        return (float) Math.max(0, Math.min(1, v));
    }

    private static float[] dashes(String s) {
        String[] p = s.split("[,\\s]+");
        float[] f = new float[p.length];
        for (int i = 0; i < p.length; i++) f[i] = Float.parseFloat(p[i]);
        return f;
    }

    private static double num(Element e, String attr, double def) {
        String v = e.getAttribute(attr);
        if (v == null || v.isEmpty()) return def;
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException ex) {
            return def;
        }
    }
}
