package io.ibaccept.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.DumpLoader;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ctrl-C (SIGINT) to a collecting JVM: the dump says partial and no command it started outlives it. */
class InterruptTest {
    /** The child JVM: collects from two nodes whose commands hang, recording each shell's pid. */
    public static void main(String[] args) {
        Path pids = Path.of(args[1]);
        Transport t = new Transport() {
            public String name() {
                return "hanging";
            }

            protected List<String> argv(String host, String script) {
                return List.of("bash", "-c", "echo $$ >> " + pids + "; sleep 300 & echo $! >> " + pids + "; wait");
            }
        };
        new Collector(t, new Collector.Options("c", "n1", 4, false, false, null, null, Duration.ofMinutes(10)),
                new PrintStream(PrintStream.nullOutputStream())).collect(List.of("n1", "n2"), Path.of(args[0]));
    }

    @Test
    void ctrlCLeavesAPartialDumpAndNoRunningCommands(@TempDir Path tmp) throws Exception {
        Path dump = tmp.resolve("dump"), pids = tmp.resolve("pids");
        Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), InterruptTest.class.getName(), dump.toString(), pids.toString())
                .redirectErrorStream(true).redirectOutput(tmp.resolve("jvm.log").toFile()).start();
        try {
            long end = System.nanoTime() + 60_000_000_000L;
            // fabric node + two nodes: three shells, each with its sleep
            while (System.nanoTime() < end && (!Files.exists(pids) || Files.readAllLines(pids).size() < 6)) Thread.sleep(100);
            assertThat(Files.readAllLines(pids)).as(Files.readString(tmp.resolve("jvm.log"))).hasSizeGreaterThanOrEqualTo(6);
            assertThat(new ProcessBuilder("kill", "-INT", String.valueOf(jvm.pid())).start().waitFor()).isZero();
            // generous: the shutdown hook waits for the commands it kills, slow on a loaded 2-core machine
            assertThat(jvm.waitFor(120, TimeUnit.SECONDS)).as("the JVM ends on SIGINT").isTrue();
        } finally {
            jvm.destroyForcibly();
        }
        for (String pid : Files.readAllLines(pids)) TransportTest.assertGone(Long.parseLong(pid.trim()));
        assertThat(Files.readString(dump.resolve("manifest.txt"))).contains("state: partial");
        assertThat(DumpLoader.load(dump).problemsFor(null, "manifest")).singleElement()
                .satisfies(p -> assertThat(p.message()).startsWith("the collection that wrote this dump did not finish"));
    }
}
