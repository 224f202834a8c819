package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Node descriptions shared by nodes with different GUIDs (two CAs both called "cn010 mlx5_0", switches left at the
 * vendor default): every finding naming such a node is ambiguous. The engine marks those findings with the GUIDs.
 */
final class NodeNames implements HostLocalCheck {
    public String id() {
        return "node.names";
    }

    /** Which node a description means: a tool message naming that node repeats it. */
    public RootRole rootRole(io.ibaccept.rules.Finding f) {
        return RootRole.NODE_IDENTITY;
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBNETDISCOVER, Cmd.IBLINKINFO));
    }

    public void evaluate(Ctx c) {
        // every Quantum switch's SHARP aggregation node has the same description by design: a name nobody gives it
        Map<String, List<Long>> dup = new java.util.TreeMap<>(c.index.ambiguousNames());
        dup.values().removeIf(guids -> guids.stream().allMatch(g -> {
            io.ibaccept.fabric.Fabric.Node n = c.fabric().node(g);
            return n != null && n.role() == io.ibaccept.fabric.Fabric.Role.AGGREGATION_NODE;
        }));
        for (Map.Entry<String, List<Long>> e : dup.entrySet()) {
            String guids = e.getValue().stream().map(g -> String.format("0x%016x", g)).collect(Collectors.joining(", "));
            c.problem(Status.WARN, List.of(e.getKey()), List.of(Evidence.of("\"" + e.getKey() + "\": node GUIDs " + guids,
                            c.data.fabric().topology() != null ? Cmd.IBNETDISCOVER.path(null) : Cmd.IBLINKINFO.path(null))),
                    e.getValue().size() + " nodes share the description \"" + e.getKey() + "\" (GUIDs " + guids + ")", "",
                    Map.of("name", e.getKey(), "guids", guids, "count", e.getValue().size()));
        }
        if (dup.isEmpty()) c.pass("every node description in the fabric is unique", List.of(), List.of());
    }
}
