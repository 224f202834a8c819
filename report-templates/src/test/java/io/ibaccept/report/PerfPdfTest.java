package io.ibaccept.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.lowagie.text.Document;
import com.lowagie.text.Image;
import com.lowagie.text.PageSize;
import com.lowagie.text.pdf.PdfReader;
import com.lowagie.text.pdf.PdfTemplate;
import com.lowagie.text.pdf.PdfWriter;
import com.lowagie.text.pdf.parser.PdfTextExtractor;
import io.ibaccept.rules.perf.Outliers;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The PDF figures: PerfSvg figures drawn as PDF vectors; a slow node's row is red, the rest green; labels are text. */
class PerfPdfTest {
    private static final Pattern RECT_FILL = Pattern.compile("([-\\d.]+) ([-\\d.]+) ([\\d.]+) ([\\d.]+) re\\s+([\\d.]+) ([\\d.]+) ([\\d.]+) rg\\s+f");

    /** The fill colour (r, g, b in 0..1) of the rectangle drawn at the SVG position (x, y), or null. */
    private static double[] fillAt(String content, double figureHeight, double x, double y) {
        Matcher m = RECT_FILL.matcher(content);
        while (m.find()) {
            double rx = Double.parseDouble(m.group(1)), ry = Double.parseDouble(m.group(2)), rw = Double.parseDouble(m.group(3)),
                    rh = Double.parseDouble(m.group(4));
            double py = figureHeight - y; // PDF y points up
            if (rx <= x && x < rx + rw && ry <= py && py < ry + rh)
                return new double[] {Double.parseDouble(m.group(5)), Double.parseDouble(m.group(6)), Double.parseDouble(m.group(7))};
        }
        return null;
    }

    private static String content(PdfTemplate tp) {
        return new String(tp.toPdf(null), StandardCharsets.ISO_8859_1);
    }

    @Test
    void heatMapShowsTheSlowNodeRowInDarkRed() {
        Outliers.Result r = PerfSvgTest.matrix(16, (a, b) -> a.equals("n0005") || b.equals("n0005") ? 150 : 196);
        String svg = PerfSvg.heatMap(r, PerfSvgTest.leaves(16, 4));
        Document doc = new Document();
        PdfWriter w = PdfWriter.getInstance(doc, new ByteArrayOutputStream());
        doc.open();
        PdfTemplate tp = PerfPdf.render(svg, w.getDirectContent());
        assertThat(tp.getWidth()).isGreaterThan(300);
        String content = content(tp);
        // the cell n0005 - n0000 from the SVG coordinates: row 5, column 0 of the grid
        String cell = svg.substring(svg.indexOf("<title>n0005 - n0000") - 120, svg.indexOf("<title>n0005 - n0000"));
        double x = Double.parseDouble(cell.replaceAll(".*x=\"([\\d.]+)\".*", "$1")), y = Double.parseDouble(cell.replaceAll(".*y=\"([\\d.]+)\".*", "$1"));
        double[] red = fillAt(content, tp.getHeight(), x + 4, y + 4);
        assertThat(red).isNotNull();
        assertThat(red[0]).isGreaterThan(0.35).isGreaterThan(2 * red[1]); // the far-off bin, dark red
        assertThat(red[1]).isLessThan(0.2);
        double cellSize = 18; // 16 nodes: the largest cell size
        double[] green = fillAt(content, tp.getHeight(), x + 4, y + 2 * cellSize + 4); // two rows down: n0007 - n0000
        assertThat(green).isNotNull();
        assertThat(green[1]).isGreaterThan(0.6);
        assertThat(green[0]).isLessThan(0.5);
        doc.add(Image.getInstance(tp));
        doc.close();
    }

    @Test
    void curveIsVectorsWithItsLabelsAsTextInThePdf() throws Exception {
        String svg = PerfSvg.curve("ib_write_bw vs message size", true,
                Map.of("cn01 -> cn02", List.of(new PerfSvg.Point(2, 1), new PerfSvg.Point(1 << 20, 190))), 200);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Document doc = new Document(PageSize.A4.rotate());
        PdfWriter w = PdfWriter.getInstance(doc, out);
        doc.open();
        PdfTemplate tp = PerfPdf.render(svg, w.getDirectContent());
        String content = content(tp);
        assertThat(content).contains(" m", " l", "S"); // the series path is stroked
        assertThat(content).containsPattern("\\[6 4\\] 0 d"); // the expected line rate is dashed
        doc.add(Image.getInstance(tp));
        doc.close();
        String text = new PdfTextExtractor(new PdfReader(out.toByteArray())).getTextFromPage(1);
        assertThat(text).contains("ib_write_bw vs message size", "expected 200", "message size (bytes)", "cn01 -> cn02");
    }

    @Test
    void hostileNamesAreDrawnAsTextNotReadAsMarkup() throws Exception {
        String name = "cn01</text><rect x=\"0\" y=\"0\" width=\"9999\" height=\"9999\"/>&'";
        String svg = PerfSvg.curve("t", true, Map.of(name + " -> b", List.of(new PerfSvg.Point(2, 1), new PerfSvg.Point(1 << 20, 190))), 200);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Document doc = new Document(PageSize.A4.rotate());
        PdfWriter w = PdfWriter.getInstance(doc, out);
        doc.open();
        PdfTemplate tp = PerfPdf.render(svg, w.getDirectContent());
        assertThat(content(tp)).doesNotContain("9999");
        doc.add(Image.getInstance(tp));
        doc.close();
        assertThat(new PdfTextExtractor(new PdfReader(out.toByteArray())).getTextFromPage(1)).contains("cn01</text><rect");
    }

    @Test
    void somethingThatIsNotOurSvgIsRefusedWithAMessage() {
        Document doc = new Document();
        PdfWriter w = PdfWriter.getInstance(doc, new ByteArrayOutputStream());
        doc.open();
        assertThatThrownBy(() -> PerfPdf.render("<html>", w.getDirectContent())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a PerfSvg figure");
        assertThatThrownBy(() -> PerfPdf.render("<svg width=\"10", w.getDirectContent())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a PerfSvg figure");
    }

    @Test
    void coloursAsPerfSvgWritesThem() {
        assertThat(PerfPdf.colour("hsl(0,70%,40%)", null).getRed()).isGreaterThan(150);
        assertThat(PerfPdf.colour("hsl(120,70%,50%)", null).getGreen()).isGreaterThan(150);
        assertThat(PerfPdf.colour("#c00", null)).isEqualTo(new java.awt.Color(0xcc, 0, 0));
        assertThat(PerfPdf.colour("none", java.awt.Color.BLACK)).isNull();
        assertThat(PerfPdf.colour("bogus", java.awt.Color.BLUE)).isEqualTo(java.awt.Color.BLUE);
    }
}
