package io.ibaccept.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.Cmd;
import io.ibaccept.dump.sources.CollectOptions;
import io.ibaccept.dump.sources.Source;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host-configuration snippets (ip -d addr, chronyc tracking, mlxconfig q) and ibdiagnet's run in a real shell. */
class HostConfigCommandsTest {

    record Run(int exit, String out, String err) {}

    static Run bash(String script, Path pathDir) throws IOException, InterruptedException {
        return bash(script, pathDir + ":/usr/sbin:/sbin");
    }

    static Run bash(String script, String path) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script);
        pb.environment().put("PATH", path);
        Process p = pb.start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /** The script the collector runs for cmd with these options. */
    static String script(Cmd cmd, CollectOptions o) {
        return java.util.stream.Stream.of(CommandSet.perNode(o), CommandSet.fabric(o), CommandSet.smConfig(o)).flatMap(List::stream)
                .filter(s -> s.cmd() == cmd).findFirst().orElseThrow().script();
    }

    static final String MLXCONFIG_EACH = script(Cmd.MLXCONFIG, CollectOptions.DEFAULTS);
    static final String TIME_SYNC = script(Cmd.CHRONY, CollectOptions.DEFAULTS);

    @Test
    void everyNodeRunsTheThreeOptionalCommandsExceptOnTheSimulator() {
        List<CommandSet.Spec> specs = CommandSet.perNode(CollectOptions.DEFAULTS);
        assertThat(specs).extracting(CommandSet.Spec::cmd).contains(Cmd.IP_ADDR, Cmd.CHRONY, Cmd.MLXCONFIG);
        for (Cmd c : List.of(Cmd.IP_ADDR, Cmd.CHRONY, Cmd.MLXCONFIG)) {
            assertThat(c.source().optional()).as(c.name()).isTrue();
            assertThat(c.source().scope()).as(c.name()).isEqualTo(Source.Scope.NODE);
        }
        assertThat(script(Cmd.IP_ADDR, CollectOptions.DEFAULTS)).isEqualTo("ip -d addr show");
        // on ibsim every host is this machine: its interfaces, clock and HCA settings would describe it
        assertThat(CommandSet.perNode(new CollectOptions(false, false, null, null, false, true))).extracting(CommandSet.Spec::cmd)
                .doesNotContain(Cmd.IP_ADDR, Cmd.CHRONY, Cmd.MLXCONFIG).contains(Cmd.IBSTAT);
    }

    @Test
    void missingToolsExit127SoTheyAreRecordedAsMissingTool(@TempDir Path empty) throws Exception {
        assertThat(bash(MLXCONFIG_EACH, empty).exit()).isEqualTo(127);
        Run time = bash(TIME_SYNC, empty);
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
        Run r = bash(MLXCONFIG_EACH, bin);
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
        Run r = bash(TIME_SYNC, bin);
        assertThat(r.exit()).isEqualTo(127);
        Files.writeString(pgrep, "#!/bin/sh\nexit 0\n");
        Run running = bash(TIME_SYNC, bin);
        assertThat(running.exit()).isZero();
        assertThat(running.out()).isEqualTo("sending: -u -b 0 GET TIME_STATUS_NP\n");
        Path chronyc = bin.resolve("chronyc");
        Files.writeString(chronyc, "#!/bin/sh\necho \"chronyc $*\"\n");
        Files.setPosixFilePermissions(chronyc, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat(bash(TIME_SYNC, bin).out()).isEqualTo("chronyc tracking\n");
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

    /** ibdiagnet gets --congestion_control (the CC_* sections of db_csv) only where its help lists the option. */
    @Test
    void ibdiagnetDumpsCongestionControlWhereItsVersionHasTheOption(@TempDir Path bin, @TempDir Path out) throws Exception {
        String dir = "/tmp/ibaccept-ibdiagnet2";
        String collected = script(Cmd.IBDIAGNET_LOG, new CollectOptions(false, true, null, null, false, false));
        assertThat(collected).contains(dir);
        String script = collected.replace(dir, out.resolve("ibdiag").toString());
        Path fake = bin.resolve("ibdiagnet");
        for (boolean hasCc : new boolean[] {true, false}) {
            // the help text of the version, then a run that records its arguments as the log
            Files.writeString(fake, "#!/bin/sh\ncase \"$1\" in --help) echo '  -o|--output_path <directory>'; "
                    + (hasCc ? "echo '  --congestion_control : Dumps Congestion Control configuration'; " : "") + "exit 0;; --deep_help) exit 1;; esac\n"
                    + "args=\"$*\"; while [ $# -gt 0 ]; do [ \"$1\" = -o ] && d=$2; shift; done\nmkdir -p \"$d\" && echo \"ibdiagnet $args\" > \"$d/ibdiagnet2.log\"\n");
            Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
            Run r = bash(script, bin + ":/usr/bin:/bin"); // rm, grep, cat; no ibdiagnet there (it is not a Debian package)
            assertThat(r.exit()).isZero();
            assertThat(r.out()).isEqualTo("ibdiagnet -o " + out.resolve("ibdiag") + (hasCc ? " --congestion_control" : "") + "\n");
        }
        // an ibdiagnet that lists the option but writes nothing with it: run again without it
        Files.writeString(fake, "#!/bin/sh\ncase \"$1\" in --help) echo '  --congestion_control'; exit 0;; --deep_help) exit 1;; esac\n"
                + "case \"$*\" in *--congestion_control*) echo '-E- plugin failed' >&2; exit 1;; esac\n"
                + "args=\"$*\"; while [ $# -gt 0 ]; do [ \"$1\" = -o ] && d=$2; shift; done\nmkdir -p \"$d\" && echo \"ibdiagnet $args\" > \"$d/ibdiagnet2.log\"\n");
        assertThat(bash(script, bin + ":/usr/bin:/bin").out()).isEqualTo("ibdiagnet -o " + out.resolve("ibdiag") + "\n");
        Files.delete(fake);
        assertThat(bash(script, bin + ":/usr/bin:/bin").exit()).isEqualTo(127);
    }

    /**
     * The same run asks for the module and FEC/BER files (--get_cable_info, --get_phy_info) where the help lists them;
     * ibdiagnet2.cables, net_dump and net_dump_ext are then read from its directory, and one it did not write is "not
     * here", not a failure.
     */
    @Test
    void ibdiagnetWritesTheCableAndPhyFilesWhereItsVersionHasTheOptions(@TempDir Path bin, @TempDir Path out) throws Exception {
        String dir = "/tmp/ibaccept-ibdiagnet2";
        CollectOptions o = new CollectOptions(false, true, null, null, false, false);
        String run = script(Cmd.IBDIAGNET_LOG, o).replace(dir, out.resolve("ibdiag").toString());
        Path fake = bin.resolve("ibdiagnet");
        Files.writeString(fake, "#!/bin/sh\ncase \"$1\" in --help) echo '  --get_cable_info : Collect cable info'; echo '  --get_phy_info'; exit 0;; "
                + "--deep_help) exit 1;; esac\n"
                + "args=\"$*\"; while [ $# -gt 0 ]; do [ \"$1\" = -o ] && d=$2; shift; done\nmkdir -p \"$d\" && echo \"ibdiagnet $args\" > \"$d/ibdiagnet2.log\"\n"
                + "case \"$args\" in *--get_cable_info*) echo 'Port=1 Lid=0x0018 GUID=0xb0cf0e0300e5b940 Port Name=x' > \"$d/ibdiagnet2.cables\";; esac\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        Run r = bash(run, bin + ":/usr/bin:/bin");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo("ibdiagnet -o " + out.resolve("ibdiag") + " --get_cable_info --get_phy_info\n");
        Run cables = bash(script(Cmd.IBDIAGNET_CABLES, o).replace(dir, out.resolve("ibdiag").toString()), bin + ":/usr/bin:/bin");
        assertThat(cables.exit()).isZero();
        assertThat(cables.out()).startsWith("Port=1 Lid=0x0018");
        CommandSet.Spec ext = CommandSet.fabric(o).stream().filter(s -> s.cmd() == Cmd.IBDIAGNET_NET_DUMP_EXT).findFirst().orElseThrow();
        Run none = bash(ext.script().replace(dir, out.resolve("ibdiag").toString()), bin + ":/usr/bin:/bin");
        assertThat(ext.notHereExits()).contains(none.exit());
        assertThat(CommandSet.fabric(o)).extracting(CommandSet.Spec::cmd).contains(Cmd.IBDIAGNET_NET_DUMP);
    }
}
