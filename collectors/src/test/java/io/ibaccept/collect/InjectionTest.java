package io.ibaccept.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.dump.CommandResult;
import io.ibaccept.safety.Shell;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hostile values on the command line and in host files never run anything, through ssh, srun or locally. */
class InjectionTest {
    @TempDir
    Path tmp;
    FakeRemote fake;
    Path marker;
    List<String> payloads;

    @BeforeEach
    void setUp() throws Exception {
        fake = new FakeRemote(Files.createDirectories(tmp.resolve("bin")));
        marker = tmp.resolve("pwned");
        String m = marker.toString();
        payloads = List.of("cn0002;touch " + m, "cn0002$(touch " + m + ")", "cn0002`touch " + m + "`", "cn0002|touch " + m,
                "cn0002&&touch " + m, "cn0002\ntouch " + m, "cn0002 touch " + m, "-oProxyCommand=touch " + m, "../../x",
                "cn0002'; touch " + m + "; '");
    }

    Collector collector(Transport t, String ethtool, String probe) {
        return new Collector(t, new Collector.Options("c", null, 4, false, false, ethtool, probe, Duration.ofSeconds(300)), // a deadline no healthy run reaches, even on a loaded machine
                new PrintStream(PrintStream.nullOutputStream()));
    }

    @Test
    void hostileHostNamesAreRejectedBeforeAnythingRuns() throws Exception {
        for (Transport t : List.of(new Transports.Ssh(List.of(), fake.ssh.toString()), new Transports.Srun(List.of(), fake.srun.toString()),
                new Transports.Local())) {
            for (String p : payloads) {
                Path out = tmp.resolve("dump-" + t.name());
                assertThatThrownBy(() -> collector(t, null, null).collect(List.of("cn0001", p), out))
                        .isInstanceOf(Shell.UnsafeValue.class).hasMessageStartingWith("host name");
                assertThat(out).doesNotExist();
                // the same name as the fabric node
                assertThatThrownBy(() -> new Collector(t, new Collector.Options("c", p, 4, false, false, null, null),
                        new PrintStream(PrintStream.nullOutputStream())).collect(List.of("cn0001"), out)).isInstanceOf(Shell.UnsafeValue.class);
                assertThat(t.run(p, "echo ran", Duration.ofSeconds(5)).status()).isEqualTo(CommandResult.FAILED);
            }
        }
        assertThat(fake.calls()).isEmpty();
        assertThat(marker).doesNotExist();
    }

    @Test
    void hostileInterfaceNameIsRejected() throws Exception {
        Transport ssh = new Transports.Ssh(List.of(), fake.ssh.toString());
        for (String iface : List.of("ib0;touch " + marker, "ib0 $(touch " + marker + ")", "-S", "`touch " + marker + "`"))
            assertThatThrownBy(() -> collector(ssh, iface, null).collect(List.of("cn0001"), tmp.resolve("d")))
                    .isInstanceOf(Shell.UnsafeValue.class).hasMessageStartingWith("interface name");
        assertThat(fake.calls()).isEmpty();
        assertThat(marker).doesNotExist();
    }

    /** Everything really runs through the fake ssh and a second shell, as on a node: quoted text stays text. */
    @Test
    void quotedValuesStayLiteralThroughSshAndTheRemoteShell() throws Exception {
        Transport ssh = new Transports.Ssh(List.of("-o", "StrictHostKeyChecking=no"), fake.ssh.toString());
        String hostile = "$(touch " + marker + ") `touch " + marker + "`; touch " + marker + " | it's \"x\" \n ünï";
        ExecResult r = ssh.run("cn0001", Shell.join("printf", "%s", hostile), Duration.ofSeconds(120)); // generous: a loaded 2-core machine
        assertThat(r.status()).isEqualTo(CommandResult.OK);
        assertThat(r.stdout()).isEqualTo(hostile);
        // a collection with a probe command full of shell syntax: its words are arguments, never syntax
        Path out = tmp.resolve("dump");
        collector(ssh, "ib0", "printf %s;touch " + marker + " $(touch " + marker + ")").collect(List.of("cn0001", "cn-0003"), out);
        assertThat(marker).doesNotExist();
        assertThat(Files.readString(out.resolve("nodes/cn0001/native-probe.out")))
                .isEqualTo(marker + ";touch" + "$(touch;touch" + marker + ");touch"); // printf's format repeated over the literal words
        List<List<String>> calls = fake.calls();
        assertThat(calls).hasSizeGreaterThan(10);
        for (List<String> argv : calls) {
            int dd = argv.indexOf("--");
            assertThat(dd).as("'--' ends ssh's options in %s", argv).isPositive();
            assertThat(argv.get(dd + 1)).isIn("cn0001", "cn-0003");
            assertThat(argv).hasSize(dd + 3);
            assertThat(argv.get(dd + 2)).startsWith("timeout -k 5 ");
        }
        assertThat(Files.readString(out.resolve("manifest.txt"))).contains("state: complete");
    }

    @Test
    void srunGetsTheScriptAsOneArgument() throws Exception {
        Transport srun = new Transports.Srun(List.of(), fake.srun.toString());
        String hostile = "a;touch " + marker + " $(touch " + marker + ")";
        ExecResult r = srun.run("cn0001", Shell.join("printf", "%s", hostile), Duration.ofSeconds(120));
        assertThat(r.stdout()).isEqualTo(hostile);
        assertThat(fake.calls()).singleElement().satisfies(a -> assertThat(a.subList(1, a.size()))
                .containsExactly("--quiet", "-N1", "-n1", "-w", "cn0001", "bash", "-c", "printf %s " + Shell.quote(hostile)));
        assertThat(marker).doesNotExist();
    }
}
