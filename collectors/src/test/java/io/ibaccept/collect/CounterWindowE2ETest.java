package io.ibaccept.collect;

import io.ibaccept.model.Hostlist;
import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.DumpLoader;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.InputProblem;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.RulesEngine;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.counters.LinkWindowRow;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The counter window on ibsim: counters raised with the console's PerformanceSet between the two samples are named
 * with their rate; counters that were already non-zero before the window and did not move only get a note.
 * ibsim (sim_cmd.c do_perf_counter_set) sets PortCounters fields capped at their width, e.g. SymbolErrorCounter at 65535,
 * and PortCountersExtended data fields; its PMA answers both attributes (CapMask 0x1300).
 */
@ExtendWith(RequiresSimulator.class)
class CounterWindowE2ETest {
    static final Path NETFILE = Path.of("..", "sample-dumps", "sim", "fattree-16.net");
    static final List<String> NODES = Hostlist.expand("node[01-16]");


    static List<Finding> of(Report r, String check) {
        return r.findings().stream().filter(x -> x.check().equals(check)).toList();
    }

    @Test
    void errorsDuringTheWindowAreNamedWithTheirRateOldErrorsOnlyGetANote(@TempDir Path tmp) throws Exception {
        try (SimFabric f = SimFabric.start(Files.readString(NETFILE), tmp.resolve("sim"))) {
            f.startSm("node01", 10, null, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            // before the window: old symbol errors and two link-down events on node09's switch port (bring-up reboots)
            f.setCounter("leaf03", 1, "SymbolErrorCounter", 40);
            f.setCounter("leaf03", 1, "LinkDownedCounter", 2);
            f.setCounter("leaf04", 3, "SymbolErrorCounter", 65535); // saturated before: nothing can be said
            Path dump = tmp.resolve("dump");
            PrintStream quiet = new PrintStream(PrintStream.nullOutputStream());
            new Collector(f.transport(), new Collector.Options("e2e", "node01", 8, false, false, null, null), quiet).collect(NODES, dump);
            CounterWindow.Result res = new CounterWindow(f.transport(), new CounterWindow.Options(Duration.ZERO, false), quiet)
                    .run("node01", NODES, new DumpWriter(dump), () -> {
                        // during the window: symbol errors on node02's switch port with traffic to judge a BER on,
                        // and an ISL that goes down once
                        f.setCounter("leaf01", 2, "SymbolErrorCounter", 1500);
                        f.console("PerformanceSet \"S-leaf01\"[2] PortCountersExtended.PortRcvData=2000000000000");
                        f.setCounter("spine01", 3, "LinkDownedCounter", 1);
                        f.settle(Duration.ofSeconds(3));
                    });
            assertThat(res.startOk()).isTrue();
            assertThat(res.endOk()).isTrue();
            assertThat(res.ports().get(res.ports().firstKey())).isNotEmpty();

            ClusterData d = DumpLoader.load(dump);
            assertThat(d.problems()).filteredOn(p -> p.kind() == InputProblem.Kind.PARSE_ERROR).isEmpty();
            assertThat(d.fabric().countersStart().ports()).hasSize(6 * 8 + 16);
            assertThat(d.hosts().get("node09").uptimeSeconds()).isPositive();
            Report r = new RulesEngine(RuleConfig.defaults()).run(d);
            List<Finding> w = of(r, "link.errors.window");

            assertThat(w).filteredOn(x -> x.objects().contains("leaf01 port 2")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.FAIL);
                assertThat(x.objects()).containsExactlyInAnyOrder("leaf01 port 2", "node02 HCA-1 port 1");
                assertThat(x.summary()).contains("leaf01 port 2: SymbolErrorCounter +1500 (").containsPattern("\\d+/h, symbol BER \\d\\.\\de-\\d+\\)");
                assertThat(x.fix()).contains("mlxlink").contains("perfquery -R");
                assertThat(x.evidence()).extracting(e -> e.where()).anySatisfy(s -> assertThat(s).startsWith("fabric/counters-end.out:"));
            });
            assertThat(w).filteredOn(x -> x.objects().contains("spine01 port 3")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.FAIL);
                assertThat(x.summary()).contains("LinkDownedCounter +1 (went down during the window)");
                assertThat(x.cause()).contains("flapping");
            });
            // old errors that did not move: a note, with the LinkDowned counts put down to node09's last boot
            assertThat(w).filteredOn(x -> x.objects().contains("leaf03 port 1")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.PASS);
                assertThat(x.summary()).startsWith("note: ").contains("SymbolErrorCounter=40", "LinkDownedCounter=2")
                        .contains("attributed to the reboot of node09");
            });
            assertThat(w).filteredOn(x -> x.objects().contains("leaf04 port 3")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.PASS);
                assertThat(x.summary()).contains("unknown (16-bit counter saturated at 65535 before the window)");
            });
            assertThat(w).filteredOn(x -> x.status() != Status.PASS).hasSize(2);
            // the snapshot check no longer fails the old LinkDowned counts
            assertThat(r.checkStatus().get("link.errors")).isEqualTo(Status.PASS);

            List<LinkWindowRow> rows = io.ibaccept.analysis.Analysis.of(d).linkWindow();
            assertThat(rows.get(0).status()).isEqualTo(Status.FAIL);
            assertThat(rows).filteredOn(x -> x.a().equals("leaf01 port 2") || x.b().equals("leaf01 port 2")).singleElement().satisfies(x -> {
                assertThat(x.errorsInWindow()).isEqualTo(1500);
                assertThat(x.symbolBer()).isGreaterThan(0);
                assertThat(x.carriedLoad()).isTrue();
                assertThat(x.snapshotOnly()).isFalse();
            });
        }
    }

    @Test
    void collectWithWindowAndClearCountersThroughTheCollector(@TempDir Path tmp) throws Exception {
        try (SimFabric f = SimFabric.start(Files.readString(NETFILE), tmp.resolve("sim"))) {
            f.startSm("node01", 10, null, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            f.setCounter("leaf02", 3, "SymbolErrorCounter", 77); // cleared by --clear-counters
            Path dump = tmp.resolve("dump");
            // raise a counter once the first sample is on disk: the window overlaps the rest of the collection
            Thread raiser = new Thread(() -> {
                long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (System.nanoTime() < end && !Files.exists(dump.resolve("fabric/counters-start.meta"))) f.settle(Duration.ofMillis(100));
                f.setCounter("leaf02", 4, "PortRcvErrors", 12);
            });
            raiser.start();
            new Collector(f.transport(), new Collector.Options("e2e", "node01", 8, false, false, null, null), new PrintStream(PrintStream.nullOutputStream()))
                    .withCounterWindow(new CounterWindow.Options(Duration.ofSeconds(5), true))
                    .collect(NODES, dump);
            raiser.join();
            assertThat(dump.resolve("fabric/counters-clear.out")).exists();
            ClusterData d = DumpLoader.load(dump);
            assertThat(d.problems()).filteredOn(p -> p.kind() == InputProblem.Kind.PARSE_ERROR).isEmpty();
            Report r = new RulesEngine(RuleConfig.defaults()).run(d);
            List<Finding> w = of(r, "link.errors.window");
            assertThat(w).filteredOn(x -> x.status() != Status.PASS).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.WARN);
                assertThat(x.summary()).contains("leaf02 port 4: PortRcvErrors +12 (");
            });
            // cleared before the first sample: the old symbol errors are gone, nothing to note
            assertThat(w).noneMatch(x -> x.summary().startsWith("note:"));
        }
    }
}
