package io.ibaccept.dump;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.model.ClusterData;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.InputProblem;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.PerftestRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The bundled dump assembled only from verbatim real captures: which records the loader reads from it. */
class RealCapturesDumpTest {
    static final Path DUMP = Path.of("..", "sample-dumps", "dumps", "real-captures");

    @Test
    void everyCaptureIsReadIntoTheModel() {
        ClusterData d = DumpLoader.load(DUMP);
        assertThat(d.hosts()).hasSize(13);
        // no capture is rejected: the only problems are inputs no capture exists for (missing), and the implausible
        // 64-bit values ibdiagnet itself printed (one problem per value, with its line)
        Map<InputProblem.Kind, List<InputProblem>> byKind = d.problems().stream().collect(Collectors.groupingBy(InputProblem::kind));
        assertThat(byKind.keySet()).containsOnly(InputProblem.Kind.MISSING, InputProblem.Kind.PARSE_ERROR);
        assertThat(byKind.get(InputProblem.Kind.PARSE_ERROR)).allSatisfy(p -> {
            assertThat(p.file()).startsWith("fabric/ibdiagnet2.");
            assertThat(p.line()).isPositive();
            assertThat(p.message()).contains("is above 2^63");
        });

        HostData fdr10 = d.hosts().get("cx3-fdr10");
        assertThat(fdr10.ibstat().get(0).ports().get(0).namedSpeed()).contains(LinkSpeed.FDR10);
        HostData a100 = d.hosts().get("a100-gpud");
        assertThat(a100.infinibandCas()).hasSize(8).extracting(Ibstat.Ca::firmware).containsOnly("28.37.1014");
        assertThat(a100.cas()).hasSize(9);
        assertThat(d.hosts().get("h100-gpud").infinibandCas()).hasSize(8);
        HostData ompi = d.hosts().get("ompi-cx3");
        assertThat(ompi.ibstat()).isNull();
        assertThat(ompi.fromIbstatus()).isTrue();
        assertThat(ompi.cas().get(0).ports()).extracting(Ibstat.Port::state).containsExactly("Down", "Active");
        assertThat(ompi.nodeInfo().numPorts()).isEqualTo(2);
        assertThat(d.hosts().get("node24").portInfo().speed()).isEqualTo(LinkSpeed.FDR);
        assertThat(d.hosts().get("head").memlockKib()).isEqualTo(Long.MAX_VALUE);
        assertThat(d.hosts().get("bf3-doca").ofedVersion()).isEqualTo("OFED-internal-23.07-0.5.0");
        assertThat(d.hosts().get("docker-mofed").ofedVersion()).isEqualTo("MLNX_OFED_LINUX-4.6-1.0.1.1");
        assertThat(d.hosts().get("brev-a100").mlxlink().speed()).isEqualTo(LinkSpeed.HDR);
        assertThat(d.hosts().get("cn-cx6").mlxlinkPcie().pcieGenActive()).isEqualTo(1);
        assertThat(d.hosts().get("xdp-host").ethtool()).containsEntry("rx_discards_phy", 58591428329L);

        // no plain ibnetdiscover capture exists for this fabric: ibdiagnet's own topology stands in
        assertThat(d.fabric().topology()).isNull();
        assertThat(d.problemsFor(null, "ibnetdiscover")).singleElement().satisfies(p -> assertThat(p.kind()).isEqualTo(InputProblem.Kind.MISSING));
        assertThat(d.fabric().anyTopology().nodes()).hasSize(272);
        assertThat(d.fabric().links()).hasSize(40);
        assertThat(d.fabric().sms()).singleElement().satisfies(s -> assertThat(s.isMaster()).isTrue());
        assertThat(d.fabric().errorCounters()).hasSize(14);
        // ibdiagnet's physical layer: every module block, every port row
        assertThat(d.fabric().diagCables()).hasSize(510);
        assertThat(d.fabric().diagNetDump()).hasSize(585);
        assertThat(d.fabric().diagNetDumpExt()).hasSize(841);
        assertThat(d.fabric().diagPorts()).isSameAs(d.fabric().diagNetDumpExt());
        assertThat(d.fabric().perfCounters()).hasSize(1);
        assertThat(d.fabric().diagLog().version()).startsWith("2.10.0");
        assertThat(d.fabric().diagDb().pmInfo()).isNotEmpty();
        assertThat(d.fabric().ibdiagnetCounters()).isSameAs(d.fabric().diagDb().pmInfo());
        assertThat(d.fabric().ibdiagnetDeltas()).isNotEmpty();
        assertThat(d.fabric().diagPm()).hasSize(542);
        assertThat(d.fabric().countersByPort()).isNotEmpty();

        Map<String, PerftestRun> runs = d.perftests().stream().collect(Collectors.toMap(PerftestRun::id, r -> r));
        assertThat(runs).hasSize(4);
        PerftestRun bw = runs.get("ib_write_bw__node-0__node-1");
        assertThat(bw.clientResult().rows()).hasSize(23);
        assertThat(bw.serverResult().rows()).hasSize(1);
        PerftestRun lat = runs.get("ib_write_lat__node-0__node-1");
        assertThat(lat.serverResult()).isNull(); // no server capture: not collected, not a problem
        assertThat(lat.clientResult().smallest().tTypical()).isEqualTo(1.87);
        PerftestRun bidir = runs.get("ib_write_bw__ainic-a__ainic-b");
        assertThat(bidir.clientResult().bidirectional()).isTrue();
        assertThat(bidir.serverResult().bidirectional()).isTrue();
        assertThat(d.problems()).noneMatch(p -> p.file().startsWith("perftest/"));
    }
}
