package io.ibaccept.rules.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.DumpLoader;
import io.ibaccept.fabric.Fabric;
import io.ibaccept.fabric.FabricBuilder;
import io.ibaccept.fabric.Routing;
import io.ibaccept.model.ClusterData;
import io.ibaccept.rules.perf.PairMatrix.Pair;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slow pairs localised by their routes: the fat tree and the forwarding tables opensm's ftree wrote into ibsim's switches
 * (parsers/src/test/resources/real), every pair of hosts tested, and the pairs routed over one
 * leaf uplink slow (as a degraded cable would make them).
 */
class RoutedLocalisationTest {
    static ClusterData data(Path tmp) throws IOException {
        Path d = tmp.resolve("dump");
        Files.createDirectories(d.resolve("fabric"));
        Path real = Path.of("..", "parsers", "src", "test", "resources", "real");
        Files.copy(real.resolve("ibnetdiscover/ibsim-2s4l.txt"), d.resolve("fabric/ibnetdiscover.out"));
        Files.copy(real.resolve("dump_fts/ibsim-2s4l-ftree.txt"), d.resolve("fabric/dump_fts.out"));
        Files.writeString(d.resolve("manifest.txt"), "format: 1\ncluster: sim\nfabric_node: node01\nnodes: node01\n");
        return DumpLoader.load(d);
    }

    @Test
    void thePairsRoutedOverOneUplinkNameItAndTheLeafIsNotBlamed(@TempDir Path tmp) throws IOException {
        ClusterData data = data(tmp);
        Fabric f = FabricBuilder.build(data, null);
        FabricView v = FabricView.of(f, data, Routing.analyze(f, data.fabric().lfts()));
        assertThat(v.knowsRoutes()).isTrue();
        // node01 (leaf01) to node05 (leaf02): up from leaf01, down from a spine to leaf02, and back: two to four cables
        assertThat(v.isls("node01", "node05")).hasSizeBetween(2, 4).anyMatch(s -> s.startsWith("leaf01 port 3")).anyMatch(s -> s.startsWith("leaf02 port 3"));
        // ftree sends leaf01's traffic for node13 (LID 0x13) out of port 33: node01 -> node13 crosses that cable
        String cable = "leaf01 port 33 <-> spine01 port 1";
        assertThat(v.isls("node01", "node13")).contains(cable);
        List<Pair> tested = new ArrayList<>(), bad = new ArrayList<>();
        for (int i = 1; i <= 16; i++)
            for (int j = i + 1; j <= 16; j++) {
                String a = String.format("node%02d", i), b = String.format("node%02d", j);
                // all pairs, as 'rdma --pattern all-pairs' tests them: those within a leaf cross no cable between switches
                Pair p = new Pair(a, b);
                tested.add(p);
                if (v.isls(a, b).contains(cable)) bad.add(p);
            }
        assertThat(bad).hasSizeBetween(3, tested.size() / 4);
        List<Localisation.Suspect> s = Localisation.analyse(tested, bad, v, Map.of());
        assertThat(s).first().satisfies(x -> {
            assertThat(x.kind()).isEqualTo(Localisation.Kind.ISL);
            assertThat(x.name()).isEqualTo(cable);
            assertThat(x.pairs()).containsExactlyInAnyOrderElementsOf(bad);
            assertThat(x.statement()).isEqualTo("the switch-to-switch link " + cable + " is on the route of " + bad.size() + " of " + bad.size()
                    + " bad pairs and of 0 good pair(s)");
            assertThat(x.confidence()).isEqualTo(Localisation.Confidence.HIGH);
        });
        assertThat(s).hasSize(1);
        // without the routes (leaves and uplinks known) the same pairs only point at leaf01's uplinks as a whole
        FabricView blind = FabricView.of(f, data);
        assertThat(blind.knowsRoutes()).isFalse();
        assertThat(Localisation.analyse(tested, bad, blind, Map.of())).noneMatch(x -> x.kind() == Localisation.Kind.ISL)
                .anySatisfy(x -> {
                    assertThat(x.kind()).isEqualTo(Localisation.Kind.LEAF_UPLINKS);
                    assertThat(x.name()).isEqualTo("leaf01");
                });
    }
}
