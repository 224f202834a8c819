package io.ibaccept.parse;

import static io.ibaccept.parse.RealSamplesTest.real;
import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.model.CableModule;
import io.ibaccept.model.DiagPort;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** ibdiagnet2.cables, net_dump and net_dump_ext of the real 272-node NDR fabric (real/SOURCES.md), and damaged copies. */
class IbdiagnetPhyParserTest {
    static final String CABLES = "ibdiagnet2.cables/gary-minghuili-ndr-quantum2-get-cable-info.txt";
    static final String NET_DUMP = "ibdiagnet2.net_dump/gary-minghuili-ndr-quantum2-full.txt";
    static final String NET_DUMP_EXT = "ibdiagnet2.net_dump_ext/gary-minghuili-ndr-quantum2-get-phy-info.txt";

    @Test
    void everyModuleOfTheRealCablesFileIsRead() {
        List<CableModule> ms = RealSamplesTest.clean(CABLES, IbdiagnetPhyParser::cables);
        assertThat(ms).hasSize(510);
        assertThat(ms.stream().map(m -> m.guid() + ":" + m.port()).distinct()).hasSize(510);
        assertThat(ms.stream().collect(Collectors.groupingBy(CableModule::partNumber, Collectors.counting())))
                .containsEntry("OSFP800G2OFLPC02", 198L).containsEntry("OSFP-SR8-800G", 164L).containsEntry("OSFP-SR4-400G-FL", 141L);

        CableModule first = ms.get(0);
        assertThat(first.guid()).isEqualTo(0xb0cf0e0300e5b940L);
        assertThat(first.port()).isEqualTo(1);
        assertThat(first.lid()).isEqualTo(0x18);
        assertThat(first.ref().line()).isEqualTo(9);
        assertThat(first.vendor()).isEqualTo("FS");
        assertThat(first.serial()).isEqualTo("G2430283435");
        assertThat(first.firmware()).isEqualTo("1.8.0");
        assertThat(first.type()).isEqualTo("850 nm VCSEL");
        assertThat(first.temperature()).isEqualTo(58.0);
        assertThat(first.temperatureHighAlarm()).isEqualTo(80.0);
        assertThat(first.temperatureLowAlarm()).isEqualTo(-5.0);
        assertThat(first.temperatureHighWarning()).isNull(); // N/A
        // -999.999 mW is ibdiagnet's "not reported", never a reading
        assertThat(first.rxPowerMw()).hasSize(4).containsOnlyNulls();
        assertThat(first.txBiasMa()).containsExactly(7.242, 7.304, 7.326, 7.304);
        assertThat(first.rxPowerThresholdsDbm()).containsExactly(-6.0, 4.0);
        assertThat(first.txPowerThresholdsDbm()).containsExactly(-4.0, 4.0);
        assertThat(first.txBiasThresholdsMa()).containsExactly(3.0, 13.0);
        assertThat(first.monitored()).isTrue();
        assertThat(first.ref("TX Bias Alarm and Warning").line()).isEqualTo(first.ref().line() + 40);

        // a passive copper cable reports nothing: 0C, thresholds 0, whatever its flag words say
        List<CableModule> copper = ms.stream().filter(CableModule::copper).toList();
        assertThat(copper).hasSize(198).allSatisfy(m -> {
            assertThat(m.monitored()).isFalse();
            assertThat(m.temperature()).isNull();
            assertThat(m.length()).isEqualTo("2 m");
        });
        // port 32 of four switches: RX power printed as "inf mW" (not a value), Rx LOL on all lanes
        List<CableModule> inf = ms.stream().filter(m -> m.flags("Latched  TX / RX LOL Indicator") == 0x0f).toList();
        assertThat(inf).hasSize(4).allSatisfy(m -> {
            assertThat(m.port()).isEqualTo(32);
            assertThat(m.rxPowerMw()).containsOnlyNulls();
            assertThat(m.unreadableLanes("RX", " Power")).containsExactly(1, 2, 3, 4);
            assertThat(m.flags("TX Bias Alarm and Warning")).isEqualTo(0x3333);
            // the words in words: SFF-8636's layout, one nibble per lane
            assertThat(m.setFlags()).extracting(CableModule.Flag::text)
                    .containsExactly("Rx loss of lock on lanes 1-4", "TX bias high warning on lanes 1-4", "TX bias low warning on lanes 1-4");
        });
        // the copper cables' words (0x03, 0x06, 0x3223) belong to monitors they do not have
        assertThat(copper).allSatisfy(m -> assertThat(m.setFlags()).isEmpty());
        assertThat(ms.stream().filter(m -> !m.setFlags().isEmpty())).hasSize(4);
        assertThat(CableModule.lanes(List.of(1, 2, 4))).isEqualTo("1,2,4");
    }

    @Test
    void aDamagedModuleBlockIsOneFindingAndTheOthersAreKept() {
        String s = real(CABLES).content().replaceFirst("Port=2 Lid=0x0018 GUID=0xb0cf0e0300e5b940", "Port=2 Lid=0x0018 GUID=zz")
                .replaceFirst("TX1 Bias: 7.242 mA", "TX1 Bias: seven mA");
        Parsed<List<CableModule>> p = Parsing.run(new Text("ibdiagnet2.cables", s), IbdiagnetPhyParser::cables);
        assertThat(p.value()).hasSize(509);
        assertThat(p.issues()).hasSize(2).allSatisfy(e -> assertThat(e.where().line()).isPositive());
        assertThat(p.issues().get(0).reason()).contains("TX1 Bias");
        assertThat(p.issues().get(1).reason()).contains("Port=N");
    }

    @Test
    void netDumpExtRowsWithFecAndNoBer() {
        List<DiagPort> ps = RealSamplesTest.clean(NET_DUMP_EXT, IbdiagnetPhyParser::netDumpExt);
        assertThat(ps).hasSize(841);
        assertThat(ps.stream().filter(DiagPort::switchPort)).hasSize(585);
        assertThat(ps.stream().filter(p -> !p.switchPort())).hasSize(256);
        assertThat(ps.stream().filter(DiagPort::berReported)).isEmpty();
        DiagPort sw = ps.stream().filter(p -> p.switchPort() && p.guid() == 0xb0cf0e0300e5b940L && p.port() == 5).findFirst().orElseThrow();
        assertThat(sw.label()).isEqualTo("1/3/1");
        assertThat(sw.fec()).isEqualTo("MLNX_RS_271_257_PLR");
        assertThat(sw.speedGbps()).isEqualTo(100);
        assertThat(sw.width()).isEqualTo("4x");
        assertThat(sw.lid()).isEqualTo(24);
        assertThat(sw.neighborLid()).isEqualTo(193);
        assertThat(sw.reedSolomon()).isTrue();
        assertThat(ps.stream().filter(p -> p.description().equals("MF0;ib-switch-sequoia:MQM9700/U1"))).isNotEmpty();
        assertThat(ps.stream().filter(DiagPort::active).collect(Collectors.groupingBy(DiagPort::fec, Collectors.counting())))
                .containsOnlyKeys("RS_FEC_544_514", "MLNX_RS_271_257_PLR", "N/A");
    }

    @Test
    void netDumpSwitchPortsWithTheirNeighbours() {
        List<DiagPort> ps = RealSamplesTest.clean(NET_DUMP, IbdiagnetPhyParser::netDump);
        assertThat(ps.stream().map(DiagPort::guid).distinct()).hasSize(9);
        assertThat(ps).hasSize(585);
        DiagPort p = ps.get(0);
        assertThat(p.guid()).isEqualTo(0xb0cf0e0300e5b940L);
        assertThat(p.lid()).isEqualTo(24);
        assertThat(p.label()).isEqualTo("1/1/1");
        assertThat(p.fec()).isEqualTo("RS_FEC_544_514");
        assertThat(p.neighborGuid()).isEqualTo(0x5c25730300c06f60L);
        assertThat(p.neighborLid()).isEqualTo(156);
        assertThat(p.description()).isEqualTo("is-north-7-compute-1 mlx5_10");
    }

    @Test
    void aNetDumpRowWithABadPortNumberIsOneFinding() {
        String s = real(NET_DUMP).content().replaceFirst("  1/1/2      : 2   :", "  1/1/2      : x2  :");
        Parsed<List<DiagPort>> p = Parsing.run(new Text("ibdiagnet2.net_dump", s), IbdiagnetPhyParser::netDump);
        assertThat(p.value()).hasSize(584);
        assertThat(p.issues()).singleElement().satisfies(e -> assertThat(e.where().line()).isEqualTo(18));
    }

    @Test
    void otherFilesAreRejectedWithAReason() {
        assertThat(Parsing.run(new Text("ibdiagnet2.cables", "hello\n"), IbdiagnetPhyParser::cables).value()).isNull();
        assertThat(Parsing.run(new Text("ibdiagnet2.net_dump_ext", "hello\n"), IbdiagnetPhyParser::netDumpExt).value()).isNull();
    }
}
