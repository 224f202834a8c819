package io.ibaccept.rules.checks;

import io.ibaccept.rules.Check;
import io.ibaccept.rules.Finding;
import java.util.Set;

/** A check about the host itself (limits, software, its HCA's PCIe link), not its fabric connection: a port down or a cable fault explains none of it. */
interface HostLocalCheck extends Check {
    @Override
    default Set<ExplainedBy> explainedBy(Finding f) {
        return Set.of();
    }
}
