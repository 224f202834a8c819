package io.ibaccept.rules;

import static io.ibaccept.rules.TestDump.of;
import static io.ibaccept.rules.TestDump.problems;
import static io.ibaccept.rules.TestDump.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.DumpLoader;
import io.ibaccept.model.Perftest;
import io.ibaccept.model.PerftestRun;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The bundled dump built only from verbatim real captures (sample-dumps/dumps/real-captures, sources in its
 * SOURCES.md): what a fabric engineer reading those outputs would report, and no false FAIL.
 */
class RealCapturesRulesTest {
    static final Path DUMP = Path.of("..", "sample-dumps", "dumps", "real-captures");
    static Report r;

    @BeforeAll
    static void analyze() {
        r = new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(DUMP));
    }

    @Test
    void verdictIsRejectedForTheRealFaultsInTheCaptures() {
        assertThat(r.verdict()).isEqualTo(Verdict.REJECTED);
    }

    @Test
    void connectX3PortsDownAndPollingAreFound() {
        // storage02's ConnectX-3 (ibstat) and ompi-cx3's (ibstatus: the fallback input where ibstat is missing)
        assertThat(problems(r, "port.state")).extracting(Finding::summary).containsExactlyInAnyOrder(
                "storage02/mlx4_0 port 1 is down (physical state Polling)", "ompi-cx3/mlx4_0 port 1 is down (physical state Polling)");
        assertThat(problems(r, "port.state")).filteredOn(f -> f.summary().startsWith("storage02")).singleElement()
                .satisfies(f -> assertThat(f.evidence()).anySatisfy(e -> assertThat(e.where()).isEqualTo("nodes/storage02/ibstat.out:8")));
        assertThat(problems(r, "port.state")).filteredOn(f -> f.summary().startsWith("ompi-cx3")).singleElement()
                .satisfies(f -> assertThat(f.evidence()).anySatisfy(e -> assertThat(e.where()).startsWith("nodes/ompi-cx3/ibstatus.out")));
    }

    @Test
    void saturatedCountersOnTheSx6036FromIbqueryerrors() {
        // one ibqueryerrors snapshot: the counts have no known start, so they are history, one WARN per switch and
        // cause with the worst ports first (saturated counters are "at least"), never a FAIL
        String sw = "MF0;ys23ib4:SX6036/U1";
        List<Finding> history = problems(r, "link.errors").stream().filter(f -> f.summary().startsWith(sw + ": ")).toList();
        assertThat(history).allSatisfy(f -> assertThat(f.status()).isEqualTo(Status.WARN));
        assertThat(history).filteredOn(f -> f.variant().equals("history")).singleElement().satisfies(f -> {
            assertThat(f.summary()).contains("8 cable(s) with link-down, recovery, symbol or receive error counts since an unknown time")
                    .contains("port 5: LinkDownedCounter=2 LinkErrorRecoveryCounter=8 SymbolErrorCounter=65535 (saturated: at least)");
            assertThat(f.evidence()).anySatisfy(e -> assertThat(e.where()).isEqualTo("fabric/ibqueryerrors.out:13"));
            assertThat(f.evidence()).hasSizeLessThanOrEqualTo(2 * 5 + 1);
            assertThat(f.objects()).hasSize(8);
            assertThat(f.cause()).contains("history, not proof");
        });
        // discards + XmitWait from a snapshot: congestion is judged as a rate only
        assertThat(problems(r, "link.errors")).noneSatisfy(f -> assertThat(f.summary()).startsWith(sw + " port 6: PortXmitDiscards"));
    }

    @Test
    void realIbdiagnetPmInfoCountersOfThe272NodeFabricAreRead() {
        // real ibdiagnet 2.x column names (SymbolErrorCounter, LinkDownedCounter, ...), keyed by node GUID + port; the
        // 1,097 per-port findings of one snapshot are now one history WARN per switch and cause, and no FAIL
        List<Finding> fromDb = problems(r, "link.errors").stream()
                .filter(f -> f.evidence().stream().anyMatch(e -> e.where().startsWith("fabric/ibdiagnet2.db_csv.out:"))).toList();
        assertThat(problems(r, "link.errors")).noneMatch(f -> f.status() == Status.FAIL).hasSizeLessThan(60);
        // the Quantum-2 switches share their default description: each is named with its GUID, never merged
        assertThat(fromDb).anySatisfy(f -> assertThat(f.summary())
                .startsWith("Quantum-2 Mellanox Technologies (0xfc6a1c030091cf00): ").contains("(one snapshot, no counter window): port 3: LinkDownedCounter=37"));
        java.util.Map<String, Long> perSwitchAndCause = fromDb.stream().filter(f -> f.summary().startsWith("Quantum-2"))
                .collect(java.util.stream.Collectors.groupingBy(f -> f.summary().split(": ")[0] + "|" + f.variant(), java.util.stream.Collectors.counting()));
        assertThat(perSwitchAndCause.keySet().stream().map(k -> k.split("\\|")[0]).distinct().count()).isGreaterThan(1);
        assertThat(perSwitchAndCause.values()).allMatch(n -> n == 1);
    }

    @Test
    void latencyRunIsJudgedAtTwoBytesAndPasses() {
        PerftestRun run = r.data().perftests().stream().filter(x -> x.test().equals("ib_write_lat")).findFirst().orElseThrow();
        Perftest.Row row = run.result().smallest();
        assertThat(row.bytes()).isEqualTo(2);
        assertThat(row.tTypical()).isEqualTo(1.87);
        // the same -a run ends at 8 MiB, 345 us: never the size judged
        assertThat(run.result().largest().tTypical()).isGreaterThan(300);
        assertThat(of(r, "perftest.lat")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.PASS);
            assertThat(f.summary()).contains("at the smallest message size");
        });
    }

    @Test
    void noFalseFailOnSpeedRatesOrMtu() {
        // the FDR10 host (ibstat 'Rate: 40 (FDR10)') is not a speed fault; no perftest is compared with a wrong rate
        assertThat(problems(r, "link.speed")).isEmpty();
        assertThat(r.findings()).filteredOn(f -> f.status() == Status.FAIL || f.status() == Status.WARN)
                .noneMatch(f -> f.objects().contains("cx3-fdr10"));
        assertThat(problems(r, "perftest.bw")).isEmpty();
        // RoCE runs (Link type Ethernet, MTU 1024 on a 1500-byte Ethernet) are not judged against the IB fabric MTU
        assertThat(status(r, "mtu")).isEqualTo(Status.PASS);
        assertThat(status(r, "firmware")).isEqualTo(Status.PASS);
    }

    @Test
    void ibdiagnetStageSummariesAreNotFindings() {
        assertThat(of(r, "ibdiagnet")).noneMatch(f -> f.summary().endsWith("finished with warnings") || f.summary().endsWith("finished with errors"));
        assertThat(problems(r, "ibdiagnet")).anySatisfy(f -> assertThat(f.summary()).contains("has FW version 31.2012.1024"));
    }
}
