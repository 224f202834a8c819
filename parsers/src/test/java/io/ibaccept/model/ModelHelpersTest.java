package io.ibaccept.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.parse.SourceRef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelHelpersTest {
    static final SourceRef R = SourceRef.file("f");

    @Test
    void countersByPortMergesSourcesPerGuidAndPortAndResolvesCaPortGuids() {
        Topology topo = new Topology(List.of(new Topology.Node(Topology.NodeType.CA, 0x100L, "H-100", "cn01 mlx5_0", 1, 0,
                List.of(new Topology.Port(1, 0x101L, 7, "S-200", 0x200L, 3, "leaf", 2, LinkWidth.X4, LinkSpeed.HDR, "", R)), R)));
        PortCounters diag = new PortCounters(0x200L, "leaf", 2, 3, Map.of("SymbolErrorCounter", 70000L), R, 0x200L);
        PortCounters qeSwitch = new PortCounters(0x200L, "leaf", -1, 3, Map.of("SymbolErrorCounter", 65535L, "PortXmitWait", 9L), R, 0);
        PortCounters qeCa = new PortCounters(0, "cn01 mlx5_0", -1, 1, Map.of("LinkDownedCounter", 2L), R, 0x101L);
        PortCounters pq = new PortCounters(0, "", 7, 1, Map.of("PortXmitData", 5L), R);
        Ibdiagnet.Db db = new Ibdiagnet.Db(Map.of(), List.of(diag), List.of());
        FabricData f = new FabricData(topo, null, null, null, List.of(pq), List.of(qeSwitch, qeCa), null, db, null, null, null, null);
        List<PortCounters> all = f.countersByPort();
        assertThat(all).hasSize(3);
        PortCounters leaf = all.stream().filter(p -> p.key().equals(new PortCounters.Key(0x200L, 3))).findFirst().orElseThrow();
        assertThat(leaf.get("SymbolErrorCounter")).isEqualTo(70000L); // ibdiagnet's 64-bit value wins
        assertThat(leaf.get("PortXmitWait")).isEqualTo(9L);          // ibqueryerrors fills what ibdiagnet lacked
        assertThat(all).anySatisfy(p -> {
            assertThat(p.key()).isEqualTo(new PortCounters.Key(0x100L, 1));
            assertThat(p.get("LinkDownedCounter")).isEqualTo(2L);
        });
        assertThat(all).anySatisfy(p -> assertThat(p.lid()).isEqualTo(7)); // perfquery: LID only, kept as is
        assertThat(qeSwitch.saturated("SymbolErrorCounter")).isTrue();
        assertThat(leaf.nonZeroErrors()).containsOnlyKeys("SymbolErrorCounter", "PortXmitWait");
    }

    @Test
    void perftestRowSelection() {
        Perftest.Row small = row(2, Double.NaN, 1.9), mid = row(4096, Double.NaN, 3.8), big = row(8388608, Double.NaN, 345.5);
        Perftest lat = new Perftest("RDMA_Write Latency Test", "mlx5_0", "IB", 4096, false, "", List.of(big, small, mid), R, false, "");
        assertThat(lat.rows()).extracting(Perftest.Row::bytes).containsExactly(2L, 4096L, 8388608L);
        assertThat(lat.smallest()).isSameAs(small);
        assertThat(lat.latencyAt(3000)).isSameAs(mid);
        assertThat(lat.latencyAt(1L << 30)).isSameAs(big);
        assertThat(Perftest.serverPrintsRows("ib_read_lat")).isFalse();
        assertThat(Perftest.serverPrintsRows("ib_write_bw")).isTrue();
        Perftest bidir = new Perftest("RDMA_Write Bidirectional BW Test", "x", "IB", 4096, true, "Gb/sec",
                List.of(row(65536, 390.0, Double.NaN)), R, true, "Gb/sec");
        assertThat(bidir.perDirectionGbps(bidir.largest())).isEqualTo(195.0);
        assertThat(new Perftest("", "", "", 0, true, "", List.of(), R, false, "").bannerOnly()).isTrue();
    }

    private static Perftest.Row row(long bytes, double bw, double typ) {
        return new Perftest.Row(bytes, 1000, bw, bw, Double.NaN, Double.NaN, Double.NaN, typ, typ, Double.NaN, Double.NaN, Double.NaN, R);
    }
}
