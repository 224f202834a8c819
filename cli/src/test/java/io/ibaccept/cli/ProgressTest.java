package io.ibaccept.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgressTest {
    static final String OK = "[   1/3] node1        ibstat               ok               40 ms";
    static final String FAILED = "[   2/3] node2        ibstat               timeout       30000 ms";

    @Test
    void onATerminalOkStepsMoveTheBarAndProblemsArePrinted() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(buf, true, StandardCharsets.UTF_8);
        try (Progress p = new Progress("collect", 3, CollectCommand.STEP, err, true)) {
            p.lines().println(OK);
            p.lines().println(FAILED);
            p.lines().println("[   3/3] fabric       sminfo               ok               10 ms");
            p.lines().println("collected 3 command outputs (1 not ok)");
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("collect 100%").contains("3/3").contains(FAILED).contains("collected 3 command outputs")
                .doesNotContain(OK);
    }

    @Test
    void withoutATerminalEveryLineGoesThroughUnchanged() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(buf, true, StandardCharsets.UTF_8);
        try (Progress p = new Progress("collect", 3, CollectCommand.STEP, err, false)) {
            p.lines().println(OK);
            p.lines().println(FAILED);
        }
        assertThat(buf.toString(StandardCharsets.UTF_8)).isEqualTo(OK + "\n" + FAILED + "\n");
    }

    @Test
    void rdmaRoundsAreSteps() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (Progress p = new Progress("rdma", 2, RdmaCommand.STEP, new PrintStream(buf, true, StandardCharsets.UTF_8), true)) {
            p.lines().println("ib_write_bw round 1/2: 4 pair(s) done");
            p.lines().println("ib_write_bw round 2/2: 4 pair(s) done");
        }
        assertThat(buf.toString(StandardCharsets.UTF_8)).contains("rdma 100%").contains("2/2").doesNotContain("pair(s) done\n");
    }

    @Test
    void burnLearnsItsRoundCountFromTheFirstRoundLine() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (Progress p = new Progress("burn", 0, BurnCommand.STEP, new PrintStream(buf, true, StandardCharsets.UTF_8), true)) {
            p.lines().println("burn round 1/2 (leaf01-leaf02): 20 test(s), 900 s");
            p.lines().println("burn round 2/2 (leaf02-leaf01): 20 test(s), 900 s");
        }
        assertThat(buf.toString(StandardCharsets.UTF_8)).contains("burn 100%").contains("2/2");
    }
}
