package io.ibaccept.model;

import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.Manifest;
import java.util.List;
import java.util.Map;

/** The one model the rules run on: a whole dump, parsed, with every unusable input listed in problems. */
public record ClusterData(String source, Manifest manifest, Map<String, HostData> hosts, FabricData fabric,
                          List<PerftestRun> perftests, List<CommandResult> commands, List<InputProblem> problems) {
    public ClusterData {
        hosts = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(hosts));
        perftests = List.copyOf(perftests);
        commands = List.copyOf(commands);
        problems = List.copyOf(problems);
    }

    /** Problems recorded for a command file (host null for fabric-wide ones). */
    public List<InputProblem> problemsFor(String host, String commandName) {
        return problems.stream()
                .filter(p -> p.command().equals(commandName) && (host == null || host.equals(p.host())))
                .toList();
    }
}
