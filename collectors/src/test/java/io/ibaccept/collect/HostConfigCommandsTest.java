package io.ibaccept.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.Cmd;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host-configuration snippets of issue #10 (ip -d addr, chronyc tracking, mlxconfig q) run in a real shell. */
class HostConfigCommandsTest {

    record Run(int exit, String out, String err) {}

    static Run bash(String script, Path pathDir) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script);
        pb.environment().put("PATH", pathDir + ":/usr/sbin:/sbin");
        Process p = pb.start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void everyNodeRunsTheThreeOptionalCommands() {
        List<CommandSet.Spec> specs = CommandSet.perNode(false, null);
        assertThat(specs).extracting(CommandSet.Spec::cmd).contains(Cmd.IP_ADDR, Cmd.CHRONY, Cmd.MLXCONFIG);
        for (Cmd c : List.of(Cmd.IP_ADDR, Cmd.CHRONY, Cmd.MLXCONFIG)) {
            assertThat(c.optional()).as(c.name()).isTrue();
            assertThat(c.fabricWide()).as(c.name()).isFalse();
        }
        assertThat(specs.stream().filter(s -> s.cmd() == Cmd.IP_ADDR).findFirst().orElseThrow().script()).isEqualTo("ip -d addr show");
    }

    @Test
    void missingToolsExit127SoTheyAreRecordedAsMissingTool(@TempDir Path empty) throws Exception {
        assertThat(bash(CommandSet.MLXCONFIG_EACH, empty).exit()).isEqualTo(127);
        Run time = bash(CommandSet.TIME_SYNC, empty);
        if (!Files.exists(Path.of("/usr/sbin/chronyc")) && !Files.exists(Path.of("/sbin/chronyc"))) {
            assertThat(time.exit()).isEqualTo(127);
            assertThat(time.err()).contains("chronyc: command not found");
        }
    }

    @Test
    void mlxconfigIsRunPerInfinibandDeviceAndSaysSoWhenThereIsNone(@TempDir Path bin) throws Exception {
        Path fake = bin.resolve("mlxconfig");
        Files.writeString(fake, "#!/bin/sh\necho \"mlxconfig $*\"\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        Run r = bash(CommandSet.MLXCONFIG_EACH, bin);
        if (!Files.isDirectory(Path.of("/sys/class/infiniband"))) {
            assertThat(r.exit()).isEqualTo(1);
            assertThat(r.err()).contains("no InfiniBand device");
        } else {
            // one 'mlxconfig -d <PCI address> q' per IB device function
            assertThat(r.out()).contains("mlxconfig -d ").contains(" q");
        }
    }

    @Test
    void chronycFirstThenPmcOnlyWherePtp4lRuns(@TempDir Path bin) throws Exception {
        Path fake = bin.resolve("pmc");
        Files.writeString(fake, "#!/bin/sh\necho \"sending: $*\"\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path pgrep = bin.resolve("pgrep");
        Files.writeString(pgrep, "#!/bin/sh\nexit 1\n");
        Files.setPosixFilePermissions(pgrep, PosixFilePermissions.fromString("rwxr-xr-x"));
        Run r = bash(CommandSet.TIME_SYNC, bin);
        assertThat(r.exit()).isEqualTo(127);
        Files.writeString(pgrep, "#!/bin/sh\nexit 0\n");
        Run running = bash(CommandSet.TIME_SYNC, bin);
        assertThat(running.exit()).isZero();
        assertThat(running.out()).isEqualTo("sending: -u -b 0 GET TIME_STATUS_NP\n");
        Path chronyc = bin.resolve("chronyc");
        Files.writeString(chronyc, "#!/bin/sh\necho \"chronyc $*\"\n");
        Files.setPosixFilePermissions(chronyc, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat(bash(CommandSet.TIME_SYNC, bin).out()).isEqualTo("chronyc tracking\n");
    }

    @Test
    void ipDetailsRunHereAndParse() throws Exception {
        Run r = bash("ip -d addr show", Path.of("/usr/bin"));
        assertThat(r.exit()).isZero();
        var p = io.ibaccept.parse.Parsing.run(new io.ibaccept.parse.Text("ip-d-addr.out", r.out()),
                io.ibaccept.parse.HostConfigParsers::ipLinks);
        assertThat(p.issues()).isEmpty();
        assertThat(p.value()).extracting(io.ibaccept.model.HostConfig.IpLink::name).contains("lo");
    }
}
