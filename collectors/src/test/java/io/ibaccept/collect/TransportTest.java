package io.ibaccept.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ibaccept.dump.CommandResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransportTest {
    final Transport local = new Transports.Local();

    @Test
    void theSshControlDirectoryIsNeverAPlantedLinkOrSomeoneElsesDirectory(@TempDir Path tmp) throws Exception {
        // tmp stands for a shared /tmp: the predictable name is planted as a link to a directory ssh must not use
        Path target = Files.createDirectories(tmp.resolve("attacker"));
        var before = Files.getPosixFilePermissions(target);
        Path planted = tmp.resolve("ibaccept-ssh-" + System.getProperty("user.name"));
        Files.createSymbolicLink(planted, target);
        Path used = Path.of(Transports.controlDir(tmp));
        assertThat(used).isNotEqualTo(planted).startsWith(tmp);
        assertThat(used.toRealPath().startsWith(target.toRealPath())).isFalse();
        assertThat(Files.getPosixFilePermissions(target)).as("the link's target is not chmod-ed").isEqualTo(before);
        assertThat(Files.getPosixFilePermissions(used)).isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        // a directory of this user that others can enter is not used either
        Files.delete(planted);
        Files.createDirectory(planted);
        Files.setPosixFilePermissions(planted, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThat(Path.of(Transports.controlDir(tmp))).isNotEqualTo(planted);
        // this user's own private one is kept, so ssh masters are shared between runs
        Files.setPosixFilePermissions(planted, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        assertThat(Path.of(Transports.controlDir(tmp))).isEqualTo(planted);
    }

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
    void bytesThatAreNotUtf8ReachTheDumpVerbatim(@TempDir Path dir) throws Exception {
        // a Latin-1 device name, a cut UTF-8 sequence and valid UTF-8 after it
        ExecResult r = local.run("x", "printf 'mlx5_0\\351 \\303 caf\\303\\251\\n'", Duration.ofSeconds(10));
        io.ibaccept.dump.DumpWriter w = new io.ibaccept.dump.DumpWriter(dir);
        w.command("nodes/x/ibstat.out", new CommandResult("ibstat", "x", "ibstat", r.status(), r.exitCode(), 1, "", r.stderr()), r.stdout());
        assertThat(Files.readAllBytes(dir.resolve("nodes/x/ibstat.out")))
                .isEqualTo(new byte[] {'m', 'l', 'x', '5', '_', '0', (byte) 0xe9, ' ', (byte) 0xc3, ' ', 'c', 'a', 'f', (byte) 0xc3, (byte) 0xa9, '\n'});
    }

    @Test
    void largeOutputOnBothStreamsIsReadCompletely() {
        // far more than a pipe buffer on both streams at once: only concurrent draining gets through
        ExecResult r = local.run("x", "head -c 3000000 /dev/zero | tr '\\0' a; head -c 2000000 /dev/zero | tr '\\0' b >&2",
                Duration.ofSeconds(60));
        assertThat(r.status()).isEqualTo(CommandResult.OK);
        assertThat(r.stdout()).hasSize(3_000_000);
        assertThat(r.stderr()).hasSize(2_000_000);
    }

    @Test
    void outputAboveTheLimitIsCutAndTheCommandMarkedFailed() throws Exception {
        Transport.Drainer d = new Transport.Drainer(new java.io.ByteArrayInputStream(new byte[300_000]), "t", 100_000);
        assertThat(d.join(10_000)).isTrue();
        assertThat(d.text()).hasSize(100_000);
        assertThat(d.dropped()).isEqualTo(200_000);
        String old = System.setProperty("ibaccept.max-file-mib", "1");
        try {
            ExecResult r = local.run("x", "head -c 3000000 /dev/zero | tr '\\0' a", Duration.ofSeconds(30));
            assertThat(r.status()).isEqualTo(CommandResult.FAILED);
            assertThat(r.stdout()).hasSize(1 << 20);
            assertThat(r.stderr()).isEqualTo("output cut: the command printed 2.9 MiB, more than the limit of 1 MiB (-Dibaccept.max-file-mib=N)");
        } finally {
            if (old == null) System.clearProperty("ibaccept.max-file-mib");
            else System.setProperty("ibaccept.max-file-mib", old);
        }
    }

    @Test
    void missingToolIsRecognised() {
        ExecResult r = local.run("x", "no-such-ib-tool --version", Duration.ofSeconds(10));
        assertThat(r.status()).isEqualTo(CommandResult.MISSING_TOOL);
        assertThat(r.exitCode()).isEqualTo(127);
    }

    @Test
    void hungCommandTimesOutAndIsKilledWithItsChildren(@TempDir Path dir) throws Exception {
        Path pid = dir.resolve("pid");
        long t0 = System.nanoTime();
        ExecResult r = local.run("x", "sleep 300 & echo $! > " + pid + "; wait", Duration.ofMillis(1500));
        assertThat(r.status()).isEqualTo(CommandResult.TIMEOUT);
        assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(10_000);
        assertGone(Long.parseLong(Files.readString(pid).trim()));
    }

    @Test
    void aBackgroundChildHoldingThePipeDoesNotHangTheRun(@TempDir Path dir) throws Exception {
        Path pid = dir.resolve("pid");
        long t0 = System.nanoTime();
        try {
            ExecResult r = local.run("x", "echo started; sleep 300 & echo $! > " + pid, Duration.ofSeconds(3));
            assertThat(r.stdout()).isEqualTo("started\n");
            assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(15_000);
        } finally {
            // the orphan left the shell's tree: this test stops it by its pid
            ProcessHandle.of(Long.parseLong(Files.readString(pid).trim())).ifPresent(ProcessHandle::destroy);
        }
    }

    /** What the shutdown hook does on Ctrl-C: every running command and its descendants end. */
    @Test
    void stopAllEndsRunningCommandsAndTheirChildren(@TempDir Path dir) throws Exception {
        Path pid = dir.resolve("pid");
        CompletableFuture<ExecResult> running = CompletableFuture.supplyAsync(
                () -> local.run("x", "sleep 300 & echo $! > " + pid + "; wait", Duration.ofMinutes(5)));
        long end = System.nanoTime() + 10_000_000_000L;
        // the child may write its pid before start() has returned: wait for the registration too
        while (!(Files.exists(pid) && !Files.readString(pid).isBlank() && Transport.running() > 0) && System.nanoTime() < end) Thread.sleep(50);
        assertThat(Transport.running()).isPositive();
        Transport.stopAll();
        ExecResult r = running.get(20, TimeUnit.SECONDS);
        assertThat(r.status()).isNotEqualTo(CommandResult.OK);
        assertGone(Long.parseLong(Files.readString(pid).trim()));
    }

    static void assertGone(long pid) throws InterruptedException {
        long end = System.nanoTime() + 5_000_000_000L;
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < end) Thread.sleep(50);
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("pid %d still alive", pid).isFalse();
    }

    @Test
    void sshToAHostWithNoServerIsUnreachable() {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/ssh")), "no ssh client installed");
        // loopback, port 1: nothing listens, the client fails at once
        Transport ssh = new Transports.Ssh(List.of("-p", "1", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null"));
        ExecResult r = ssh.run("127.0.0.1", "ibstat", Duration.ofSeconds(120));
        assertThat(r.status()).isEqualTo(CommandResult.UNREACHABLE);
        assertThat(r.exitCode()).isEqualTo(255);
    }

    @Test
    void argvOfRemoteTransports() {
        List<String> ssh = new Transports.Ssh(List.of("-o", "ConnectTimeout=3")).argv("n1", "ulimit -l", Duration.ofSeconds(30));
        // the user's options come first (ssh keeps the first value), then ours, '--', host and one quoted command
        assertThat(ssh.subList(0, 3)).containsExactly("ssh", "-o", "ConnectTimeout=3");
        assertThat(ssh).contains("BatchMode=yes", "ControlMaster=auto", "ControlPath=" + Transports.Ssh.CONTROL_DIR + "/%C");
        assertThat(ssh).doesNotContain("-t", "-tt");
        assertThat(ssh.subList(ssh.size() - 3, ssh.size())).containsExactly("--", "n1", "timeout -k 5 40 bash -lc 'ulimit -l'");
        assertThat(java.nio.file.Files.isDirectory(Path.of(Transports.Ssh.CONTROL_DIR))).isTrue();
        assertThat(new Transports.Srun(List.of()).argv("n1", "ibstat"))
                .containsExactly("srun", "--quiet", "-N1", "-n1", "-w", "n1", "bash", "-c", "ibstat");
        assertThat(new Transports.Sim("H-{host}", null).env("node03"))
                .containsEntry("SIM_HOST", "H-node03").containsEntry("LD_PRELOAD", Transports.Sim.UMAD2SIM).doesNotContainKey("IBSIM_SOCKNAME");
        assertThat(new Transports.Sim("H-{host}", null, "ibacc1_1").env("node03")).containsEntry("IBSIM_SOCKNAME", "ibacc1_1");
    }

    @Test
    void hostileHostNamesNeverStartAProcess() {
        for (String host : List.of("-oProxyCommand=touch x", "cn0002;touch x", "$(touch x)", "../x", "")) {
            ExecResult r = local.run(host, "echo ran", Duration.ofSeconds(5));
            assertThat(r.status()).isEqualTo(CommandResult.FAILED);
            assertThat(r.stdout()).isEmpty();
            assertThat(r.stderr()).startsWith("not run: host name");
        }
    }
}
