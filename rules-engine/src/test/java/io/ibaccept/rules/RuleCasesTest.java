package io.ibaccept.rules;

import static io.ibaccept.rules.TestDump.of;
import static io.ibaccept.rules.TestDump.problems;
import static io.ibaccept.rules.TestDump.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PASS on a healthy fabric, then one fault at a time. */
class RuleCasesTest {
    @TempDir
    Path tmp;

    TestDump healthy() {
        return TestDump.healthy(tmp.resolve("d"), 8);
    }

    @Test
    void healthyFabricPassesEveryCheckWithData() {
        Report r = healthy().analyze();
        assertThat(r.verdict()).isEqualTo(Verdict.ACCEPTED);
        for (String c : List.of("sm.count", "sm.priority", "port.state", "fabric.inventory", "link.width", "link.speed", "pcie",
                "link.errors", "pkey", "mtu", "memlock", "ofed", "firmware", "guid.duplicate", "lid.duplicate", "perftest.bw", "input"))
            assertThat(status(r, c)).as(c).isEqualTo(Status.PASS);
        // optional tools that were not requested are skipped with a hint, not reported as missing inputs
        assertThat(of(r, "mlxlink")).singleElement().satisfies(f -> assertThat(f.summary()).contains("collect with --mlxlink"));
        assertThat(of(r, "input")).singleElement().satisfies(f -> assertThat(f.status()).isEqualTo(Status.PASS));
    }

    @Test
    void optionalToolsPassWhenClean() {
        TestDump d = healthy();
        String mlx = "Operational Info\n----------------\nState                              : Active\nSpeed                              : IB-HDR\n"
                + "Width                              : 4x\nTroubleshooting Info\n--------------------\nStatus Opcode                      : 0\n"
                + "Recommendation                     : No issue was observed\nRaw Physical BER                   : 1E-12\n"
                + "Effective Physical BER             : 15E-255\n";
        d.write("nodes/cn0001/mlxlink.out", mlx);
        d.write("nodes/cn0001/ethtool-S.out", "NIC statistics:\n     rx_packets: 10\n     rx_crc_errors_phy: 0\n");
        d.write("fabric/ibdiagnet2.log.out", "ibdiagnet v2.11.0\n-I- Discovery finished successfully\n");
        d.write("perftest/ib_read_lat__cn0001__cn0002.client.meta", "name: ib_read_lat\nhost: cn0001\npeer: cn0002\nstatus: ok\n");
        d.write("perftest/ib_read_lat__cn0001__cn0002.client.out", " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]\n 2       1000          1.78           4.31         1.83            1.85          0.07      2.05       4.31\n");
        Report r = d.analyze();
        for (String c : List.of("mlxlink", "ethtool", "ibdiagnet", "perftest.lat")) assertThat(status(r, c)).as(c).isEqualTo(Status.PASS);
    }

    @Test
    void portInitWithoutSmPointsAtTheSm() {
        TestDump d = healthy();
        d.replace("nodes/cn0003/ibstat.out", "State: Active", "State: Initializing").replace("nodes/cn0003/ibstat.out", "SM lid: 500", "SM lid: 0");
        d.write("fabric/sminfo.meta", "name: sminfo\nhost: cn0001\ncommand: sminfo\nstatus: failed\nexit: 255\n");
        d.write("fabric/sminfo.err", "ibwarn: [1234] mad_rpc_open_port: sminfo: iberror: failed: query\n");
        d.write("fabric/sminfo.out", ""); // a failed sminfo prints nothing on stdout
        Report r = d.analyze();
        Finding f = problems(r, "port.state").get(0);
        assertThat(f.summary()).contains("stuck in Initializing with the physical link up");
        assertThat(f.fix()).contains("systemctl enable --now opensm");
        assertThat(problems(r, "sm.count")).singleElement().satisfies(s -> {
            // every other port still points at SM lid 500, which no longer answers
            assertThat(s.summary()).isEqualTo("no SM answers at SM lid 500 (spine01) that 7 of 8 ports point to: the SM died; no standby configured");
            assertThat(s.evidence()).anySatisfy(e -> assertThat(e.text()).contains("sminfo").contains("failed"));
        });
    }

    @Test
    void portInitWithSmPointsAtPkeys() {
        TestDump d = healthy();
        d.replace("nodes/cn0003/ibstat.out", "State: Active", "State: Initializing");
        Finding f = problems(healthyAnd(d), "port.state").get(0);
        assertThat(f.cause()).contains("P_Key mismatch");
    }

    private static Report healthyAnd(TestDump d) {
        return d.analyze();
    }

    @Test
    void unusedSecondHcaPortCanBeIgnored() {
        TestDump d = healthy();
        String second = "CA 'mlx5_1'\n\tCA type: MT4123\n\tNumber of ports: 1\n\tFirmware version: 20.31.1014\n"
                + "\tNode GUID: 0x0c42a103001fff00\n\tPort 1:\n\t\tState: Down\n\t\tPhysical state: Disabled\n\t\tRate: 10\n"
                + "\t\tBase lid: 65535\n\t\tPort GUID: 0x0c42a103001fff00\n\t\tLink layer: InfiniBand\n";
        d.write("nodes/cn0002/ibstat.out", d.read("nodes/cn0002/ibstat.out") + second);
        assertThat(problems(d.analyze(), "port.state")).singleElement().satisfies(f -> {
            assertThat(f.objects()).containsExactly("cn0002/mlx5_1 port 1");
            assertThat(f.summary()).isEqualTo("cn0002/mlx5_1 port 1 is disabled");
            assertThat(f.fix()).contains("enable");
        });
        Report r = d.analyze(TestDump.config(tmp, "port.state.ignore=mlx5_1/*\n"));
        assertThat(of(r, "port.state")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).startsWith("all 8 HCA ports are Active; 1 port(s) ignored by port.state.ignore; all ");
        });
    }

    @Test
    void smNoneAndSplitBrain() {
        TestDump d = healthy();
        d.write("fabric/sminfo.out", "sminfo: sm lid 500 sm guid 0xc42a10300a10000, activity count 5 priority 15 state 2 SMINFO_STANDBY\n");
        assertThat(problems(d.analyze(), "sm.count")).singleElement().satisfies(f -> assertThat(f.summary()).startsWith("no master SM"));
        d.write("fabric/sminfo.out", "sminfo: sm lid 500 sm guid 0xc42a10300a10000, activity count 5 priority 15 state 3 SMINFO_MASTER\n"
                + "sminfo: sm lid 501 sm guid 0xc42a10300a10001, activity count 5 priority 14 state 3 SMINFO_MASTER\n");
        assertThat(problems(d.analyze(), "sm.count")).singleElement().satisfies(f -> {
            assertThat(f.summary()).startsWith("2 SMs in MASTER state (split brain)");
            assertThat(f.objects()).containsExactly("SM lid 500", "SM lid 501");
        });
    }

    @Test
    void configuredExpectedSpeedOverridesMajority() {
        Report r = healthy().analyze(TestDump.config(tmp, "link.speed.expected=NDR\n"));
        assertThat(problems(r, "link.speed")).isNotEmpty().allSatisfy(f -> assertThat(f.summary()).contains("expected NDR (configured)"));
    }

    @Test
    void thresholdsTurnFailIntoWarn() {
        TestDump d = TestDump.demoCopy(tmp.resolve("demo"));
        Report r = d.analyze(TestDump.config(tmp, "link.errors.link_downed_max=10\nlink.errors.link_recovery_max=10\nlink.errors.symbol_fail=100000\n"));
        assertThat(problems(r, "link.errors")).filteredOn(f -> f.objects().contains("leaf03 port 3")).singleElement()
                .satisfies(f -> assertThat(f.status()).isEqualTo(Status.WARN));
        Report r2 = d.analyze(TestDump.config(tmp, "memlock.min_kib=65536\nperftest.lat.max_usec=5\nperftest.bw.min_percent=20\n"));
        assertThat(status(r2, "memlock")).isEqualTo(Status.PASS);
        assertThat(status(r2, "perftest.lat")).isEqualTo(Status.PASS);
        assertThat(status(r2, "perftest.bw")).isEqualTo(Status.PASS);
    }

    @Test
    void mtuMismatch() {
        TestDump d = healthy();
        d.replace("nodes/cn0005/smpquery-portinfo.out", "NeighborMTU:.....................4096", "NeighborMTU:.....................2048");
        assertThat(problems(d.analyze(), "mtu")).singleElement().satisfies(f -> {
            assertThat(f.objects()).containsExactly("cn0005");
            assertThat(f.summary()).isEqualTo("1 host(s) use MTU 2048 instead of 4096");
            assertThat(f.evidence().get(0).where()).isEqualTo("nodes/cn0005/smpquery-portinfo.out:1");
        });
    }

    @Test
    void firmwareMismatchIsWarning() {
        TestDump d = healthy();
        d.replace("nodes/cn0002/ibstat.out", "Firmware version: 20.31.1014", "Firmware version: 20.28.2006");
        assertThat(problems(d.analyze(), "firmware")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.fix()).contains("Update cn0002 to 20.31.1014");
        });
    }

    @Test
    void duplicateGuidAndLid() {
        TestDump d = healthy();
        d.write("nodes/cn0004/ibstat.out", d.read("nodes/cn0003/ibstat.out"));
        Report r = d.analyze();
        assertThat(problems(r, "guid.duplicate")).isNotEmpty().allSatisfy(f -> assertThat(f.summary()).contains("cn0003, cn0004"));
        assertThat(problems(r, "lid.duplicate")).singleElement().satisfies(f -> assertThat(f.summary()).contains("LID 1002"));
    }

    @Test
    void aPartitionWithASubsetOfHostsByDesignIsNotAProblem() {
        TestDump d = healthy();
        String extra = "   0: 0xffff 0x8001 0x8002 0x0000 0x0000 0x0000 0x0000 0x0000\n16 pkeys capacity for this port\n";
        d.write("nodes/cn0006/smpquery-pkeys.out", extra).write("nodes/cn0006/smpquery-pkeys-peer.out", extra);
        d.write("nodes/cn0007/smpquery-pkeys.out", extra).write("nodes/cn0007/smpquery-pkeys-peer.out", extra);
        assertThat(of(d.analyze(), "pkey")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).startsWith("3 partition(s): 0x0001 8 full/0 limited, 0x0002 2 full/0 limited, 0x7fff 8 full/0 limited");
        });
    }

    @Test
    void ethtoolErrors() {
        TestDump d = healthy();
        d.write("nodes/cn0001/ethtool-S.out", "NIC statistics:\n     rx_packets: 10\n     rx_crc_errors_phy: 17\n");
        assertThat(problems(d.analyze(), "ethtool")).singleElement().satisfies(f -> assertThat(f.summary()).isEqualTo("cn0001: rx_crc_errors_phy=17"));
    }

    @Test
    void aDumpWithoutItsManifestIsNeverAccepted() {
        TestDump d = healthy();
        assertThat(d.analyze().verdict()).isEqualTo(Verdict.ACCEPTED);
        d.delete("manifest.txt");
        Report r = d.analyze();
        // the nodes meant to be collected and whether the collection finished are unknown
        assertThat(r.verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(of(r, "input")).anySatisfy(f -> {
            assertThat(f.status()).isEqualTo(Status.ERROR);
            assertThat(f.summary()).startsWith("manifest: manifest.txt: file missing from the dump");
        });
    }

    @Test
    void brokenInputsBecomeFindingsWithFileAndLine() {
        TestDump d = healthy();
        d.write("nodes/cn0002/ibstat.out", "CA 'mlx5_0'\n\tNode GUID: 0xnothex\n");
        d.delete("nodes/cn0003/smpquery-portinfo.out");
        d.write("nodes/cn0004/ulimit-l.meta", "name: ulimit-l\nhost: cn0004\ncommand: ulimit -l\nstatus: timeout\nexit: -1\nduration_ms: 10000\n");
        Report r = d.analyze();
        assertThat(r.verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(of(r, "input")).anySatisfy(f -> {
            assertThat(f.status()).isEqualTo(Status.ERROR);
            assertThat(f.summary()).isEqualTo("ibstat: nodes/cn0002/ibstat.out:2: expected a hexadecimal number, found '0xnothex'");
        });
        // an output missing from the dump although its .meta says it ran is damage, an ERROR, not a neutral SKIP
        assertThat(of(r, "input")).anySatisfy(f -> {
            assertThat(f.status()).isEqualTo(Status.ERROR);
            assertThat(f.summary()).contains("nodes/cn0003/smpquery-portinfo.out: its smpquery-portinfo.meta says the command ran"
                    + " (status ok) but the output file is missing");
        });
        assertThat(of(r, "input")).anySatisfy(f -> assertThat(f.summary()).contains("timed out after 10000 ms on cn0004"));
        // the other checks still ran on the rest of the data
        assertThat(status(r, "link.width")).isEqualTo(Status.PASS);
    }

    @Test
    void aRuleThatThrowsBecomesAnErrorAndTheOthersRun() {
        Check boom = new Check() {
            public String id() {
                return "mtu";
            }

            public List<Input> inputs() {
                return List.of();
            }

            public void evaluate(Ctx c) {
                c.pass("half", List.of(), List.of());
                throw new IllegalStateException("boom");
            }
        };
        Report r = new RulesEngine(RuleConfig.defaults(), List.of(boom, io.ibaccept.rules.checks.Checks.all().stream().filter(c -> c.id().equals("link.width")).findFirst().orElseThrow()))
                .run(io.ibaccept.dump.DumpLoader.load(healthy().dir));
        assertThat(of(r, "mtu")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.ERROR);
            assertThat(f.summary()).isEqualTo("check could not be evaluated: boom");
        });
        assertThat(status(r, "link.width")).isEqualTo(Status.PASS);
    }

    @Test
    void badRulesFiles() {
        assertThatThrownBy(() -> TestDump.config(tmp, "# site\nlink.sped.expected=HDR\n"))
                .isInstanceOf(RuleConfig.BadRulesFile.class).hasMessageEndingWith("site-rules.properties:2: unknown rule setting 'link.sped.expected'");
        assertThatThrownBy(() -> TestDump.config(tmp, "perftest.bw.min_percent=ninety\n"))
                .hasMessageEndingWith("'perftest.bw.min_percent' must be a number, found 'ninety'");
        RuleConfig off = TestDump.config(tmp, "ethtool.enabled=false\n");
        assertThat(off.enabled("ethtool")).isFalse();
        // enabled is a setting with its default like any other, so the cover page lists the change against it
        assertThat(off.overridden()).containsExactly(java.util.Map.entry("ethtool.enabled", "false"));
        assertThat(RuleConfig.defaults().asProperties()).containsEntry("ethtool.enabled", "true");
    }
}
