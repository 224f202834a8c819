package io.ibaccept.rules;

import static io.ibaccept.rules.TestDump.of;
import static io.ibaccept.rules.TestDump.problems;
import static io.ibaccept.rules.TestDump.status;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The captured demo dump: every injected fault must come out as a FAIL/WARN naming the right object and fix. */
class DemoDumpRulesTest {
    static Report r;

    @BeforeAll
    static void analyze() {
        r = new RulesEngine(RuleConfig.defaults()).run(io.ibaccept.dump.DumpLoader.load(TestDump.DEMO));
    }

    @Test
    void verdictIsRejected() {
        assertThat(r.verdict()).isEqualTo(Verdict.REJECTED);
        assertThat(r.data().hosts()).hasSize(16);
    }

    @Test
    void unpluggedNodeIsPortDownWithCableFix() {
        Finding f = problems(r, "port.state").get(0);
        assertThat(problems(r, "port.state")).hasSize(1);
        assertThat(f.status()).isEqualTo(Status.FAIL);
        assertThat(f.objects()).containsExactly("node16/ibsim0 port 1");
        assertThat(f.cause()).contains("cable or transceiver");
        assertThat(f.fix()).contains("Reseat/replace the cable on node16").contains("mlxlink -d ibsim0 -m");
        assertThat(f.evidence().get(0).where()).isEqualTo("nodes/node16/ibstat.out:8");
    }

    @Test
    void oneXLinkOnNode06() {
        assertThat(problems(r, "link.width")).singleElement().satisfies(f -> {
            assertThat(f.summary()).contains("node06 HCA-1 port 1").contains("leaf02 port 2").contains("1X, expected 4X");
            assertThat(f.cause()).contains("25% of nominal");
            assertThat(f.fix()).contains("Reseat, clean or replace the cable between");
        });
    }

    @Test
    void edrLinkOnNode11() {
        assertThat(problems(r, "link.speed")).singleElement().satisfies(f -> {
            assertThat(f.summary()).contains("node11 HCA-1").contains("EDR, expected HDR");
            assertThat(f.fix()).contains("rated for HDR");
        });
    }

    @Test
    void unpluggedNodeIsMissingFromTheFabric() {
        assertThat(problems(r, "fabric.inventory")).singleElement().satisfies(f -> {
            assertThat(f.objects()).containsExactly("node16");
            assertThat(f.summary()).isEqualTo("1 of 16 hosts not in the fabric (6 switches, 15 CAs): node16");
        });
    }

    @Test
    void ibdiagnetCountersAddPortsTheOtherToolsDidNotReport() {
        assertThat(problems(r, "link.errors")).anySatisfy(f -> {
            assertThat(f.summary()).contains("node11 HCA-1 port 1: LinkErrorRecoveryCounter=3");
            assertThat(f.evidence()).anySatisfy(e -> assertThat(e.where()).isEqualTo("fabric/ibdiagnet2.db_csv.out:16"));
        });
    }

    @Test
    void flappingLinkOnLeaf03Port3IsOneCableInTheHistoryOfLeaf03() {
        // leaf03 port 3 (ibqueryerrors) and node11's HCA port (ibdiagnet2) are the two ends of one cable; counts read
        // once, since an unknown time, are history: one WARN for leaf03 naming the window that would prove them
        assertThat(problems(r, "link.errors")).filteredOn(f -> f.objects().contains("leaf03 port 3")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.variant()).isEqualTo("history");
            assertThat(f.objects()).containsExactly("leaf03 port 3", "node11 HCA-1 port 1");
            assertThat(f.summary()).isEqualTo("leaf03: 1 cable(s) with link-down, recovery, symbol or receive error counts since an unknown time "
                    + "(one snapshot, no counter window): cable node11 HCA-1 port 1 <-> leaf03 port 3: port 3: LinkDownedCounter=7 "
                    + "SymbolErrorCounter=1234; node11 HCA-1 port 1: LinkErrorRecoveryCounter=3");
            assertThat(f.cause()).contains("history, not proof");
            assertThat(f.fix()).contains("--window 10m --clear-counters");
        });
    }

    @Test
    void partitionNotEnforcedOnTheSwitchSideOfNode03() {
        // node03's HCA is in partition 0x0001; no switch port holds anything but the default key: the SM runs with
        // partition enforcement off, which is its own finding (nothing dropped, nothing isolated), not a mismatch
        assertThat(problems(r, "pkey")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.objects()).containsExactly("leaf01 port 3");
            assertThat(f.summary()).contains("partition enforcement is off there (leaf01 port 3)");
            assertThat(f.fix()).contains("part_enforce both");
        });
    }

    @Test
    void equalSmPriorities() {
        assertThat(status(r, "sm.count")).isEqualTo(Status.PASS);
        assertThat(problems(r, "sm.priority")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.summary()).isEqualTo("2 SMs share priority 14");
            assertThat(f.fix()).contains("sm_priority");
        });
    }

    @Test
    void hardwareOnlyFaults() {
        assertThat(problems(r, "pcie")).singleElement().satisfies(f -> assertThat(f.objects()).containsExactly("node07"));
        assertThat(problems(r, "memlock")).singleElement().satisfies(f -> {
            assertThat(f.objects()).containsExactly("node09");
            assertThat(f.fix()).contains("memlock unlimited").contains("LimitMEMLOCK=infinity");
        });
        assertThat(problems(r, "ofed")).singleElement().satisfies(f -> {
            assertThat(f.objects()).containsExactly("node13");
            assertThat(f.fix()).contains("MLNX_OFED_LINUX-5.8-1.0.1.1");
        });
        assertThat(problems(r, "mlxlink")).extracting(Finding::status).containsExactlyInAnyOrder(Status.FAIL, Status.WARN);
        // the tool's recommendation is quoted as evidence; the fix comes from the rules, never from the dump's text
        assertThat(problems(r, "mlxlink").get(0).evidence()).anySatisfy(e -> assertThat(e.text()).contains("Cable is not supported"));
        assertThat(problems(r, "mlxlink")).allSatisfy(f -> assertThat(f.fix()).doesNotContain("Cable is not supported"));
        assertThat(problems(r, "mlxlink").get(0).fix()).contains("Look up opcode 1024");
    }

    @Test
    void perftestJudgedAgainstTheDesignRate() {
        assertThat(problems(r, "perftest.bw")).hasSize(2).anySatisfy(f -> {
            assertThat(f.objects()).containsExactly("node07", "node08");
            assertThat(f.summary()).contains("51% of 200 Gb/s (minimum");
            assertThat(f.cause()).contains("PCIe Gen3 or x8");
        }).anySatisfy(f -> {
            // node05->node06 runs over the 1X link: all of its 50 Gb/s, but a quarter of the 200 Gb/s the links were built for
            assertThat(f.objects()).containsExactly("node05", "node06");
            assertThat(f.summary()).contains("48.9 Gb/s = 24% of 200 Gb/s design").contains("trained 1X HDR = 50 Gb/s");
            assertThat(f.cause()).contains("trained below its design").doesNotContain("PCIe");
        });
        assertThat(problems(r, "perftest.lat")).singleElement().satisfies(f -> assertThat(f.summary()).contains("node11->node12").contains("3.64"));
    }

    @Test
    void ibdiagnetMessagesBecomeFindings() {
        // the demo's ibdiagnet2.log is in the real ibdiagnet 2.x format: a stage's "... finished with errors" line is
        // not a finding of its own, its detail messages are (the counter error on leaf03/U1/P3, the slow link)
        assertThat(problems(r, "ibdiagnet")).extracting(Finding::status).containsExactly(Status.FAIL, Status.FAIL);
        assertThat(problems(r, "ibdiagnet")).extracting(Finding::summary).noneMatch(s -> s.contains("finished with"))
                .anyMatch(s -> s.startsWith("lid=0x0007 dev=0 leaf03/U1/P3")).anyMatch(s -> s.contains("Unexpected actual link speed 25"));
    }

    @Test
    void inputsWithoutErrors() {
        // the down node's peer query failure is explained, not reported as an input error
        assertThat(of(r, "input")).noneMatch(f -> f.status() == Status.ERROR);
        assertThat(of(r, "input")).anySatisfy(f -> assertThat(f.summary()).contains("smpquery-pkeys-peer").contains("HCA port is down"));
    }
}
