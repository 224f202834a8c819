package io.ibaccept.rdma;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.model.Topology;
import io.ibaccept.parse.IbnetdiscoverParser;
import io.ibaccept.parse.Text;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** burn --duration auto: long enough for the slowest link to carry the bits that prove the BER target (95 %). */
class BurnAutoDurationTest {
    static Topology topology(Path file) throws Exception {
        return IbnetdiscoverParser.parse(new Text(file.toString(), Files.readString(file)));
    }

    @Test
    void ndrAndHdrFabricsGetTheTimeTheirSlowestLinkNeeds() throws Exception {
        // a real NDR SuperPOD fabric, every link 4X NDR (400 Gb/s): 3.0e12 bits at 80 % of 400 Gb/s
        Topology ndr = topology(Path.of("..", "parsers", "src", "test", "resources", "real", "ibnetdiscover", "topograph-ndr-superpod-40sw-582ca.txt"));
        assertThat(BurnIn.autoSecondsPerRound(ndr, 1e-12)).isEqualTo(10);
        assertThat(BurnIn.autoSecondsPerRound(ndr, 1e-15)).isEqualTo(9362);
        // the demo's HDR fabric: 4X HDR (200 Gb/s), but one link trained at 1X (50 Gb/s) sets the pace
        Topology hdr = topology(Path.of("..", "sample-dumps", "dumps", "demo-hdr16", "fabric", "ibnetdiscover.out"));
        assertThat(BurnIn.autoSecondsPerRound(hdr, 1e-12)).isEqualTo(75);
        assertThat(BurnIn.autoSecondsPerRound(hdr, 1e-9)).isEqualTo(5);
    }
}
