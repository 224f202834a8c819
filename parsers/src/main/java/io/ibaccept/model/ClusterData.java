package io.ibaccept.model;

import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.Manifest;
import java.util.List;
import java.util.Map;

/**
 * The one model the rules run on: a whole dump, parsed, with every unusable input listed in problems. collectives are
 * the MPI/NCCL collective benchmark runs of collective/ (empty when none were run). dumpId is the
 * {@linkplain io.ibaccept.dump.DumpId dump id} the loader computed while reading the files (null when the model was
 * not loaded from a dump: whoever needs it then computes it from source).
 */
public record ClusterData(String source, Manifest manifest, Map<String, HostData> hosts, FabricData fabric,
                          List<PerftestRun> perftests, List<CommandResult> commands, List<InputProblem> problems,
                          List<CollectiveRun> collectives, String dumpId) {
    public ClusterData {
        hosts = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(hosts));
        perftests = List.copyOf(perftests);
        commands = List.copyOf(commands);
        problems = List.copyOf(problems);
        collectives = collectives == null ? List.of() : List.copyOf(collectives);
    }

    /** A model whose dump id is not known. */
    public ClusterData(String source, Manifest manifest, Map<String, HostData> hosts, FabricData fabric,
                       List<PerftestRun> perftests, List<CommandResult> commands, List<InputProblem> problems,
                       List<CollectiveRun> collectives) {
        this(source, manifest, hosts, fabric, perftests, commands, problems, collectives, null);
    }

    /** A dump without collective benchmark runs. */
    public ClusterData(String source, Manifest manifest, Map<String, HostData> hosts, FabricData fabric,
                       List<PerftestRun> perftests, List<CommandResult> commands, List<InputProblem> problems) {
        this(source, manifest, hosts, fabric, perftests, commands, problems, List.of(), null);
    }

    /** Problems recorded for a command file (host null for fabric-wide ones). */
    public List<InputProblem> problemsFor(String host, String commandName) {
        return problems.stream()
                .filter(p -> p.command().equals(commandName) && (host == null || host.equals(p.host())))
                .toList();
    }

    /**
     * The lines of a command's output that could not be read (file:line problems, a cut output at its last line):
     * the records that should be there may be on them, so what the rest does not show is not known.
     */
    public List<InputProblem> unreadableLines(String host, String commandName) {
        return problemsFor(host, commandName).stream().filter(p -> p.kind() == InputProblem.Kind.PARSE_ERROR && p.line() > 0).toList();
    }
}
