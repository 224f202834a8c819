package io.ibaccept.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.model.SmDrill;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The record 'ibaccept drill sm-failover' writes, read back: a real one from ibsim, a damaged one and a cut one. */
class SmDrillParserTest {
    static String real() {
        return String.join("\n", RealSamplesTest.real("sm-drill/ibsim-ft9-pair-takeover-8s.txt").lines()) + "\n";
    }

    @Test
    void aRealDrillRecord() {
        SmDrill d = SmDrillParser.parse(new Text("fabric/sm-failover-drill.out", real()), Issues.strict());
        assertThat(d.smNodes()).containsExactly("node01", "node02");
        assertThat(d.checkedNodes()).hasSize(9);
        assertThat(d.steps()).extracting(io.ibaccept.model.DrillStep::kind)
                .containsExactly("before", "ports_before", "stop", "takeover", "ports_after", "restart", "back", "restored");
        assertThat(d.takeoverSeconds()).isEqualTo(8.1);
        assertThat(d.newMaster()).isEqualTo("node02");
        assertThat(d.portsChanged()).isEmpty();
        assertThat(d.backSeconds()).isEqualTo(2.3);
        assertThat(d.restored()).isTrue();
        assertThat(d.step("takeover").get().ref().toString()).isEqualTo("fabric/sm-failover-drill.out:9");
    }

    @Test
    void aDamagedLineIsOneIssueAndTheOtherStepsAreKept() {
        String text = real().replace("ports_after: 9 port(s), 9 Active; not active: none; lid changed: none",
                "ports_after: 9 port(s), 8 Active; not active: node07 ibsim0/1 (Init); lid changed: node05 ibsim0/1 9 -> 12")
                .replace("  | pid: ", "\u0000\u0001garbage\n  | pid: ");
        Issues issues = Issues.collecting();
        SmDrill d = SmDrillParser.parse(new Text("fabric/sm-failover-drill.out", text), issues);
        assertThat(issues.list()).singleElement().satisfies(e -> assertThat(e.where().line()).isEqualTo(12));
        assertThat(d.portsChanged()).containsExactly("not active: node07 ibsim0/1 (Init)", "lid changed: node05 ibsim0/1 9 -> 12");
        assertThat(d.restored()).isTrue();
    }

    @Test
    void aRecordCutAfterTheStopHasNoTakeoverAndIsNotRestored() {
        String cut = real().lines().limit(9).collect(Collectors.joining("\n")).replaceFirst("\n[^\n]*takeover: [^\n]*$", "\n");
        SmDrill d = SmDrillParser.parse(new Text("fabric/sm-failover-drill.out", cut), Issues.strict());
        assertThat(d.step("stop")).isPresent();
        assertThat(d.takeoverSeconds()).isNull();
        assertThat(d.restored()).isFalse();
        assertThatThrownBy(() -> SmDrillParser.parse(new Text("fabric/sm-failover-drill.out", "sm_nodes: a b\n"), Issues.strict()))
                .hasMessageContaining("no drill steps");
    }

    @Test
    void aRealIslDrillRecordAndADegradedReturn() {
        String text = String.join("\n", RealSamplesTest.real("isl-drill/ibsim-ft9-leaf01-17-ftree.txt").lines()) + "\n";
        io.ibaccept.model.IslDrill d = IslDrillParser.parse(new Text("fabric/isl-drill.out", text), Issues.strict());
        assertThat(d.link()).isEqualTo("leaf01 (lid 4) port 17 <-> spine01 (lid 2) port 1");
        assertThat(d.rerouteSeconds()).isEqualTo(0.4);
        assertThat(d.backSeconds()).isEqualTo(0.4);
        assertThat(d.degraded()).isFalse();
        assertThat(d.restored()).isTrue();
        io.ibaccept.model.IslDrill slow = IslDrillParser.parse(new Text("fabric/isl-drill.out", text
                .replace("back: after 0.4 s, Active, 4X 53.125 Gbps", "back: after 3.0 s, Active, 1X 53.125 Gbps, below Active, 4X 53.125 Gbps before")
                .replace("rerouted: after 0.4 s (no LID routed out of either end, every LID still routed)",
                        "rerouted: not within 120 s (3 LID(s) routed out of leaf01/17 (14 routed), 2 LID(s) routed out of spine01/1 (13 routed))")),
                Issues.strict());
        assertThat(slow.rerouteSeconds()).isNull();
        assertThat(slow.degraded()).isTrue();
    }

    @Test
    void aDrillStoppedAfterItsRestartAndATakeoverByAnSmOutsideTheSmNodes() {
        String stoppedMidway = real().lines().filter(l -> !l.contains(" back: ") && !l.contains(" restored: ")).collect(Collectors.joining("\n", "", "\n"))
                .replace("takeover: node02 after 8.1 s", "takeover: guid 0x100011 (lid 17) after 8.1 s");
        SmDrill d = SmDrillParser.parse(new Text("fabric/sm-failover-drill.out", stoppedMidway), Issues.strict());
        // the shutdown hook's restart is what says whether the SM runs again
        assertThat(d.restored()).isTrue();
        assertThat(d.takeoverSeconds()).isEqualTo(8.1);
        assertThat(d.newMaster()).isEqualTo("guid 0x100011 (lid 17)");
    }
}
