package io.ibaccept.rules;

import static io.ibaccept.rules.TestDump.of;
import static io.ibaccept.rules.TestDump.problems;
import static io.ibaccept.rules.TestDump.status;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The demo dump's MPI/UCX runtime inputs: node05's UCX has no ud transport; node16's port is down. */
class DemoRuntimeTest {
    static Report r;

    @BeforeAll
    static void analyze() {
        r = new RulesEngine(RuleConfig.defaults()).run(io.ibaccept.dump.DumpLoader.load(TestDump.DEMO));
    }

    @Test
    void node05LacksUd() {
        assertThat(problems(r, "ucx.transports")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.objects()).containsExactly("node05");
            assertThat(f.summary()).contains("no ud transport");
            assertThat(f.evidence().get(0).where()).isEqualTo("nodes/node05/ucx_info-d.out");
        });
    }

    @Test
    void versionsPmlAndStepLimitPass() {
        for (String c : new String[] {"ucx.version", "ompi.version", "ompi.pml"}) assertThat(status(r, c)).as(c).isEqualTo(Status.PASS);
        // node09's login-shell limit stays the only memlock finding; the job steps are unlimited everywhere
        assertThat(problems(r, "memlock")).singleElement().satisfies(f -> assertThat(f.objects()).containsExactly("node09"));
        // no GPUs in the demo: nothing collected, skipped with the hint
        assertThat(of(r, "gpu.peermem")).singleElement().satisfies(f -> assertThat(f.status()).isEqualTo(Status.SKIP));
    }
}
