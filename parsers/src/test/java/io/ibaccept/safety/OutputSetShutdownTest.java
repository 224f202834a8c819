package io.ibaccept.safety;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A set opened while the JVM is already shutting down (a SIGTERM just before the reports) leaves nothing behind. */
class OutputSetShutdownTest {
    @TempDir
    Path dir;

    /** Starts the JVM's shutdown, then opens a set while it is in progress, and prints what open did. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> sleep(3000))); // keeps the shutdown in progress
            new Thread(() -> System.exit(0)).start();
            sleep(500);
            try {
                OutputSet.open(Path.of(args[0]), List.of("report.html")).close();
                System.out.println("opened");
            } catch (java.io.IOException e) {
                System.out.println("refused: " + e.getMessage());
            }
            System.out.flush();
        }

        private static void sleep(long ms) {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void aSetOpenedDuringShutdownIsRefusedAndMakesNoStagingDirectory() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Child.class.getName(), dir.toString())
                .redirectErrorStream(true).start();
        String out;
        try {
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            p.destroyForcibly();
        }
        assertThat(out).contains("refused: stopped before the reports were complete");
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s.map(x -> x.getFileName().toString()).toList()).as("nothing is left in the output directory").isEmpty();
        }
    }
}
