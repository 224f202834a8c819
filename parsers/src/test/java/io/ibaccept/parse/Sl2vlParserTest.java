package io.ibaccept.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.model.SlToVlTables;
import org.junit.jupiter.api.Test;

/** smpquery sl2vl of the ring ports of ibsim's ring4.net, as opensm programmed them with QoS on. */
class Sl2vlParserTest {
    @Test
    void everyInputPortOfEveryQueriedTableIsKept() {
        SlToVlTables t = Sl2vlParser.parse(RealSamplesTest.real("smpquery-sl2vl/ibsim-ring4-dfsssp-qos-default.txt"), Issues.strict());
        // 4 switches x 2 ring ports, input ports 0-8 each
        assertThat(t.entries()).hasSize(72);
        SlToVlTables.Entry first = t.entries().get(0);
        assertThat(first.lid()).isEqualTo(2);
        assertThat(first.inPort()).isZero();
        assertThat(first.outPort()).isEqualTo(3);
        assertThat(first.vls()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(first.ref().line()).isEqualTo(3);
        assertThat(t.entries()).extracting(SlToVlTables.Entry::lid).containsOnly(2, 3, 4, 6);
        SlToVlTables merged = Sl2vlParser.parse(RealSamplesTest.real("smpquery-sl2vl/ibsim-ring4-dfsssp-qos-swe-sl2vl-all-vl0.txt"), Issues.strict());
        assertThat(merged.entries()).allMatch(e -> e.vls().stream().allMatch(v -> v == 0));
    }

    @Test
    void aDamagedLineIsOneIssueAndTheRestIsKept() {
        Issues issues = Issues.collecting();
        String text = String.join("\n", RealSamplesTest.real("smpquery-sl2vl/ibsim-ring4-dfsssp-qos-default.txt").lines())
                .replaceFirst("ports: in  4, out  3: \\| 0\\| 1", "ports: in  4, out  3: | 0| x");
        SlToVlTables t = Sl2vlParser.parse(new Text("smpquery-sl2vl", text), issues);
        assertThat(issues.list()).singleElement().satisfies(e -> {
            assertThat(e.where().line()).isEqualTo(7);
            assertThat(e.getMessage()).contains("unrecognised SL2VL line");
        });
        assertThat(t.entries()).hasSize(71);
        Issues orphan = Issues.collecting();
        assertThat(Sl2vlParser.parse(new Text("x", "ports: in  1, out  3: | 0| 1| 2| 3| 4| 5| 6| 7| 0| 1| 2| 3| 4| 5| 6| 7|\n"), orphan).entries()).isEmpty();
        assertThat(orphan.list()).singleElement().satisfies(e -> assertThat(e.getMessage()).contains("before any '# SL2VL table"));
    }

    @Test
    void hugeNumbersAnUnusableHeadingAndAFailedQueryAreOneFindingEach() {
        String real = String.join("\n", RealSamplesTest.real("smpquery-sl2vl/ibsim-ring4-dfsssp-qos-default.txt").lines());
        String text = real.replaceFirst("ports: in  5, out  3: \\| 0", "ports: in  5, out  3: | 99999999999")
                .replaceFirst("# SL2VL table: Lid 3\n", "# SL2VL table: DR path slid 0; dlid 0; 0,1\n")
                // smpquery's own error line is no finding of its own: the script's line after it names the port
                + "\nsmpquery: iberror: failed: slvl query failed\n# smpquery sl2vl 6 4 failed\n";
        Issues issues = Issues.collecting();
        SlToVlTables t = Sl2vlParser.parse(new Text("smpquery-sl2vl", text), issues);
        assertThat(issues.list()).extracting(e -> e.where().line()).containsExactly(8, 23, 90);
        assertThat(issues.list().get(0).getMessage()).contains("unrecognised SL2VL line");
        assertThat(issues.list().get(1).getMessage()).contains("without a usable LID");
        assertThat(issues.list().get(2).getMessage()).contains("LID 6 port 4");
        // the damaged row and the 9 rows under the unusable heading are left out
        assertThat(t.entries()).hasSize(72 - 1 - 9);
    }
}
