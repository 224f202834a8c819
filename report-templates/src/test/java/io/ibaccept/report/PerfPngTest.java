package io.ibaccept.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.rules.perf.FabricView;
import io.ibaccept.rules.perf.Outliers;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** The PDF images: PerfSvg figures rasterised; a slow node's row is red, the rest green. */
class PerfPngTest {
    @Test
    void heatMapRasterShowsTheSlowNodeRowInRed() throws Exception {
        Outliers.Result r = PerfSvgTest.matrix(16, (a, b) -> a.equals("n0005") || b.equals("n0005") ? 150 : 196);
        String svg = PerfSvg.heatMap(r, PerfSvgTest.leaves(16, 4));
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(PerfPng.render(svg, 1)));
        assertThat(img.getWidth()).isGreaterThan(300);
        // find the cell n0005 - n0000 from the SVG coordinates: row 5, column 0 of the grid
        String cell = svg.substring(svg.indexOf("<title>n0005 - n0000") - 120, svg.indexOf("<title>n0005 - n0000"));
        double x = Double.parseDouble(cell.replaceAll(".*x=\"([\\d.]+)\".*", "$1")), y = Double.parseDouble(cell.replaceAll(".*y=\"([\\d.]+)\".*", "$1"));
        Color red = new Color(img.getRGB((int) x + 4, (int) y + 4));
        assertThat(red.getRed()).isGreaterThan(150);
        assertThat(red.getGreen()).isLessThan(80);
        double cellSize = 18; // 16 nodes: the largest cell size
        Color green = new Color(img.getRGB((int) x + 4, (int) (y + 2 * cellSize) + 4)); // two rows down: n0007 - n0000
        assertThat(green.getGreen()).isGreaterThan(150);
        assertThat(green.getRed()).isLessThan(120);
    }

    @Test
    void curveRasterises() throws Exception {
        String svg = PerfSvg.curve("t", true, Map.of("a -> b", List.of(new PerfSvg.Point(2, 1), new PerfSvg.Point(1 << 20, 190))), 200);
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(PerfPng.render(svg, 2)));
        assertThat(img.getWidth()).isEqualTo(1280);
    }

    @Test
    void aHugeFigureIsDrawnSmallerInsteadOfExhaustingTheHeap() throws Exception {
        String svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"30000\" height=\"20000\"><rect x=\"0\" y=\"0\" width=\"30000\" "
                + "height=\"20000\" fill=\"#ff0000\"/></svg>";
        java.awt.image.BufferedImage img = javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(PerfPng.render(svg, 2)));
        assertThat((double) img.getWidth() * img.getHeight()).isLessThanOrEqualTo(PerfPng.MAX_PIXELS + 2 * (img.getWidth() + img.getHeight()));
        assertThat((double) img.getWidth() / img.getHeight()).isCloseTo(1.5, org.assertj.core.data.Offset.offset(0.01));
        assertThat(new java.awt.Color(img.getRGB(img.getWidth() - 2, img.getHeight() - 2))).isEqualTo(java.awt.Color.RED);
    }
}
