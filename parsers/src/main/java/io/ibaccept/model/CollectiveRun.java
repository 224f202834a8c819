package io.ibaccept.model;

import java.util.List;

/**
 * One collective benchmark run of the dump (collective/NAME.{out,meta}): what ran where (launch host, ranks, ranks per
 * node, nodes, exact command), how it ended (status words of CommandResult, stderr), and the parsed result (null when
 * the run failed, was missing or unparsable; problem then says why, with file:line where known).
 */
public record CollectiveRun(String name, String host, String launcher, int ranks, int ppn, List<String> nodes,
                            String command, String status, String stderr, Collective result, String problem,
                            String problemWhere) {
    public CollectiveRun {
        nodes = List.copyOf(nodes);
    }

    public String file() {
        return "collective/" + name + ".out";
    }
}
