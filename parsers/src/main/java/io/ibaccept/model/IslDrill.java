package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.List;
import java.util.Optional;

/**
 * The record of an ISL drill ('ibaccept drill isl'): one switch-to-switch link disabled, the SM's re-route timed, the
 * link enabled again and its width and speed compared with before.
 *
 * @param link           "leaf01 (lid 4) port 17 <-> spine01 (lid 2) port 1"
 * @param rerouteSeconds until no LID was routed out of either end; null when the routes did not move
 * @param backSeconds    until the link was Active again after the enable; null when it did not come back
 * @param degraded       it came back below its width or speed before
 * @param restored       the drill enabled the port again
 */
public record IslDrill(String link, List<DrillStep> steps, Double rerouteSeconds, Double backSeconds, boolean degraded, boolean restored,
                       SourceRef ref) {
    public IslDrill {
        steps = List.copyOf(steps);
    }

    public Optional<DrillStep> step(String kind) {
        return steps.stream().filter(s -> s.kind().equals(kind)).reduce((a, b) -> b);
    }

    /** The RDMA pair test run during the outage: passed, failed, or empty when none ran. */
    public Optional<Boolean> pairPassed() {
        return step("pair").map(s -> s.text().contains(": ok"));
    }
}
