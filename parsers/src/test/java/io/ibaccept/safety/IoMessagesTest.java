package io.ibaccept.safety;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** A full disk, however a writer wraps it, is said in words: never a Java class name. */
class IoMessagesTest {
    @Test
    void aFullDiskIsSaidInWordsHoweverItIsWrapped() {
        Assumptions.assumeTrue(Files.exists(Path.of("/dev/full")), "a device that is always full");
        IOException full = null;
        try (var out = Files.newOutputStream(Path.of("/dev/full"))) {
            out.write(new byte[4096]);
            out.flush();
        } catch (IOException e) {
            full = e;
        }
        assertThat(full).as("writing /dev/full fails").isNotNull();
        String system = IoMessages.why(full);
        assertThat(system).containsIgnoringCase("no space left on device");
        for (Throwable wrapped : new Throwable[] {full, new UncheckedIOException(full), new RuntimeException(full),
                new IllegalStateException("junit.xml could not be written: " + full, full), new IllegalStateException("PDF rendering failed: " + full.getMessage(), full),
                new UncheckedIOException("findings.csv", full), new IOException(new IOException(full))}) {
            String why = IoMessages.why(wrapped);
            assertThat(why).as(wrapped.toString()).containsIgnoringCase("no space left on device").doesNotContain("java.", "Exception");
        }
        assertThat(IoMessages.why(new IllegalStateException("junit.xml could not be written: " + full, full)))
                .isEqualTo("junit.xml could not be written: " + system);
    }

    @Test
    void otherFailuresLoseTheirClassNamesToo() {
        assertThat(IoMessages.why(new RuntimeException(new IllegalArgumentException("bad value")))).isEqualTo("bad value");
        assertThat(IoMessages.why(new NullPointerException())).isEqualTo("an unexpected error");
        assertThat(IoMessages.why(new java.nio.file.FileSystemException("/x/y"))).isEqualTo("/x/y");
        assertThat(IoMessages.why(new java.nio.file.FileSystemException("/x/y", null, "Read-only file system"))).isEqualTo("read-only file system");
    }
}
