package io.ibaccept.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ibaccept.model.Ibdiagnet;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.model.Mlxlink;
import io.ibaccept.model.NodeInfo;
import io.ibaccept.model.Perftest;
import io.ibaccept.model.PortCounters;
import io.ibaccept.model.PortInfo;
import io.ibaccept.model.SmInfo;
import io.ibaccept.model.Topology;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** One test per verbatim real capture in src/test/resources/real (sources in real/SOURCES.md). */
public class RealSamplesTest {

    public static Text real(String path) {
        try (InputStream in = RealSamplesTest.class.getResourceAsStream("/real/" + path)) {
            if (in == null) throw new IllegalArgumentException("no real sample " + path);
            // the largest captures are kept gzipped, byte for byte
            InputStream text = path.endsWith(".gz") ? new java.util.zip.GZIPInputStream(in) : in;
            return new Text(path.replaceFirst("\\.gz$", ""), new String(text.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses with record-level recovery and asserts the capture is read without a single problem. */
    static <T> T clean(String path, Parser<T> parser) {
        Parsed<T> p = Parsing.run(real(path), parser);
        assertThat(p.issues()).as(path).isEmpty();
        assertThat(p.value()).as(path).isNotNull();
        return p.value();
    }

    @Test
    void ibstatConnectX3Fdr10() {
        List<Ibstat.Ca> cas = clean("ibstat/cn-blog-cx3-fdr10-active.txt", IbstatParser::parse);
        Ibstat.Port p = cas.get(0).ports().get(0);
        assertThat(cas.get(0).firmware()).isEqualTo("2.42.5000");
        assertThat(p.rate()).isEqualTo(40);
        assertThat(p.rateName()).isEqualTo("FDR10");
        assertThat(p.namedSpeed()).contains(LinkSpeed.FDR10);
        assertThat(p.isActive()).isTrue();
        assertThat(p.baseLid()).isEqualTo(7);
    }

    @Test
    void ibstatA100OneEthernetAndEightInfinibandFunctions() {
        List<Ibstat.Ca> cas = clean("ibstat/gpud-a100-mt4126-eth-and-ib.txt", IbstatParser::parse);
        assertThat(cas).hasSize(9);
        List<Ibstat.Ca> ib = cas.stream().filter(Ibstat.Ca::isInfiniband).toList();
        assertThat(ib).hasSize(8).allSatisfy(ca -> {
            assertThat(ca.firmware()).isEqualTo("28.37.1014");
            assertThat(ca.ports().get(0).rate()).isEqualTo(200);
        });
        Ibstat.Ca eth = cas.stream().filter(ca -> !ca.isInfiniband()).findFirst().orElseThrow();
        assertThat(eth.name()).isEqualTo("mlx5_0");
        assertThat(eth.firmware()).isEqualTo("22.35.2302");
    }

    @Test
    void ibstatH100EightConnectX7NdrAndBlueFieldBond() {
        List<Ibstat.Ca> cas = clean("ibstat/gpud-h100-cx7-ndr-active.txt", IbstatParser::parse);
        assertThat(cas).hasSize(9);
        List<Ibstat.Ca> ib = cas.stream().filter(Ibstat.Ca::isInfiniband).toList();
        assertThat(ib).hasSize(8).allSatisfy(ca -> {
            assertThat(ca.caType()).isEqualTo("MT4129");
            assertThat(ca.firmware()).isEqualTo("28.41.1000");
            assertThat(ca.ports().get(0).rate()).isEqualTo(400);
            assertThat(ca.hasActivePort()).isTrue();
        });
        assertThat(cas.get(8).name()).isEqualTo("mlx5_bond_0");
        assertThat(cas.get(8).isInfiniband()).isFalse();
    }

    @Test
    void ibstatConnectX3PortDownAndPortActive() {
        List<Ibstat.Ca> cas = clean("ibstat/storage02-cx3-fdr-port1-down-port2-active.txt", IbstatParser::parse);
        assertThat(cas.get(0).ports()).extracting(Ibstat.Port::state).containsExactly("Down", "Active");
        assertThat(cas.get(0).ports().get(0).physicalState()).isEqualTo("Polling");
        assertThat(cas.get(0).ports().get(1).rate()).isEqualTo(56);
    }

    @Test
    void ibstatusConnectX3() {
        List<Ibstat.Ca> cas = clean("ibstatus/ompi-users-cx3-fdr-port1-down.txt", IbstatusParser::parse);
        assertThat(cas).singleElement().satisfies(ca -> {
            assertThat(ca.name()).isEqualTo("mlx4_0");
            assertThat(ca.ports()).hasSize(2);
            Ibstat.Port down = ca.ports().get(0), up = ca.ports().get(1);
            assertThat(down.state()).isEqualTo("Down");
            assertThat(down.physicalState()).isEqualTo("Polling");
            assertThat(up.state()).isEqualTo("Active");
            assertThat(up.isActive()).isTrue();
            assertThat(up.rate()).isEqualTo(56);
            assertThat(up.width()).isEqualTo(LinkWidth.X4);
            assertThat(up.namedSpeed()).contains(LinkSpeed.FDR);
            assertThat(up.baseLid()).isEqualTo(5);
            assertThat(up.smLid()).isEqualTo(6);
            assertThat(up.portGuid()).isEqualTo(0x0002c90300336fe2L);
            assertThat(up.isInfiniband()).isTrue();
        });
    }

    @Test
    void iblinkinfoOldQdrFormat() {
        List<LinkInfo> links = clean("iblinkinfo/cn-notes-qdr-infiniscale-iv.txt", IblinkinfoParser::parse);
        assertThat(links).hasSize(40);
        LinkInfo ca = links.get(0);
        assertThat(ca.switchNode()).isFalse();
        assertThat(ca.nodeName()).isEqualTo("centos-data-200 HCA-1");
        assertThat(ca.nodeGuid()).isEqualTo(0x0002c903000d81f9L);
        assertThat(ca.width()).isEqualTo(LinkWidth.X4);
        assertThat(ca.speed()).isEqualTo(LinkSpeed.QDR);
        assertThat(ca.state()).isEqualTo("Active");
        assertThat(ca.physState()).isEqualTo("LinkUp");
        assertThat(ca.remoteLid()).isEqualTo(2);
        assertThat(ca.remotePort()).isEqualTo(3);
        assertThat(ca.remoteName()).isEqualTo("Infiniscale-IV Mellanox Technologies");
        List<LinkInfo> sw = links.stream().filter(LinkInfo::switchNode).toList();
        assertThat(sw).hasSize(36);
        assertThat(sw.stream().filter(LinkInfo::isActive)).hasSize(4);
        LinkInfo down = sw.get(4);
        assertThat(down.state()).isEqualTo("Down");
        assertThat(down.physState()).isEqualTo("Polling");
        assertThat(down.width()).isNull();
        assertThat(down.isConnected()).isFalse();
    }

    @Test
    void ibqueryerrorsSx6036WithoutGuidForCas() {
        List<PortCounters> pcs = clean("ibqueryerrors/rdma-list-sx6036-fdr-mlx4.txt", CountersParser::ibqueryerrors);
        assertThat(pcs).hasSize(14);
        PortCounters first = pcs.get(0);
        assertThat(first.nodeName()).isEqualTo("dl380g7 mlx4_0");
        assertThat(first.nodeGuid()).isZero(); // ibqueryerrors prints no node GUID for a CA
        assertThat(first.portGuid()).isEqualTo(0x7cfe900300179b31L);
        assertThat(first.get("VL15Dropped")).isEqualTo(14);
        assertThat(first.saturated("PortXmitWait")).isTrue();
        PortCounters p5 = pcs.stream().filter(p -> p.nodeName().equals("MF0;ys23ib4:SX6036/U1") && p.port() == 5).findFirst().orElseThrow();
        assertThat(p5.get("SymbolErrorCounter")).isEqualTo(65535);
        assertThat(p5.saturated("SymbolErrorCounter")).isTrue();
        assertThat(p5.get("PortXmitDiscards")).isEqualTo(649);
        assertThat(p5.nonZeroErrors()).containsKeys("SymbolErrorCounter", "LinkErrorRecoveryCounter", "LinkDownedCounter");
        assertThat(pcs.stream().filter(p -> p.port() == 0)).hasSize(1);
        assertThat(p5.nodeGuid()).isEqualTo(0x2c903006e29b0L);
        assertThat(p5.key()).isEqualTo(new PortCounters.Key(0x2c903006e29b0L, 5));
    }

    /** OFED 1.x perfquery printed short field names: read as today's, so a SymbolErrors count is a symbol error count. */
    @Test
    void perfqueryOfed1ShortFieldNames() {
        List<PortCounters> pcs = clean("perfquery/tacc-stats-old-ofed-short-field-names.txt", CountersParser::perfquery);
        assertThat(pcs).singleElement().satisfies(pc -> {
            assertThat(pc.lid()).isEqualTo(936);
            assertThat(pc.counters()).containsEntry("SymbolErrorCounter", 0L).containsEntry("LinkErrorRecoveryCounter", 0L)
                    .containsEntry("LinkDownedCounter", 0L).containsEntry("PortXmitData", 905972985L).containsEntry("PortRcvData", 2411533950L)
                    .doesNotContainKeys("SymbolErrors", "XmtData");
        });
        // a fault in the same format is seen as one
        String faulty = real("perfquery/tacc-stats-old-ofed-short-field-names.txt").content().replace("SymbolErrors:....................0",
                "SymbolErrors:....................500");
        assertThat(CountersParser.perfquery(new Text("fabric/perfquery.out", faulty)).get(0).counters()).containsEntry("SymbolErrorCounter", 500L);
    }

    @Test
    void perfqueryExtendedEdr() {
        List<PortCounters> pcs = clean("perfquery/treydock-x-edr-ca.txt", CountersParser::perfquery);
        assertThat(pcs).singleElement().satisfies(p -> {
            assertThat(p.lid()).isEqualTo(134);
            assertThat(p.port()).isEqualTo(1);
            assertThat(p.get("PortXmitData")).isEqualTo(9049592493976L);
            assertThat(p.get("PortRcvData")).isEqualTo(9752484588300L);
            assertThat(p.get("SymbolErrorCounter")).isZero();
            assertThat(p.has("QP1Dropped")).isTrue();
        });
    }

    @Test
    void perfqueryExtendedEdrSwitchTwoPorts() {
        List<PortCounters> pcs = clean("perfquery/treydock-x-edr-switch-2ports.txt", CountersParser::perfquery);
        assertThat(pcs).extracting(PortCounters::port).containsExactly(1, 2);
        assertThat(pcs).allSatisfy(p -> assertThat(p.lid()).isEqualTo(1719));
        assertThat(pcs.get(0).get("PortXmitWait")).isEqualTo(22730501);
        assertThat(pcs.get(1).get("PortRcvData")).isEqualTo(39078804993378L);
    }

    @Test
    void perfqueryRcvErrorDetails() {
        List<PortCounters> pcs = clean("perfquery/treydock-rcv-error-details-edr-switch.txt", CountersParser::perfquery);
        assertThat(pcs).singleElement().satisfies(p -> {
            assertThat(p.port()).isEqualTo(1);
            assertThat(p.counters()).containsKeys("PortLocalPhysicalErrors", "PortMalformedPktErrors", "PortLoopingErrors");
        });
    }

    @Test
    void ibnetdiscoverPortsModeHdrWithPaddedNames() {
        Topology t = clean("ibnetdiscover/treydock-ports-mode-hdr.txt", IbnetdiscoverParser::parse);
        Topology.Node worker = t.byGuid().get(0xb83fd20300da1138L);
        assertThat(worker.description()).isEqualTo("worker20 mlx5_3");
        assertThat(worker.ports()).singleElement().satisfies(p -> {
            assertThat(p.speed()).isEqualTo(LinkSpeed.HDR);
            assertThat(p.remoteGuid()).isEqualTo(0x946dae0300630bf6L);
            assertThat(p.remotePort()).isEqualTo(79);
            assertThat(p.remoteDescription()).isEqualTo("5FB0405-leaf-IB01 ");
        });
        assertThat(t.byGuid().get(0x946dae030053ec1aL).type()).isEqualTo(Topology.NodeType.SWITCH);
        assertThat(t.byGuid().get(0x946dae0300618c82L).ports()).isEmpty();
    }

    @Test
    void sminfoHostAndSwitchMasters() {
        SmInfo host = clean("sminfo/kube-cx3-qdr-master-lid4.txt", SmParser::sminfo).get(0);
        assertThat(host.lid()).isEqualTo(4);
        assertThat(host.guid()).isEqualTo(0x2c903000d81f9L);
        assertThat(host.activityCount()).isEqualTo(1329328);
        assertThat(host.priority()).isEqualTo(14);
        assertThat(host.isMaster()).isTrue();
        SmInfo sw = clean("sminfo/oracle-bda-sun-dcs36p-switch-sm.txt", SmParser::sminfo).get(0);
        assertThat(sw.lid()).isEqualTo(15);
        assertThat(sw.guid()).isEqualTo(0x10e0406d5aa0a0L);
        assertThat(sw.stateName()).isEqualTo("SMINFO_MASTER");
    }

    @Test
    void smpqueryNodeInfoConnectX3() {
        NodeInfo n = clean("smpquery-nodeinfo/ompi-users-cx3-fdr-lid4.txt", SmpqueryParser::nodeInfo);
        assertThat(n.nodeType()).isEqualTo("Channel Adapter");
        assertThat(n.numPorts()).isEqualTo(2);
        assertThat(n.guid()).isEqualTo(0x0002c90300336fe0L);
        assertThat(n.portGuid()).isEqualTo(0x0002c90300336fe1L);
        assertThat(n.deviceId()).isEqualTo("0x1003");
        assertThat(n.partitionCap()).isEqualTo(128);
    }

    @Test
    void portInfoWithMlnxExtBlockFdr1x() {
        PortInfo p = clean("smpquery-portinfo/ibportstate-cx3-fdr-1x-reset.txt", SmpqueryParser::portInfo);
        assertThat(p.lid()).isEqualTo(6);
        assertThat(p.smLid()).isEqualTo(3);
        assertThat(p.linkWidthActive()).isEqualTo(LinkWidth.X1);
        assertThat(p.supportedWidths()).containsExactlyInAnyOrder(LinkWidth.X1, LinkWidth.X4);
        assertThat(p.enabledWidths()).containsExactly(LinkWidth.X1);
        assertThat(p.maxSupportedWidth()).isEqualTo(LinkWidth.X4);
        // LinkSpeedActive "Extended speed", LinkSpeedExtActive 14.0625 Gbps: FDR
        assertThat(p.linkSpeedActive()).isEqualTo("Extended speed");
        assertThat(p.speed()).isEqualTo(LinkSpeed.FDR);
        assertThat(p.supportedSpeeds()).contains(LinkSpeed.SDR, LinkSpeed.DDR, LinkSpeed.QDR, LinkSpeed.FDR, LinkSpeed.FDR10);
        assertThat(p.maxSupportedSpeed()).isEqualTo(LinkSpeed.FDR);
        assertThat(p.mlnxLinkSpeedSupported()).isEqualTo(1);
        assertThat(p.mlnxLinkSpeedActive()).isZero();
        assertThat(p.fdr10Active()).isFalse();
        assertThat(p.speedAmbiguous()).isFalse();
        assertThat(p.isActive()).isTrue();
    }

    @Test
    void ulimitUnlimited() {
        long kib = clean("ulimit-l/ompi-users-head-unlimited.txt", HostParsers::memlockKib);
        assertThat(kib).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void ofedInfoBothForms() {
        String doca = clean("ofed_info/bf3-doca-ofed-23.07.txt", HostParsers::ofedVersion);
        String mofed = clean("ofed_info/docker-mofed-4.6.txt", HostParsers::ofedVersion);
        assertThat(doca).isEqualTo("OFED-internal-23.07-0.5.0");
        assertThat(mofed).isEqualTo("MLNX_OFED_LINUX-4.6-1.0.1.1");
    }

    @Test
    void mlxlinkPcieGen1InX4Slot() {
        Mlxlink m = clean("mlxlink-pcie/cn-blog-cx6-gen1-x4-slot.txt", MlxlinkParser::parse);
        assertThat(m.pcieGenActive()).isEqualTo(1);
        assertThat(m.pcieGenEnabled()).isEqualTo(4);
        assertThat(m.pcieWidthActive()).isEqualTo(4);
        assertThat(m.pcieWidthEnabled()).isEqualTo(16);
    }

    @Test
    void mlxlinkHdr100TwoLanes() {
        Mlxlink m = clean("mlxlink/brev-a100-cx6-hdr100-2x-basic.txt", MlxlinkParser::parse);
        assertThat(m.state()).isEqualTo("Active");
        assertThat(m.speed()).isEqualTo(LinkSpeed.HDR);
        assertThat(m.width()).isEqualTo(LinkWidth.X2);
        assertThat(m.statusOpcode()).isZero();
        assertThat(m.firmware()).isEqualTo("20.36.1010");
        assertThat(m.rawBer()).isNull();
    }

    @Test
    void mlxlinkBlueField3Ethernet() {
        Mlxlink m = clean("mlxlink/sigcomm26-bf3-100g-eth-m-c.txt", MlxlinkParser::parse);
        assertThat(m.state()).isEqualTo("Active");
        assertThat(m.speed()).isNull(); // 100G Ethernet is no InfiniBand speed
        assertThat(m.width()).isEqualTo(LinkWidth.X4);
        assertThat(m.firmware()).isEqualTo("32.43.2402");
        assertThat(m.cableVendor()).isEqualTo("FS");
        assertThat(m.cablePartNumber()).isEqualTo("Q28-PC03");
        assertThat(m.statusOpcode()).isZero();
    }

    @Test
    void ethtoolMlx5Counters() {
        Map<String, Long> e = clean("ethtool-S/bpf-list-mlx5-xdp-5.15-nonzero.txt", HostParsers::ethtoolStats);
        assertThat(e).containsEntry("rx_discards_phy", 58591428329L).containsEntry("rx_out_of_buffer", 990473555L);
        assertThat(e.size()).isGreaterThan(90);
    }

    @Test
    void perftestWriteBwSweepWithCpuWarningsBetweenRows() {
        Perftest p = clean("perftest/cx6-hdr-ib-write-bw-a-mbsec-client.txt",
                (t, is) -> PerftestParser.parse(t, is, Boolean.FALSE));
        assertThat(p.testName()).isEqualTo("RDMA_Write BW Test");
        assertThat(p.device()).isEqualTo("mlx5_0");
        assertThat(p.linkType()).isEqualTo("IB");
        assertThat(p.mtu()).isEqualTo(4096);
        assertThat(p.rows()).hasSize(23);
        assertThat(p.smallest().bytes()).isEqualTo(2);
        assertThat(p.largest().bytes()).isEqualTo(8388608);
        assertThat(p.bwUnit()).isEqualTo("MB/sec");
        assertThat(p.unitCorrected()).isFalse();
        assertThat(p.bidirectional()).isFalse();
        assertThat(p.perDirectionGbps(p.largest())).isCloseTo(195.6, within(0.2));
    }

    @Test
    void perftestBandwidthServerPrintsItsLastRow() {
        Perftest p = clean("perftest/cx6-hdr-ib-write-bw-a-mbsec-server.txt",
                (t, is) -> PerftestParser.parse(t, is, Boolean.TRUE));
        assertThat(p.rows()).singleElement().satisfies(r -> assertThat(r.bwAverage()).isEqualTo(23317.65));
    }

    @Test
    void perftestWriteLatSweepJudgedAtSmallestSize() {
        Perftest p = clean("perftest/cx6-hdr-ib-write-lat-a-client.txt",
                (t, is) -> PerftestParser.parse(t, is, Boolean.FALSE));
        assertThat(p.bandwidthTest()).isFalse();
        assertThat(p.rows()).hasSize(23);
        assertThat(p.smallest().tTypical()).isEqualTo(1.87);
        assertThat(p.largest().tTypical()).isEqualTo(345.55);
        assertThat(p.latencyAt(0).bytes()).isEqualTo(2);
        assertThat(p.latencyAt(64).tTypical()).isEqualTo(1.91);
        assertThat(p.smallest().p999()).isEqualTo(5.41);
    }

    @Test
    void perftestReadLatServerPrintsOnlyItsBanner() {
        Perftest p = clean("perftest/storage03-cx3-fdr-read-lat-server.txt",
                (t, is) -> PerftestParser.parse(t, is, Boolean.TRUE));
        assertThat(p.bannerOnly()).isTrue();
        assertThat(p.testName()).isEqualTo("RDMA_Read Latency Test");
        assertThat(p.device()).isEqualTo("mlx4_0");
        assertThat(p.mtu()).isEqualTo(2048);
        // the same text as a client is an error: the client holds the result
        Parsed<Perftest> asClient = Parsing.run(real("perftest/storage03-cx3-fdr-read-lat-server.txt"),
                (t, is) -> PerftestParser.parse(t, is, Boolean.FALSE));
        assertThat(asClient.value()).isNull();
        assertThat(asClient.issues()).singleElement().satisfies(e -> assertThat(e.reason()).contains("did not run to completion"));
    }

    @Test
    void perftestRoceSendBwGbits() {
        Perftest p = clean("perftest/kube01-roce-send-bw-gbits.txt", PerftestParser::parse);
        assertThat(p.linkType()).isEqualTo("Ethernet");
        assertThat(p.mtu()).isEqualTo(1024);
        assertThat(p.bwUnit()).isEqualTo("Gb/sec");
        assertThat(p.perDirectionGbps(p.largest())).isEqualTo(56.75);
    }

    @Test
    void perftestBidirectionalSweepPerDirection() {
        for (String side : List.of("client", "server")) {
            Perftest p = clean("perftest/amd-ainic-roce-write-bw-bidir-a-" + side + ".txt",
                    (t, is) -> PerftestParser.parse(t, is, side.equals("server")));
            assertThat(p.bidirectional()).isTrue();
            assertThat(p.testName()).isEqualTo("RDMA_Write Bidirectional BW Test");
            assertThat(p.rows()).hasSize(23);
            assertThat(p.totalGbps(p.largest())).isEqualTo(779.21);
            assertThat(p.perDirectionGbps(p.largest())).isCloseTo(389.6, within(0.01));
            // MsgRate x size agrees with the Gb/sec header
            assertThat(p.bwUnit()).isEqualTo("Gb/sec");
        }
    }

    @Test
    void perftestServerHeaderInMBOverGbitValuesIsCorrected() {
        // the --report_gbits quirk: a server header in MB/sec over the client's Gb/s values; MsgRate x size decides
        String s = real("perftest/kube01-roce-send-bw-gbits.txt").content().replace("BW peak[Gb/sec]    BW average[Gb/sec]",
                "BW peak[MB/sec]    BW average[MB/sec]");
        Perftest p = PerftestParser.parse(new Text("server.out", s), Issues.strict(), Boolean.TRUE);
        assertThat(p.printedUnit()).isEqualTo("MB/sec");
        assertThat(p.bwUnit()).isEqualTo("Gb/sec");
        assertThat(p.unitCorrected()).isTrue();
        assertThat(p.perDirectionGbps(p.largest())).isEqualTo(56.75);
    }

    @Test
    void ibnetdiscoverPortsModeEdr() {
        Topology t = clean("ibnetdiscover/treydock-ports-mode-edr.txt", IbnetdiscoverParser::parse);
        Map<Long, Topology.Node> byGuid = t.byGuid();
        Topology.Node ca = byGuid.get(0x7cfe9003003b4bdeL);
        assertThat(ca.type()).isEqualTo(Topology.NodeType.CA);
        assertThat(ca.description()).isEqualTo("o0001 HCA-1");
        assertThat(ca.ports()).singleElement().satisfies(p -> {
            assertThat(p.lid()).isEqualTo(134);
            assertThat(p.remoteGuid()).isEqualTo(0x7cfe9003009ce5b0L);
            assertThat(p.remotePort()).isEqualTo(10);
            assertThat(p.remoteLid()).isEqualTo(1719);
            assertThat(p.width()).isEqualTo(LinkWidth.X4);
            assertThat(p.speed()).isEqualTo(LinkSpeed.EDR);
        });
        Topology.Node sw = byGuid.get(0x7cfe9003009ce5b0L);
        assertThat(sw.type()).isEqualTo(Topology.NodeType.SWITCH);
        assertThat(sw.lid()).isEqualTo(1719);
        assertThat(sw.ports()).extracting(Topology.Port::port).containsExactly(10, 11, 1);
        // unconnected ports ("4x ???", "4x SDR" without a peer) carry no link
        assertThat(byGuid.get(0x506b4b03005c2740L).ports()).hasSize(1);
        assertThat(byGuid.get(0x08c0eb0300add20eL).ports()).isEmpty();
    }

    @Test
    void ibdiagnetLstSameFabricAsItsIbnetdiscover() {
        Topology lst = clean("ibnetdiscover/gary-minghuili-ndr-quantum2-ibdiagnet2-lst.txt", IbnetdiscoverParser::parse);
        Topology ibn = clean("ibnetdiscover/gary-minghuili-ndr-quantum2-ibdiagnet2-ibnetdiscover.txt", IbnetdiscoverParser::parse);
        assertThat(lst.byGuid().keySet()).isEqualTo(ibn.byGuid().keySet());
        Topology.Node host = lst.byGuid().get(0x5c257303009ab1c0L);
        assertThat(host.description()).isEqualTo("is-north-7-compute-12 mlx5_0");
        assertThat(host.ports()).singleElement().satisfies(p -> {
            assertThat(p.lid()).isEqualTo(0xb5);
            assertThat(p.remoteGuid()).isEqualTo(0xfc6a1c030091f9c0L);
            assertThat(p.remotePort()).isEqualTo(12);
            assertThat(p.remoteLid()).isEqualTo(0xb6);
            assertThat(p.width()).isEqualTo(LinkWidth.X4);
            assertThat(p.speed()).isEqualTo(LinkSpeed.NDR);
        });
        // every link of one tool is a link of the other, port by port
        for (Topology.Node n : ibn.nodes())
            assertThat(lst.byGuid().get(n.guid()).ports()).extracting(Topology.Port::port)
                    .containsExactlyInAnyOrderElementsOf(n.ports().stream().map(Topology.Port::port).toList());
    }

    @Test
    void ibnetdiscoverRdmaCoreManPageVoltaireGrouped() {
        Topology t = clean("ibnetdiscover/rdma-core-man-voltaire-sdr-grouped.txt", IbnetdiscoverParser::parse);
        assertThat(t.nodes()).hasSize(6);
        assertThat(t.switches()).extracting(Topology.Node::description).containsExactly("ISR9024 Voltaire", "SW-6IB4 Voltaire");
        Topology.Node ca = t.byGuid().get(0x0008f10403960558L);
        assertThat(ca.ports()).hasSize(2);
        Topology.Port p1 = ca.ports().get(1);
        assertThat(p1.port()).isEqualTo(1);
        assertThat(p1.portGuid()).isEqualTo(0x8f10403960559L);
        assertThat(p1.lid()).isEqualTo(10);
        assertThat(p1.remoteLid()).isEqualTo(6);
        assertThat(p1.width()).isEqualTo(LinkWidth.X1);
        assertThat(p1.speed()).isEqualTo(LinkSpeed.SDR);
        assertThat(t.switches().get(0).lid()).isEqualTo(6);
    }

    @Test
    void ibnetdiscoverIbdiagnetDialectQuantum2() {
        Topology t = clean("ibnetdiscover/gary-minghuili-ndr-quantum2-ibdiagnet2-ibnetdiscover.txt", IbnetdiscoverParser::parse);
        Map<Topology.NodeType, Long> types = t.nodes().stream().collect(Collectors.groupingBy(Topology.Node::type, Collectors.counting()));
        assertThat(types.get(Topology.NodeType.SWITCH)).isEqualTo(9);
        assertThat(t.nodes()).hasSize(272);
        Topology.Node root = t.byGuid().get(0xb0cf0e0300d33fc0L);
        assertThat(root.description()).isEqualTo("MF0;ib-switch-sequoia:MQM9700/U1");
        assertThat(root.lid()).isEqualTo(180);
        assertThat(root.ports().get(0).label()).isEqualTo("1/1/1");
        assertThat(root.ports().get(0).remoteGuid()).isEqualTo(0xfc6a1c030091cf00L);
        assertThat(root.ports().get(0).remotePort()).isEqualTo(63);
        assertThat(root.ports().get(0).speed()).isEqualTo(LinkSpeed.NDR);
        Topology.Node leaf = t.byGuid().get(0xfc6a1c030091cf00L);
        Topology.Port toHost = leaf.ports().get(0);
        assertThat(toHost.remoteDescription()).isEqualTo("is-north-7-compute-1 mlx5_8");
        assertThat(toHost.remoteLid()).isEqualTo(164);
        Topology.Node an = t.byGuid().get(0xb0cf0e0300e5b948L);
        assertThat(an.type()).isEqualTo(Topology.NodeType.CA);
        assertThat(an.ports()).singleElement().satisfies(p -> {
            assertThat(p.label()).isEqualTo("1");
            assertThat(p.portGuid()).isEqualTo(0xb0cf0e0300e5b948L);
            assertThat(p.lid()).isEqualTo(25);
            assertThat(p.remoteLid()).isEqualTo(24);
        });
    }

    @Test
    void ibdiagnetDbCsvPmInfoAndDeltaOn272NodeNdrFabric() {
        Parsed<Ibdiagnet.Db> parsed = Parsing.run(real("ibdiagnet2.db_csv/gary-minghuili-ndr-quantum2-full.txt"), IbdiagnetParser::db);
        // the capture holds implausible 64-bit values (negative deltas printed unsigned): each is one problem with its
        // line, the port's other counters are kept
        assertThat(parsed.issues()).singleElement().satisfies(e -> {
            assertThat(e.reason()).isEqualTo("counter PortRcvErrorsExt value 18446744073709551576 is above 2^63: not a plausible "
                    + "reading (a wrapped, negative or uninitialised value)");
            assertThat(e.where().line()).isPositive();
        });
        Ibdiagnet.Db db = parsed.value();
        assertThat(db.section("NODES").rows()).hasSize(272);
        assertThat(db.pmInfo()).hasSize(db.section("PM_INFO").rows().size()).hasSizeGreaterThan(500);
        assertThat(db.pmDelta()).hasSize(db.section("PM_DELTA").rows().size());
        PortCounters first = db.pmInfo().get(0);
        assertThat(first.nodeGuid()).isEqualTo(0xb0cf0e0300d33fc0L);
        assertThat(first.port()).isEqualTo(1);
        assertThat(first.nodeName()).isEqualTo("MF0;ib-switch-sequoia:MQM9700/U1");
        assertThat(first.lid()).isEqualTo(180);
        // the 64-bit extended value replaces the saturated 32-bit one
        assertThat(first.get("PortXmitData")).isEqualTo(299195507523L);
        assertThat(first.get("PortXmitWait")).isEqualTo(9463628588L);
        assertThat(first.has("PortLoopingErrors")).isFalse(); // -1: not supported
        assertThat(first.has("PortDLIDMappingErrors")).isTrue();
        long erroring = db.pmInfo().stream().filter(p -> !p.nonZeroErrors().isEmpty()).count();
        assertThat(erroring).isGreaterThan(0);
        // keyed by GUID + port: every key is unique although switches share a node description
        assertThat(db.pmInfo().stream().map(PortCounters::key).distinct().count()).isEqualTo(db.pmInfo().size());
        assertThat(db.pmDelta().get(0).get("PortXmitPkts")).isEqualTo(293);
    }

    /** ibdiagnet --congestion_control as NVIDIA's manual prints it: the CC sections are read like any other section. */
    @Test
    void ibdiagnetDbCsvCongestionControlSections() {
        Parsed<Ibdiagnet.Db> parsed = Parsing.run(real("ibdiagnet2.db_csv/nvidia-ibdiagnet-doc-congestion-control.txt"), IbdiagnetParser::db);
        assertThat(parsed.issues()).isEmpty();
        Ibdiagnet.Db db = parsed.value();
        assertThat(db.section("CC_ENHANCED_INFO").header()).containsExactly("NodeGUID", "ver0Supported", "CC_Capability_Mask");
        assertThat(db.section("CC_ENHANCED_INFO").rows()).extracting(r -> r.get("CC_Capability_Mask")).containsOnly("0x0000000000000002");
        Ibdiagnet.Section sw = db.section("CC_SWITCH_GENERAL_SETTINGS");
        assertThat(sw.header()).containsExactly("NodeGUID", "aqs_time", "aqs_weight", "en", "cap_total_buffer_size");
        assertThat(sw.rows()).extracting(r -> r.get("NodeGUID")).containsExactly("0x0002c9000000004f", "0x0002c90000000041", "0x0002c90000000043");
        assertThat(sw.rows()).extracting(r -> r.get("en")).containsOnly("0");
        assertThat(sw.rows().get(0).ref().line()).isEqualTo(11);
        assertThat(db.pmInfo()).isEmpty();
    }

    @Test
    void ibdiagnetPmFile() {
        Parsed<List<PortCounters>> parsed = Parsing.run(real("ibdiagnet2.pm/gary-minghuili-ndr-quantum2-full.txt"), IbdiagnetParser::pm);
        assertThat(parsed.issues()).singleElement().satisfies(e -> {
            assertThat(e.reason()).contains("PortRcvErrorsExtended value 0xffffffffffffffd8 is above 2^63");
            assertThat(e.where().line()).isPositive();
        });
        List<PortCounters> pm = parsed.value();
        assertThat(pm).hasSize(542);
        PortCounters p = pm.get(0);
        assertThat(p.nodeGuid()).isEqualTo(0xb0cf0e0300d33fc0L);
        assertThat(p.port()).isEqualTo(1);
        assertThat(p.lid()).isEqualTo(0xb4);
        assertThat(p.nodeName()).isEqualTo("ib-switch-sequoia/U1/P1/1/1");
        assertThat(p.get("LinkDownedCounter")).isZero();
        assertThat(p.has("SymbolErrorCounter")).isTrue();
        assertThat(p.get("PortXmitData")).isEqualTo(0x00000045a9712343L);
        assertThat(p.get("PortXmitWait")).isEqualTo(0x000000023413832cL);
        assertThat(p.has("PortLoopingErrors")).isFalse(); // NA
        assertThat(pm.get(1).get("PortRcvSwitchRelayErrors")).isEqualTo(0x9e);
    }

    @Test
    void ibdiagnetLogNdrFabric() {
        Ibdiagnet.Log log = clean("ibdiagnet2.log/gary-minghuili-ndr-quantum2-full.txt", IbdiagnetParser::log);
        assertThat(log.version()).isEqualTo("2.10.0.MLNX20220720.cd746c3");
        assertThat(log.messages()).isNotEmpty();
        assertThat(log.messages().get(0).level()).isEqualTo(Ibdiagnet.Level.WARNING);
        assertThat(log.messages().get(0).ref().line()).isEqualTo(33);
    }
}
