package io.ibaccept.parse;

import static io.ibaccept.parse.RealSamplesTest.clean;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ibaccept.model.HostConfig.IpLink;
import io.ibaccept.model.HostConfig.MlxDevice;
import io.ibaccept.model.HostConfig.TimeSync;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ip -d addr/link, chronyc tracking and mlxconfig q parsed from the real captures in real/ (sources in SOURCES.md). */
class HostConfigParsersTest {

    @Test
    void ipLinkNetlinkChildDownSysfsChildAndParentWithoutIpoibLine() {
        List<IpLink> links = clean("ip-d-addr/linux-rdma-mlx5-ib0-children-netlink.txt", HostConfigParsers::ipLinks);
        assertThat(links).extracting(IpLink::name).containsExactly("mlx5_ib0.8001", "mlx5_ib0.8002", "mlx5_ib0");
        IpLink child = links.get(0);
        assertThat(child.parent()).isEqualTo("mlx5_ib0");
        assertThat(child.isIpoib()).isTrue();
        assertThat(child.mtu()).isEqualTo(4092);
        assertThat(child.state()).isEqualTo("DOWN");
        assertThat(child.isUp()).isFalse();
        assertThat(child.pkey()).isEqualTo(0x8001);
        assertThat(child.mode()).isEqualTo("datagram");
        assertThat(child.portGuid()).isEqualTo(0x248a070300a31964L);
        assertThat(child.ref().line()).isEqualTo(1);
        // a sysfs-created child on a kernel without the IPoIB netlink attributes: no mode, no pkey printed
        IpLink sysfs = links.get(1);
        assertThat(sysfs.isUp()).isTrue();
        assertThat(sysfs.mode()).isNull();
        assertThat(sysfs.pkey()).isNull();
        assertThat(links.get(2).parent()).isNull();
        assertThat(links.get(2).mtu()).isEqualTo(2044);
        assertThat(links.get(2).ref().line()).isEqualTo(6);
    }

    @Test
    void ipLinkAfterThePatchEveryInterfaceHasItsMode() {
        List<IpLink> links = clean("ip-d-addr/linux-rdma-mlx5-ib0-patched.txt", HostConfigParsers::ipLinks);
        assertThat(links).extracting(IpLink::mode).containsOnly("datagram");
        assertThat(links).extracting(IpLink::pkey).containsExactly(0x8001, 0x8002, 0xffff);
    }

    @Test
    void ipAddrWithInetAndLinkLocal() {
        List<IpLink> links = clean("ip-d-addr/mckenzie-head-ib0-addr.txt", HostConfigParsers::ipLinks);
        IpLink ib0 = links.get(0);
        assertThat(ib0.name()).isEqualTo("ib0");
        assertThat(ib0.addresses()).containsExactly("10.10.0.254/16", "fe80::21e:6703:29:476f/64");
        assertThat(ib0.ipv4()).containsExactly("10.10.0.254/16");
        assertThat(ib0.portGuid()).isEqualTo(0x001e67030029476fL);
        assertThat(ib0.state()).isEqualTo("UP");
    }

    @Test
    void ipLinkKeepsGoodInterfacesAroundABadOne() {
        Text t = new Text("nodes/n1/ip-d-addr.out", """
                1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN mode DEFAULT group default qlen 1000
                    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00
                garbage header
                    link/infiniband 00:00 brd x
                4: ib0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 2044 qdisc pfifo_fast state UP qlen 256
                    link/infiniband 80:00:00:48:fe:80:00:00:00:00:00:00:00:1e:67:03:00:29:47 brd 00:ff
                    ipoib pkey  0xffff mode  bogus umcast  0000
                5: ib1: <BROADCAST,MULTICAST> mtu 4092 qdisc noop state DOWN qlen 256
                    link/infiniband 80:00:00:48:fe:80:00:00:00:00:00:00:00:1e:67:03:00:29:47:70 brd 00:ff
                """);
        Parsed<List<IpLink>> p = Parsing.run(t, HostConfigParsers::ipLinks);
        assertThat(p.value()).extracting(IpLink::name).containsExactly("lo", "ib0", "ib1");
        assertThat(p.issues()).extracting(e -> e.where().line()).containsExactly(3, 6, 7);
        assertThat(p.issues().get(1).reason()).contains("not 20 bytes");
        assertThat(p.issues().get(2).reason()).contains("unknown IPoIB mode");
        assertThat(p.value().get(2).isIpoib()).isTrue();
    }

    @Test
    void ipLinkWithNothingReadableIsOneProblem() {
        Parsed<List<IpLink>> p = Parsing.run(new Text("x", "Device \"ib0\" does not exist.\n"), HostConfigParsers::ipLinks);
        assertThat(p.value()).isNull();
        assertThat(p.issues()).isNotEmpty();
    }

    @Test
    void chronySynchronisedStratum1Fast() {
        TimeSync s = clean("chronyc-tracking/ag6qr-pps-stratum1.txt", HostConfigParsers::chronyTracking);
        assertThat(s.synchronised()).isTrue();
        assertThat(s.referenceId()).isEqualTo("50505300");
        assertThat(s.referenceName()).isEqualTo("PPS");
        assertThat(s.stratum()).isEqualTo(1);
        assertThat(s.systemTime()).isCloseTo(72e-9, within(1e-15));
        assertThat(s.lastOffset()).isCloseTo(-11e-9, within(1e-15));
        assertThat(s.rmsOffset()).isCloseTo(195e-9, within(1e-15));
        assertThat(s.leapRef().line()).isEqualTo(13);
        assertThat(s.offsetRef().line()).isEqualTo(4);
    }

    @Test
    void chronySlowIsNegative() {
        TimeSync s = clean("chronyc-tracking/fedora-docs-stratum3.txt", HostConfigParsers::chronyTracking);
        assertThat(s.systemTime()).isCloseTo(-1.501e-6, within(1e-12));
        assertThat(s.referenceName()).isEqualTo("a.b.c");
        assertThat(s.worstOffset()).isCloseTo(1.632e-6, within(1e-12));
        TimeSync f = clean("chronyc-tracking/fnal-aclk-timestamper-stratum3.txt", HostConfigParsers::chronyTracking);
        assertThat(f.lastOffset()).isCloseTo(4.989e-6, within(1e-12));
        assertThat(f.synchronised()).isTrue();
    }

    @Test
    void chronyNotSynchronised() {
        TimeSync s = clean("chronyc-tracking/cn-notes-not-synchronised.txt", HostConfigParsers::chronyTracking);
        assertThat(s.synchronised()).isFalse();
        assertThat(s.leapStatus()).isEqualTo("Not synchronised");
        assertThat(s.referenceId()).isEqualTo("00000000");
        assertThat(s.stratum()).isZero();
    }

    @Test
    void chronyErrorInsteadOfTrackingIsAProblem() {
        Parsed<TimeSync> p = Parsing.run(new Text("x", "506 Cannot talk to daemon\n"), HostConfigParsers::chronyTracking);
        assertThat(p.value()).isNull();
        assertThat(p.issues()).hasSize(2);
        Parsed<TimeSync> bad = Parsing.run(new Text("x", "Stratum : x\nSystem time : fast\nLeap status : Normal\n"),
                HostConfigParsers::chronyTracking);
        assertThat(bad.value()).isNotNull();
        assertThat(bad.issues()).extracting(e -> e.where().line()).containsExactly(1, 2);
    }

    @Test
    void mlxconfigConnectX4LxNextBoot() {
        List<MlxDevice> ds = clean("mlxconfig/xtremeownage-cx4lx-kube01-q.txt", HostConfigParsers::mlxconfig);
        assertThat(ds).hasSize(1);
        MlxDevice d = ds.get(0);
        assertThat(d.deviceType()).isEqualTo("ConnectX4LX");
        assertThat(d.partName()).isEqualTo("MCX4121A-ACA_Ax");
        assertThat(d.device()).isEqualTo("01:00.0");
        assertThat(d.column()).isEqualTo("Next Boot");
        assertThat(d.settings()).hasSize(161)
                .containsEntry("ROCE_CC_PRIO_MASK_P1", "255")
                .containsEntry("IB_ROUTING_MODE_P1", "LID(1)")
                .containsEntry("PCI_DOWNSTREAM_PORT_OWNER", "Array[0..15]")
                .containsEntry("EXP_ROM_UEFI_x86_ENABLE", "False(0)");
        assertThat(d.refs().get("SAFE_MODE_ENABLE").line()).isEqualTo(171);
    }

    @Test
    void mlxconfigWithCurrentColumnAndChangedMarker() {
        Text t = new Text("x", """
                Device #1:
                ----------

                Device type:    ConnectX7
                Name:           MCX75310AAS-NEAT_Ax
                Device:         0000:3b:00.0

                Configurations:                              Default         Current         Next Boot
                *       ROCE_ADAPTIVE_ROUTING_EN            False(0)        True(1)         True(1)
                        LINK_TYPE_P1                        IB(1)           IB(1)           IB(1)
                The '*' shows parameters with next value different from default/current value.
                """);
        Parsed<List<MlxDevice>> p = Parsing.run(t, HostConfigParsers::mlxconfig);
        assertThat(p.issues()).isEmpty();
        MlxDevice d = p.value().get(0);
        assertThat(d.column()).isEqualTo("Current");
        assertThat(d.settings()).containsEntry("ROCE_ADAPTIVE_ROUTING_EN", "True(1)").containsEntry("LINK_TYPE_P1", "IB(1)");
    }

    @Test
    void pmcTimeStatusWithGrandmaster() {
        TimeSync s = clean("pmc-time-status/linuxptp-testsuite-20-pmc-node3.txt", HostConfigParsers::timeSync);
        assertThat(s.source()).isEqualTo("ptp");
        assertThat(s.synchronised()).isTrue();
        assertThat(s.referenceId()).isEqualTo("123456.fffe.780101");
        assertThat(s.systemTime()).isZero();
        assertThat(s.leapRef().line()).isEqualTo(14);
        assertThat(s.offsetRef().line()).isEqualTo(8);
        TimeSync lost = Parsing.run(new Text("x", RealSamplesTest.real("pmc-time-status/linuxptp-testsuite-20-pmc-node3.txt").content()
                .replace("gmPresent                  true", "gmPresent                  false")
                .replace("master_offset              0", "master_offset              -2500000")), HostConfigParsers::pmcTimeStatus).value();
        assertThat(lost.synchronised()).isFalse();
        assertThat(lost.systemTime()).isCloseTo(-0.0025, within(1e-12));
        Parsed<TimeSync> none = Parsing.run(new Text("x", "sending: GET TIME_STATUS_NP\n"), HostConfigParsers::pmcTimeStatus);
        assertThat(none.value()).isNull();
        assertThat(none.issues()).singleElement().satisfies(e -> assertThat(e.reason()).contains("ptp4l not running"));
    }

    @Test
    void bondSlavesNameTheirMaster() {
        Text t = new Text("x", """
                5: ib0: <BROADCAST,MULTICAST,SLAVE,UP,LOWER_UP> mtu 2044 qdisc mq master bond0 state UP mode DEFAULT group default qlen 256
                    link/infiniband 80:00:00:48:fe:80:00:00:00:00:00:00:00:1e:67:03:00:29:47:6f brd 00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff
                7: bond0: <BROADCAST,MULTICAST,MASTER,UP,LOWER_UP> mtu 2044 qdisc noqueue state UP group default qlen 1000
                    link/infiniband 80:00:00:48:fe:80:00:00:00:00:00:00:00:1e:67:03:00:29:47:6f brd 00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff
                    inet 10.10.0.254/16 brd 10.10.255.255 scope global bond0
                """);
        List<IpLink> l = Parsing.run(t, HostConfigParsers::ipLinks).value();
        assertThat(l.get(0).master()).isEqualTo("bond0");
        assertThat(l.get(1).master()).isNull();
        assertThat(l.get(1).ipv4()).containsExactly("10.10.0.254/16");
    }

    /** Binary garbage, a huge line and a cut file: a clear problem or a partial result, never a parser crash. */
    @Test
    void hostileInputIsAProblemNotACrash() {
        String binary = "\u0000\u0001\u00ff\ufffd: \u0000: <\n\t\u0007x\n";
        String huge = "4: ib0: <UP> mtu " + "9".repeat(2_000_000) + " state UP\n";
        String cut = RealSamplesTest.real("ip-d-addr/mckenzie-head-ib0-addr.txt").content().substring(0, 150);
        for (Parser<?> p : List.<Parser<?>>of(HostConfigParsers::ipLinks, HostConfigParsers::chronyTracking,
                HostConfigParsers::mlxconfig, HostConfigParsers::pmcTimeStatus, HostConfigParsers::timeSync))
            for (String input : List.of(binary, huge, cut, "", "Leap status : Normal\n  LINK_TYPE_P1 IB(1)\n")) {
                Parsed<?> r = Parsing.run(new Text("nodes/n1/x.out", input), p);
                assertThat(r.issues()).noneMatch(e -> e.reason().contains("internal parser error"));
                if (r.value() == null) assertThat(r.issues()).isNotEmpty();
            }
        // the cut ip output keeps the interface whose header survived
        assertThat(Parsing.run(new Text("x", cut), HostConfigParsers::ipLinks).value()).extracting(IpLink::name).containsExactly("ib0");
    }
}
