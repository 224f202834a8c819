package io.ibaccept.model;

import io.ibaccept.parse.SourceRef;
import java.util.List;
import java.util.Optional;

/**
 * The record of an SM failover drill ('ibaccept drill sm-failover'): the SM nodes, the nodes whose ports were
 * checked, and each step with its time. The values the judgement needs are read out of the steps once, here.
 *
 * @param takeoverSeconds from stopping the master until another SM was MASTER; null when none took over
 * @param newMaster       the SM node that took over, null when none did
 * @param portsChanged    what changed on the checked ports across the takeover (not Active, LID, P_Keys), empty if nothing
 * @param backSeconds     until the stopped SM had its configured role back; null when it did not
 * @param restored        the drill put back what it stopped
 */
public record SmDrill(List<String> smNodes, List<String> checkedNodes, List<DrillStep> steps, Double takeoverSeconds, String newMaster,
                      List<String> portsChanged, Double backSeconds, boolean restored, SourceRef ref) {
    public SmDrill {
        smNodes = List.copyOf(smNodes);
        checkedNodes = List.copyOf(checkedNodes);
        steps = List.copyOf(steps);
        portsChanged = List.copyOf(portsChanged);
    }

    public Optional<DrillStep> step(String kind) {
        return steps.stream().filter(s -> s.kind().equals(kind)).reduce((a, b) -> b);
    }

    /** The RDMA pair test run during the outage: passed, failed, or empty when none ran. */
    public Optional<Boolean> pairPassed() {
        return step("pair").map(s -> s.text().contains(": ok"));
    }
}
