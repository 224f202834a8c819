package io.ibaccept.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ibaccept.model.Ibdiagnet;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.model.Mlxlink;
import io.ibaccept.model.Perftest;
import org.junit.jupiter.api.Test;

class HardwareParsersTest {
    @Test
    void mlxlinkPortWithTroubleshootingAndBer() {
        Mlxlink m = MlxlinkParser.parse(Fixtures.load("hw/mlxlink-hdr.out"));
        assertThat(m.state()).isEqualTo("Active");
        assertThat(m.speed()).isEqualTo(LinkSpeed.EDR);
        assertThat(m.width()).isEqualTo(LinkWidth.X4);
        assertThat(m.statusOpcode()).isEqualTo(1024);
        assertThat(m.recommendation()).startsWith("Cable is not supported");
        assertThat(m.rawBer()).isEqualTo(2e-8);
        assertThat(m.effectiveBer()).isEqualTo(15e-255);
        assertThat(m.linkDownCounter()).isEqualTo(4);
        assertThat(m.cablePartNumber()).isEqualTo("MCP1600-E002");
        assertThat(m.ref("Status Opcode").line()).isEqualTo(19);
    }

    @Test
    void mlxlinkPcie() {
        Mlxlink m = MlxlinkParser.parse(Fixtures.load("hw/mlxlink-pcie-gen3.out"));
        assertThat(m.pcieGenActive()).isEqualTo(3);
        assertThat(m.pcieGenEnabled()).isEqualTo(4);
        assertThat(m.pcieWidthActive()).isEqualTo(8);
        assertThat(m.pcieWidthEnabled()).isEqualTo(16);
        assertThatThrownBy(() -> MlxlinkParser.parse(new Text("m", "-E- Device mlx5_9 not found\n")))
                .hasMessageStartingWith("m: not mlxlink output");
    }

    @Test
    void ibdiagnetLogAndDb() {
        Ibdiagnet.Log log = IbdiagnetParser.log(Fixtures.load("hw/ibdiagnet2.log"));
        // the demo's ibdiagnet2.log, in ibdiagnet 2.10's layout (fixture replaced: the old one used invented forms)
        assertThat(log.version()).isEqualTo("2.10.0.MLNX20220720.cd746c3");
        assertThat(log.messages()).extracting(Ibdiagnet.Message::level).containsOnly(Ibdiagnet.Level.ERROR).hasSize(3);
        assertThat(log.messages().get(0).stageSummary()).isTrue();
        assertThat(log.messages().get(1).text()).isEqualTo(
                "lid=0x0007 dev=0 leaf03/U1/P3; Performance Monitor counter : Value; symbol_error_counter : 1234 (threshold=1)");
        assertThat(log.messages().get(1).ref().line()).isEqualTo(53);
        assertThat(log.messages().get(1).stageSummary()).isFalse();
        assertThat(log.messages().get(2).text()).startsWith("Link: leaf03/U1/P3<-->node11/U1/P1 - Unexpected actual link speed 25");
        Ibdiagnet.Db db = IbdiagnetParser.db(Fixtures.load("hw/ibdiagnet2.db_csv"));
        assertThat(db.section("NODES").rows()).hasSize(2);
        assertThat(db.section("NODES").rows().get(0).get("NodeDesc")).isEqualTo("leaf03");
        Ibdiagnet.Row pm = db.section("PM_INFO").rows().get(0);
        assertThat(pm.get("SymbolErrorCounter")).isEqualTo("1234");
        assertThat(pm.ref().line()).isEqualTo(15);
        assertThat(db.pmInfo().get(0).get("LinkDownedCounter")).isEqualTo(7);
        assertThat(db.pmInfo().get(1).nodeName()).isEqualTo("node11 HCA-1");
        assertThat(db.pmInfo().get(1).get("LinkErrorRecoveryCounter")).isEqualTo(3);
    }

    @Test
    void ibdiagnetDbTruncatedSection() {
        assertThatThrownBy(() -> IbdiagnetParser.db(Fixtures.truncated("hw/ibdiagnet2.db_csv", 14)))
                .hasMessage("hw/ibdiagnet2.db_csv:13: section PM_INFO has no END_PM_INFO (truncated file?)");
        String bad = "START_NODES\nA,B\n1,2,3\nEND_NODES\n";
        assertThatThrownBy(() -> IbdiagnetParser.db(new Text("d", bad))).hasMessage("d:3: NODES row has 3 fields, header has 2");
    }

    @Test
    void perftestBandwidthInMegabytes() {
        Perftest p = PerftestParser.parse(Fixtures.load("hw/ib_write_bw.out"));
        assertThat(p.testName()).isEqualTo("RDMA_Write BW Test");
        assertThat(p.device()).isEqualTo("mlx5_0");
        assertThat(p.mtu()).isEqualTo(4096);
        assertThat(p.bandwidthTest()).isTrue();
        assertThat(p.bwUnit()).isEqualTo("MB/sec");
        assertThat(p.largest().bwAverage()).isEqualTo(23437.95);
        assertThat(p.toGbps(p.largest().bwAverage())).isCloseTo(196.6, within(0.1));
    }

    @Test
    void perftestAllSizesInGbits() {
        Perftest p = PerftestParser.parse(Fixtures.load("hw/ib_write_bw-half.out"));
        assertThat(p.rows()).hasSize(3);
        assertThat(p.largest().bytes()).isEqualTo(8388608);
        assertThat(p.toGbps(p.largest().bwAverage())).isEqualTo(98.76);
    }

    @Test
    void perftestLatency() {
        Perftest p = PerftestParser.parse(Fixtures.load("hw/ib_read_lat.out"));
        assertThat(p.bandwidthTest()).isFalse();
        Perftest.Row r = p.largest();
        assertThat(r.bytes()).isEqualTo(2);
        assertThat(r.tTypical()).isEqualTo(1.83);
        assertThat(r.p999()).isEqualTo(4.31);
        assertThat(r.tAvg()).isEqualTo(1.85);
    }

    @Test
    void perftestAbortedRun() {
        String s = " Couldn't connect to 10.0.0.2:18515\nUnable to open file descriptor for socket connection\n";
        // the error line itself is named (strict parsing stops at it) ...
        assertThatThrownBy(() -> PerftestParser.parse(new Text("perftest/a.client.out", s)))
                .hasMessage("perftest/a.client.out:1: perftest reported: 'Couldn't connect to 10.0.0.2:18515'");
        // ... and with recovery both error lines and the missing results are problems
        Parsed<?> r = Parsing.run(new Text("perftest/a.client.out", s), PerftestParser::parse);
        assertThat(r.value()).isNull();
        assertThat(r.issues()).extracting(ParseException::getMessage).containsExactly(
                "perftest/a.client.out:1: perftest reported: 'Couldn't connect to 10.0.0.2:18515'",
                "perftest/a.client.out:2: perftest reported: 'Unable to open file descriptor for socket connection'",
                "perftest/a.client.out: no perftest results header ('#bytes ...') and no test banner: the test did not run");
        assertThatThrownBy(() -> PerftestParser.parse(Fixtures.truncated("hw/ib_read_lat.out", 18)))
                .hasMessage("hw/ib_read_lat.out:18: perftest header without result rows (test aborted?)");
    }

    @Test
    void hostParsers() {
        assertThat(HostParsers.memlockKib(Fixtures.load("hw/ulimit-unlimited.out"))).isEqualTo(Long.MAX_VALUE);
        assertThat(HostParsers.memlockKib(Fixtures.load("hw/ulimit-64.out"))).isEqualTo(64);
        assertThatThrownBy(() -> HostParsers.memlockKib(new Text("u", "sixty\n"))).hasMessage("u:1: expected an integer, found 'sixty'");
        assertThat(HostParsers.ofedVersion(Fixtures.load("hw/ofed_info.out"))).isEqualTo("MLNX_OFED_LINUX-5.8-1.0.1.1");
        assertThat(HostParsers.ethtoolStats(Fixtures.load("hw/ethtool-S.out"))).containsEntry("rx_crc_errors_phy", 17L);
        assertThatThrownBy(() -> HostParsers.ethtoolStats(new Text("e", "NIC statistics:\n  rx: lots\n")))
                .hasMessage("e:2: counter rx: expected an integer, found 'lots'");
    }
}
