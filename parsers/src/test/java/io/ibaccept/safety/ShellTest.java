package io.ibaccept.safety;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ShellTest {
    static final List<String> HOSTILE = List.of("$(touch X)", "`touch X`", "a;touch X", "a|touch X", "a&&touch X",
            "a\ntouch X", "a b", "'; touch X; '", "\"$(touch X)\"", "ünïcödé $(touch X)", "a'b\"c\\d", "*", "~root", "",
            "-rf", "$HOME", "a\u0000b", "!!", "{a,b}", "a>X");

    @Test
    void plainWordsStayReadable() {
        assertThat(Shell.quote("mlx5_0")).isEqualTo("mlx5_0");
        assertThat(Shell.quote("-d")).isEqualTo("-d");
        assertThat(Shell.join("ib_write_bw", "-d", "mlx5_0", "-p", "18515", "node02")).isEqualTo("ib_write_bw -d mlx5_0 -p 18515 node02");
        assertThat(Shell.words(" -a  -F ")).isEqualTo("-a -F");
    }

    @Test
    void quotingIsSingleQuotesWithEmbeddedQuotesEscaped() {
        assertThat(Shell.quote("a;b")).isEqualTo("'a;b'");
        assertThat(Shell.quote("it's")).isEqualTo("'it'\\''s'");
        assertThat(Shell.quote("")).isEqualTo("''");
        assertThat(Shell.quote("a\nb")).isEqualTo("'a\nb'");
        assertThat(Shell.words("-a ;touch x")).isEqualTo("-a ';touch' x");
    }

    /** The real test: a shell given the quoted word prints it back unchanged and runs nothing. */
    @Test
    void aShellReadsEveryQuotedWordBackVerbatimAndRunsNothing(@TempDir Path dir) throws Exception {
        for (String s : HOSTILE) {
            if (s.indexOf('\0') >= 0) continue; // argv cannot carry NUL at all
            String script = "printf '%s' " + Shell.quote(s.replace("X", dir.resolve("pwned").toString()));
            Process p = new ProcessBuilder("sh", "-c", script).directory(dir.toFile()).start();
            assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(out).as("sh -c %s", script).isEqualTo(s.replace("X", dir.resolve("pwned").toString()));
            // the same through two shells, as ssh does (remote login shell runs 'bash -c <quoted script>')
            Process q = new ProcessBuilder("bash", "-c", "bash -c " + Shell.quote(script)).directory(dir.toFile()).start();
            assertThat(q.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(new String(q.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8))
                    .isEqualTo(s.replace("X", dir.resolve("pwned").toString()));
        }
        assertThat(Files.exists(dir.resolve("pwned"))).isFalse();
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void hostNames() {
        for (String ok : List.of("node001", "cn0002", "gpu01-ib", "r1n02.cluster.example.org", "Node_7", "10.0.0.5", "a"))
            assertThat(Shell.requireHost(ok)).isEqualTo(ok);
        for (String bad : HOSTILE) assertThatThrownBy(() -> Shell.requireHost(bad)).isInstanceOf(Shell.UnsafeValue.class);
        for (String bad : List.of("-oProxyCommand=touch x", "../etc", "..", ".", "a/b", "/etc/passwd", "node[01-02]", "a..b",
                ".hidden", "x".repeat(254), "nödé", "root@node1"))
            assertThatThrownBy(() -> Shell.requireHost(bad)).isInstanceOf(Shell.UnsafeValue.class);
        assertThatThrownBy(() -> Shell.requireHost("cn0002;touch /tmp/x"))
                .hasMessage("host name 'cn0002;touch /tmp/x' is not allowed: use letters, digits, '-', '_' and '.' (starting with a letter or digit, at most 253 characters)");
        assertThatThrownBy(() -> Shell.requireHost("a\nb")).hasMessageStartingWith("host name 'a\\x0ab'");
    }

    @Test
    void devicesInterfacesTestsAndPorts() {
        assertThat(Shell.requireDevice("mlx5_0")).isEqualTo("mlx5_0");
        assertThat(Shell.requireDevice("hfi1_0")).isEqualTo("hfi1_0");
        for (String bad : List.of("mlx5_0;id", "mlx5-0", "", "../x", "-x", "$(id)"))
            assertThatThrownBy(() -> Shell.requireDevice(bad)).isInstanceOf(Shell.UnsafeValue.class);
        for (String ok : List.of("ib0", "ib0.8001", "enp65s0f0np0", "bond0:1", "eth_2"))
            assertThat(Shell.requireInterface(ok)).isEqualTo(ok);
        for (String bad : List.of("ib0;touch /tmp/x", "-S", "..", ".ib", "ib0 ib1", "a".repeat(16), "ib0/x", "$(id)", "`id`"))
            assertThatThrownBy(() -> Shell.requireInterface(bad)).isInstanceOf(Shell.UnsafeValue.class);
        assertThat(Shell.requirePerftest("ib_write_bw")).isEqualTo("ib_write_bw");
        assertThatThrownBy(() -> Shell.requirePerftest("ib_write_bw;id")).hasMessageStartingWith("unknown perftest 'ib_write_bw;id': one of [");
        assertThatThrownBy(() -> Shell.requirePerftest("../x")).isInstanceOf(Shell.UnsafeValue.class);
        assertThat(Shell.requirePort(18515)).isEqualTo(18515);
        assertThatThrownBy(() -> Shell.requirePort(0)).isInstanceOf(Shell.UnsafeValue.class);
        assertThatThrownBy(() -> Shell.requirePort(65536)).isInstanceOf(Shell.UnsafeValue.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"../x", "/etc/passwd", "a/../../b", "", "a//b", "a/./b", "nodes/..", "a\\b", "a\nb"})
    void unsafeRelativePaths(String rel) {
        assertThat(SafePath.isSafeRelative(rel)).isFalse();
        assertThatThrownBy(() -> SafePath.resolve(Path.of("/tmp/root"), rel)).isInstanceOf(Shell.UnsafeValue.class);
    }

    @Test
    void safeRelativePaths() {
        assertThat(SafePath.resolve(Path.of("/tmp/root"), "nodes/n1/ibstat.out")).isEqualTo(Path.of("/tmp/root/nodes/n1/ibstat.out"));
        assertThat(SafePath.isSafeName("ib_write_bw__n1__n2.client.out")).isTrue();
        assertThat(SafePath.isSafeName("..")).isFalse();
    }
}
