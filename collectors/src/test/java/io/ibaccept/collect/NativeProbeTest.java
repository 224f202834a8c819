package io.ibaccept.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NativeProbeTest {
    @Test
    void memlockMatchesTheShellsUlimit() {
        Map<String, String> m = NativeProbe.memlock();
        String shell = new Transports.Local().run("x", "ulimit -l", Duration.ofSeconds(10)).stdout().trim();
        // the JVM and its child shell share the rlimit
        assertThat(m.get("memlock_soft_kib")).isEqualTo(shell);
    }

    @Test
    void missingLibibumadFallsBackCleanly() {
        Map<String, String> m = NativeProbe.umadCas(List.of("no-such-ibumad-library"));
        assertThat(m.get("umad")).startsWith("unavailable: libibumad not installed");
    }

    @Test
    void probeNeverThrows() {
        assertThat(NativeProbe.probe()).containsKey("umad").containsKey("memlock_hard_kib");
    }
}
