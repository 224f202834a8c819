package io.ibaccept.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.collect.Collector;
import io.ibaccept.model.Hostlist;
import io.ibaccept.collect.SimFabric;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.InputProblem;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.RulesEngine;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.Verdict;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * End to end: faults on simulated fabrics of their own design (a 9-host, 3-leaf, 2-spine fat tree at HDR and
 * at HDR100), collected with the real tools and judged: one root finding per fault, with the right cause.
 */
@ExtendWith(RequiresSimulator.class)
class DiagnosisE2ETest {
    static final List<String> NODES = Hostlist.expand("node[01-09]");

    @TempDir
    Path tmp;


    static String net(String name) {
        try (var in = DiagnosisE2ETest.class.getResourceAsStream("/sim/" + name)) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Report collect(SimFabric f, RuleConfig cfg) {
        Path dump = tmp.resolve("dump");
        new Collector(f.transport(), new Collector.Options("e2e-diag", "node01", 4, false, false, null, null),
                new PrintStream(PrintStream.nullOutputStream())).collect(NODES, dump);
        ClusterData d = DumpLoader.load(dump);
        assertThat(d.problems()).filteredOn(p -> p.kind() == InputProblem.Kind.PARSE_ERROR).isEmpty();
        return new RulesEngine(cfg).run(d);
    }

    /** Site rules for the simulated nodes: the test machine's own memlock limit is not what is judged here. */
    RuleConfig config(String properties) throws IOException {
        Path p = tmp.resolve("site.properties");
        Files.writeString(p, "memlock.min_kib=0\n" + properties);
        return RuleConfig.withOverrides(p);
    }

    /** The root findings that are not PASS/SKIP, for assertion messages. */
    static String roots(Report r) {
        return r.roots().stream().filter(x -> x.status() != Status.PASS && x.status() != Status.SKIP)
                .map(x -> x.status() + " " + x.check() + ": " + x.summary()).collect(Collectors.joining("\n  ", "\n  ", ""));
    }

    static List<Finding> problems(Report r, String check) {
        return r.findings().stream().filter(x -> x.check().equals(check) && (x.status() == Status.FAIL || x.status() == Status.WARN)).toList();
    }

    @Test
    void healthyFabricIsAccepted() throws Exception {
        try (SimFabric f = SimFabric.start(net("ft9-hdr.net"), tmp.resolve("sim"))) {
            // a production SM pair: fat-tree routing and an SM_Key in their opensm.conf (judged by sm.config.*)
            Path conf = f.opensmConf("opensm.conf", "-R", "ftree", "-k", "0x00000000d3a0c0de");
            f.startSm("node01", 15, conf, null, null);
            f.startSm("node04", 14, conf, null, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            Report r = collect(f, config("sm.count.designated=node01,node04\n"));
            assertThat(r.verdict()).as(roots(r)).isIn(Verdict.ACCEPTED);
            assertThat(r.findings()).filteredOn(x -> x.check().equals("sm.count")).singleElement()
                    .satisfies(x -> assertThat(x.summary()).startsWith("exactly one master SM: node01 "));
        }
    }

    @Test
    void hdr100HostsWithFullWidthIslsAreAccepted() throws Exception {
        try (SimFabric f = SimFabric.start(net("ft9-hdr100.net"), tmp.resolve("sim"))) {
            f.startSm("node01", 15, f.opensmConf("opensm.conf", "-R", "ftree"), null, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            // a lab fabric with one SM by design
            Report r = collect(f, config("sm.config.standby.min_sms=1\n"));
            assertThat(r.verdict()).as(roots(r)).isEqualTo(Verdict.ACCEPTED);
            assertThat(r.findings()).filteredOn(x -> x.check().equals("link.width")).singleElement().satisfies(x ->
                    assertThat(x.summary()).isEqualTo("all 9 active host links run at 2X (most common among host links); "
                            + "all 12 active switch-to-switch links run at 4X (most common among switch-to-switch links)"));
        }
    }

    @Test
    void rogueSmOnAComputeNodeIsNamed() throws Exception {
        try (SimFabric f = SimFabric.start(net("ft9-hdr.net"), tmp.resolve("sim"))) {
            f.startSm("node01", 14, null, null);
            f.startSm("node04", 13, null, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            // someone started opensm on a compute node with the top priority: it takes the fabric over
            f.startSm("node08", 15, null, null);
            f.awaitMaster("node02", 15, Duration.ofSeconds(90));
            Report r = collect(f, config("sm.count.designated=node01,node04\n"));
            assertThat(problems(r, "sm.count")).as(roots(r)).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.FAIL);
                assertThat(x.summary()).startsWith("master SM is on node08, a compute node").contains("priority 15 above the designated SMs");
                assertThat(x.fix()).contains("ssh node08 systemctl disable --now opensm");
            });
        }
    }

    @Test
    void defaultPartitionWithLimitedMembersAndASubsetPartitionByDesign() throws Exception {
        try (SimFabric f = SimFabric.start(net("ft9-hdr.net"), tmp.resolve("sim"))) {
            Path parts = tmp.resolve("partitions.conf");
            // the pitfall: the default partition without ALL=full; storage holds two hosts on purpose
            Files.writeString(parts, "Default=0x7fff, ipoib : ALL=limited, SELF=full;\nstorage=0x0002 : "
                    + SimCapture.portGuid(f, "node07") + "=full, " + SimCapture.portGuid(f, "node08") + "=full;\n");
            f.startSm("node01", 15, parts, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            Report r = collect(f, config(""));
            // (ibsim switches read PartEnforceInb/Outb 0 at the storage hosts' ports: a separate enforcement WARN)
            assertThat(problems(r, "pkey")).as(roots(r)).filteredOn(x -> x.status() == Status.FAIL).singleElement().satisfies(x -> {
                assertThat(x.objects()).containsExactlyElementsOf(NODES.subList(1, 9));
                assertThat(x.summary()).contains("LIMITED members (0x7fff) of the default partition; full members: node01");
            });
        }
    }

    @Test
    void deadLeafIsOneRootFindingWithItsHostsUnderIt() throws Exception {
        try (SimFabric f = SimFabric.start(net("ft9-hdr.net"), tmp.resolve("sim"))) {
            f.startSm("node01", 15, null, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            f.console("Unlink \"S-leaf03\"");
            f.settle(Duration.ofSeconds(12));
            Report r = collect(f, config(""));
            Finding root = problems(r, "fabric.switches").stream().findFirst().orElseThrow(() -> new AssertionError(roots(r)));
            assertThat(root.summary()).startsWith("a leaf switch is missing: 3 hosts behind it are down together (node07, node08, node09)");
            assertThat(r.consequencesOf(root)).filteredOn(x -> x.check().equals("port.state")).hasSize(3);
            assertThat(r.consequencesOf(root)).filteredOn(x -> x.check().equals("fabric.inventory")).hasSize(1);
            assertThat(r.roots()).as(roots(r)).filteredOn(x -> x.status() == Status.FAIL).containsExactly(root);
            assertThat(r.roots()).as(roots(r)).filteredOn(x -> x.status() == Status.ERROR).isEmpty();
        }
    }

    @Test
    void noSmIsOneRootAndUnassignedLidsAreNotDuplicates() throws Exception {
        try (SimFabric f = SimFabric.start(net("ft9-hdr.net"), tmp.resolve("sim"))) {
            f.settle(Duration.ofSeconds(2));
            Report r = collect(f, config(""));
            Finding root = problems(r, "sm.count").stream().findFirst().orElseThrow(() -> new AssertionError(roots(r)));
            assertThat(root.status()).isEqualTo(Status.FAIL);
            assertThat(r.consequencesOf(root)).filteredOn(x -> x.check().equals("port.state")).isNotEmpty();
            // every switch reports LID 0 without an SM: unassigned, not 5 switches sharing a LID
            assertThat(problems(r, "lid.duplicate")).as(roots(r)).isEmpty();
            assertThat(r.roots()).as(roots(r)).filteredOn(x -> x.status() == Status.FAIL).containsExactly(root);
            assertThat(r.roots()).as(roots(r)).filteredOn(x -> x.status() == Status.ERROR).isEmpty();
        }
    }

    @Test
    void deadSmIsNamedByHostNotASkip() throws Exception {
        try (SimFabric f = SimFabric.start(net("ft9-hdr.net"), tmp.resolve("sim"))) {
            f.startSm("node05", 15, null, null);
            f.awaitActive(NODES, Duration.ofSeconds(60));
            f.stopSm("node05");
            f.settle(Duration.ofSeconds(2));
            Report r = collect(f, config(""));
            assertThat(problems(r, "sm.count")).as(roots(r)).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.FAIL);
                assertThat(x.summary()).matches("no SM answers at SM lid \\d+ \\(node05\\) that every port points to: the SM died; no standby configured");
                assertThat(x.fix()).contains("Restart opensm on node05");
            });
            // the SA queries that failed with it are its consequences, not input errors telling to re-collect
            assertThat(r.roots()).as(roots(r)).filteredOn(x -> x.status() == Status.ERROR).isEmpty();
        }
    }
}
