package io.ibaccept.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.collect.Collector;
import io.ibaccept.collect.DrillRefused;
import io.ibaccept.collect.IslOutageDrill;
import io.ibaccept.collect.SimFabric;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.model.Hostlist;
import io.ibaccept.model.Resilience;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.RulesEngine;
import io.ibaccept.rules.Status;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end, 'ibaccept resilience' on dumps collected from ibsim with the real opensm: the twin is built from the
 * dump alone (topology, LIDs, the SM's opensm.conf), its tables must be the dump's, and each switch-to-switch cable
 * is taken out of the twin in turn while opensm re-routes.
 */
@ExtendWith(RequiresSimulator.class)
class ResilienceE2ETest {
    @TempDir
    Path tmp;

    /** A dump of the simulated fabric routed by opensm with these options, the SM's files collected. */
    Path dumpOf(String netfile, List<String> nodes, String name, String... smOptions) throws Exception {
        return dumpOf(netfile, nodes, name, f -> smOptions);
    }

    /** As above, the options made once the simulator runs (a root GUID file names its switches). */
    Path dumpOf(String netfile, List<String> nodes, String name, java.util.function.Function<SimFabric, String[]> smOptions) throws Exception {
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net(netfile), tmp.resolve("sim-" + name))) {
            return collected(f, nodes, name, smOptions.apply(f));
        }
    }

    /** opensm started at the first node with these options, then the dump collected from the running fabric. */
    Path collected(SimFabric f, List<String> nodes, String name, String... smOptions) throws Exception {
        Path conf = f.opensmConf(name + ".conf", smOptions);
        Files.writeString(conf, Files.readString(conf).replace("force_log_flush FALSE", "force_log_flush TRUE"));
        f.startSm(nodes.get(0), null, conf, null, null);
        f.awaitActive(nodes, Duration.ofSeconds(90));
        Path dump = tmp.resolve(name);
        new Collector(f.transport(), new Collector.Options("e2e-" + name, nodes.get(0), 4, false, false, null, null),
                new PrintStream(PrintStream.nullOutputStream())).collect(nodes, dump);
        return dump;
    }

    record Run(int exit, String err, String out) {}

    static Run resilience(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        String[] all = new String[args.length + 1];
        all[0] = "resilience";
        System.arraycopy(args, 0, all, 1, args.length);
        int rc = Main.run(all, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(rc, err.toString(StandardCharsets.UTF_8), out.toString(StandardCharsets.UTF_8));
    }

    /**
     * A leaf with one uplink: that cable is critical, every other survivable; and the live ISL drill on the same
     * simulated fabric agrees: it routes around a cable the twin calls survivable, and refuses the critical one, whose
     * loss would cut leaf03 off.
     */
    @Test
    void aLeafWithASingleUplinkMakesThatCableCriticalAndEveryOtherCableSurvivableAsTheLiveDrillFinds() throws Exception {
        List<String> nodes = Hostlist.expand("node[01-06]");
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net("fabric-single-uplink.net"), tmp.resolve("sim-single"))) {
            Path dump = collected(f, nodes, "single-uplink", "-R", "updn");
            Path out = tmp.resolve("report");
            Run r = resilience(dump.toString(), "-o", out.toString(), "--parallel", "2");
            assertThat(r.exit()).as(r.err() + r.out()).isEqualTo(1);

            Resilience res = DumpLoader.load(dump).fabric().resilience();
            assertThat(res).as("fabric/resilience.out read back").isNotNull();
            assertThat(res.header().get("engine")).isEqualTo("updn");
            assertThat(res.header().get("twin")).isEqualTo("same forwarding tables as the dump's (5 switches, 11 LIDs)");
            assertThat(res.losses()).hasSize(5);
            assertThat(res.critical()).singleElement().satisfies(l -> {
                assertThat(l.name()).isEqualTo("leaf03 port 9 <-> spine01 port 3");
                assertThat(l.unreachable()).isEqualTo(2);
                assertThat(l.fix()).startsWith("add a cable: leaf03 hangs on this cable alone");
            });
            assertThat(res.pageOneLine()).isEqualTo("survives the loss of any one ISL: no (1 critical cable)");
            String html = Files.readString(out.resolve("report.html"));
            assertThat(html).contains("survives the loss of any one ISL: no (1 critical cable)").contains("N-1 on the fabric's twin");
            assertThat(n1(dump)).satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.FAIL);
                assertThat(x.objects()).containsExactly("leaf03 port 9 <-> spine01 port 3");
                assertThat(x.fix()).contains("leaf03 port 9 <-> spine01 port 3: add a cable");
            });

            // the live drill on the fabric the dump was taken of
            IslDrillE2ETest.PortStateThroughConsole t = new IslDrillE2ETest.PortStateThroughConsole(f);
            PrintStream quiet = new PrintStream(PrintStream.nullOutputStream());
            assertThat(res.losses()).filteredOn(l -> l.name().equals("leaf01 port 9 <-> spine01 port 1")).singleElement()
                    .satisfies(l -> assertThat(l.survivable(0)).isTrue());
            IslOutageDrill.Result ok = new IslOutageDrill(t, new IslOutageDrill.Options("leaf01", 9, "node03", Duration.ofSeconds(90),
                    Duration.ofSeconds(1), null), quiet).run(new DumpWriter(tmp.resolve("drill-ok")));
            assertThat(ok.rerouteSeconds()).as(Files.readString(tmp.resolve("drill-ok/fabric/isl-drill.out"))).isNotNull();
            assertThat(ok.restored()).isTrue();
            assertThatThrownBy(() -> new IslOutageDrill(t, new IslOutageDrill.Options("leaf03", 9, "node03", Duration.ofSeconds(90),
                    Duration.ofSeconds(1), null), quiet).run(new DumpWriter(tmp.resolve("drill-critical"))))
                    .isInstanceOf(DrillRefused.class).hasMessageContaining("the only one between leaf03 and the rest of the fabric");
            assertThat(t.consoled).containsExactly("Unlink \"S-leaf01\"[9]", "ReLink \"S-leaf01\"[9]");
        }
    }

    /** The resilience.n1 finding of the dump (one: the twin's tables are the dump's). */
    static Finding n1(Path dump) throws Exception {
        Path cfg = dump.resolveSibling("site.properties");
        Files.writeString(cfg, "memlock.min_kib=0\n");
        Report rep = new RulesEngine(RuleConfig.withOverrides(cfg)).run(DumpLoader.load(dump));
        List<Finding> f = rep.findings().stream().filter(x -> x.check().equals("resilience.n1")).toList();
        assertThat(f).hasSize(1);
        return f.get(0);
    }

    @Test
    void aFullTreeSurvivesTheLossOfAnyOneCableAndOfAnySwitchBesidesTheHostsOfALostLeaf() throws Exception {
        List<String> nodes = Hostlist.expand("node[01-16]");
        Path dump = dumpOf("fabric-2s4l.net", nodes, "tree", "-R", "ftree");
        Run r = resilience(dump.toString(), "-o", tmp.resolve("report").toString(), "--switches");
        Resilience res = DumpLoader.load(dump).fabric().resilience();
        assertThat(res).as(r.err()).isNotNull();
        assertThat(res.header().get("twin")).startsWith("same forwarding tables as the dump's (6 switches");
        assertThat(res.losses()).hasSize(16 + 6);
        assertThat(res.critical()).isEmpty();
        // a leaf's 4 hosts go with it; a spine's loss leaves every host reached
        assertThat(res.losses()).filteredOn(l -> l.name().startsWith("leaf")).filteredOn(l -> l.kind().equals("switch"))
                .hasSize(4).allMatch(l -> l.lostHosts() == 4 && l.unreachable() == 0);
        // 12 remote hosts over 4 uplinks: 3 each when healthy, 6 on the pair left when a spine is lost
        assertThat(res.healthyWorstUplink()).isEqualTo(3);
        assertThat(res.losses()).filteredOn(l -> l.kind().equals("switch") && l.name().startsWith("spine")).hasSize(2)
                .allSatisfy(l -> assertThat(l.worstUplink()).isEqualTo(6));
        assertThat(res.pageOneLine()).isEqualTo("survives the loss of any one ISL: yes; of any one switch: yes");
        assertThat(Files.readString(tmp.resolve("report/report.html"))).contains("survives the loss of any one ISL: yes");
        assertThat(n1(dump).status()).isEqualTo(Status.PASS);
    }

    @Test
    void aRingWithAHubUnderMinhopGetsACreditLoopWhenASpokeOrTheHubIsLost() throws Exception {
        List<String> nodes = Hostlist.expand("node[01-08]");
        Path dump = dumpOf("wheel5.net", nodes, "wheel", "-R", "minhop");
        Run r = resilience(dump.toString(), "-o", tmp.resolve("report").toString(), "--switches", "--parallel", "2");
        Resilience res = DumpLoader.load(dump).fabric().resilience();
        assertThat(res).as(r.err()).isNotNull();
        assertThat(res.healthyCreditLoops()).isZero();
        assertThat(res.losses()).hasSize(8 + 5);
        assertThat(res.critical()).isNotEmpty().allSatisfy(l -> {
            assertThat(l.name()).contains("hub");
            assertThat(l.creditLoops()).isPositive();
            assertThat(l.unreachable()).isZero();
            assertThat(l.fix()).startsWith("change the routing engine: the fabric is still connected, but minhop leaves loops");
        });
        // the ring's own cables: minhop routes around each without a loop
        assertThat(res.losses()).filteredOn(l -> l.kind().equals("cable") && !l.name().contains("hub")).hasSize(4)
                .allMatch(l -> l.survivable(0));
        assertThat(n1(dump)).satisfies(x -> {
            assertThat(x.status()).isEqualTo(Status.FAIL);
            assertThat(x.summary()).startsWith("survives the loss of any one ISL: no (");
        });
    }

    @Test
    void aRingRoutedByUpdnFromARootGuidFileHasTheSameTablesInTheTwinWhichReadsTheFileFromTheDump() throws Exception {
        List<String> nodes = Hostlist.expand("node[01-08]");
        Path roots = tmp.resolve("roots.txt");
        Path dump = dumpOf("ring4.net", nodes, "ring-updn", f -> {
            try {
                // sw3, not the switch updn would pick itself, so that a twin without the file would route otherwise
                Files.writeString(roots, RoutingE2ETest.switchGuid(f.transport().run("node01", "dump_fts", Duration.ofSeconds(60)).stdout(), "sw3") + "\n");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return new String[] {"-R", "updn", "-a", roots.toString()};
        });
        assertThat(Files.readString(dump.resolve("nodes/node01/opensm-routing-files.out"))).startsWith("### root_guid_file " + roots);
        Run r = resilience(dump.toString(), "-o", tmp.resolve("report").toString(), "--parallel", "2");
        Resilience res = DumpLoader.load(dump).fabric().resilience();
        assertThat(res).as(r.err()).isNotNull();
        assertThat(res.header().get("twin")).isEqualTo("same forwarding tables as the dump's (4 switches, 12 LIDs)");
        assertThat(res.losses()).hasSize(4);
        assertThat(res.critical()).isEmpty();
    }

    @Test
    void aChassisLosesNoLeafWithABackplaneLinkButItsLineAsicCarriesTwoLeavesAlone() throws Exception {
        List<String> nodes = Hostlist.expand("node[01-08]");
        Path dump = dumpOf("fabric-chassis.net", nodes, "chassis", "-R", "updn");
        Run r = resilience(dump.toString(), "-o", tmp.resolve("report").toString(), "--switches", "--parallel", "2");
        Resilience res = DumpLoader.load(dump).fabric().resilience();
        assertThat(res).as(r.err()).isNotNull();
        assertThat(res.header().get("twin")).startsWith("same forwarding tables as the dump's (8 switches");
        assertThat(res.losses()).filteredOn(l -> l.name().endsWith("(chassis internal)")).hasSize(8);
        assertThat(res.critical()).allMatch(l -> l.kind().equals("switch")).isNotEmpty();
        assertThat(res.critical()).extracting(Resilience.Loss::name).allMatch(n -> n.contains("L01") || n.contains("L02"));
        assertThat(res.critical()).allSatisfy(l -> assertThat(l.fix()).startsWith("add a cable: leaf0"));
    }
}
