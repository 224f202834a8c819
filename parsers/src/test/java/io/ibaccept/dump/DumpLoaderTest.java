package io.ibaccept.dump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.model.ClusterData;
import io.ibaccept.model.InputProblem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DumpLoaderTest {
    @TempDir
    Path dir;

    static final String IBSTAT = "CA 'mlx5_0'\n\tCA type: MT4123\n\tNumber of ports: 1\n\tFirmware version: 20.31.1014\n"
            + "\tNode GUID: 0x0c42a10300b1c2d0\n\tPort 1:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: 200\n"
            + "\t\tBase lid: 17\n\t\tPort GUID: 0x0c42a10300b1c2d0\n\t\tLink layer: InfiniBand\n";

    DumpWriter writer() {
        DumpWriter w = new DumpWriter(dir);
        w.manifest(new Manifest(1, "t", "2026-12-02T00:00:00Z", "test", "n1", List.of("n1", "n2"), java.util.Map.of()));
        return w;
    }

    static CommandResult ok(String name, String host) {
        return new CommandResult(name, host, name, CommandResult.OK, 0, 5, "", "");
    }

    @Test
    void roundTripOfWriterAndLoader() {
        DumpWriter w = writer();
        w.command(Cmd.IBSTAT, "n1", ok("ibstat", "n1"), IBSTAT);
        ClusterData d = DumpLoader.load(dir);
        assertThat(d.manifest().nodes()).containsExactly("n1", "n2");
        assertThat(d.hosts().get("n1").ibstat().get(0).ports().get(0).baseLid()).isEqualTo(17);
        assertThat(d.commands()).singleElement().satisfies(c -> assertThat(c.durationMs()).isEqualTo(5));
        // n2 has nothing: every input is a MISSING problem naming its file, nothing throws
        assertThat(d.problemsFor("n2", "ibstat")).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(InputProblem.Kind.MISSING);
            assertThat(p.where()).isEqualTo("nodes/n2/ibstat.out");
        });
    }

    @Test
    void truncatedGarbageAndBinaryInputsAreProblemsNotCrashes() throws Exception {
        DumpWriter w = writer();
        w.command(Cmd.IBSTAT, "n1", ok("ibstat", "n1"), IBSTAT.substring(0, IBSTAT.indexOf("\tPort 1:")));
        w.command(Cmd.PORTINFO, "n1", ok("smpquery-portinfo", "n1"), "<html>502 Bad Gateway</html>\n");
        Files.createDirectories(dir.resolve("fabric"));
        Files.write(dir.resolve("fabric/iblinkinfo.out"), new byte[] {0x7f, 'E', 'L', 'F', 0, 0, 1});
        Files.write(dir.resolve("fabric/sminfo.out"), new byte[] {(byte) 0xff, (byte) 0xfe, 's', 'm'});
        ClusterData d = DumpLoader.load(dir);
        // record-level recovery: the CA header that was read is kept, the cut-off port list is its own problem
        assertThat(d.hosts().get("n1").ibstat()).singleElement().satisfies(ca -> assertThat(ca.ports()).isEmpty());
        assertThat(d.problemsFor("n1", "ibstat").get(0).message()).isEqualTo("CA 'mlx5_0' announces 1 port(s) but lists 0 (truncated output?)");
        assertThat(d.problemsFor("n1", "ibstat").get(0).where()).isEqualTo("nodes/n1/ibstat.out:1");
        assertThat(d.problemsFor("n1", "smpquery-portinfo")).extracting(InputProblem::where).contains("nodes/n1/smpquery-portinfo.out:1");
        assertThat(d.problemsFor(null, "iblinkinfo").get(0).message()).contains("binary content");
        assertThat(d.problemsFor(null, "sminfo")).extracting(InputProblem::message).anyMatch(m -> m.startsWith("unrecognised sminfo line"));
    }

    @Test
    void commandStatusesFromMeta() throws Exception {
        DumpWriter w = writer();
        w.command(Cmd.OFED_INFO, "n1", new CommandResult("ofed_info", "n1", "ofed_info -s", CommandResult.MISSING_TOOL, 127, 3, "", "bash: ofed_info: command not found"), "");
        w.command(Cmd.IBSTAT, "n2", new CommandResult("ibstat", "n2", "ibstat", CommandResult.UNREACHABLE, 255, 10000, "", "ssh: connect to host n2 port 22: No route to host"), "");
        ClusterData d = DumpLoader.load(dir);
        assertThat(d.problemsFor("n1", "ofed_info")).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(InputProblem.Kind.TOOL_MISSING);
            assertThat(p.message()).isEqualTo("'ofed_info -s' is not installed on n1: bash: ofed_info: command not found");
        });
        assertThat(d.problemsFor("n2", "ibstat").get(0).message()).contains("n2 unreachable").contains("No route to host");
    }

    @Test
    void manifestProblems() throws Exception {
        Files.createDirectories(dir.resolve("nodes/a1"));
        Files.createDirectories(dir.resolve("nodes/a2"));
        ClusterData noManifest = DumpLoader.load(dir);
        assertThat(noManifest.manifest().nodes()).containsExactly("a1", "a2");
        assertThat(noManifest.problemsFor(null, "manifest")).singleElement().satisfies(p -> assertThat(p.where()).isEqualTo("manifest.txt"));
        Files.writeString(dir.resolve("manifest.txt"), "# x\ncluster: c\nformat: 7\n");
        ClusterData future = DumpLoader.load(dir);
        assertThat(future.problemsFor(null, "manifest")).singleElement().satisfies(p -> {
            assertThat(p.where()).isEqualTo("manifest.txt:3");
            assertThat(p.message()).isEqualTo("unsupported dump format 7 (this ibaccept reads 1)");
        });
        // a manifest that names no nodes: the directories are read, and the acceptance cannot be complete
        Files.writeString(dir.resolve("manifest.txt"), "format: 1\ncluster: c\nstate: complete\nnodes:\n");
        ClusterData undeclared = DumpLoader.load(dir);
        assertThat(undeclared.manifest().nodes()).containsExactly("a1", "a2");
        assertThat(undeclared.problemsFor(null, "manifest")).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(InputProblem.Kind.MISSING);
            assertThat(p.where()).isEqualTo("manifest.txt:4");
            assertThat(p.message()).contains("'nodes:' line is empty or missing");
        });
        Files.writeString(dir.resolve("nodes/a1/ulimit-l.meta"), "status ok\n");
        assertThat(DumpLoader.load(dir).problemsFor("a1", "ulimit-l")).anySatisfy(p -> assertThat(p.where()).isEqualTo("nodes/a1/ulimit-l.meta:1"));
    }

    @Test
    void notADirectory() {
        assertThatThrownBy(() -> DumpLoader.load(dir.resolve("nope"))).isInstanceOf(DumpLoader.DumpNotFound.class)
                .hasMessageEndingWith("nope: not a dump directory (does not exist or is not a directory)");
    }

    @Test
    void failedCommandKeepsWhatItPrintedAndIsItsOwnProblem() {
        DumpWriter w = writer();
        StringBuilder eight = new StringBuilder();
        for (int i = 0; i < 8; i++) eight.append(IBSTAT.replace("mlx5_0", "mlx5_" + i));
        w.command(Cmd.IBSTAT, "n1", new CommandResult("ibstat", "n1", "ibstat", CommandResult.FAILED, 255, 40, "",
                "ibpanic: [1234] main: stat of IB device 'mlx5_8' failed"), eight + "CA 'mlx5_8'\n\tCA type: garbage\n\tPort x\n");
        ClusterData d = DumpLoader.load(dir);
        assertThat(d.hosts().get("n1").ibstat()).hasSize(9).first().satisfies(ca -> assertThat(ca.ports()).hasSize(1));
        List<InputProblem> ps = d.problemsFor("n1", "ibstat");
        assertThat(ps).extracting(InputProblem::kind).contains(InputProblem.Kind.COMMAND_FAILED, InputProblem.Kind.PARSE_ERROR);
        assertThat(ps).filteredOn(p -> p.kind() == InputProblem.Kind.COMMAND_FAILED).singleElement()
                .satisfies(p -> assertThat(p.message()).contains("exited with code 255").contains("mlx5_8"));
        assertThat(ps).filteredOn(p -> p.kind() == InputProblem.Kind.PARSE_ERROR).allSatisfy(p -> assertThat(p.line()).isPositive());
    }

    @Test
    void ibstatusIsTheFallbackAndIbdiagnetPmIsOptional() {
        DumpWriter w = writer();
        w.command(Cmd.IBSTAT, "n1", new CommandResult("ibstat", "n1", "ibstat", CommandResult.MISSING_TOOL, 127, 3, "", "bash: ibstat: command not found"), "");
        w.command(Cmd.IBSTATUS, "n1", ok("ibstatus", "n1"), "Infiniband device 'mlx5_0' port 1 status:\n\tstate:\t\t 4: ACTIVE\n"
                + "\tphys state:\t 5: LinkUp\n\trate:\t\t 100 Gb/sec (2X HDR)\n\tlink_layer:\t InfiniBand\n");
        ClusterData d = DumpLoader.load(dir);
        var h = d.hosts().get("n1");
        assertThat(h.ibstat()).isNull();
        assertThat(h.fromIbstatus()).isTrue();
        assertThat(h.cas()).singleElement().satisfies(ca -> assertThat(ca.ports().get(0).isActive()).isTrue());
        assertThat(d.fabric().diagPm()).isNull();
        assertThat(d.problemsFor(null, "ibdiagnet2.pm")).isEmpty();
        assertThat(d.problemsFor("n2", "ibstatus")).isEmpty(); // optional: not collected is not missing
    }

    @Test
    void bannerOnlyLatencyServerIsNormalButABannerOnlyClientIsNot() {
        DumpWriter w = writer();
        String banner = "---------------------------------------------------------------------------------------\n"
                + "                    RDMA_Read Latency Test\n Dual-port       : OFF          Device         : mlx5_0\n"
                + " Mtu             : 4096[B]\n Link type       : IB\n"
                + "---------------------------------------------------------------------------------------\n";
        String rows = banner + " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]\n"
                + " 2       1000          1.78           4.31         1.83     	       1.85        	0.07   		2.05    		4.31\n";
        w.command("perftest/ib_read_lat__n1__n2.client.out", new CommandResult("ib_read_lat", "n1", "ib_read_lat n2", CommandResult.OK, 0, 1, "", ""), rows, java.util.Map.of("peer", "n2"));
        w.command("perftest/ib_read_lat__n1__n2.server.out", new CommandResult("ib_read_lat", "n2", "ib_read_lat", CommandResult.OK, 0, 1, "", ""), banner, java.util.Map.of("peer", "n1"));
        w.command("perftest/ib_read_lat__n2__n1.client.out", new CommandResult("ib_read_lat", "n2", "ib_read_lat n1", CommandResult.OK, 0, 1, "", ""), banner, java.util.Map.of("peer", "n1"));
        ClusterData d = DumpLoader.load(dir);
        var ok = d.perftests().stream().filter(r -> r.id().equals("ib_read_lat__n1__n2")).findFirst().orElseThrow();
        assertThat(ok.clientResult().smallest().tTypical()).isEqualTo(1.83);
        assertThat(ok.serverResult().bannerOnly()).isTrue();
        var bad = d.perftests().stream().filter(r -> r.id().equals("ib_read_lat__n2__n1")).findFirst().orElseThrow();
        assertThat(bad.clientResult()).isNull();
        assertThat(d.problems()).filteredOn(p -> p.file().startsWith("perftest/")).singleElement()
                .satisfies(p -> assertThat(p.file()).isEqualTo("perftest/ib_read_lat__n2__n1.client.out"));
    }
}
