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
 * Rails read however the hosts name their HCAs, on the real SuperPOD capture (one DGX, b08-p1-dgx-08-c01, really has its
 * HCA-5 and HCA-6 cables swapped): with the devices left out of the node descriptions of the hosts that name them
 * "mlx5_N", those hosts' HCAs are ranked by port GUID. In this fabric GUID order is not HCA order on every DGX (replaced
 * cards are out of sequence), so what GUID order alone shows is a warning to check at the host, never a FAIL; the swap
 * read from names stays the one FAIL.
 */
class RailsFromAnyNamingTest {
    static final Path CAPTURE = Path.of("..", "parsers", "src", "test", "resources", "real", "ibnetdiscover", "topograph-ndr-superpod-40sw-582ca.txt");

    static Report analyse(Path tmp, String ibnetdiscover) throws IOException {
        Path d = tmp.resolve("dump");
        Files.createDirectories(d.resolve("fabric"));
        Files.writeString(d.resolve("fabric/ibnetdiscover.out"), ibnetdiscover);
        Files.writeString(d.resolve("manifest.txt"), "format: 1\ncluster: real\nfabric_node: fab\nnodes: fab\n");
        return Analysis.of(DumpLoader.load(d)).report();
    }

    static List<Finding> rails(Report r) {
        return r.findings().stream().filter(f -> f.check().equals("fabric.rails") && (f.status() == Status.FAIL || f.status() == Status.WARN)).toList();
    }

    @Test
    void hostsWhoseDescriptionsNameNoDeviceAreRankedByPortGuidAndOnlyWarn(@TempDir Path tmp) throws IOException {
        // "a05-p1-dgx-01-c02 mlx5_4" -> "a05-p1-dgx-01-c02": the host name alone, as a node description may be set
        String text = Files.readString(CAPTURE).replaceAll("\"(a\\d\\d-p1-dgx-\\d\\d-c\\d\\d) mlx5_\\d\"", "\"$1\"");
        assertThat(text).doesNotContainPattern("a\\d\\d-p1-dgx-\\d\\d-c\\d\\d mlx5_");
        List<Finding> found = rails(analyse(tmp, text));
        assertThat(found).filteredOn(f -> f.status() == Status.FAIL).singleElement().satisfies(f -> {
            assertThat(f.variant()).isEqualTo("swap");
            assertThat(f.objects()).containsExactly("b08-p1-dgx-08-c01 HCA-6", "b08-p1-dgx-08-c01 HCA-5");
        });
        assertThat(found).filteredOn(f -> f.status() == Status.WARN).singleElement().satisfies(f -> {
            assertThat(f.variant()).isEqualTo("swap_by_guid");
            assertThat(f.summary()).contains("by port GUID order").contains("(by port GUID)");
            assertThat(f.fix()).startsWith("On the host, map each HCA to its cable");
        });
    }
}
