package io.ibaccept.rules;

import static io.ibaccept.rules.TestDump.of;
import static io.ibaccept.rules.TestDump.problems;
import static io.ibaccept.rules.TestDump.status;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** mtu.ipoib (saquery -g broadcast group per partition) and pkey's PartEnforce read on the switch port. */
class IpoibMtuAndPartEnforceRulesTest {
    static final Path REAL = Path.of("..", "parsers", "src", "test", "resources", "real");
    /** Captured from opensm on ibsim: partition 0x8002 at Mtu 0x84 (2048), the default partition at 0x85 (4096). */
    static final String REAL_GROUPS = "saquery-g/ibsim-opensm-2s4l-two-partitions-mtu4-mtu5.txt";
    static final String REAL_SWITCH_PORT = "smpquery-portinfo/ibsim-switch-port-facing-hca-part-enforce-0.txt";

    @TempDir
    Path tmp;

    TestDump healthy() {
        return TestDump.healthy(tmp.resolve("d"), 8);
    }

    static String group(String pkey, String mtu) {
        return "MCMemberRecord group dump:\n\t\tMGID....................ff12:401b:" + pkey + "::ffff:ffff\n\t\tMlid....................0xC000\n"
                + "\t\tMtu....................." + mtu + "\n\t\tpkey....................0x" + pkey.toUpperCase() + "\n"
                + "\t\tRate....................0x87\n\t\tSL......................0x0\n";
    }

    @Test
    void broadcastGroupBelowThePortsMtuIsAWarningWithTheOpensmFix() {
        // HDR hosts at NeighborMTU 4096 in 0xffff and 0x8001; the 0x8001 group was created with opensm's default mtu=4
        TestDump d = healthy().write("fabric/saquery-g.out", group("ffff", "0x85") + group("8001", "0x84"));
        Report r = d.analyze();
        assertThat(problems(r, "mtu.ipoib")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.objects()).containsExactly("partition 0x0001");
            assertThat(f.summary()).isEqualTo("partition 0x0001: IPoIB broadcast group MTU 2048 below 4096 (expected 4096; 8 member host(s))");
            assertThat(f.evidence().get(0).where()).isEqualTo("fabric/saquery-g.out:8");
            assertThat(f.fix()).contains("mtu=5").contains("restart opensm").contains("ip link set ib0 down").contains("saquery -g");
        });
        assertThat(r.verdict()).isNotEqualTo(Verdict.REJECTED);
    }

    @Test
    void realCaptureGroupBelowExpectedAndAPartitionWithoutBroadcastGroup() throws Exception {
        // the hosts hold 0xffff and 0x8001; the SA has groups for 0x7fff (4096) and 0x0002 (2048), none for 0x0001
        TestDump d = healthy().write("fabric/saquery-g.out", Files.readString(REAL.resolve(REAL_GROUPS)));
        Report r = d.analyze();
        assertThat(problems(r, "mtu.ipoib")).singleElement().satisfies(f -> {
            assertThat(f.objects()).containsExactly("partition 0x0002");
            assertThat(f.summary()).startsWith("partition 0x0002: IPoIB broadcast group MTU 2048 below 4096");
            assertThat(f.evidence().get(0).where()).isEqualTo("fabric/saquery-g.out:1");
        });
        assertThat(of(r, "mtu.ipoib")).anySatisfy(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).contains("no IPoIB broadcast group for partition(s) 0x0001");
        });
    }

    @Test
    void allGroupsAtThePortMtuPassAndNoteAPartitionWithoutGroup() {
        TestDump d = healthy().write("fabric/saquery-g.out", group("ffff", "0x85"));
        Report r = d.analyze();
        assertThat(status(r, "mtu.ipoib")).isEqualTo(Status.PASS);
        assertThat(of(r, "mtu.ipoib")).singleElement().satisfies(f -> assertThat(f.summary())
                .isEqualTo("IPoIB broadcast group MTU per partition: 0x7fff 4096; no IPoIB broadcast group for partition(s) 0x0001"
                        + " (no 'ipoib' flag in partitions.conf: no IPoIB there)"));
    }

    @Test
    void groupAboveTheMtuCapOfAMemberPortFailsForThatHost() {
        TestDump d = healthy().write("fabric/saquery-g.out", group("ffff", "0x85") + group("8001", "0x85"))
                .replace("nodes/cn0003/smpquery-portinfo.out", "MtuCap:..........................4096", "MtuCap:..........................2048")
                .replace("nodes/cn0003/smpquery-portinfo.out", "NeighborMTU:.....................4096", "NeighborMTU:.....................2048");
        Report r = d.analyze();
        assertThat(problems(r, "mtu.ipoib")).filteredOn(f -> f.status() == Status.FAIL).hasSize(2).allSatisfy(f -> {
            assertThat(f.objects()).containsExactly("cn0003");
            assertThat(f.summary()).contains("above the MtuCap of 1 member port(s) (cn0003)");
            assertThat(f.fix()).contains("mtu=4");
        });
    }

    @Test
    void oldDumpWithoutSaqueryGIsSkippedAsNotCollected() {
        Report r = healthy().analyze();
        assertThat(of(r, "mtu.ipoib")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.SKIP);
            assertThat(f.summary()).contains("saquery-g not collected");
        });
        assertThat(status(r, "pkey")).isEqualTo(Status.PASS);
    }

    @Test
    void partEnforceReadOffOnASwitchPortIsItsOwnWarning() throws Exception {
        String off = Files.readString(REAL.resolve(REAL_SWITCH_PORT));
        TestDump d = healthy().write("nodes/cn0002/smpquery-portinfo-peer.out", off)
                .write("nodes/cn0004/smpquery-portinfo-peer.out", off.replace("PartEnforceInb:..................0", "PartEnforceInb:..................1")
                        .replace("PartEnforceOutb:.................0", "PartEnforceOutb:.................1"));
        Report r = d.analyze();
        assertThat(problems(r, "pkey")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.objects()).hasSize(1).allSatisfy(o -> assertThat(o).doesNotContain("cn0004"));
            assertThat(f.summary()).contains("read PartEnforceInb/Outb off").contains("nothing is dropped and nothing is isolated");
            assertThat(f.evidence().get(0).text()).contains("PartEnforceInb 0, PartEnforceOutb 0").contains("cn0002");
            assertThat(f.evidence().get(0).where()).startsWith("nodes/cn0002/smpquery-portinfo-peer.out");
            assertThat(f.fix()).contains("part_enforce both").contains("PartEnforceInb");
        });
    }

    @Test
    void readEnforcementReplacesTheInference() throws Exception {
        String off = Files.readString(REAL.resolve(REAL_SWITCH_PORT));
        String defaultOnly = "   0: 0xffff 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000\n   8: 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000\n"
                + "16 pkeys capacity for this port\n";
        // cn0005's switch port lacks 0x8001: with enforcement read ON that drops the partition (FAIL) ...
        TestDump on = healthy().write("nodes/cn0005/smpquery-pkeys-peer.out", defaultOnly)
                .write("nodes/cn0005/smpquery-portinfo-peer.out", off.replace("PartEnforceInb:..................0", "PartEnforceInb:..................1")
                        .replace("PartEnforceOutb:.................0", "PartEnforceOutb:.................1"));
        assertThat(problems(on.analyze(), "pkey")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).contains("P_Key 0x8001 only on cn0005 HCA");
        });
        // ... with enforcement read OFF nothing is dropped: one enforcement warning, no mismatch FAIL
        TestDump offDump = TestDump.healthy(tmp.resolve("e"), 8).write("nodes/cn0005/smpquery-pkeys-peer.out", defaultOnly)
                .write("nodes/cn0005/smpquery-portinfo-peer.out", off);
        assertThat(problems(offDump.analyze(), "pkey")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.summary()).contains("partition enforcement is off there");
        });
    }
}
