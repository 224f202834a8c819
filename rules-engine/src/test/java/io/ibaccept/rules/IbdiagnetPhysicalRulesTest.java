package io.ibaccept.rules;

import static io.ibaccept.rules.TestDump.of;
import static io.ibaccept.rules.TestDump.problems;
import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.DumpLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * cable.module and link.fec on the real ibdiagnet2.cables / net_dump_ext of the 272-node NDR fabric in the
 * real-captures dump, and on copies of it with one reading or FEC mode changed.
 */
class IbdiagnetPhysicalRulesTest {
    static final String CABLES = "fabric/ibdiagnet2.cables.out", EXT = "fabric/ibdiagnet2.net_dump_ext.out";
    static Report r;

    @BeforeAll
    static void analyze() {
        r = new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(RealCapturesRulesTest.DUMP));
    }

    @Test
    void theFourModulesThatLatchedRxLossOfLockAreOneWarnPerSwitch() {
        List<Finding> fs = problems(r, "cable.module");
        // port 32 (1/16/2) of four switches: Rx LOL on all lanes and TX bias flags; nothing else, no FAIL: the 198
        // passive copper cables' words (0x03, 0x06, 0x3223) belong to monitors they do not have
        assertThat(fs).hasSize(4).allSatisfy(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.variant()).isEqualTo("flags");
            assertThat(f.objects()).singleElement().satisfies(o -> assertThat(o).endsWith(" port 32"));
            assertThat(f.summary()).contains("1 cable module(s) with latched flags")
                    .contains("Rx loss of lock on lanes 1-4 (latched); TX bias high warning on lanes 1-4 (latched); TX bias low warning on lanes 1-4 (latched)")
                    .doesNotContain("0x0f").doesNotContain("0x3333");
            assertThat(f.evidence()).first().satisfies(e -> assertThat(e.where()).matches(Pattern.quote(CABLES) + ":\\d+"));
            assertThat(f.cause()).contains("198 module(s) report no monitors (passive copper");
        });
        assertThat(fs).extracting(Finding::summary).anySatisfy(s -> assertThat(s).startsWith("Quantum-2 Mellanox Technologies (0xb0cf0e0300e5b940): "))
                .anySatisfy(s -> assertThat(s).startsWith("MF0;ib-switch-sequoia:MQM9700/U1: "));
        assertThat(problems(r, "cable.module").get(0).evidence()).anySatisfy(e -> assertThat(e.where()).isIn(CABLES + ":2115", CABLES + ":4323", CABLES + ":6531", CABLES + ":35097"));
    }

    @Test
    void fecPerLinkClassAndMediumIsAFactAndNoFinding() {
        // copper host links run Mellanox's low-latency RS(271,257), optical ones the standard RS(544,514): by design, no mix
        assertThat(of(r, "link.fec")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).contains("host links on copper: MLNX_RS_271_257_PLR (").contains("host links on optics: RS_FEC_544_514 (")
                    .contains("BER not checked here")
                    // the topology is of the 03-31 run, the port dump of 03-15: recabled ports are not judged
                    .contains("whose neighbour the topology does not confirm");
        });
    }

    @Test
    void aModuleAboveItsOwnTemperatureAlarmIsAFail(@TempDir Path tmp) {
        TestDump d = TestDump.copy(RealCapturesRulesTest.DUMP, tmp);
        d.write(CABLES, d.read(CABLES).replaceFirst("Temperature: 58C", "Temperature: 83C"));
        List<Finding> fs = problems(d.analyze(), "cable.module");
        assertThat(fs).filteredOn(f -> f.status() == Status.FAIL).singleElement().satisfies(f -> {
            assertThat(f.summary()).startsWith("Quantum-2 Mellanox Technologies (0xb0cf0e0300e5b940): 2 cable module(s) outside their own thresholds")
                    .contains("port 1 (temperature 83C above its high alarm 80C)");
            assertThat(f.evidence()).first().satisfies(e -> assertThat(e.where()).isEqualTo(CABLES + ":21"));
            assertThat(f.objects()).contains("Quantum-2 Mellanox Technologies (0xb0cf0e0300e5b940) port 1");
        });
    }

    @Test
    void lowRxPowerAgainstTheModulesOwnThresholdIsAFail(@TempDir Path tmp) {
        TestDump d = TestDump.copy(RealCapturesRulesTest.DUMP, tmp);
        // 0.100 mW = -10 dBm, below the module's -6 dBm (RXPowerLowThresh 65530)
        d.write(CABLES, d.read(CABLES).replaceFirst("RX2 Power: -999.999 mW, 0.000 dBm", "RX2 Power: 0.100 mW, -10.000 dBm"));
        assertThat(problems(d.analyze(), "cable.module")).filteredOn(f -> f.status() == Status.FAIL).singleElement()
                .satisfies(f -> assertThat(f.summary()).contains("port 1 (RX power lane 2 -10 dBm below its low threshold -6 dBm)"));
    }

    @Test
    void anNdrLinkWithoutRsFecIsAFailAndAnOddFecInItsClassAWarn(@TempDir Path tmp) {
        TestDump d = TestDump.copy(RealCapturesRulesTest.DUMP, tmp);
        String ext = d.read(EXT);
        ext = line(ext, "SW : 1/1/1            : 1   : 0xb0cf0e0300e5b940", "RS_FEC_544_514     ", "NO-FEC             ");
        ext = line(ext, "SW : 1/1/2            : 2   : 0xb0cf0e0300e5b940", "RS_FEC_544_514     ", "RS_FEC_544_514_PLR ");
        d.write(EXT, ext);
        Report rep = d.analyze();
        assertThat(problems(rep, "link.fec")).filteredOn(f -> f.status() == Status.FAIL).singleElement().satisfies(f -> {
            assertThat(f.variant()).isEqualTo("no_rs");
            assertThat(f.summary()).isEqualTo("Quantum-2 Mellanox Technologies (0xb0cf0e0300e5b940): 1 link(s) without Reed-Solomon FEC: port 1 NO-FEC");
            assertThat(f.evidence()).singleElement().satisfies(e -> assertThat(e.where()).matches(Pattern.quote(EXT) + ":\\d+"));
        });
        assertThat(problems(rep, "link.fec")).filteredOn(f -> f.status() == Status.WARN).singleElement().satisfies(f -> {
            assertThat(f.variant()).isEqualTo("mixed");
            assertThat(f.summary()).contains("port 1 NO-FEC").contains("port 2 RS_FEC_544_514_PLR");
            assertThat(f.cause()).contains("host links on optics").contains("another FEC than RS_FEC_544_514 (as most of the class runs");
        });
    }

    @Test
    void aDeclaredFecIsJudgedInsteadOfTheMajority(@TempDir Path tmp) {
        TestDump d = TestDump.copy(RealCapturesRulesTest.DUMP, tmp);
        Report rep = d.analyze(TestDump.config(tmp, "link.fec.expected.host=RS_FEC_544_514\n"));
        // every copper host link now differs from what was declared: one WARN per switch, not one per port
        List<Finding> fs = problems(rep, "link.fec");
        assertThat(fs).isNotEmpty().allSatisfy(f -> {
            assertThat(f.cause()).contains("as declared (link.fec.expected.host)");
            assertThat(f.summary()).doesNotContain("+0 more");
        });
        assertThat(fs.stream().map(f -> f.summary().split(": ")[0]).distinct().count()).isEqualTo(fs.size());
        assertThat(fs.size()).isLessThanOrEqualTo(9);
    }

    /**
     * The same files with a topology that knows the NDR fabric (ibdiagnet's own, as fabric/ibnetdiscover.out) and no
     * iblinkinfo of another fabric: modules are classed host link or ISL, so part numbers are compared per end and medium.
     */
    @Test
    void partNumbersAreComparedPerEndAndMedium(@TempDir Path tmp) {
        TestDump d = TestDump.copy(RealCapturesRulesTest.DUMP, tmp);
        d.write("fabric/ibnetdiscover.out", d.read("fabric/ibdiagnet2.ibnetdiscover.out")).delete("fabric/iblinkinfo.out").delete("fabric/iblinkinfo.meta");
        Report rep = d.analyze();
        // the switch end of an optical cable (800G twin-port SR8) and its HCA end (400G SR4) are not a mix; copper apart
        assertThat(of(rep, "cable.parts")).noneSatisfy(f -> assertThat(f.summary()).contains("OSFP-SR8-800G (").contains("OSFP-SR4-400G-FL ("));
        // at the HCA ends of optical host links, 7 Finisar modules among the FS ones are another part
        assertThat(problems(rep, "cable.parts")).anySatisfy(f -> assertThat(f.summary())
                .startsWith("host links (HCA ends, optics) use 3 cable part numbers: OSFP-SR4-400G-FL (")
                .contains("FTCE8627E1PCA-4N (").contains("FTCE8627E1PCABG1 ("));
    }

    /** The one line starting with prefix, with from replaced by to. */
    private static String line(String text, String prefix, String from, String to) {
        int at = text.indexOf("\n" + prefix) + 1;
        int end = text.indexOf('\n', at);
        String l = text.substring(at, end);
        assertThat(l).contains(from);
        return text.substring(0, at) + l.replace(from, to) + text.substring(end);
    }
}
