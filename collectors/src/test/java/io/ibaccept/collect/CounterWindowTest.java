package io.ibaccept.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.SortedMap;
import java.util.SortedSet;
import org.junit.jupiter.api.Test;

class CounterWindowTest {
    /** Captured with infiniband-diags 44.0 'ibnetdiscover -p' on ibsim, sample-dumps/sim/fattree-16.net. */
    static String portsReport() throws IOException {
        try (var in = CounterWindowTest.class.getResourceAsStream("/sim/ibnetdiscover-p.out")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void connectedPortsPerLidFromIbnetdiscoverPortsReport() throws IOException {
        SortedMap<Integer, SortedSet<Integer>> p = CounterWindow.ports(portsReport());
        // 6 switches + 16 HCAs
        assertThat(p).hasSize(22);
        // leaf04 (LID 9): 4 hosts + 4 uplinks; its 28 unconnected ports are not read
        assertThat(p.get(9)).containsExactly(1, 2, 3, 4, 17, 18, 19, 20);
        // spine01 (LID 2): 8 downlinks
        assertThat(p.get(2)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(p.get(22)).containsExactly(1);
        assertThat(CounterWindow.count(p)).isEqualTo(6 * 8 + 16);
    }

    @Test
    void scriptReadsExtendedAndPlainCountersPerLidAndOnlyFailsWhenEverythingFailed() throws IOException {
        String s = CounterWindow.script(CounterWindow.ports(portsReport()), false);
        assertThat(s).contains("perfquery -x 9 1,2,3,4,17,18,19,20 ||", "perfquery 9 1,2,3,4,17,18,19,20 ||", "perfquery -x 22 1 ||");
        assertThat(s).doesNotContain("-R");
        assertThat(CounterWindow.script(CounterWindow.ports(portsReport()), true)).contains("perfquery -x -R 9 1,2,3,4,17,18,19,20", "perfquery -R 22 1");
    }

    @Test
    void unusableLinesAreIgnored() {
        assertThat(CounterWindow.ports("garbage\nSW     0 20 0x0000000000200005 4x HDR - SW     3  8 0x0000000000200001 ( 'a' - 'b' )\n"
                + "SW     9 36 0x0000000000200005 4x SDR                                    'leaf04'\n")).isEmpty();
    }
}
