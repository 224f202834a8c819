package io.ibaccept.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
    void scriptReadsExtendedAndPlainCountersPerLidAndOnlyFailsWhenEverythingFailed() throws Exception {
        List<String> s = CounterWindow.scripts(CounterWindow.ports(portsReport()), false);
        assertThat(s).singleElement().satisfies(x -> assertThat(x).contains(" 9:1,2,3,4,17,18,19,20 ", " 22:1;").doesNotContain("-R"));
        assertThat(CounterWindow.scripts(CounterWindow.ports(portsReport()), true).get(0)).contains("perfquery $x -R $l $p");
    }

    /** Runs the generated script with a fake perfquery that prints what it was asked and fails for LID 9. */
    @Test
    void scriptRunsEveryLidBothWaysAndSurvivesAFailingLid(@TempDir Path tmp) throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path pq = bin.resolve("perfquery");
        Files.writeString(pq, "#!/bin/bash\nfor a; do l=$a; done\n[ \"$2\" = 9 ] || [ \"$1\" = 9 ] && exit 1\necho \"called $*\"\n");
        pq.toFile().setExecutable(true);
        String script = CounterWindow.scripts(CounterWindow.ports(portsReport()), false).get(0);
        Process p = new ProcessBuilder("bash", "-c", "PATH=" + bin + ":$PATH; " + script).start();
        String out = new String(p.getInputStream().readAllBytes()), err = new String(p.getErrorStream().readAllBytes());
        assertThat(p.waitFor()).isZero();
        assertThat(out.lines()).hasSize(2 * 22 - 2).contains("called -x 22 1", "called 22 1", "called -x 2 1,2,3,4,5,6,7,8");
        assertThat(err).contains("perfquery -x 9 1,2,3,4,17,18,19,20: failed", "2 of 44 perfquery calls failed");
    }

    @Test
    void largeFabricsAreSplitIntoScriptsThatFitOneArgument() {
        SortedMap<Integer, SortedSet<Integer>> ports = new java.util.TreeMap<>();
        for (int lid = 1; lid <= 2500; lid++) ports.put(lid, new java.util.TreeSet<>(lid % 25 == 0 ? java.util.stream.IntStream.rangeClosed(1, 40).boxed().toList() : List.of(1)));
        List<String> s = CounterWindow.scripts(ports, false);
        assertThat(s).hasSize(3);
        assertThat(s).allSatisfy(x -> assertThat(x.length()).isLessThan(64 * 1024));
    }

    @Test
    void unusableLinesAreIgnored() {
        assertThat(CounterWindow.ports("garbage\nSW     0 20 0x0000000000200005 4x HDR - SW     3  8 0x0000000000200001 ( 'a' - 'b' )\n"
                + "SW     9 36 0x0000000000200005 4x SDR                                    'leaf04'\n")).isEmpty();
    }
}
