package io.ibaccept.rules.checks;

import io.ibaccept.rules.Check;
import io.ibaccept.rules.Finding;
import java.util.Set;

/**
 * A check judging RDMA tests between hosts: its findings are no roots; a port down, a cable fault (also at the HCA end
 * of a host of the pair) or the hardware of one of its hosts explains them. Its pairs are named in its evidence.
 */
interface PairTest extends Check {
    @Override
    default RootRole rootRole(Finding f) {
        return null;
    }

    @Override
    default Set<ExplainedBy> explainedBy(Finding f) {
        return Set.of(ExplainedBy.PORT_DOWN, ExplainedBy.CABLE, ExplainedBy.CABLE_AT_HCA, ExplainedBy.HOST_HARDWARE);
    }

    @Override
    default Naming naming() {
        return Naming.PAIRS;
    }
}
