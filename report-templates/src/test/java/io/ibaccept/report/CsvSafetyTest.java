package io.ibaccept.report;

import io.ibaccept.analysis.Analysis;
import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.model.ClusterData;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.Status;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvSafetyTest {
    static final List<String> DANGEROUS = List.of("=HYPERLINK(\"http://x\",\"y\")", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)",
            "\tcmd", "\rcmd", "  =1+1", " \t@x");

    @Test
    void neutralisesAsOwaspRecommends() {
        for (String d : DANGEROUS) assertThat(SafeCsv.neutralise(d)).as(d).isEqualTo("'" + d);
        assertThat(SafeCsv.neutralise("node01")).isEqualTo("node01");
        assertThat(SafeCsv.neutralise("")).isEqualTo("");
        assertThat(SafeCsv.neutralise("a=b")).isEqualTo("a=b");
        assertThat(SafeCsv.neutralise("'quoted")).isEqualTo("'quoted");
        // numeric columns stay numbers, also negative ones; numbers that arrive as text are text
        assertThat(SafeCsv.cell(-5L)).isEqualTo(-5L);
        assertThat(SafeCsv.cell(36)).isEqualTo(36);
        assertThat(SafeCsv.cell("-5")).isEqualTo("'-5");
    }

    @Test
    void everyCsvTheReportWritesIsSafe(@TempDir Path tmp) throws Exception {
        List<String> hosts = new ArrayList<>();
        for (String d : DANGEROUS) hosts.add(d.strip().isEmpty() ? "x" + d : d);
        hosts.add("node0001");
        ClusterData data = Synthetic.cluster(hosts, "");
        List<Finding> fs = new ArrayList<>();
        for (String h : hosts)
            fs.add(new Finding("memlock", "=title", Status.FAIL, List.of(h), List.of(Evidence.of("@ev", "")), "-summary " + h,
                    "+cause", "=fix"));
        Report r = new Report(data, fs);
        assertThat(ReportWriter.write(Analysis.of(r), tmp).errors()).isEmpty();
        for (String file : List.of("findings.csv", "inventory.csv")) {
            int cells = 0;
            try (Reader in = Files.newBufferedReader(tmp.resolve(file))) {
                for (CSVRecord row : CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in))
                    for (String cell : row) {
                        cells++;
                        String s = cell.stripLeading();
                        if (s.isEmpty()) continue;
                        assertThat(s.charAt(0)).as(file + " cell " + cell).isNotIn('=', '+', '-', '@', '\t', '\r');
                    }
            }
            assertThat(cells).isGreaterThan(hosts.size() * 5);
        }
        String inv = Files.readString(tmp.resolve("inventory.csv"));
        assertThat(inv).contains("'=HYPERLINK").contains("hca,'-2+3,").contains(",80,"); // switch port count stays a number
    }

    @Test
    void safeCsvIsTheOnlyWriter() throws Exception {
        // every CSV of the module goes through SafeCsv: no other class prints CSV records
        try (var files = Files.walk(Path.of("src/main/java"))) {
            for (Path p : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String src = Files.readString(p);
                if (p.getFileName().toString().equals("SafeCsv.java")) continue;
                assertThat(src).as(p.toString()).doesNotContain("CSVPrinter").doesNotContain("printRecord");
            }
        }
        StringWriter w = new StringWriter();
        try (SafeCsv csv = new SafeCsv(w, "a", "b")) {
            csv.row("=1", -3L);
        }
        assertThat(w.toString()).isEqualTo("a,b\r\n'=1,-3\r\n");
    }
}
