package io.ibaccept.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ibaccept.dump.CommandResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransportTest {
    final Transport local = new Transports.Local();

    @Test
    void localCapturesOutputExitAndDuration() {
        ExecResult r = local.run("x", "echo out; echo err >&2; exit 0", Duration.ofSeconds(10));
        assertThat(r.status()).isEqualTo(CommandResult.OK);
        assertThat(r.stdout()).isEqualTo("out\n");
        assertThat(r.stderr()).isEqualTo("err\n");
        assertThat(r.durationMs()).isGreaterThanOrEqualTo(0);
        ExecResult f = local.run("x", "exit 3", Duration.ofSeconds(10));
        assertThat(f.status()).isEqualTo(CommandResult.FAILED);
        assertThat(f.exitCode()).isEqualTo(3);
    }

    @Test
    void missingToolIsRecognised() {
        ExecResult r = local.run("x", "no-such-ib-tool --version", Duration.ofSeconds(10));
        assertThat(r.status()).isEqualTo(CommandResult.MISSING_TOOL);
        assertThat(r.exitCode()).isEqualTo(127);
    }

    @Test
    void hungCommandTimesOutAndIsKilled() {
        long t0 = System.nanoTime();
        ExecResult r = local.run("x", "sleep 30", Duration.ofMillis(500));
        assertThat(r.status()).isEqualTo(CommandResult.TIMEOUT);
        assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(10_000);
    }

    @Test
    void sshToAHostWithNoServerIsUnreachable() {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/ssh")), "no ssh client installed");
        // loopback, port 1: nothing listens, the client fails at once
        Transport ssh = new Transports.Ssh(List.of("-p", "1", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null"));
        ExecResult r = ssh.run("127.0.0.1", "ibstat", Duration.ofSeconds(20));
        assertThat(r.status()).isEqualTo(CommandResult.UNREACHABLE);
        assertThat(r.exitCode()).isEqualTo(255);
    }

    @Test
    void argvOfRemoteTransports() {
        List<String> ssh = new Transports.Ssh(List.of("-o", "ConnectTimeout=3")).argv("n1", "ulimit -l");
        // the user's options come first (ssh keeps the first value), then ours, then host and the quoted command
        assertThat(ssh.subList(0, 3)).containsExactly("ssh", "-o", "ConnectTimeout=3");
        assertThat(ssh).contains("BatchMode=yes", "ControlMaster=auto", "ControlPath=" + Transports.Ssh.CONTROL_DIR + "/%C");
        assertThat(ssh.subList(ssh.size() - 2, ssh.size())).containsExactly("n1", "bash -lc 'ulimit -l'");
        assertThat(java.nio.file.Files.isDirectory(Path.of(Transports.Ssh.CONTROL_DIR))).isTrue();
        assertThat(new Transports.Srun(List.of()).argv("n1", "ibstat"))
                .containsExactly("srun", "--quiet", "-N1", "-n1", "-w", "n1", "bash", "-c", "ibstat");
        assertThat(new Transports.Sim("H-{host}", null).env("node03"))
                .containsEntry("SIM_HOST", "H-node03").containsEntry("LD_PRELOAD", Transports.Sim.UMAD2SIM);
        assertThat(Transports.quote("echo 'a'")).isEqualTo("'echo '\\''a'\\'''");
    }
}
