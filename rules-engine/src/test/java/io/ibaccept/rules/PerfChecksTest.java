package io.ibaccept.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** perftest.outlier and perftest.localisation on a synthetic 40-node dump (2 leaves) with all-pairs results. */
class PerfChecksTest {
    @TempDir
    Path tmp;

    static final String BW = "---------------------------------------------------------------------------------------\n"
            + "                    RDMA_Write BW Test\n"
            + " Dual-port       : OFF\t\tDevice         : mlx5_0\n"
            + " Link type       : IB\n"
            + "---------------------------------------------------------------------------------------\n"
            + " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
            + " 65536      5000           %.2f             %.2f  \t\t   0.374622\n"
            + "---------------------------------------------------------------------------------------\n";

    static String node(int i) {
        return String.format(Locale.ROOT, "cn%04d", i);
    }

    /** All pairs of n nodes; pairs with slowNode run at slowGbps; retest: a .retest1 record for each slow pair. */
    static TestDump allPairs(Path tmp, int n, String slowNode, double slowGbps, Double retestGbps) {
        TestDump d = TestDump.healthy(tmp, n);
        TestDump.deleteTree(tmp.resolve("perftest"));
        int port = 18515;
        for (int i = 1; i <= n; i++)
            for (int j = i + 1; j <= n; j++) {
                String a = node(i), b = node(j), id = "ib_write_bw__" + a + "__" + b;
                boolean slow = a.equals(slowNode) || b.equals(slowNode);
                double g = (slow ? slowGbps : 196.0) - ((i * 7 + j * 3) % 10) / 10.0;
                write(d, id, a, b, g, port);
                if (slow && retestGbps != null) write(d, id + ".retest1", a, b, retestGbps, port);
                port = port == 18600 ? 18515 : port + 1;
            }
        return d;
    }

    static void write(TestDump d, String id, String a, String b, double g, int port) {
        d.write("perftest/" + id + ".client.meta", "name: ib_write_bw\nhost: " + a + "\npeer: " + b
                + "\ncommand: ib_write_bw -d mlx5_0 -p " + port + " --report_gbits " + b + "\nstatus: ok\nexit: 0\nduration_ms: 5400\nstarted: 2026-12-02T14:10:00Z\n");
        d.write("perftest/" + id + ".client.out", String.format(Locale.ROOT, BW, g + 0.1, g));
        d.write("perftest/" + id + ".server.meta", "name: ib_write_bw\nhost: " + b + "\npeer: " + a
                + "\ncommand: ib_write_bw -d mlx5_0 -p " + port + " --report_gbits\nstatus: ok\nexit: 0\nduration_ms: 5400\nstarted: 2026-12-02T14:10:00Z\n");
        d.write("perftest/" + id + ".server.out", String.format(Locale.ROOT, BW, g + 0.1, g));
    }

    @Test
    void slowNodeConfirmedOnRetestIsOneRootFindingWithItsLeafAndCommands() {
        Report r = allPairs(tmp, 40, "cn0007", 180.0, 179.5).analyze();
        List<Finding> out = TestDump.problems(r, "perftest.outlier");
        assertThat(out).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).startsWith("ib_write_bw: 39 of 780 pairs below 93% of the fabric's best")
                    .endsWith("(39 confirmed on retest)");
            assertThat(f.evidence()).anyMatch(e -> e.where().matches("perftest/ib_write_bw__cn000\\d__cn00\\d\\d\\.client\\.out:7"))
                    .anyMatch(e -> e.where().contains(".retest1.client.out:7"))
                    .anyMatch(e -> e.text().startsWith("command on cn0001: ib_write_bw -d mlx5_0 -p ")
                            && e.text().endsWith("--report_gbits cn0007"))
                    .anyMatch(e -> e.text().startsWith("command on cn0007 (server, first): ib_write_bw -d mlx5_0 -p "));
        });
        List<Finding> loc = TestDump.problems(r, "perftest.localisation");
        assertThat(loc).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.objects()).containsExactly("cn0007");
            assertThat(f.summary()).startsWith("cn0007 is in 39 of 39 bad pairs (39 of its 39 tested pairs are bad)")
                    .endsWith("[high confidence]");
            assertThat(f.evidence()).anyMatch(e -> e.text().equals("cn0007 is on leaf leaf001"));
            assertThat(f.fix()).contains("On cn0007:");
        });
    }

    @Test
    void outlierThatRecoversOnRetestIsNotAFinding() {
        Report r = allPairs(tmp, 12, "cn0004", 150.0, 195.9).analyze();
        assertThat(TestDump.problems(r, "perftest.outlier")).isEmpty();
        assertThat(TestDump.of(r, "perftest.outlier")).singleElement()
                .satisfies(f -> assertThat(f.summary()).contains("(11 outlier(s) recovered on retest)"));
        assertThat(TestDump.status(r, "perftest.localisation")).isEqualTo(Status.PASS);
    }

    @Test
    void notRetestedIsAWarningThatSaysHowToRetest() {
        Report r = allPairs(tmp, 12, "cn0004", 150.0, null).analyze();
        assertThat(TestDump.problems(r, "perftest.outlier")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.fix()).contains("ibaccept rdma --retest");
        });
        assertThat(TestDump.problems(r, "perftest.localisation")).singleElement()
                .satisfies(f -> assertThat(f.status()).isEqualTo(Status.WARN));
    }

    @Test
    void thresholdsAreConfigurable() {
        TestDump d = allPairs(tmp, 12, "cn0004", 179.0, null);
        assertThat(TestDump.problems(d.analyze(), "perftest.outlier")).hasSize(1);
        assertThat(TestDump.problems(d.analyze(TestDump.config(tmp, "perftest.outlier.min_percent_of_best=90\n")), "perftest.outlier")).isEmpty();
    }

    @Test
    void absoluteBandwidthCheckJudgesARetestedPairByItsLatestRun() {
        // cn0004 at 150 Gb/s (75 % of HDR) on the first run, 195.9 on retest: no perftest.bw FAIL left for its pairs
        Report r = allPairs(tmp, 6, "cn0004", 150.0, 195.9).analyze();
        assertThat(TestDump.problems(r, "perftest.bw")).isEmpty();
        Report first = allPairs(tmp.resolve("b"), 6, "cn0004", 150.0, null).analyze();
        assertThat(TestDump.problems(first, "perftest.bw")).hasSize(5);
    }
}
