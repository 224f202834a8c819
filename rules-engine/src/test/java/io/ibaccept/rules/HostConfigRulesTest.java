package io.ibaccept.rules;

import static io.ibaccept.rules.TestDump.of;
import static io.ibaccept.rules.TestDump.problems;
import static io.ibaccept.rules.TestDump.status;
import static io.ibaccept.rules.RealFormatRulesTest.real;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.function.BiFunction;
import java.util.Map;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ipoib.state, ipoib.config, time.sync, hca.config and ar.state on a synthetic 8-host HDR
 * dump (NeighborMTU 4096, every port Active) with host-configuration files in the tools' real formats. ibsim has no
 * network devices, chrony or mlxconfig, so these are judged at dump level, not on the simulator.
 */
class HostConfigRulesTest {

    @TempDir
    Path tmp;

    TestDump healthy() {
        return TestDump.healthy(tmp.resolve("d"), 8);
    }

    /** The port GUID the synthetic ibstat gives the host, as the 8 GUID bytes of an IPoIB hardware address. */
    static String guidBytes(TestDump d, String host) {
        String s = d.read("nodes/" + host + "/ibstat.out");
        int i = s.indexOf("Port GUID: 0x") + "Port GUID: 0x".length();
        String hex = s.substring(i, i + 16);
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < 16; k += 2) b.append(k == 0 ? "" : ":").append(hex, k, k + 2);
        return b.toString();
    }

    /** 'ip -d addr show' as iproute2 prints it (layout of the linux-rdma and McKenzie captures): lo, then ib0. */
    static String ipAddr(TestDump d, String host, int mtu, String mode, boolean up, String inet) {
        String flags = up ? "<BROADCAST,MULTICAST,UP,LOWER_UP>" : "<BROADCAST,MULTICAST>";
        return "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000\n"
                + "    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00 promiscuity 0 minmtu 0 maxmtu 0 numtxqueues 1 numrxqueues 1 gso_max_size 65536 gso_max_segs 65535\n"
                + "    inet 127.0.0.1/8 scope host lo\n       valid_lft forever preferred_lft forever\n"
                + "4: ib0: " + flags + " mtu " + mtu + " qdisc " + (up ? "mq state UP" : "mq state DOWN") + " group default qlen 256\n"
                + "    link/infiniband 00:00:10:49:fe:80:00:00:00:00:00:00:" + guidBytes(d, host)
                + " brd 00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff promiscuity 0 minmtu 68 maxmtu 65520\n"
                + (mode == null ? "" : "    ipoib pkey  0xffff mode  " + mode + " umcast  0000 numtxqueues 256 numrxqueues 32 gso_max_size 65536 gso_max_segs 65535\n")
                + (inet == null ? "" : "    inet " + inet + " brd 10.10.255.255 scope global ib0\n       valid_lft forever preferred_lft forever\n");
    }

    TestDump withIpoib(TestDump d) {
        for (int i = 1; i <= 8; i++) {
            String h = String.format("cn%04d", i);
            d.write("nodes/" + h + "/ip-d-addr.out", ipAddr(d, h, 4092, "datagram", true, "10.10.0." + i + "/16"));
        }
        return d;
    }

    @Test
    void healthyIpoibPasses() {
        Report r = withIpoib(healthy()).analyze();
        assertThat(status(r, "ipoib.state")).isEqualTo(Status.PASS);
        assertThat(status(r, "ipoib.config")).isEqualTo(Status.PASS);
        assertThat(of(r, "ipoib.config")).anySatisfy(f -> assertThat(f.summary()).isEqualTo(
                "8 host(s) run IPoIB in datagram mode with MTU 4092, consistent with the IB MTU"));
    }

    @Test
    void ib0DownOnAnActivePortIsAFailNamingTheHostAndLine() {
        TestDump d = withIpoib(healthy());
        d.write("nodes/cn0003/ip-d-addr.out", ipAddr(d, "cn0003", 4092, "datagram", false, null));
        Report r = d.analyze();
        assertThat(problems(r, "ipoib.state")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.objects()).containsExactly("cn0003");
            assertThat(f.summary()).isEqualTo("1 host(s) cn0003: IPoIB interface ib0 down while its IB port is Active");
            assertThat(f.evidence().get(0).where()).isEqualTo("nodes/cn0003/ip-d-addr.out:5");
            assertThat(f.evidence().get(0).text()).contains("mlx5_0 port 1 is Active");
            assertThat(f.fix()).contains("ip link set ib0 up");
        });
        assertThat(r.verdict()).isEqualTo(Verdict.REJECTED);
    }

    @Test
    void anInterfaceNoHostUsesIsAnUnusedRailNotAFault() {
        // GPU nodes with one HCA per GPU get an IPoIB interface per port; the site configures IPoIB on none of these
        TestDump d = healthy();
        for (int i = 1; i <= 8; i++) {
            String h = String.format("cn%04d", i);
            d.write("nodes/" + h + "/ip-d-addr.out", ipAddr(d, h, 4092, "datagram", false, null));
        }
        Report r = d.analyze();
        assertThat(problems(r, "ipoib.state")).isEmpty();
        assertThat(of(r, "ipoib.state")).anySatisfy(f -> assertThat(f.summary()).contains("used by no host (unused rail): cn0001 ib0"));
    }

    @Test
    void aParentWithoutAddressWhoseChildHasOneIsFine() {
        TestDump d = withIpoib(healthy());
        String child = "5: ib0.8002@ib0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 4092 qdisc mq state UP group default qlen 256\n"
                + "    link/infiniband 00:00:10:4a:fe:80:00:00:00:00:00:00:" + guidBytes(d, "cn0007")
                + " brd 00:ff:ff:ff:ff:12:40:1b:80:02:00:00:00:00:00:00:ff:ff:ff:ff promiscuity 0 minmtu 68 maxmtu 65520\n"
                + "    ipoib pkey  0x8002 mode  datagram umcast  0000 numtxqueues 256 numrxqueues 32 gso_max_size 65536 gso_max_segs 65535\n"
                + "    inet 10.20.0.7/16 brd 10.20.255.255 scope global ib0.8002\n       valid_lft forever preferred_lft forever\n";
        d.write("nodes/cn0007/ip-d-addr.out", ipAddr(d, "cn0007", 4092, "datagram", true, null) + child);
        Report r = d.analyze();
        assertThat(problems(r, "ipoib.state")).isEmpty();
    }

    @Test
    void ib0DownWithItsPortDownIsLeftToPortState() {
        TestDump d = withIpoib(healthy());
        d.write("nodes/cn0006/ip-d-addr.out", ipAddr(d, "cn0006", 4092, "datagram", false, null));
        d.replace("nodes/cn0006/ibstat.out", "State: Active", "State: Down");
        Report r = d.analyze();
        assertThat(problems(r, "ipoib.state")).isEmpty();
        assertThat(of(r, "ipoib.state")).anySatisfy(f -> assertThat(f.summary()).contains("down with their IB port (judged by port.state): cn0006 ib0"));
    }

    @Test
    void anUpInterfaceWithoutAddressWhereOthersHaveOneFails() {
        TestDump d = withIpoib(healthy());
        d.write("nodes/cn0007/ip-d-addr.out", ipAddr(d, "cn0007", 4092, "datagram", true, null));
        d.write("nodes/cn0008/ip-d-addr.out", ipAddr(d, "cn0008", 4092, "datagram", true, null));
        Report r = d.analyze();
        assertThat(problems(r, "ipoib.state")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.objects()).containsExactly("cn0007", "cn0008");
            assertThat(f.summary()).isEqualTo("2 host(s) cn[0007-0008]: ib0 is up without an IPv4 address (6 host(s) have one on ib0)");
        });
    }

    @Test
    void bondedIpoibCarriesTheAddressOnTheBond() {
        TestDump d = withIpoib(healthy());
        String g = guidBytes(d, "cn0002");
        d.write("nodes/cn0002/ip-d-addr.out", "4: ib0: <BROADCAST,MULTICAST,SLAVE,UP,LOWER_UP> mtu 4092 qdisc mq master bond0 state UP mode DEFAULT group default qlen 256\n"
                + "    link/infiniband 80:00:00:48:fe:80:00:00:00:00:00:00:" + g + " brd 00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff promiscuity 0 minmtu 68 maxmtu 65520\n"
                + "    ipoib pkey  0xffff mode  datagram umcast  0000 numtxqueues 256 numrxqueues 32 gso_max_size 65536 gso_max_segs 65535\n"
                + "7: bond0: <BROADCAST,MULTICAST,MASTER,UP,LOWER_UP> mtu 4092 qdisc noqueue state UP mode DEFAULT group default qlen 1000\n"
                + "    link/infiniband 80:00:00:48:fe:80:00:00:00:00:00:00:" + g + " brd 00:ff:ff:ff:ff:12:40:1b:ff:ff:00:00:00:00:00:00:ff:ff:ff:ff promiscuity 0 minmtu 68 maxmtu 65520\n"
                + "    inet 10.10.0.2/16 brd 10.10.255.255 scope global bond0\n       valid_lft forever preferred_lft forever\n");
        Report r = d.analyze();
        assertThat(problems(r, "ipoib.state")).isEmpty();
        assertThat(problems(r, "ipoib.config")).isEmpty();
    }

    @Test
    void modeAndMtuOutliersAreOneWarningPerCauseWithAHostlist() {
        TestDump d = withIpoib(healthy());
        d.write("nodes/cn0004/ip-d-addr.out", ipAddr(d, "cn0004", 65520, "connected", true, "10.10.0.4/16"));
        d.write("nodes/cn0005/ip-d-addr.out", ipAddr(d, "cn0005", 2044, "datagram", true, "10.10.0.5/16"));
        d.write("nodes/cn0006/ip-d-addr.out", ipAddr(d, "cn0006", 2044, "datagram", true, "10.10.0.6/16"));
        Report r = d.analyze();
        var ps = problems(r, "ipoib.config");
        assertThat(ps).extracting(Finding::summary).containsExactly(
                "1 host(s) cn0004: IPoIB mode connected instead of datagram (datagram on 7, connected on 1)",
                "1 host(s) cn0004: IPoIB MTU 65520 instead of 4092 (4092 on 5, 65520 on 1, 2044 on 2)",
                "2 host(s) cn[0005-0006]: IPoIB MTU 2044 instead of 4092 (4092 on 5, 65520 on 1, 2044 on 2)",
                "2 host(s) cn[0005-0006]: IPoIB MTU 2044 below the 4092 the IB MTU 4096 allows in datagram mode");
        assertThat(ps).allSatisfy(f -> assertThat(f.status()).isEqualTo(Status.WARN));
        assertThat(ps.get(3).cause()).contains("mtu=4");
    }

    @Test
    void datagramMtuAboveTheIbMtuMinusFourFails() {
        TestDump d = withIpoib(healthy());
        d.replace("nodes/cn0002/smpquery-portinfo.out", "NeighborMTU:.....................4096", "NeighborMTU:.....................2048");
        Report r = d.analyze();
        assertThat(problems(r, "ipoib.config")).filteredOn(f -> f.status() == Status.FAIL).singleElement().satisfies(f -> {
            assertThat(f.objects()).containsExactly("cn0002");
            assertThat(f.summary()).isEqualTo("1 host(s) cn0002: datagram-mode MTU 4092 above the IB MTU 2048 minus the 4-byte IPoIB header (2044)");
            assertThat(f.evidence().get(0).where()).isEqualTo("nodes/cn0002/ip-d-addr.out:5");
        });
    }

    @Test
    void realCaptureWithoutModeLineAndTheDownChild() {
        // the linux-rdma capture: child 8001 DOWN (its port is Active here), 8002 and the parent without an ipoib line
        TestDump d = withIpoib(healthy());
        String cap = real("ip-d-addr/linux-rdma-mlx5-ib0-children-netlink.txt").replace("24:8a:07:03:00:a3:19:64", guidBytes(d, "cn0001"));
        d.write("nodes/cn0001/ip-d-addr.out", cap);
        Report r = d.analyze();
        assertThat(problems(r, "ipoib.state")).singleElement().satisfies(f -> {
            assertThat(f.objects()).containsExactly("cn0001");
            assertThat(f.summary()).contains("mlx5_ib0.8001 down");
            assertThat(f.evidence().get(0).where()).isEqualTo("nodes/cn0001/ip-d-addr.out:1");
        });
        // mlx5_ib0 at 2044 on a 4096 port: below what datagram carries
        assertThat(problems(r, "ipoib.config")).anySatisfy(f -> assertThat(f.summary()).startsWith("1 host(s) cn0001: IPoIB MTU 2044 below"));
    }

    @Test
    void noIpoibAnywhereIsAFactAndMissingOnSomeHostsAWarning() {
        TestDump d = healthy();
        for (int i = 1; i <= 8; i++)
            d.write(String.format("nodes/cn%04d/ip-d-addr.out", i), "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000\n"
                    + "    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n");
        Report r = d.analyze();
        assertThat(status(r, "ipoib.state")).isEqualTo(Status.SKIP);
        assertThat(problems(r, "ipoib.state")).isEmpty();
        assertThat(problems(r, "ipoib.config")).isEmpty();

        TestDump e = withIpoib(TestDump.healthy(tmp.resolve("e"), 8));
        e.write("nodes/cn0008/ip-d-addr.out", "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000\n");
        assertThat(problems(e.analyze(), "ipoib.state")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.summary()).isEqualTo("1 host(s) cn0008: no IPoIB interface while 7 host(s) have one");
        });
    }

    @Test
    void notCollectedSkipsWithTheCollectHint() {
        Report r = healthy().analyze();
        for (String check : new String[] {"ipoib.state", "ipoib.config", "time.sync", "hca.config", "ar.state"})
            assertThat(status(r, check)).as(check).isEqualTo(Status.SKIP);
        assertThat(of(r, "ipoib.state")).anySatisfy(f -> assertThat(f.summary()).contains("ip-d-addr"));
        assertThat(of(r, "time.sync")).anySatisfy(f -> assertThat(f.summary()).contains("chronyc"));
    }

    TestDump withChrony(TestDump d) {
        for (int i = 1; i <= 8; i++)
            d.write(String.format("nodes/cn%04d/chronyc-tracking.out", i), real("chronyc-tracking/fnal-aclk-timestamper-stratum3.txt"));
        return d;
    }

    @Test
    void unsynchronisedClockFailsSynchronisedPasses() {
        TestDump d = withChrony(healthy());
        assertThat(status(d.analyze(), "time.sync")).isEqualTo(Status.PASS);
        d.write("nodes/cn0002/chronyc-tracking.out", real("chronyc-tracking/cn-notes-not-synchronised.txt"));
        d.write("nodes/cn0003/chronyc-tracking.out", real("chronyc-tracking/cn-notes-not-synchronised.txt"));
        Report r = d.analyze();
        assertThat(problems(r, "time.sync")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.objects()).containsExactly("cn0002", "cn0003");
            assertThat(f.summary()).startsWith("2 host(s) cn[0002-0003]: clock not synchronised");
            assertThat(f.evidence().get(0).where()).isEqualTo("nodes/cn0002/chronyc-tracking.out:13");
            assertThat(f.evidence().get(0).text()).contains("Leap status Not synchronised, Reference ID 00000000");
        });
    }

    @Test
    void chronydNotRunningIsAWarnBecauseAnotherTimeServiceMayRun() {
        TestDump d = withChrony(healthy()).delete("nodes/cn0004/chronyc-tracking.out")
                .write("nodes/cn0004/chronyc-tracking.meta", "name: chronyc-tracking\nhost: cn0004\ncommand: chronyc tracking\nstatus: failed\nexit: 1\nduration_ms: 3\nstarted: \n")
                .write("nodes/cn0004/chronyc-tracking.err", "506 Cannot talk to daemon\n");
        Report r = d.analyze();
        assertThat(problems(r, "time.sync")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.objects()).containsExactly("cn0004");
            assertThat(f.summary()).contains("time synchronisation not verified");
            assertThat(f.fix()).contains("timedatectl");
            assertThat(f.evidence().get(0).text()).isEqualTo("cn0004: chronyc: 506 Cannot talk to daemon (chronyd is not running)");
            // the failed chronyc run is a best-effort fact: a WARN listed under time.sync, never an ERROR (INCOMPLETE)
            assertThat(r.consequencesOf(f)).singleElement().satisfies(in -> {
                assertThat(in.check()).isEqualTo("input");
                assertThat(in.status()).isEqualTo(Status.WARN);
            });
        });
        assertThat(r.findings()).noneMatch(x -> x.status() == Status.ERROR);
    }

    @Test
    void anInstalledToolThatFailsLeavesTheFactUnverifiedNotTheAcceptanceIncomplete() {
        // nvidia-smi installed on a CPU node without a loaded driver: exits 9 with "couldn't communicate with the driver"
        TestDump d = healthy().write("nodes/cn0003/nvidia-smi-topo.out", "")
                .write("nodes/cn0003/nvidia-smi-topo.meta", "name: nvidia-smi-topo\nhost: cn0003\ncommand: nvidia-smi topo -m\nstatus: failed\nexit: 9\nduration_ms: 40\nstarted: \n")
                .write("nodes/cn0003/nvidia-smi-topo.err", "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n");
        Report r = d.analyze();
        assertThat(r.findings()).filteredOn(x -> x.check().equals("input")).singleElement().satisfies(in -> {
            assertThat(in.status()).isEqualTo(Status.WARN);
            assertThat(in.summary()).contains("nvidia-smi-topo").contains("couldn't communicate with the NVIDIA driver");
        });
        assertThat(r.findings()).noneMatch(x -> x.status() == Status.ERROR);
        assertThat(r.verdict()).isNotEqualTo(io.ibaccept.rules.Verdict.INCOMPLETE);
    }

    @Test
    void offsetAboveTheTypedThresholdWarns() {
        TestDump d = withChrony(healthy());
        d.write("nodes/cn0005/chronyc-tracking.out", real("chronyc-tracking/fedora-docs-stratum3.txt"));
        // 4.989 us on the FNAL capture, 1.632 us on the Fedora one: a 3 us limit flags only the FNAL hosts
        Report r = d.analyze(TestDump.config(tmp, "time.sync.max_offset_ms=0.003\n"));
        assertThat(problems(r, "time.sync")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.objects()).hasSize(7).doesNotContain("cn0005");
            assertThat(f.summary()).isEqualTo("7 host(s) cn[0001-0004,0006-0008]: clock offset up to 0.005 ms (limit 0.003 ms)");
            assertThat(f.evidence().get(0).where()).isEqualTo("nodes/cn0001/chronyc-tracking.out:4");
        });
        assertThat(problems(d.analyze(), "time.sync")).isEmpty();
    }

    @Test
    void ptpWhereChronyIsAbsent() {
        TestDump d = withChrony(healthy());
        String pmc = real("pmc-time-status/linuxptp-testsuite-20-pmc-node3.txt");
        d.write("nodes/cn0007/chronyc-tracking.out", pmc.replace("gmPresent                  true", "gmPresent                  false"));
        d.write("nodes/cn0008/chronyc-tracking.out", pmc.replace("master_offset              0", "master_offset              2500000"));
        Report r = d.analyze();
        assertThat(problems(r, "time.sync")).extracting(Finding::status, Finding::objects, f -> f.evidence().get(0).where()).containsExactly(
                org.assertj.core.groups.Tuple.tuple(Status.FAIL, java.util.List.of("cn0007"), "nodes/cn0007/chronyc-tracking.out:14"),
                org.assertj.core.groups.Tuple.tuple(Status.WARN, java.util.List.of("cn0008"), "nodes/cn0008/chronyc-tracking.out:8"));
        assertThat(problems(r, "time.sync").get(1).summary()).isEqualTo("1 host(s) cn0008: clock offset up to 2.500 ms (limit 1 ms)");
    }

    @Test
    void thePtpGrandmasterHostIsTheSourceNotUnsynchronised() {
        // the capture is node3's view (clock 123456.fffe.780102) of grandmaster 123456.fffe.780101; on the grandmaster
        // itself ptp4l answers gmPresent false with its own identity
        TestDump d = healthy();
        String pmc = real("pmc-time-status/linuxptp-testsuite-20-pmc-node3.txt");
        String gm = pmc.replace("123456.fffe.780102-0", "123456.fffe.780101-0").replace("gmPresent                  true", "gmPresent                  false");
        d.write("nodes/cn0001/chronyc-tracking.out", gm);
        for (int i = 2; i <= 8; i++) d.write(String.format("nodes/cn%04d/chronyc-tracking.out", i), pmc);
        assertThat(problems(d.analyze(), "time.sync")).isEmpty();
        // no host follows it: an isolated clock that elected itself
        for (int i = 2; i <= 8; i++) d.write(String.format("nodes/cn%04d/chronyc-tracking.out", i), real("chronyc-tracking/fedora-docs-stratum3.txt"));
        assertThat(problems(d.analyze(), "time.sync")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.objects()).containsExactly("cn0001");
            assertThat(f.evidence().get(0).text()).contains("its own grandmaster");
        });
    }

    @Test
    void infinibandAndEthernetPortsOfOneModelAreComparedSeparately() {
        TestDump d = healthy();
        String cap = real("mlxconfig/xtremeownage-cx4lx-kube01-q.txt");
        String sriov = "        SRIOV_EN                                    False(0)";
        for (int i = 1; i <= 8; i++) {
            // cn0007/8 carry Ethernet-mode cards with RoCE congestion control tuned differently: a design, not drift
            boolean eth = i >= 7;
            String c = cap.replace(sriov, "        LINK_TYPE_P1                                " + (eth ? "ETH(2)" : "IB(1)") + "\n" + sriov);
            if (eth) c = c.replace("ROCE_CC_PRIO_MASK_P1                        255", "ROCE_CC_PRIO_MASK_P1                        0");
            d.write(String.format("nodes/cn%04d/mlxconfig-q.out", i), c);
        }
        assertThat(status(d.analyze(), "hca.config")).isEqualTo(Status.PASS);
    }

    @Test
    void mlxconfigDifferenceOnOneHostIsAWarningNamingTheSettings() {
        TestDump d = healthy();
        String cap = real("mlxconfig/xtremeownage-cx4lx-kube01-q.txt");
        for (int i = 1; i <= 8; i++) d.write(String.format("nodes/cn%04d/mlxconfig-q.out", i), cap);
        Report ok = d.analyze();
        assertThat(status(ok, "hca.config")).isEqualTo(Status.PASS);
        assertThat(of(ok, "hca.config")).anySatisfy(f -> assertThat(f.summary()).contains("ConnectX4LX x8").contains("ROCE_CC_PRIO_MASK_P1=255"));
        d.write("nodes/cn0006/mlxconfig-q.out", cap.replace("ROCE_CC_PRIO_MASK_P1                        255", "ROCE_CC_PRIO_MASK_P1                        0")
                .replace("SRIOV_EN                                    False(0)", "SRIOV_EN                                    True(1)"));
        Report r = d.analyze();
        assertThat(problems(r, "hca.config")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.objects()).containsExactly("cn0006");
            assertThat(f.summary()).isEqualTo("1 host(s) cn0006: ConnectX4LX configured differently from the other ConnectX4LX HCAs: "
                    + "ROCE_CC_PRIO_MASK_P1 0 (others 255), SRIOV_EN True(1) (others False(0)) (adaptive routing / congestion control)");
            assertThat(f.evidence()).extracting(Evidence::where).containsExactly("nodes/cn0006/mlxconfig-q.out:60", "nodes/cn0006/mlxconfig-q.out:24");
            assertThat(f.fix()).contains("mlxconfig -d <dev> set");
        });
    }

    /** The first lines (header, then rows) of a section of the real ibdiagnet 2.10 db_csv of a 272-node NDR fabric. */
    static List<String> ndrDbCsv(String section, int lines) {
        return real("ibdiagnet2.db_csv/gary-minghuili-ndr-quantum2-full.txt").lines()
                .dropWhile(l -> !l.equals("START_" + section)).skip(1).limit(lines).toList();
    }

    /** ibdiagnet2.db_csv AR_INFO with the header of the real ibdiagnet 2.10 capture (which has no rows). */
    static String arInfo(String... rows) {
        String header = ndrDbCsv("AR_INFO", 1).get(0);
        return "START_AR_INFO\n" + header + "\n" + String.join("\n", rows) + (rows.length > 0 ? "\n" : "") + "END_AR_INFO\n";
    }

    static String arRow(String guid, int e) {
        // NodeGUID,e, then the remaining 36 columns of the real header
        return guid + "," + e + ",1,1,1,1,0,0,1,1,1,0,0,1,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0";
    }

    @Test
    void switchesWithAdaptiveRoutingOffAmongOthersWithItOnWarn() {
        TestDump d = healthy().write("fabric/ibdiagnet2.db_csv.out", arInfo(arRow("0xb0cf0e0300d33fc0", 1), arRow("0xfc6a1c030091cf00", 1),
                arRow("0xfc6a1c03008a4dc0", 0)));
        Report r = d.analyze();
        assertThat(problems(r, "ar.state")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.objects()).containsExactly("0xfc6a1c03008a4dc0");
            assertThat(f.summary()).isEqualTo("1 switch(es) 0xfc6a1c03008a4dc0 with adaptive routing disabled while 2 switch(es) have it enabled");
            assertThat(f.evidence().get(0).where()).isEqualTo("fabric/ibdiagnet2.db_csv.out:5");
        });
        TestDump all = TestDump.healthy(tmp.resolve("e"), 8).write("fabric/ibdiagnet2.db_csv.out", arInfo(arRow("0xb0cf0e0300d33fc0", 1)));
        assertThat(of(all.analyze(), "ar.state")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).isEqualTo("adaptive routing enabled on all 1 AR-capable switch(es) (ibdiagnet AR_INFO)");
        });
        TestDump empty = TestDump.healthy(tmp.resolve("f"), 8).write("fabric/ibdiagnet2.db_csv.out", arInfo());
        assertThat(status(empty.analyze(), "ar.state")).isEqualTo(Status.SKIP);
    }

    /** ibdiagnet --congestion_control output as NVIDIA's manual prints it: CC off (en=0) on 3 switches. */
    static final String CC = real("ibdiagnet2.db_csv/nvidia-ibdiagnet-doc-congestion-control.txt");

    @Test
    void congestionControlAlikeOnAllSwitchesIsAFact() {
        Report r = healthy().write("fabric/ibdiagnet2.db_csv.out", CC).analyze();
        assertThat(of(r, "cc.state")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).isEqualTo("congestion control configured alike per device type: CC disabled (en=0) on all 3 switch(es); "
                    + "CC_SWITCH_GENERAL_SETTINGS 3 row(s)");
        });
        // a capability (what the switch has, not how it is set) may differ between switch models
        Report cap = healthy().write("fabric/ibdiagnet2.db_csv.out", CC.replace("0x0002c90000000043,0,0,0,0", "0x0002c90000000043,0,0,0,4096")).analyze();
        assertThat(status(cap, "cc.state")).isEqualTo(Status.PASS);
    }

    /** Fault injected into the real capture: one switch with CC enabled (en=1) while the other two have it off. */
    @Test
    void oneSwitchWithCongestionControlSetOtherwiseWarnsWithItsRow() {
        TestDump d = healthy().write("fabric/ibdiagnet2.db_csv.out", CC.replace("0x0002c90000000043,0,0,0,0", "0x0002c90000000043,0,0,1,0"));
        Report r = d.analyze();
        assertThat(problems(r, "cc.state")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.objects()).containsExactly("0x0002c90000000043");
            assertThat(f.summary()).isEqualTo("1 node(s) 0x0002c90000000043: CC_SWITCH_GENERAL_SETTINGS differs from the majority of the same device type: "
                    + "en 1 (others 0)");
            assertThat(f.evidence()).singleElement().satisfies(e -> {
                assertThat(e.where()).isEqualTo("fabric/ibdiagnet2.db_csv.out:13");
                assertThat(e.text()).isEqualTo("0x0002c90000000043: en=1 (2 of 3 rows: 0)");
            });
            assertThat(f.fix()).contains("ibdiagnet --congestion_control").contains("CC_SWITCH_GENERAL_SETTINGS");
        });
        assertThat(of(r, "cc.state")).anySatisfy(f -> assertThat(f.summary()).startsWith("note: congestion control: CC enabled (en=1) on 1 of 3 switch(es)"));
        // rows are compared only with rows of the same position (a key column such as vl or sl): alone in its group, no WARN
        Report grouped = d.write("fabric/ibdiagnet2.db_csv.out", CC.replace("0x0002c90000000043,0,0,0,0", "0x0002c90000000043,5,0,1,0"))
                .analyze(TestDump.config(tmp, "cc.state.key_columns=NodeGUID,aqs_time\n"));
        assertThat(status(grouped, "cc.state")).isEqualTo(Status.PASS);
    }

    /**
     * A real per-port section, the header and first row of PM_PORT_SAMPLES_CONTROL in the ibdiagnet 2.10 capture, put at
     * a switch's host ports (1-8) and uplinks (21-28): the uplinks have CounterSelect0 set apart from the host ports,
     * host port 3 gets the given changes. cc.state is pointed at that section by {@link #PORT_ROWS}.
     */
    static String portSamples(String guid, Map<String, String> hostPort3) {
        List<String> real = ndrDbCsv("PM_PORT_SAMPLES_CONTROL", 2);
        String header = real.get(0), first = real.get(1);
        List<String> names = List.of(header.split(",")).subList(3, header.split(",").length); // the columns after PortNumber
        String[] template = first.substring(first.indexOf(",1,") + 3).split(",", -1);
        BiFunction<Integer, Map<String, String>, String> row = (port, changes) -> {
            String[] v = template.clone();
            changes.forEach((col, value) -> v[names.indexOf(col)] = value);
            return guid + "," + guid + "," + port + "," + String.join(",", v);
        };
        StringBuilder b = new StringBuilder("START_PM_PORT_SAMPLES_CONTROL\n" + header + "\n");
        for (int p = 1; p <= 8; p++) b.append(row.apply(p, p == 3 ? hostPort3 : Map.of())).append('\n');
        for (int p = 21; p <= 28; p++) b.append(row.apply(p, Map.of("CounterSelect0", "0x0001"))).append('\n');
        return b.append("END_PM_PORT_SAMPLES_CONTROL\n").toString();
    }

    static final String PORT_ROWS = "cc.state.sections=PM_PORT_SAMPLES_CONTROL\ncc.state.key_columns=NodeGUID,PortGUID,PortNumber\n";

    /**
     * Per-port rows are compared within their port class from the fabric graph (synthetic leaf001: hosts on 1-8,
     * uplinks on 21-40): uplinks set apart from host ports are no finding, one host port unlike the other host ports
     * is, and N/A is not a value.
     */
    @Test
    void perPortRowsAreComparedWithinHostLinksAndWithinSwitchToSwitchLinks() {
        RuleConfig cfg = TestDump.config(tmp, PORT_ROWS);
        Report apart = healthy().write("fabric/ibdiagnet2.db_csv.out", portSamples("0x0c42a10300a00000", Map.of("SampleInterval", "N/A"))).analyze(cfg);
        assertThat(status(apart, "cc.state")).isEqualTo(Status.PASS);
        Report odd = healthy().write("fabric/ibdiagnet2.db_csv.out", portSamples("0x0c42a10300a00000", Map.of("SampleInterval", "0x00000010")))
                .analyze(cfg);
        assertThat(problems(odd, "cc.state")).singleElement().satisfies(f -> {
            assertThat(f.objects()).containsExactly("leaf001");
            assertThat(f.summary()).isEqualTo("1 node(s) leaf001: PM_PORT_SAMPLES_CONTROL differs from the majority of the same device type: "
                    + "SampleInterval 0x00000010 (others 0x00000000)");
            assertThat(f.evidence()).singleElement().satisfies(e -> {
                assertThat(e.text()).isEqualTo("leaf001 port 3: SampleInterval=0x00000010 (7 of 8 host link rows: 0x00000000)");
                assertThat(e.where()).isEqualTo("fabric/ibdiagnet2.db_csv.out:5");
            });
        });
    }

    /**
     * A ticket with only ibdiagnet's files: the switch is not in the dump's topology, so its ports are classed from
     * db_csv's own LINKS and NODES (real headers; a switch and host rows of the capture with this switch's GUIDs) and it
     * is named by its NodeDesc.
     */
    @Test
    void withoutTheSwitchInTheTopologyPortClassesAndNamesComeFromDbCsv() {
        String sw = "0x0c42a10300a0ffff", spine = "0x0c42a10300a1ffff";
        String nodeHeader = ndrDbCsv("NODES", 1).get(0);
        StringBuilder nodes = new StringBuilder("START_NODES\n" + nodeHeader + "\n");
        nodes.append(String.format("\"MF0;ib-leaf-x:MQM9700/U1\",65,2,1,1,%s,%s,%s,54002,8,160,713,0%n", sw, sw, sw));
        nodes.append(String.format("\"MF0;ib-spine-x:MQM9700/U1\",65,2,1,1,%s,%s,%s,54002,8,160,713,0%n", spine, spine, spine));
        StringBuilder links = new StringBuilder("START_LINKS\nNodeGuid1,PortNum1,NodeGuid2,PortNum2\n");
        for (int p = 1; p <= 8; p++) {
            String ca = String.format("0x5c25730300e670%02x", p);
            nodes.append(String.format("\"cx%d mlx5_0\",1,1,1,1,%s,%s,%s,4129,128,0,713,1%n", p, ca, ca, ca));
            links.append(ca).append(",1,").append(sw).append(",").append(p).append('\n');
        }
        for (int p = 21; p <= 28; p++) links.append(sw).append(",").append(p).append(",").append(spine).append(",").append(p - 20).append('\n');
        String db = nodes.append("END_NODES\n\n\n").toString() + links.append("END_LINKS\n\n\n");
        RuleConfig cfg = TestDump.config(tmp, PORT_ROWS);
        Report apart = healthy().write("fabric/ibdiagnet2.db_csv.out", db + portSamples(sw, Map.of())).analyze(cfg);
        assertThat(status(apart, "cc.state")).isEqualTo(Status.PASS);
        Report odd = healthy().write("fabric/ibdiagnet2.db_csv.out", db + portSamples(sw, Map.of("SampleInterval", "0x00000010"))).analyze(cfg);
        assertThat(problems(odd, "cc.state")).singleElement().satisfies(f -> {
            assertThat(f.objects()).containsExactly("MF0;ib-leaf-x:MQM9700/U1");
            assertThat(f.evidence().get(0).text()).isEqualTo("MF0;ib-leaf-x:MQM9700/U1 port 3: SampleInterval=0x00000010 (7 of 8 host link rows: 0x00000000)");
        });
    }

    /**
     * Without a value most rows hold: two values half and half are still one WARN (the rows with less set are named),
     * more than two values are a per-node value and no finding. Numbers are compared by value ("10" above "9").
     */
    @Test
    void splitValuesAreComparedByValueAndPerNodeValuesAreNot() {
        String en = CC.replace("0x0002c90000000041,0,0,0,0", "0x0002c90000000041,0,0,10,0").replace("0x0002c90000000043,0,0,0,0", "0x0002c90000000043,0,0,9,0");
        assertThat(status(healthy().write("fabric/ibdiagnet2.db_csv.out", en).analyze(), "cc.state")).isEqualTo(Status.PASS);
        String half = CC.replace("0x0002c90000000043,0,0,0,0\n", "")
                .replace("0x0002c90000000041,0,0,0,0", "0x0002c90000000041,0,0,10,0").replace("0x0002c9000000004f,0,0,0,0", "0x0002c9000000004f,0,0,9,0");
        assertThat(problems(healthy().write("fabric/ibdiagnet2.db_csv.out", half).analyze(), "cc.state")).singleElement().satisfies(f -> {
            assertThat(f.objects()).containsExactly("0x0002c9000000004f");
            assertThat(f.summary()).endsWith(": en 9 (the other half 10)");
        });
    }

    @Test
    void ibdiagnetWithoutCongestionControlSectionsSkipsSayingHowToGetThem() {
        Report r = healthy().write("fabric/ibdiagnet2.db_csv.out", arInfo(arRow("0xb0cf0e0300d33fc0", 1))).analyze();
        assertThat(of(r, "cc.state")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.SKIP);
            assertThat(f.summary()).contains("--congestion_control");
        });
    }

    /** The bundled demo dump carries the host files (ip -d addr show, chronyc tracking) with one fault of each kind. */
    @Test
    void demoDumpShowsTheIpoibAndTimeFaults() {
        Report r = new RulesEngine(RuleConfig.defaults()).run(io.ibaccept.dump.DumpLoader.load(TestDump.DEMO));
        assertThat(problems(r, "ipoib.state")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.objects()).containsExactly("node05");
            assertThat(f.evidence().get(0).where()).isEqualTo("nodes/node05/ip-d-addr.out:11");
        });
        // node16's ib0 is down with its port (port.state judges that), not an IPoIB fault
        assertThat(of(r, "ipoib.state")).anySatisfy(f -> assertThat(f.summary()).contains("node16 ib0"));
        assertThat(problems(r, "ipoib.config")).extracting(Finding::summary).containsExactly(
                "1 host(s) node09: IPoIB mode connected instead of datagram (datagram on 15, connected on 1)",
                "1 host(s) node09: IPoIB MTU 65520 instead of 2044 (2044 on 15, 65520 on 1)");
        assertThat(problems(r, "time.sync")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.objects()).containsExactly("node12");
        });
        assertThat(status(r, "hca.config")).isEqualTo(Status.SKIP);
        assertThat(r.data().problems()).noneMatch(p -> p.command().equals("ip-d-addr") || p.command().equals("chronyc-tracking"));
    }
}
