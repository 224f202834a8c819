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
        Path d = tmp.resolve("dump");
        Files.createDirectories(d.resolve("fabric"));
        Files.copy(Path.of("..", "parsers", "src", "test", "resources", "real", "ibnetdiscover", capture), d.resolve("fabric/ibnetdiscover.out"));
        Files.writeString(d.resolve("manifest.txt"), "format: 1\ncluster: real\nfabric_node: fab\nnodes: fab\n");
        return Analysis.of(DumpLoader.load(d)).report();
    }

    static List<Finding> problems(Report r, String check) {
        return r.findings().stream().filter(f -> f.check().equals(check) && (f.status() == Status.FAIL || f.status() == Status.WARN)).toList();
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
