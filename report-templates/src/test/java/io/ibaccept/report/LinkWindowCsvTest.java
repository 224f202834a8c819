package io.ibaccept.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.rules.Status;
import io.ibaccept.rules.counters.LinkWindowRow;
import java.io.StringWriter;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;

class LinkWindowCsvTest {
    static LinkWindowRow row(String a, Status st, long errs, double perHour) {
        return new LinkWindowRow(a, "spine01 port 1", true, errs, false, perHour, 1.5e-11, 6.4e13, true, 8e12, 0, 3, false, st, "d");
    }

    @Test
    void worstFirstWithRateBerLoadAndSafeCells() throws Exception {
        List<LinkWindowRow> rows = List.of(row("leaf02 port 17", Status.PASS, 0, 0), row("=cmd|' /C calc'!A0", Status.FAIL, 1500, 900),
                row("leaf01 port 18", Status.WARN, 2, 12),
                new LinkWindowRow("node01 HCA-1 port 1", "leaf01 port 1", false, 0, false, Double.NaN, Double.NaN, 0, false, 0, Double.NaN, 7, true, Status.WARN, "single sample"));
        StringWriter w = new StringWriter();
        LinkWindowCsv.render(rows, w);
        List<CSVRecord> recs = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(new java.io.StringReader(w.toString())).getRecords();
        assertThat(recs).extracting(r -> r.get("status")).containsExactly("FAIL", "WARN", "WARN", "PASS");
        CSVRecord worst = recs.get(0);
        assertThat(worst.get("end_a")).startsWith("'=");
        assertThat(worst.get("errors_per_hour")).isEqualTo("900.00");
        assertThat(worst.get("symbol_ber")).isEqualTo("1.500e-11");
        assertThat(worst.get("carried_load")).isEqualTo("yes");
        assertThat(worst.get("judged_on")).isEqualTo("window");
        CSVRecord snap = recs.stream().filter(r -> r.get("judged_on").equals("snapshot")).findFirst().orElseThrow();
        assertThat(snap.get("errors_per_hour")).isEmpty();
        assertThat(snap.get("errors_before_window")).isEqualTo("7");
        assertThat(snap.get("carried_load")).isEmpty();
    }

    @Test
    void theWorstLinksChartDrawsTheWindowsRatesWorstFirstAndLeavesSnapshotsOut() {
        List<LinkWindowRow> rows = List.of(row("leaf02 port 17", Status.PASS, 0, 0), row("<script>leaf09 port 1", Status.FAIL, 1500, 900),
                row("leaf01 port 18", Status.WARN, 2, 12),
                new LinkWindowRow("node01 HCA-1 port 1", "leaf01 port 1", false, 0, false, Double.NaN, Double.NaN, 0, false, 0, Double.NaN, 7, true, Status.WARN, "single sample"));
        org.jsoup.nodes.Document svg = org.jsoup.Jsoup.parse(PortMapSection.worstLinks(rows));
        assertThat(svg.select("text[font-size=10]").eachText()).containsExactly("<script>leaf09 port 1 <-> spine01 port 1", "900/h, BER 1.5e-11",
                "leaf01 port 18 <-> spine01 port 1", "12/h, BER 1.5e-11");
        assertThat(svg.select("rect").eachAttr("fill")).containsExactly(PortMapSection.FAIL, PortMapSection.WARN);
        assertThat(svg.select("script")).isEmpty();
        assertThat(PortMapSection.worstLinks(List.of(rows.get(0), rows.get(3)))).isEmpty();
    }
}
