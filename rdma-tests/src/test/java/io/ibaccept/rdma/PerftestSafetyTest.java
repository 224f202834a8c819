package io.ibaccept.rdma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.collect.Transports;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.safety.Shell;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** rdma with hostile test names, devices, options and host names: nothing runs, nothing is written outside -o. */
class PerftestSafetyTest {
    @TempDir
    Path tmp;
    Path ssh;
    Path log;
    Path marker;

    @BeforeEach
    void fakeSsh() throws Exception {
        // records its argv, then does what ssh does: the words after the host go to the "remote" shell
        log = tmp.resolve("argv.log");
        marker = tmp.resolve("pwned");
        ssh = tmp.resolve("ssh");
        Files.writeString(ssh, "#!/bin/bash\n{ printf '%s\\0' \"$@\"; printf '\\n'; } >> '" + log + "'\n"
                + "while [ $# -gt 0 ]; do case \"$1\" in --) shift; break ;; -o) shift 2 ;; -*) shift ;; *) break ;; esac; done\n"
                + "shift; cd '" + tmp + "' && exec bash -c \"$*\"\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(ssh, PosixFilePermissions.fromString("rwx------"));
    }

    PerftestRunner runner(List<String> tests, String device, String extra) {
        return new PerftestRunner(new Transports.Ssh(List.of(), ssh.toString()), new PerftestRunner.Options(tests, device, 18515,
                Duration.ofSeconds(20), Duration.ofMillis(50), extra), new PrintStream(PrintStream.nullOutputStream()));
    }

    @Test
    void hostileTestNamesDevicesAndPortsAreRejected() {
        String m = marker.toString();
        for (String test : List.of("ib_write_bw;touch " + m, "../../x", "ib_write_bw $(touch " + m + ")", "sh"))
            assertThatThrownBy(() -> runner(List.of(test), null, null)).isInstanceOf(Shell.UnsafeValue.class).hasMessageStartingWith("unknown perftest");
        for (String dev : List.of("mlx5_0;touch " + m, "mlx5_0 -x", "`touch " + m + "`"))
            assertThatThrownBy(() -> runner(List.of("ib_write_bw"), dev, null)).isInstanceOf(Shell.UnsafeValue.class).hasMessageStartingWith("device name");
        assertThatThrownBy(() -> new PerftestRunner.Options(List.of("ib_write_bw"), null, 70000, Duration.ofSeconds(1), Duration.ZERO, null))
                .isInstanceOf(Shell.UnsafeValue.class);
        assertThat(marker).doesNotExist();
    }

    @Test
    void hostileHostNamesAreRejectedBeforeAnythingRunsOrIsWritten() throws Exception {
        Path out = tmp.resolve("dump");
        for (String host : List.of("cn0002;touch " + marker, "../../../tmp/x", "/etc", "-oProxyCommand=touch " + marker, "cn$(touch " + marker + ")")) {
            var rounds = List.of(List.of(new PairScheduler.Pair("cn0001", host)));
            assertThatThrownBy(() -> runner(List.of("ib_write_bw"), "mlx5_0", null).run(rounds, new DumpWriter(out)))
                    .isInstanceOf(Shell.UnsafeValue.class).hasMessageStartingWith("host name");
        }
        assertThat(log).doesNotExist();
        assertThat(marker).doesNotExist();
        try (Stream<Path> s = Files.list(out)) {
            assertThat(s).isEmpty();
        }
    }

    /** A real run through the fake ssh: the perftest binaries are absent, so every side fails, but safely. */
    @Test
    void extraOptionsAreWordsAndTheDumpSaysCompleteAtTheEnd() throws Exception {
        Path out = tmp.resolve("dump");
        var rounds = PairScheduler.rounds(List.of("cn0001", "cn0002"), PairScheduler.Pattern.ALL_PAIRS);
        PerftestRunner r = runner(List.of("ib_write_bw"), "mlx5_0", "-a ;touch " + marker + " $(touch " + marker + ")");
        assertThat(r.run(rounds, new DumpWriter(out))).isEqualTo(1);
        assertThat(marker).doesNotExist();
        String[] calls = Files.readString(log).split("\0\n");
        assertThat(calls).hasSize(2).allSatisfy(c -> {
            List<String> argv = List.of(c.split("\0"));
            assertThat(argv.get(argv.indexOf("--") + 1)).isIn("cn0001", "cn0002");
            assertThat(argv.get(argv.size() - 1)).startsWith("timeout -k 5 ").contains("ib_write_bw -d mlx5_0 -p 18515");
        });
        assertThat(Files.readString(out.resolve("manifest.txt"))).contains("state: complete").contains("collector: ibaccept rdma");
        // the rdma-only dump loads (no nodes/ but perftest/), with the pair's failure as an input problem
        var d = DumpLoader.load(out);
        assertThat(d.perftests()).hasSize(1);
        assertThat(d.problemsFor(null, "manifest")).isEmpty();
        String meta = Files.readString(out.resolve("perftest/ib_write_bw__cn0001__cn0002.client.meta"));
        assertThat(meta).contains("command: ib_write_bw -d mlx5_0 -p 18515 --report_gbits -a ';touch' " + marker + " '$(touch' '" + marker + ")' cn0002");
    }

    @Test
    void anExistingCollectDumpIsMarkedPartialWhileRdmaRunsAndCompleteAfter() throws Exception {
        Path out = tmp.resolve("dump");
        Files.createDirectories(out);
        Files.writeString(out.resolve("manifest.txt"), "# ibaccept dump manifest\nformat: 1\nstate: complete\ncluster: c\nnodes: cn0001 cn0002\n");
        DumpWriter w = new DumpWriter(out);
        w.state("partial", null);
        assertThat(Files.readString(out.resolve("manifest.txt"))).contains("state: partial").doesNotContain("state: complete")
                .contains("nodes: cn0001 cn0002");
        var rounds = PairScheduler.rounds(List.of("cn0001", "cn0002"), PairScheduler.Pattern.RING);
        runner(List.of("ib_read_lat"), null, null).run(rounds, w);
        assertThat(Files.readString(out.resolve("manifest.txt"))).contains("state: complete").contains("cluster: c").contains("nodes: cn0001 cn0002");
    }
}
