package io.ibaccept.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo dump's findings.csv, byte for byte, against a committed copy: performance work must not change a finding.
 * When a rule change is meant to change them, regenerate the golden copy and review its diff:
 * <pre>
 *   ./ibaccept analyze sample-dumps/dumps/demo-hdr16 -o /tmp/demo-report; cp /tmp/demo-report/findings.csv cli/src/test/resources/golden/demo-findings.csv
 * </pre>
 */
class GoldenFindingsTest {
    static final Path GOLDEN = Path.of("src", "test", "resources", "golden", "demo-findings.csv");

    @Test
    void demoFindingsAreUnchanged(@TempDir Path out) throws Exception {
        MainTest.Run r = MainTest.run("analyze", MainTest.DEMO.toString(), "-o", out.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        assertThat(Files.readString(out.resolve("findings.csv")))
                .as("findings.csv of the demo differs from %s; if a rule change meant that, regenerate it (see this test's comment)", GOLDEN)
                .isEqualTo(Files.readString(GOLDEN));
    }

    /** 'ibaccept analyze .' from inside the dump: the same findings (its subdirectories were once taken for absent). */
    @Test
    void theDumpGivenAsTheCurrentDirectoryGivesTheSameFindings(@TempDir Path tmp) throws Exception {
        Path dump = MainTest.copyOfDemo(tmp.resolve("dump"));
        String jvm = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(jvm, "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "analyze", ".", "-o", tmp.resolve("out").toString()).directory(dump.toFile()).redirectErrorStream(true).start();
        String printed;
        try (java.io.InputStream in = p.getInputStream()) {
            printed = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        assertThat(p.waitFor(5, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(printed).isEqualTo(1);
        assertThat(Files.readString(tmp.resolve("out").resolve("findings.csv"))).isEqualTo(Files.readString(GOLDEN));
    }
}
