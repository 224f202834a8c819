package io.ibaccept.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.rules.perf.FabricView;
import io.ibaccept.rules.perf.Outliers;
import io.ibaccept.rules.perf.PairMatrix;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleBiFunction;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class PerfSvgTest {
    static String node(int i) {
        return String.format("n%04d", i);
    }

    /** n nodes, perLeaf per leaf, all pairs valued by f. */
    static Outliers.Result matrix(int n, ToDoubleBiFunction<String, String> f) {
        List<PairMatrix.Measurement> ms = new ArrayList<>();
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) ms.add(new PairMatrix.Measurement(node(i), node(j), 0, f.applyAsDouble(node(i), node(j)), "", ""));
        return Outliers.judge(new PairMatrix("ib_write_bw", true, ms), Outliers.Config.defaults());
    }

    static FabricView leaves(int n, int perLeaf) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < n; i++) m.put(node(i), String.format("leaf%02d", i / perLeaf + 1));
        return new FabricView(m, Map.of());
    }

    static Document xml(String svg) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void smallFabricHasOneTitledCellPerPairAndTheSlowNodeIsAStripe() throws Exception {
        Outliers.Result r = matrix(16, (a, b) -> a.equals("n0005") || b.equals("n0005") ? 150 : 196 + (a.hashCode() % 3) / 10.0);
        String svg = PerfSvg.heatMap(r, leaves(16, 4));
        Document d = xml(svg);
        NodeList rects = d.getElementsByTagName("rect");
        int red = 0, cells = 0;
        for (int i = 0; i < rects.getLength(); i++) {
            Element e = (Element) rects.item(i);
            String t = e.getTextContent();
            if (!t.matches("n\\d{4} - n\\d{4}: .*")) continue;
            cells++;
            if (e.getAttribute("fill").startsWith("hsl(0,")) {
                red++;
                assertThat(t).contains("n0005").endsWith("150 Gb/s");
            }
        }
        assertThat(cells).isEqualTo(16 * 15);
        assertThat(red).isEqualTo(2 * 15); // row and column of n0005
        assertThat(svg).contains(">leaf01<").contains(">leaf04<").contains("15 bad of 120 pairs");
        assertThat(svg).contains("leaf02: median"); // per-leaf aggregate strip above the matrix
    }

    @Test
    void fiveHundredTwelveNodesStayReadableAndSmall() throws Exception {
        Outliers.Result r = matrix(512, (a, b) -> a.startsWith("n003") || b.startsWith("n003") ? 120 : 196);
        String svg = PerfSvg.heatMap(r, leaves(512, 32));
        xml(svg);
        assertThat(svg.length()).isLessThan(3_000_000);
        assertThat(svg).contains("leaf16").doesNotContain("per-leaf aggregates:");
        Element root = xml(svg).getDocumentElement();
        assertThat(Double.parseDouble(root.getAttribute("width"))).isBetween(800.0, 1200.0);
    }

    @Test
    void aboveFiveHundredTwelveNodesTheLeafMatrixIsDrawn() throws Exception {
        Outliers.Result r = matrix(600, (a, b) -> 196);
        String svg = PerfSvg.heatMap(r, leaves(600, 40));
        xml(svg);
        assertThat(svg).contains("per-leaf aggregates: 600 nodes on 15 leaves").contains("leaf03 - leaf07: median 196 Gb/s");
    }

    @Test
    void hostileNamesAreEscaped() throws Exception {
        List<PairMatrix.Measurement> ms = List.of(new PairMatrix.Measurement("a<script>", "b&c", 0, 190, "", ""),
                new PairMatrix.Measurement("a<script>", "d\"e", 0, 191, "", ""), new PairMatrix.Measurement("b&c", "d\"e", 0, 192, "", ""));
        String svg = PerfSvg.heatMap(Outliers.judge(new PairMatrix("ib_write_bw", true, ms), Outliers.Config.defaults()), FabricView.empty());
        xml(svg);
        assertThat(svg).doesNotContain("<script>").contains("a&lt;script&gt;");
    }

    @Test
    void bandwidthCurveHasTheExpectedLineAndLatencyCurveALogAxis() throws Exception {
        List<PerfSvg.Point> bw = new ArrayList<>();
        List<PerfSvg.Point> lat = new ArrayList<>();
        for (int e = 1; e <= 23; e++) {
            bw.add(new PerfSvg.Point(1L << e, Math.min(196, 0.05 * (1L << e))));
            lat.add(new PerfSvg.Point(1L << e, 1.1 + (1L << e) / 25000.0));
        }
        Map<String, List<PerfSvg.Point>> s = new LinkedHashMap<>();
        s.put("n0001 -> n0002", bw);
        String svg = PerfSvg.curve("ib_write_bw -a", true, s, 197.0);
        Document d = xml(svg);
        assertThat(svg).contains("class=\"expected\"").contains("expected 197 Gb/s").contains(">8M<").contains("bandwidth (Gb/s)");
        assertThat(d.getElementsByTagName("circle").getLength()).isEqualTo(23);
        String l = PerfSvg.curve("ib_write_lat -a", false, Map.of("n0001 -> n0002", lat), Double.NaN);
        xml(l);
        assertThat(l).contains("latency (us)").doesNotContain("class=\"expected\"").contains(">1.00<").contains(">1000<");
        assertThat(PerfSvg.curve("none", true, Map.of(), 200)).contains("no message-size sweep");
    }
}
