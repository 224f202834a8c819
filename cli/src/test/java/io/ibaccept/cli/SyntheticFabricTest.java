package io.ibaccept.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.DumpLoader;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.Topology;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.RulesEngine;
import io.ibaccept.rules.Verdict;
import io.ibaccept.samples.SyntheticDump;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark's synthetic fabric is a real fat tree, as the parsers read it back from ibnetdiscover and iblinkinfo. */
class SyntheticFabricTest {
    @Test
    void twoLevelTreeEveryLeafReachesEverySpineEvenly(@TempDir Path tmp) {
        SyntheticDump.Shape s = SyntheticDump.generate(tmp, 200, false);
        assertThat(s).hasToString("2-level fat tree, 200 hosts, 10 leaves, 5 spines, 200 switch-to-switch links");
        ClusterData d = DumpLoader.load(tmp);
        assertThat(d.problems()).isEmpty();
        Topology t = d.fabric().topology();
        List<Topology.Node> switches = t.nodes().stream().filter(n -> n.type() == Topology.NodeType.SWITCH).toList();
        assertThat(switches).hasSize(15).allSatisfy(n -> assertThat(n.numPorts()).isEqualTo(41));
        assertThat(t.nodes()).filteredOn(n -> n.type() == Topology.NodeType.CA).hasSize(200);
        for (Topology.Node leaf : switches.stream().filter(n -> n.description().startsWith("leaf")).toList()) {
            Map<String, Long> up = leaf.ports().stream().filter(p -> p.remoteDescription().startsWith("spine"))
                    .collect(Collectors.groupingBy(Topology.Port::remoteDescription, Collectors.counting()));
            assertThat(up).as(leaf.description()).hasSize(5).allSatisfy((spine, n) -> assertThat(n).isEqualTo(4L));
            assertThat(leaf.ports()).filteredOn(p -> p.remoteDescription().endsWith("HCA-1")).hasSize(20);
        }
        // both ends of every cable agree, in ibnetdiscover and in iblinkinfo
        Map<String, String> ends = new HashMap<>();
        for (Topology.Node n : t.nodes())
            for (Topology.Port p : n.ports()) ends.put(n.guid() + ":" + p.port(), p.remoteGuid() + ":" + p.remotePort());
        ends.forEach((a, b) -> assertThat(ends.get(b)).as(a + " <-> " + b).isEqualTo(a));
        List<LinkInfo> links = d.fabric().links();
        assertThat(links).filteredOn(LinkInfo::isActive).hasSize(2 * 200 + 2 * 200);
        assertThat(links).filteredOn(l -> l.isActive() && l.switchNode() && l.remoteName().startsWith("spine"))
                .allSatisfy(l -> assertThat(l.width()).isEqualTo(io.ibaccept.model.LinkWidth.X4));
    }

    @Test
    void threeLevelTreeAbove800Hosts(@TempDir Path tmp) throws Exception {
        SyntheticDump.Shape s = SyntheticDump.generate(tmp, 2000, false);
        assertThat(s).hasToString("3-level fat tree, 2000 hosts, 100 leaves, 100 spines, 80 cores, 4000 switch-to-switch links");
        ClusterData d = DumpLoader.load(tmp);
        Topology t = d.fabric().topology();
        // every spine: 20 leaves of its pod below, 20 links to the 4 cores of its group above
        for (Topology.Node sp : t.nodes().stream().filter(n -> n.description().startsWith("spine")).toList()) {
            assertThat(sp.ports()).filteredOn(p -> p.remoteDescription().startsWith("leaf")).hasSize(20);
            Map<String, Long> up = sp.ports().stream().filter(p -> p.remoteDescription().startsWith("core"))
                    .collect(Collectors.groupingBy(Topology.Port::remoteDescription, Collectors.counting()));
            assertThat(up).hasSize(4).allSatisfy((core, n) -> assertThat(n).isEqualTo(5L));
        }
        // its forwarding tables, as a tree-aware engine writes them: every host reached from every switch, up then
        // down (no credit loop), each uplink and each bundle of parallel cables carrying the same number of hosts
        assertThat(d.problems()).isEmpty();
        assertThat(d.fabric().lfts().switches()).hasSize(280);
        io.ibaccept.fabric.Routing r = io.ibaccept.fabric.Routing.analyze(io.ibaccept.fabric.FabricBuilder.build(d, null), d.fabric().lfts());
        assertThat(r.destinations()).isEqualTo(2000);
        assertThat(r.pathsWalked()).isEqualTo(2000L * 280);
        assertThat(r.deadEnds()).isEmpty();
        assertThat(r.loops()).isEmpty();
        assertThat(r.longPaths()).isEmpty();
        assertThat(r.creditLoops()).isEmpty();
        assertThat(r.maxHops()).isEqualTo(5);
        assertThat(r.spreads()).isNotEmpty().allSatisfy(sp -> assertThat(sp.ratio()).as(sp.toString()).isEqualTo(1.0));

        // 40 MiB of tables read whole with a dump read limit of 2 MiB (above the topology's): their limit follows from the fabric's switches
        ClusterData small = DumpLoader.load(tmp, 2L << 20);
        assertThat(small.problems()).isEmpty();
        assertThat(small.fabric().lfts().switches()).hasSize(280);
        // the same tables stored compressed, as collect stores them: the same tables, the same findings
        Path fts = tmp.resolve("fabric/dump_fts.out");
        try (var out = new java.util.zip.GZIPOutputStream(java.nio.file.Files.newOutputStream(tmp.resolve("fabric/dump_fts.out.gz")))) {
            java.nio.file.Files.copy(fts, out);
        }
        java.nio.file.Files.delete(fts);
        ClusterData gz = DumpLoader.load(tmp);
        assertThat(gz.problems()).isEmpty();
        assertThat(gz.fabric().lfts().switches()).hasSize(280).allSatisfy(l -> assertThat(l.ref().file()).isEqualTo("fabric/dump_fts.out.gz"));
        io.ibaccept.model.Lft a = gz.fabric().lfts().switches().get(17), b = d.fabric().lfts().switches().get(17);
        assertThat(a.sameRoutes(b)).isTrue();
    }

    /** A small compressed file that inflates past what the fabric's switches can hold is refused, not read to its end. */
    @Test
    void compressedTablesThatInflateBeyondTheFabricAreRefused(@TempDir Path tmp) throws Exception {
        SyntheticDump.generate(tmp, 40, false); // 2 leaves, 2 spines: at most 4 x 6 MiB of tables
        Path fts = tmp.resolve("fabric/dump_fts.out");
        java.nio.file.Files.delete(fts);
        byte[] line = "0x0001 001 : (Channel Adapter portguid 0x0c42a10300100000: 'cn0001 HCA-1')\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        try (var out = new java.util.zip.GZIPOutputStream(java.nio.file.Files.newOutputStream(tmp.resolve("fabric/dump_fts.out.gz")))) {
            out.write("Unicast lids [0x0-0x1] of switch Lid 1000 guid 0x0c42a10300a00000 (leaf001):\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            for (long written = 0; written < (130L << 20); written += line.length) out.write(line);
        }
        assertThat(java.nio.file.Files.size(tmp.resolve("fabric/dump_fts.out.gz"))).isLessThan(2L << 20);
        ClusterData d = DumpLoader.load(tmp);
        assertThat(d.fabric().lfts()).isNull();
        assertThat(d.problems()).anySatisfy(p -> assertThat(p.file() + ": " + p.message()).startsWith("fabric/dump_fts.out")
                .contains("decompresses to more than the read limit of 64 MiB"));
    }

    @Test
    void healthyFabricIsAcceptedAndTheFaultyOneNamesItsFaults(@TempDir Path tmp) {
        SyntheticDump.generate(tmp.resolve("ok"), 60, false);
        Report ok = new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(tmp.resolve("ok")));
        assertThat(ok.verdict()).as(ok.worstFirst().toString()).isEqualTo(Verdict.ACCEPTED);
        SyntheticDump.generate(tmp.resolve("bad"), 60, true);
        Report bad = new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(tmp.resolve("bad")));
        assertThat(bad.verdict()).isEqualTo(Verdict.REJECTED);
        assertThat(bad.worstFirst()).extracting(f -> f.check() + " " + f.summary())
                .anySatisfy(f -> assertThat(f).startsWith("link.width").contains("cn0031 HCA-1").contains("1X"))
                .anySatisfy(f -> assertThat(f).startsWith("link.speed").contains("cn0032 HCA-1").contains("EDR"))
                .anySatisfy(f -> assertThat(f).startsWith("port.state").contains("cn0021"));
    }

    /** dump_fts of another fabric (no switch GUID of the scan): the routing checks name it, and none of them passes on no table. */
    @Test
    void tablesOfAnotherFabricAreAnInputErrorNotAPass(@TempDir Path tmp) throws Exception {
        SyntheticDump.generate(tmp, 40, false);
        Path fts = tmp.resolve("fabric/dump_fts.out");
        java.nio.file.Files.writeString(fts, java.nio.file.Files.readString(fts).replace(" guid 0x0c42a103", " guid 0x0c42a104"));
        Report r = new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(tmp));
        for (String check : List.of("routing.reachability", "routing.credit_loops", "routing.balance"))
            assertThat(r.findings()).filteredOn(f -> f.check().equals(check)).singleElement().satisfies(f -> {
                assertThat(f.status()).isEqualTo(io.ibaccept.rules.Status.ERROR);
                assertThat(f.summary()).contains("not this fabric's").contains("none of the 4 switches dump_fts lists");
            });
        assertThat(r.verdict()).isNotEqualTo(Verdict.ACCEPTED);
    }

    /** A switch's table given twice, a broken copy first: the verdict rests on neither copy. */
    @Test
    void aTableGivenTwiceDifferentlyLeavesItsSwitchUnjudged(@TempDir Path tmp) throws Exception {
        SyntheticDump.generate(tmp, 40, false);
        Path fts = tmp.resolve("fabric/dump_fts.out");
        String text = java.nio.file.Files.readString(fts);
        int second = text.indexOf("Unicast lids", 1);
        String first = text.substring(0, second);
        // the broken copy sends its first host to port 40 instead
        String broken = first.replaceFirst("\n(0x[0-9a-f]{4}) 0\\d\\d : \\(Channel", "\n$1 040 : (Channel");
        assertThat(broken).isNotEqualTo(first);
        java.nio.file.Files.writeString(fts, broken + text);
        ClusterData d = DumpLoader.load(tmp);
        assertThat(d.problems()).anySatisfy(p -> assertThat(p.message()).contains("is given again").contains("neither copy is used"));
        Report r = new RulesEngine(RuleConfig.defaults()).run(d);
        assertThat(r.findings()).filteredOn(f -> f.check().equals("routing.reachability")).anySatisfy(f -> {
            assertThat(f.status()).isNotEqualTo(io.ibaccept.rules.Status.PASS);
            assertThat(f.summary()).contains("not in the dump");
        });
        assertThat(r.verdict()).isNotEqualTo(Verdict.ACCEPTED);
    }
}
