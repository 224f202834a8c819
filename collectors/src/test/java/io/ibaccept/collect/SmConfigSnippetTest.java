package io.ibaccept.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ibaccept.dump.Cmd;
import io.ibaccept.dump.sources.CollectOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SM-configuration snippets against a stand-in "opensm" process (a script of that name, so pgrep -x finds
 * it) with its own -F file, a relative -P file and a log. SIM_HOST/IBSIM_SOCKNAME are unique per test, so no other
 * opensm on this machine (a simulator of another test) is taken for this host's.
 */
class SmConfigSnippetTest {
    @TempDir
    Path tmp;

    static boolean tools() {
        for (String t : List.of("/usr/bin/pgrep", "/usr/bin/awk", "/bin/bash"))
            if (!Files.isExecutable(Path.of(t))) return false;
        return true;
    }

    /** notHere: the exit code says "nothing of this kind on this node", which the collector does not record. */
    record Out(int exit, String stdout, String stderr, boolean notHere) {}

    static String sha256(String s) throws Exception {
        byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return java.util.HexFormat.of().formatHex(d);
    }

    Out run(Cmd cmd, boolean auto, Map<String, String> env) throws Exception {
        CommandSet.Spec spec = CommandSet.smConfig(new CollectOptions(false, false, null, null, !auto, false)).stream()
                .filter(s -> s.cmd() == cmd).findFirst().orElseThrow();
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", spec.script());
        pb.environment().putAll(env);
        pb.redirectOutput(tmp.resolve("o").toFile()).redirectError(tmp.resolve("e").toFile());
        Process p = pb.start();
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        return new Out(p.exitValue(), Files.readString(tmp.resolve("o")), Files.readString(tmp.resolve("e")),
                spec.notHereExits().contains(p.exitValue()));
    }

    @Test
    void findsTheFilesOfThisHostsOpensm() throws Exception {
        assumeTrue(tools(), "pgrep/awk/bash not installed");
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path fake = bin.resolve("opensm");
        // a script (not exec'ing) keeps the process name "opensm", as pgrep -x sees it
        Files.writeString(fake, "#!/bin/sh\nsleep 60 </dev/null\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwx------"));
        Path work = Files.createDirectories(tmp.resolve("work"));
        Files.writeString(work.resolve("my.conf"), "# opensm.conf\nsm_priority 14\npartition_config_file /nonexistent/partitions.conf\n"
                + "log_file /nonexistent/opensm.log\nsm_key 0x5EC2E7000000BEEF\nsa_key 0x0000000000000001\nm_key $(touch " + tmp.resolve("pwned") + ")\n");
        Files.writeString(work.resolve("parts.conf"), "Default=0x7fff, ipoib : ALL=full;\n");
        StringBuilder log = new StringBuilder();
        for (int i = 1; i <= 6000; i++) log.append("Dec 02 21:41:45 599217 [B2A696C0] 0x02 -> line ").append(i).append('\n');
        Files.writeString(work.resolve("sm.log"), log);
        String id = "ibacc-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        Map<String, String> env = Map.of("SIM_HOST", "H-smtest", "IBSIM_SOCKNAME", id);
        ProcessBuilder pb = new ProcessBuilder(fake.toString(), "-F", work.resolve("my.conf").toString(), "-P", "parts.conf",
                "--log_file=sm.log").directory(work.toFile());
        pb.environment().putAll(env);
        Process sm = pb.start();
        try {
            Thread.sleep(300);
            Out proc = run(Cmd.OPENSM_PROCESS, true, env);
            assertThat(proc.exit()).as(proc.stderr()).isZero();
            assertThat(proc.stdout()).contains("pid: " + sm.pid() + "\n", "config: " + work.resolve("my.conf") + "\n",
                    "partitions: /proc/" + sm.pid() + "/cwd/parts.conf\n", "log: /proc/" + sm.pid() + "/cwd/sm.log\n", "arg: -P\narg: parts.conf\n");
            Out conf = run(Cmd.OPENSM_CONF, true, env);
            assertThat(conf.stdout()).contains("sm_priority 14");
            // keys never leave the node: a non-default one becomes a short hash (comparable), odd values no hash at all
            String hash = sha256("0x5ec2e7000000beef").substring(0, 12);
            assertThat(conf.stdout()).contains("sm_key <redacted sha256:" + hash + ">\n", "sa_key 0x0000000000000001\n", "m_key <redacted>\n")
                    .doesNotContainIgnoringCase("5ec2e7000000beef");
            assertThat(tmp.resolve("pwned")).doesNotExist();
            assertThat(run(Cmd.PARTITIONS_CONF, true, env).stdout()).isEqualTo("Default=0x7fff, ipoib : ALL=full;\n");
            Out tail = run(Cmd.OPENSM_LOG, true, env);
            assertThat(tail.stdout().lines().count()).isEqualTo(5000); // the tail the README promises
            assertThat(tail.stdout()).endsWith("-> line 6000\n").doesNotContain("-> line 1000\n");
            // another simulated host (or another simulator) on this machine has no opensm: nothing is attributed to it
            Out other = run(Cmd.OPENSM_CONF, true, Map.of("SIM_HOST", "H-other", "IBSIM_SOCKNAME", id));
            assertThat(other.notHere()).as(other.stderr()).isTrue();
            assertThat(other.stdout()).isEmpty();
            assertThat(run(Cmd.OPENSM_PROCESS, true, Map.of("SIM_HOST", "H-smtest", "IBSIM_SOCKNAME", id + "x")).notHere()).isTrue();
        } finally {
            sm.descendants().forEach(ProcessHandle::destroy);
            sm.destroy();
            sm.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aNamedSmNodeWithoutOpensmIsReportedNotSkipped() throws Exception {
        assumeTrue(tools(), "pgrep/awk/bash not installed");
        // no opensm running for this host, none on PATH, and no default opensm.conf on this machine
        assumeTrue(!Files.exists(Path.of("/etc/opensm/opensm.conf")) && !Files.exists(Path.of("/etc/rdma/opensm.conf")));
        String id = "ibacc-none-" + System.nanoTime();
        Out named = run(Cmd.OPENSM_PROCESS, false, Map.of("SIM_HOST", "H-none", "IBSIM_SOCKNAME", id, "PATH", "/usr/bin:/bin"));
        assertThat(named.exit()).isEqualTo(127); // recorded as missing-tool for a node named with --sm-nodes
        assertThat(named.notHere()).isFalse();
        Out auto = run(Cmd.OPENSM_PROCESS, true, Map.of("SIM_HOST", "H-none", "IBSIM_SOCKNAME", id));
        assertThat(auto.notHere()).isTrue(); // not an SM node: nothing recorded
        assertThat(auto.stdout()).isEmpty();
    }

    @Test
    void hostileSmNodeNamesAreRejectedBeforeAnythingRuns() {
        List<String> ran = new java.util.concurrent.CopyOnWriteArrayList<>();
        Transport t = new Transport() {
            public String name() {
                return "spy";
            }

            protected List<String> argv(String host, String script) {
                ran.add(host);
                return List.of("true");
            }
        };
        for (String p : List.of("sm1;touch x", "sm1$(touch x)", "-oProxyCommand=touch x", "../../x", "sm1 sm2"))
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Collector(t, new Collector.Options("c", null, 2, false, false, null, null),
                    new java.io.PrintStream(java.io.PrintStream.nullOutputStream())).withSmNodes(List.of(p)).collect(List.of("cn1"), tmp.resolve("d")))
                    .isInstanceOf(io.ibaccept.safety.Shell.UnsafeValue.class).hasMessageStartingWith("host name");
        assertThat(ran).isEmpty();
        assertThat(tmp.resolve("d")).doesNotExist();
    }
}
