package io.ibaccept.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.analysis.Analysis;
import io.ibaccept.dump.DumpLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole fabrics captured on real clusters, judged from their ibnetdiscover alone (the captures in
 * parsers/src/test/resources/real/ibnetdiscover, sources in its SOURCES.md): the real faults, and no false ones.
 */
class RealFabricRulesTest {
    static Report analyse(Path tmp, String capture) throws IOException {
        return Analysis.of(DumpLoader.load(dump(tmp, capture, "fab"))).report();
    }

    /** A dump of one real capture as fabric/ibnetdiscover.out, collected from node (the manifest's one node). */
    static Path dump(Path tmp, String capture, String node) throws IOException {
        Path d = tmp.resolve("dump");
        Files.createDirectories(d.resolve("fabric"));
        Path from = Path.of("..", "parsers", "src", "test", "resources", "real", "ibnetdiscover", capture);
        // the largest captures are kept gzipped, byte for byte
        if (capture.endsWith(".gz"))
            try (java.io.InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(from))) {
                Files.copy(in, d.resolve("fabric/ibnetdiscover.out"));
            }
        else Files.copy(from, d.resolve("fabric/ibnetdiscover.out"));
        Files.writeString(d.resolve("manifest.txt"), "format: 1\ncluster: real\nfabric_node: " + node + "\nnodes: " + node + "\n");
        return d;
    }

    static List<Finding> problems(Report r, String check) {
        return r.findings().stream().filter(f -> f.check().equals(check) && (f.status() == Status.FAIL || f.status() == Status.WARN)).toList();
    }

    /**
     * Selene compute, a DGX SuperPOD of 666 switches: every cable it lacks is named once, at the switch that lost it
     * (13 leaves short of one uplink, 15 spines short of core uplinks); the leaves that lost their only path to a core
     * are listed under the spine that lost the cable; the management leaves on spare spine ports, the empty one below
     * its own spine and the units short of nodes are warnings, never a FAIL.
     */
    @Test
    void seleneComputeNamesEachLostCableOnceAndNothingFalse(@TempDir Path tmp) throws IOException {
        Report r = analyse(tmp, "ufm-sdk-selene-compute-hdr-666sw-4341ca.txt.gz");
        List<String> lost = r.findings().stream().filter(f -> f.check().equals("fabric.blocking") && f.variant().equals("uplinks_lost"))
                .map(f -> f.objects().get(0).replaceAll("MF0;|:.*", "")).sorted().toList();
        assertThat(lost).containsExactly("CSPINE1-31", "CSPINE1-37", "CSPINE1-69", "CSPINE1-71", "CSPINE2-01", "CSPINE2-24", "CSPINE2-35",
                "CSPINE2-66", "CSPINE2-79", "CSPINE3-47", "CSPINE3-51", "CSPINE3-61", "CSPINE4-31", "CSPINE4-35", "CSPINE4-78",
                "LG01-01", "LG03-06", "LG04-04", "LG05-07", "LG06-07", "LG10-02", "LG13-07", "LG14-04", "LG14-07", "LG18-04", "LG23-06",
                "LG27-04", "LG28-08");
        // a leaf that lost one of its two cables to a spine is named with that spine, not with the spines of other units
        assertThat(r.findings()).filteredOn(f -> f.summary().startsWith("MF0;LG13-07:")).singleElement()
                .satisfies(f -> assertThat(f.summary()).contains("uplinks missing 1 to MF0;CSPINE2-66:MQM8700/U1;").doesNotContain("CSPINE1"));
        // every other fabric FAIL is a consequence listed under one of those
        assertThat(r.findings()).filteredOn(f -> f.check().matches("fabric\\.(tree|blocking)") && f.status() == Status.FAIL && f.parent() == null)
                .allSatisfy(f -> assertThat(f.variant()).as(f.summary()).isEqualTo("uplinks_lost"));
        assertThat(r.findings()).filteredOn(f -> f.variant().equals("unreachable_top")).hasSize(13)
                .allSatisfy(f -> assertThat(f.parent()).as(f.summary()).isNotNull());
        assertThat(problems(r, "fabric.blocking")).filteredOn(f -> f.objects().stream().anyMatch(o -> o.contains("MLG")))
                .singleElement().satisfies(f -> {
                    assertThat(f.status()).isEqualTo(Status.WARN);
                    assertThat(f.variant()).isEqualTo("ratio_design");
                });
        // the two UFM appliances on MLG01-01 are named as such, not counted as its hosts
        assertThat(r.findings()).filteredOn(f -> f.check().equals("fabric.blocking") && f.status() == Status.PASS && f.summary().contains("appliance"))
                .singleElement().satisfies(f -> assertThat(f.summary()).startsWith("2 management appliance cable(s), not counted as compute downlinks (nor held to the hosts' link rate): ")
                        .contains("selene-ufm-c-01 HCA-2 on MF0;MLG01-01:MQM8700/U1 port 3", "selene-ufm-c-02 HCA-2 on MF0;MLG01-01:MQM8700/U1 port 2"));
        assertThat(r.findings()).filteredOn(f -> f.variant().equals("downlinks_extra")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.objects()).containsExactlyInAnyOrder("MF0;CSPINE1-40:MQM8700/U1", "MF0;CSPINE1-80:MQM8700/U1");
        });
        assertThat(problems(r, "fabric.tree")).filteredOn(f -> f.variant().equals("hosts_balance")).singleElement()
                .satisfies(f -> assertThat(f.summary()).startsWith("48 leaves have other host counts (14 on MF0;LG27-01:MQM8700/U1"));
        // the aggregation node on every switch shares its description by design
        assertThat(problems(r, "node.names")).isEmpty();
    }

    /**
     * An ibnetdiscover run on a GB200 host whose port had no link: the topology holds its CA and nothing else. The
     * host is not "found in the fabric": one FAIL saying discovery never left it.
     */
    @Test
    void aHostWhoseDiscoverySawNoLinkIsNotInTheFabric(@TempDir Path tmp) throws IOException {
        Report r = Analysis.of(DumpLoader.load(dump(tmp, "topograph-gb200-one-ca-no-link.txt", "dgx-gb200-n01-c1"))).report();
        assertThat(problems(r, "fabric.inventory")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.variant()).isEqualTo("unlinked");
            assertThat(f.summary()).isEqualTo("1 of 1 hosts in the topology with no link (0 switches, 1 CAs): dgx-gb200-n01-c1");
            assertThat(f.cause()).contains("discovery never left the host");
        });
        assertThat(r.verdict()).isNotEqualTo(Verdict.ACCEPTED);
    }

    /** Selene storage: the ai400x storage nodes run EDR among HDR DGX by design: one warning for the class, no FAIL per cable. */
    @Test
    void aNodeClassBelowTheOthersIsOneWarning(@TempDir Path tmp) throws IOException {
        Report r = analyse(tmp, "ufm-sdk-selene-storage-hdr-160sw-1247ca.txt");
        assertThat(problems(r, "link.speed")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.variant()).isEqualTo("class");
            assertThat(f.summary()).startsWith("all ").contains("host links of the ai#x-# hosts").contains("run at EDR, the other hosts at HDR");
        });
        assertThat(problems(r, "link.width")).isEmpty();
    }

    /** A 2:1 EDR cluster with one inter-switch link trained at DDR: read from ibnetdiscover's "4xDDR", a FAIL naming that cable. */
    @Test
    void aSlowInterSwitchLinkInIbnetdiscoverIsFound(@TempDir Path tmp) throws IOException {
        Report r = analyse(tmp, "clustervision-trinityx-edr-6sw-96ca.txt");
        assertThat(problems(r, "link.speed")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).contains("runs at DDR, expected EDR (most common among switch-to-switch links)");
            assertThat(f.evidence()).allSatisfy(e -> assertThat(e.where()).startsWith("fabric/ibnetdiscover.out:"));
        });
        assertThat(problems(r, "fabric.blocking")).filteredOn(f -> f.status() == Status.WARN && f.variant().equals("ratio_design")).hasSize(1);
    }

    /** A lab fabric with cables looped back onto their own switch: one WARN naming the switch and the looped ports. */
    @Test
    void cablesLoopedBackOntoTheirSwitchAreOneWarning(@TempDir Path tmp) throws IOException {
        Report r = analyse(tmp, "nvidia-kb-ibdiagpath-switchib-sx6012-loopback-cables.txt");
        assertThat(problems(r, "fabric.tree")).filteredOn(f -> f.variant().equals("loopback")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.summary()).startsWith("SwitchIB Mellanox Technologies: 3 cable(s) looped back onto the switch itself (port 1 <-> port ");
            assertThat(f.objects()).hasSize(6);
            assertThat(f.fix()).contains("Remove the looped cable");
        });
    }
}
