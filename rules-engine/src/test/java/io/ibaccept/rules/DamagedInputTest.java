package io.ibaccept.rules;

import static io.ibaccept.rules.TestDump.of;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Damaged input never ends ACCEPTED; inputs not collected on purpose stay neutral. */
class DamagedInputTest {
    @TempDir
    Path tmp;

    @Test
    void aHealthyDumpWithNothingRemovedIsAccepted() {
        Report r = TestDump.healthy(tmp.resolve("d"), 8).analyze();
        assertThat(r.verdict()).isEqualTo(Verdict.ACCEPTED);
        // optional inputs that were not collected (mlxlink, ibdiagnet, ethtool, counters window, ibstatus) are neutral
        assertThat(r.findings()).noneMatch(f -> f.status() == Status.ERROR);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ulimit-l", "smpquery-nodeinfo", "ibstat", "smpquery-portinfo", "ofed_info"})
    void aRequiredInputRemovedFromOneHostMakesTheVerdictIncomplete(String cmd) {
        TestDump d = TestDump.healthy(tmp.resolve("d"), 8);
        d.delete("nodes/cn0005/" + cmd + ".out").delete("nodes/cn0005/" + cmd + ".meta");
        Report r = d.analyze();
        assertThat(r.verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(of(r, "input")).anySatisfy(f -> {
            assertThat(f.status()).isEqualTo(Status.ERROR);
            assertThat(f.summary()).startsWith(cmd + ": nodes/cn0005/" + cmd + ".out: file missing from the dump");
            assertThat(f.objects()).containsExactly("cn0005");
        });
    }

    @Test
    void aRequiredInputRemovedFromEveryHostMakesTheVerdictIncomplete() {
        TestDump d = TestDump.healthy(tmp.resolve("d"), 4);
        for (int i = 1; i <= 4; i++) d.delete(String.format("nodes/cn%04d/ulimit-l.out", i)).delete(String.format("nodes/cn%04d/ulimit-l.meta", i));
        Report r = d.analyze();
        assertThat(r.verdict()).isEqualTo(Verdict.INCOMPLETE);
        assertThat(TestDump.status(r, "memlock")).isEqualTo(Status.SKIP);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ulimit-l", "smpquery-nodeinfo"})
    void theDemoDumpWithOneHostsRequiredInputRemovedNamesItAsAnError(String cmd) {
        TestDump d = TestDump.demoCopy(tmp.resolve("demo"));
        Report before = d.analyze();
        d.delete("nodes/node02/" + cmd + ".out").delete("nodes/node02/" + cmd + ".meta");
        Report r = d.analyze();
        assertThat(r.verdict()).isNotIn(Verdict.ACCEPTED, Verdict.ACCEPTED_WITH_WARNINGS, Verdict.ACCEPTED_WITH_WAIVERS);
        // the demo has real faults (REJECTED); the removed input is an ERROR finding of its own
        assertThat(r.verdict()).isEqualTo(before.verdict());
        assertThat(of(r, "input")).anySatisfy(f -> {
            assertThat(f.status()).isEqualTo(Status.ERROR);
            assertThat(f.summary()).startsWith(cmd + ": nodes/node02/" + cmd + ".out: file missing from the dump");
        });
        assertThat(r.counts().get(Status.ERROR)).isGreaterThan(before.counts().get(Status.ERROR));
    }
}
