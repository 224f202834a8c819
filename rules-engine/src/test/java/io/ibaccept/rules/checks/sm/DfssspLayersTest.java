package io.ibaccept.rules.checks.sm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How dfsssp spreads its layers over the free VLs, as osm_ucast_dfsssp.c balances them: the SLs of each layer. */
class DfssspLayersTest {
    @Test
    void eachFreeVlGoesToTheLayerWithTheMostPathsPerSl() {
        // ibsim ring4.net (opensm.log in parsers' real samples): 128 paths on layer 1, 4 on layer 2, 8 VLs
        assertThat(SmFacts.split(List.of(128L, 4L), 8)).containsExactly(7, 1);
        assertThat(SmFacts.split(List.of(10L, 10L), 4)).containsExactly(2, 2);
        // as many layers as VLs: nothing to spread
        assertThat(SmFacts.split(List.of(5L, 1L, 1L), 3)).containsExactly(1, 1, 1);
    }
}
