package io.ibaccept.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** What the SM drill calls a change across the takeover: only ports that were Active before it count. */
class DrillPortsTest {
    @Test
    void aPortDownBeforeTheDrillIsNotItsDoing() {
        var keys = new TreeSet<>(java.util.List.of(0xffff, 0x8002));
        Map<String, SmFailoverDrill.PortState> before = Map.of(
                "node03 mlx5_0/1", new SmFailoverDrill.PortState("Active", 7, keys),
                "node03 mlx5_0/2", new SmFailoverDrill.PortState("Down", 0, null),
                "node04 mlx5_0/1", new SmFailoverDrill.PortState("Active", 9, keys));
        Map<String, SmFailoverDrill.PortState> after = Map.of(
                "node03 mlx5_0/1", new SmFailoverDrill.PortState("Active", 7, keys),
                "node03 mlx5_0/2", new SmFailoverDrill.PortState("Down", 0, null),
                "node04 mlx5_0/1", new SmFailoverDrill.PortState("Active", 12, new TreeSet<>(java.util.List.of(0xffff))));
        assertThat(SmFailoverDrill.diff(new java.util.TreeMap<>(before), after)).isEqualTo("3 port(s), 2 Active; not active: none;"
                + " lid changed: node04 mlx5_0/1 9 -> 12; pkeys changed: node04 mlx5_0/1 0x8002,0xffff -> 0xffff");
    }
}
