package io.ibaccept.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.collect.Collector;
import io.ibaccept.collect.SimFabric;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.Hostlist;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.RulesEngine;
import io.ibaccept.rules.Status;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end, the routing checks on tables the real opensm wrote into ibsim's switches and dump_fts read back: a ring
 * of four switches (ftree gives up on it and opensm falls back to minhop, whose routes go round the ring: a credit
 * loop; updn with a root GUID file does not), and a 2-spine/4-leaf fat tree routed by ftree (every path, no loop,
 * balanced) and then by opensm's file engine from its own tables with two entries broken (a dead end and a loop); the
 * same ring routed by dfsssp on two layers of SLs, whose SL-to-VL tables keep them apart and then, changed through
 * opensm's QoS options, put every SL on VL0.
 * Where ibdmchk is given (CI), each routing is also judged by it from opensm's own dump files, and the two must agree.
 */
@ExtendWith(RequiresSimulator.class)
class RoutingE2ETest {
    @TempDir
    Path tmp;

    static List<Finding> findings(Report r, String check) {
        return r.findings().stream().filter(x -> x.check().equals(check)).toList();
    }

    static List<Finding> problems(Report r, String check) {
        return findings(r, check).stream().filter(x -> x.status() == Status.FAIL || x.status() == Status.WARN).toList();
    }

    ClusterData last;

    Report collectAndJudge(SimFabric f, List<String> nodes, String name) throws Exception {
        Path dump = tmp.resolve(name);
        new Collector(f.transport(), new Collector.Options("e2e-" + name, nodes.get(0), 4, false, false, null, null),
                new PrintStream(PrintStream.nullOutputStream())).collect(nodes, dump);
        ClusterData d = DumpLoader.load(dump);
        assertThat(d.fabric().lfts()).as("dump_fts read").isNotNull();
        last = d;
        Path cfg = tmp.resolve("site.properties");
        Files.writeString(cfg, "memlock.min_kib=0\n");
        return new RulesEngine(RuleConfig.withOverrides(cfg)).run(d);
    }

    @Test
    void aRingRoutedByTheMinhopFallbackHasACreditLoopUnderTheFallbackAndUpdnWithARootHasNone() throws Exception {
        List<String> nodes = Hostlist.expand("node[01-08]");
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net("ring4.net"), tmp.resolve("sim"))) {
            Path ftree = conf(f, "ftree.conf", "-R", "ftree");
            f.startSm("node01", null, ftree, null, null);
            f.awaitActive(nodes, Duration.ofSeconds(60));
            Report r = collectAndJudge(f, nodes, "ring-ftree");
            crossCheck(ftree, last);
            Finding fallback = problems(r, "sm.config.routing").stream().filter(x -> x.variant().equals("fallback")).findFirst().orElseThrow();
            assertThat(fallback.summary()).contains("routing_engine ftree").contains("minhop ran instead");
            assertThat(fallback.evidence()).anyMatch(e -> e.text().contains("cannot build lid matrices"));
            assertThat(problems(r, "routing.credit_loops")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.FAIL);
                // the four ports of one direction round the ring
                assertThat(x.objects()).hasSize(4).allMatch(o -> o.matches("sw[1-4] port [34]"));
                assertThat(x.summary()).startsWith("credit loop: sw1 port ").contains("4 switch-to-switch ports depend on each other").contains("routes of minhop");
                assertThat(x.parent()).isEqualTo(fallback.id());
            });
            assertThat(findings(r, "routing.reachability")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.PASS);
                assertThat(x.summary()).startsWith("every switch reaches all 8 CA LID(s)");
            });
            assertThat(findings(r, "routing.balance")).singleElement().satisfies(x -> assertThat(x.status()).isEqualTo(Status.SKIP));

            f.stopSm("node01");
            Path roots = tmp.resolve("roots.txt");
            Files.writeString(roots, switchGuid(f.transport().run("node01", "dump_fts", Duration.ofSeconds(60)).stdout(), "sw1") + "\n");
            Path updn = conf(f, "updn.conf", "-R", "updn", "-a", roots.toString());
            f.startSm("node01", null, updn, null, null);
            awaitEngine(f, tmp.resolve("sim"), "node01", "updn");
            Report u = collectAndJudge(f, nodes, "ring-updn");
            crossCheck(updn, last);
            assertThat(findings(u, "routing.credit_loops")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.PASS);
                assertThat(x.summary()).startsWith("no credit loop: the routes over 8 switch-to-switch ports").contains("routes of updn");
            });
            assertThat(problems(u, "routing.reachability")).isEmpty();
        }
    }

    @Test
    void aRingRoutedByDfssspIsDeadlockFreeWhileItsSlsStayOnSeparateVlsAndNotWhenTheTablesMergeThem() throws Exception {
        List<String> nodes = Hostlist.expand("node[01-08]");
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net("ring4.net"), tmp.resolve("sim"))) {
            // opensm's defaults with QoS on: SL n on VL n mod 8 on every switch port
            Path layered = conf(f, "dfsssp.conf", "-R", "dfsssp", "-Q");
            f.startSm("node01", null, layered, null, null);
            f.awaitActive(nodes, Duration.ofSeconds(60));
            awaitEngine(f, tmp.resolve("sim"), "node01", "dfsssp");
            Report r = collectAndJudge(f, nodes, "ring-dfsssp");
            assertThat(last.fabric().sl2vl()).as("smpquery-sl2vl read").isNotNull();
            assertThat(findings(r, "routing.credit_loops")).singleElement().satisfies(x -> {
                // the layers stay apart; whether the traffic uses them is up to the applications' SLs, not in the dump
                assertThat(x.status()).isEqualTo(Status.WARN);
                assertThat(x.variant()).isEqualTo("path_sl");
                assertThat(x.summary()).startsWith("deadlock-free only for traffic on the SLs dfsssp hands out: dfsssp logged 2 layer(s) needed of 8 VLs available and routes on SL 0-7")
                        .contains("separate VLs at all 8 switch-to-switch ports").contains("cycle(s) of 8 switch-to-switch ports");
                assertThat(x.evidence()).anyMatch(e -> e.where().startsWith("fabric/smpquery-sl2vl.out:"));
                assertThat(x.fix()).contains("path record");
            });
            // a dump without the tables (an older collect): the layers are not judged, and the SKIP says why
            Path older = tmp.resolve("ring-dfsssp");
            for (String part : List.of("out", "err", "meta")) Files.deleteIfExists(older.resolve("fabric/smpquery-sl2vl." + part));
            Path cfg = tmp.resolve("site.properties");
            Report without = new RulesEngine(RuleConfig.withOverrides(cfg)).run(DumpLoader.load(older));
            assertThat(findings(without, "routing.credit_loops")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.SKIP);
                assertThat(x.summary()).startsWith("dfsssp logged 2 layer(s) needed of 8 VLs available and routes on SL 0-7; the SL-to-VL tables")
                        .contains("not judged");
            });

            // every SL on VL0 on the switch ports: dfsssp still routes on two layers, which now share one VL
            f.stopSm("node01");
            Path merged = conf(f, "dfsssp-vl0.conf", "-R", "dfsssp", "-Q");
            String text = Files.readString(merged);
            assertThat(text).contains("qos_swe_sl2vl (null)");
            Files.writeString(merged, text.replace("qos_swe_sl2vl (null)", "qos_swe_sl2vl 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0"));
            f.startSm("node01", null, merged, null, null);
            awaitEngine(f, tmp.resolve("sim"), "node01", "dfsssp");
            Report m = collectAndJudge(f, nodes, "ring-dfsssp-vl0");
            assertThat(problems(m, "routing.credit_loops")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.FAIL);
                assertThat(x.variant()).isEqualTo("layers_merged");
                assertThat(x.objects()).hasSize(8).allMatch(o -> o.matches("sw[1-4] port [34]"));
                // dfsssp spread its 2 layers over the 8 VLs by their paths: the first on SL 0-6, the second on SL 7
                assertThat(x.summary()).startsWith("credit loops possible: the layers of SLs dfsssp routes on do not stay on separate VLs at 8 of 8 switch-to-switch ports")
                        .contains(": layers 1 and 2 (SL 0-6 and SL 7) both on VL0");
                assertThat(x.fix()).contains("qos_swe_sl2vl");
            });
        }
    }

    @Test
    void aFatTreeRoutedByFtreeIsWholeAndEvenAndTheFileEngineWithTwoBrokenEntriesShowsTheDeadEndAndTheLoop() throws Exception {
        List<String> nodes = Hostlist.expand("node[01-16]");
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net("fabric-2s4l.net"), tmp.resolve("sim"))) {
            Path ftree = conf(f, "ftree.conf", "-R", "ftree");
            f.startSm("node01", null, ftree, null, null);
            f.awaitActive(nodes, Duration.ofSeconds(60));
            Report r = collectAndJudge(f, nodes, "tree-ftree");
            crossCheck(ftree, last);
            assertThat(problems(r, "routing.reachability")).isEmpty();
            assertThat(problems(r, "routing.credit_loops")).isEmpty();
            assertThat(findings(r, "routing.balance")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.PASS);
                // 12 remote hosts over 4 uplinks per leaf, 2 hosts per cable of each pair of spine downlinks
                assertThat(x.summary()).contains("4 switch(es)' uplinks carry 3-3 destination LID(s) per port")
                        .contains("8 switch(es)' parallel downlink groups carry 2-2").contains("routes of ftree");
            });

            // opensm's own tables, two entries broken, loaded back with its file engine
            String tables = f.transport().run("node01", "dump_fts", Duration.ofSeconds(60)).stdout();
            int node13 = lidOf(tables, "node13"), node05 = lidOf(tables, "node05");
            int up = entry(tables, "leaf01", node05);
            String spine = up <= 34 ? "spine01" : "spine02";
            int back = up <= 34 ? up - 32 : up - 34; // leaf01 33,34 -> spine01 1,2; 35,36 -> spine02 1,2
            String broken = editTable(editTable(tables, "leaf01", node13, -1), spine, node05, back);
            Path file = tmp.resolve("lfts.dump");
            Files.writeString(file, broken);
            f.stopSm("node01");
            Path fileConf = conf(f, "file.conf", "-R", "file", "-U", file.toString());
            f.startSm("node01", null, fileConf, null, null);
            awaitEngine(f, tmp.resolve("sim"), "node01", "file");
            Report b = collectAndJudge(f, nodes, "tree-file");
            crossCheck(fileConf, last);
            List<Finding> dead = problems(b, "routing.reachability");
            assertThat(dead).anySatisfy(x -> {
                assertThat(x.status()).isEqualTo(Status.FAIL);
                assertThat(x.variant()).isEqualTo("no_entry");
                assertThat(x.objects()).containsExactly("leaf01");
                assertThat(x.summary()).isEqualTo(String.format("leaf01's forwarding table has no entry for 1 destination(s): node13 HCA-1 (LID 0x%04x)", node13));
                assertThat(x.evidence().get(0).where()).startsWith("fabric/dump_fts.out.gz:");
            });
            assertThat(dead).anySatisfy(x -> {
                assertThat(x.variant()).isEqualTo("loop");
                assertThat(x.objects()).containsExactlyInAnyOrder(spine + " port " + back, "leaf01 port " + up);
                assertThat(x.summary()).contains(String.format("node05 HCA-1 (LID 0x%04x)", node05));
            });
            assertThat(dead).hasSize(2);
        }
    }

    /** The SM maps SL 0 to VL15 on the switch ports (a mistyped qos_swe_sl2vl): every route's data would be dropped. */
    @Test
    void sl0OnVl15AtTheSwitchPortsIsAFailWhateverTheRoutes() throws Exception {
        List<String> nodes = Hostlist.expand("node[01-16]");
        try (SimFabric f = SimFabric.start(DiagnosisE2ETest.net("fabric-2s4l.net"), tmp.resolve("sim"))) {
            Path conf = conf(f, "ftree-vl15.conf", "-R", "ftree", "-Q");
            String text = Files.readString(conf);
            assertThat(text).contains("qos_swe_sl2vl (null)");
            Files.writeString(conf, text.replace("qos_swe_sl2vl (null)", "qos_swe_sl2vl 15,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7"));
            f.startSm("node01", null, conf, null, null);
            f.awaitActive(nodes, Duration.ofSeconds(60));
            awaitEngine(f, tmp.resolve("sim"), "node01", "ftree");
            Report r = collectAndJudge(f, nodes, "tree-vl15");
            assertThat(problems(r, "routing.credit_loops")).singleElement().satisfies(x -> {
                assertThat(x.status()).isEqualTo(Status.FAIL);
                assertThat(x.variant()).isEqualTo("sl0_vl15");
                assertThat(x.summary()).startsWith("SL 0 is mapped to VL15");
                assertThat(x.evidence()).anyMatch(e -> e.where().startsWith("fabric/smpquery-sl2vl.out:"));
                assertThat(x.fix()).contains("qos_swe_sl2vl");
            });
            assertThat(r.verdict()).isEqualTo(io.ibaccept.rules.Verdict.REJECTED);
        }
    }

    /** An opensm.conf written by 'opensm -c' with these options, its log flushed line by line (as a site sets it to watch it). */
    static Path conf(SimFabric f, String name, String... options) throws Exception {
        Path c = f.opensmConf(name, options);
        String text = Files.readString(c);
        assertThat(text).contains("force_log_flush FALSE");
        // and the routing dump files ibdmchk reads, in a directory of this configuration's own
        Path dumps = c.resolveSibling(name + ".dumps");
        Files.createDirectories(dumps);
        Files.writeString(c, Ibdmchk.withDumps(text.replace("force_log_flush FALSE", "force_log_flush TRUE"), dumps));
        return c;
    }

    /**
     * ibdmchk's verdict on the files opensm wrote with this configuration, against ours on the tables dump_fts read
     * from the switches: the same number of CA to CA paths that do not arrive, and the same credit loop ports.
     */
    static void crossCheck(Path conf, ClusterData d) throws Exception {
        var bin = Ibdmchk.binary();
        if (bin.isEmpty()) return;
        Path dumps = conf.resolveSibling(conf.getFileName() + ".dumps");
        Instant end = Instant.now().plus(Duration.ofSeconds(60));
        while (!Files.exists(dumps.resolve("opensm.fdbs")) && Instant.now().isBefore(end)) Thread.sleep(500);
        String report = Ibdmchk.run(bin.get(), dumps);
        assertThat(report).contains("IBDMCHK OpenSM Routing Verification Mode");
        io.ibaccept.fabric.Fabric f = io.ibaccept.fabric.FabricBuilder.build(d, null);
        io.ibaccept.fabric.Routing r = io.ibaccept.fabric.Routing.analyze(f, d.fabric().lfts());
        assertThat(Ibdmchk.paths(f, r)).as("CA to CA paths (missing, all), ibdmchk said:\n" + report).containsExactly(Ibdmchk.paths(report));
        // ibdmchk stops before its credit-loop analysis when a path is missing
        if (Ibdmchk.paths(report)[0] == 0) {
            assertThat(report).containsAnyOf("-I- no credit loops found", "-E- credit loops in routing");
            assertThat(Ibdmchk.creditLoopPorts(r)).as("credit loop ports, ibdmchk said:\n" + report).isEqualTo(Ibdmchk.creditLoopPorts(report));
        }
    }

    /** Waits until the SM's log says the engine configured the switches (opensm.log is written as it goes). */
    static void awaitEngine(SimFabric f, Path work, String host, String engine) throws Exception {
        Path out = work.resolve("sm-" + host).resolve("opensm.log");
        Instant end = Instant.now().plus(Duration.ofSeconds(120));
        while (Instant.now().isBefore(end)) {
            if (Files.exists(out) && Files.readString(out).contains(engine + " tables configured on all switches")) return;
            Thread.sleep(500);
        }
        throw new AssertionError("opensm on " + host + " did not log '" + engine + " tables configured on all switches' in 120 s; see " + out);
    }

    static String switchGuid(String tables, String sw) {
        Matcher m = Pattern.compile("^Unicast lids .* guid (0x[0-9a-f]+) \\(" + sw + "\\):$", Pattern.MULTILINE).matcher(tables);
        assertThat(m.find()).as(sw + " in dump_fts").isTrue();
        return m.group(1);
    }

    static int lidOf(String tables, String node) {
        Matcher m = Pattern.compile("^0x([0-9a-f]{4}) \\d{3} : \\(Channel Adapter portguid 0x[0-9a-f]+: '" + node + " HCA-1'\\)", Pattern.MULTILINE).matcher(tables);
        assertThat(m.find()).as(node + " in dump_fts").isTrue();
        return Integer.parseInt(m.group(1), 16);
    }

    /** The port switch sw sends lid out of. */
    static int entry(String tables, String sw, int lid) {
        for (String line : block(tables, sw)) if (line.startsWith(String.format("0x%04x ", lid))) return Integer.parseInt(line.substring(7, 10));
        throw new AssertionError(sw + " has no entry for " + lid);
    }

    static List<String> block(String tables, String sw) {
        List<String> out = new ArrayList<>();
        boolean in = false;
        for (String line : tables.split("\n")) {
            if (line.startsWith("Unicast lids")) in = line.endsWith("(" + sw + "):");
            else if (in) out.add(line);
        }
        return out;
    }

    /** The tables with sw's entry for lid set to port (-1: removed), as a site would hand-edit opensm's file. */
    static String editTable(String tables, String sw, int lid, int port) {
        StringBuilder sb = new StringBuilder();
        boolean in = false;
        String prefix = String.format("0x%04x ", lid);
        for (String line : tables.split("\n", -1)) {
            if (line.startsWith("Unicast lids")) in = line.endsWith("(" + sw + "):");
            else if (in && line.startsWith(prefix)) {
                if (port < 0) continue;
                line = prefix + String.format("%03d", port) + line.substring(10);
            }
            sb.append(line).append('\n');
        }
        return sb.substring(0, sb.length() - 1);
    }
}
