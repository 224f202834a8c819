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
            if (e.getAttribute("fill").equals(PerfSvg.BINS[PerfSvg.BINS.length - 1])) { // 150 of a best 196: beyond twice the outlier margin
                red++;
                assertThat(t).contains("n0005").endsWith("150 Gb/s");
            }
        }
        assertThat(cells).isEqualTo(16 * 15);
        assertThat(red).isEqualTo(2 * 15); // row and column of n0005
        assertThat(svg).contains(">leaf01<").contains(">leaf04<").contains("15 bad of 120 pairs");
        assertThat(svg).contains("leaf02: median"); // per-leaf aggregate strip above the matrix
    }

    /**
     * Two leaves of 8 nodes and two spines: a pair between the leaves is routed over spine01 or spine02 (by the sum of
     * its node numbers), and every pair over spine02 runs at 40 % of line rate. Grouped by route, the two spine02
     * cables come first, all red, with the pairs they carry; the spine01 cables are green.
     */
    @Test
    void pairsGroupedByTheirRouteShowTheSlowCable() throws Exception {
        java.util.function.BiFunction<String, String, List<String>> route = (a, b) -> {
            int i = Integer.parseInt(a.substring(1)), j = Integer.parseInt(b.substring(1));
            int la = i / 8 + 1, lb = j / 8 + 1, sp = (i + j) % 2 + 1;
            if (la == lb) return List.of();
            return List.of(String.format("leaf%02d port %d <-> spine%02d port %d", la, 32 + sp, sp, la),
                    String.format("leaf%02d port %d <-> spine%02d port %d", lb, 32 + sp, sp, lb));
        };
        Map<String, String> leafOf = new HashMap<>();
        for (int i = 0; i < 16; i++) leafOf.put(node(i), String.format("leaf%02d", i / 8 + 1));
        FabricView view = new FabricView(leafOf, Map.of(), route);
        Outliers.Result r = matrix(16, (a, b) -> route.apply(a, b).stream().anyMatch(c -> c.contains("spine02")) ? 80 : 196);
        String svg = PerfSvg.byRoute(r, view, h -> 200.0, 90);
        Document d = xml(svg);
        NodeList texts = d.getElementsByTagName("text");
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < texts.getLength(); i++) if (texts.item(i).getTextContent().startsWith("leaf")) labels.add(texts.item(i).getTextContent());
        assertThat(labels).hasSize(4);
        assertThat(labels.subList(0, 2)).allSatisfy(l -> assertThat(l).contains("spine02"));
        assertThat(labels.subList(2, 4)).allSatisfy(l -> assertThat(l).contains("spine01"));
        // 64 pairs between the leaves, half over each spine; 56 pairs within a leaf have no switch-to-switch cable
        assertThat(svg).contains("(64 of 120 pairs routed)").contains(">32 pairs, 32 bad<").contains(">32 pairs<");
        NodeList rects = d.getElementsByTagName("rect");
        for (int i = 0; i < rects.getLength(); i++) {
            Element e = (Element) rects.item(i);
            String t = e.getTextContent();
            if (t.contains("spine02") && t.contains(" of 32 pairs")) assertThat(e.getAttribute("fill")).isNotIn(PerfSvg.BINS[0], PerfSvg.BINS[1]);
            if (t.contains("spine01") && t.contains(" of 32 pairs")) assertThat(e.getAttribute("fill")).isEqualTo(PerfSvg.BINS[0]);
        }
        // without the forwarding tables there is no such chart
        assertThat(PerfSvg.byRoute(r, leaves(16, 8), h -> 200.0, 90)).isEmpty();
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
        assertThat(svg).contains("per leaf pair (600 nodes)").contains("leaf03 - leaf07: median 196 Gb/s, 0 of 1600 pairs bad");
    }

    /**
     * With line rates, colours are percentages of each pair's own rate: a pair at 25 % and one at 52 % of 200 Gb/s are
     * different colours, an EDR host's pair at 98 % of its 100 Gb/s is green (and outlined: an outlier of the fabric), and every bad pair is listed with
     * its value (no tooltip needed). In the leaf matrix, the block holding the one bad pair among 1,600 takes its colour.
     */
    @Test
    void percentOfEachPairsLineRateAndEveryBadPairListed() throws Exception {
        java.util.function.Function<String, Double> line = h -> h.equals("n0009") ? 100.0 : 200.0;
        Outliers.Result r = matrix(16, (a, b) -> a.equals("n0003") && b.equals("n0004") ? 50 : a.equals("n0005") && b.equals("n0006") ? 104
                : a.equals("n0009") || b.equals("n0009") ? 98 : 196);
        String svg = PerfSvg.heatMap(r, leaves(16, 4), line, 90);
        xml(svg);
        assertThat(svg).contains("% of line rate").contains("n0003 - n0004: 50.0 Gb/s = 25 % of 200").contains("n0005 - n0006: 104 Gb/s = 52 % of 200");
        String c25 = fillOf(svg, "n0003 - n0004"), c52 = fillOf(svg, "n0005 - n0006"), edr = fillOf(svg, "n0009 - n0001"), ok = fillOf(svg, "n0001 - n0002");
        assertThat(c25).isNotEqualTo(c52);
        assertThat(edr).isEqualTo(ok).isEqualTo(PerfSvg.BINS[0]);
        // n0009's 15 pairs are outliers of the fabric (outlined and listed) though each runs at 98 % of its own line rate (green)
        assertThat(svg).contains(">17 bad pair(s), the 10 worst (all in findings.csv):<").contains("\u2265 90 % of line rate");
        assertThat(svg.indexOf("n0003 \u2013 n0004: 50.0 Gb/s = 25 % of 200<")).isLessThan(svg.indexOf("n0005 \u2013 n0006: 104 Gb/s = 52 % of 200<"));
        assertThat(svg.split("class=\"bad\"", -1).length - 1).isEqualTo(2 * 17); // both cells of each bad pair outlined

        Outliers.Result big = matrix(600, (a, b) -> a.equals("n0100") && b.equals("n0500") ? 60 : 196);
        String leafSvg = PerfSvg.heatMap(big, leaves(600, 40), h -> 200.0, 90);
        Element bad = null;
        NodeList rects = xml(leafSvg).getElementsByTagName("rect");
        for (int i = 0; i < rects.getLength(); i++) if ("bad".equals(((Element) rects.item(i)).getAttribute("class"))) bad = (Element) rects.item(i);
        assertThat(bad).isNotNull();
        assertThat(bad.getTextContent()).containsAnyOf("leaf03 - leaf13:", "leaf13 - leaf03:").endsWith("1 of 1600 pairs bad");
        assertThat(bad.getAttribute("fill")).isEqualTo(PerfSvg.BINS[5]); // 30 % of line rate
        assertThat(leafSvg).contains("n0100 \u2013 n0500: 60.0 Gb/s = 30 % of 200");
    }

    /** The fill of the cell whose tooltip starts with this pair. */
    private static String fillOf(String svg, String pair) {
        int t = svg.indexOf("<title>" + pair + ":");
        int r = svg.lastIndexOf("<rect", t);
        return svg.substring(r, t).replaceAll("(?s).*fill=\"([^\"]+)\".*", "$1");
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
