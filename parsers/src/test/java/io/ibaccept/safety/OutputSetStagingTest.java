package io.ibaccept.safety;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run killed outright (SIGKILL) leaves its staging directory; the next run removes it, and only it: not the staging
 * of a run still going, nor one of another host sharing the directory, nor what a link named like one points to.
 */
class OutputSetStagingTest {
    @TempDir
    Path tmp;

    @Test
    void theStagingOfADeadRunIsRemovedAndNothingElse() throws Exception {
        Path out = Files.createDirectories(tmp.resolve("out"));
        Process gone = new ProcessBuilder("true").start();
        assertThat(gone.waitFor(60, TimeUnit.SECONDS)).isTrue();
        long dead = gone.pid();
        Process running = new ProcessBuilder("sleep", "300").start();
        try {
            Path killed = staging(out, OutputSet.HOST, dead, "11");
            Path live = staging(out, OutputSet.HOST, running.pid(), "12");
            Path elsewhere = staging(out, "other-host", dead, "13");
            Path outside = Files.createDirectories(tmp.resolve("outside"));
            Files.writeString(outside.resolve("keep.txt"), "not ibaccept's");
            Path link = Files.createSymbolicLink(out.resolve(".ibaccept-new-" + OutputSet.HOST + "-" + dead + "-14"), outside);
            Path file = Files.writeString(out.resolve(".ibaccept-new-" + OutputSet.HOST + "-" + dead + "-15"), "a file, not a staging directory");
            Path other = Files.createDirectories(out.resolve(".cache"));

            try (OutputSet set = OutputSet.open(out, List.of("report.html"))) {
                assertThat(set.file("report.html").getParent().getFileName().toString())
                        .startsWith(".ibaccept-new-" + OutputSet.HOST + "-" + ProcessHandle.current().pid() + "-");
            }
            assertThat(killed).doesNotExist();
            assertThat(live.resolve("report.html")).exists();
            assertThat(elsewhere.resolve("report.html")).exists();
            assertThat(Files.isSymbolicLink(link)).isTrue();
            assertThat(outside.resolve("keep.txt")).hasContent("not ibaccept's");
            assertThat(file).exists();
            assertThat(other).exists();
        } finally {
            running.destroy(); // the child this test started, by its handle
            running.waitFor(60, TimeUnit.SECONDS);
        }
    }

    @Test
    void aPidGivenToALaterProcessDoesNotKeepAStagingDirectory() {
        long self = ProcessHandle.current().pid();
        java.time.Instant started = ProcessHandle.current().info().startInstant().orElseThrow();
        // written long before this process started: its PID was another process's then
        assertThat(OutputSet.deadHere(".ibaccept-new-" + OutputSet.HOST + "-" + ProcessHandle.current().parent().orElseThrow().pid() + "-1",
                started.minusSeconds(3600 * 24 * 365))).isTrue();
        assertThat(OutputSet.deadHere(".ibaccept-new-" + OutputSet.HOST + "-" + self + "-1", started.minusSeconds(3600))).isFalse(); // this run's own
        assertThat(OutputSet.deadHere(".ibaccept-new-12345", started)).isFalse(); // an older version's name: the day rule only
    }

    private static Path staging(Path out, String host, long pid, String suffix) throws Exception {
        Path d = Files.createDirectories(out.resolve(".ibaccept-new-" + host + "-" + pid + "-" + suffix));
        Files.writeString(d.resolve("report.html"), "<html>unfinished");
        return d;
    }
}
