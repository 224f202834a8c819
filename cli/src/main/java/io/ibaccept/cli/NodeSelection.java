package io.ibaccept.cli;

import io.ibaccept.collect.NodeGroups;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Which nodes to work on: exactly one of --nodes, --hostfile, --slurm. A hostlist may name ClusterShell node groups
 * ({@link NodeGroups}).
 */
final class NodeSelection {
    @Option(names = "--nodes", paramLabel = "HOSTLIST", description = "Slurm-style hostlist, e.g. 'node[001-128],gpu[01-04]', or "
            + "ClusterShell node groups: '@compute', '@rack1,node[01-04]', '@roles:gpu!node07' (operators , ! & ^; nodeset -e where "
            + "installed, else groups.conf and groups.d/*.yaml, CLUSTERSHELL_CFGDIR honoured)")
    String hostlist;

    @Option(names = "--hostfile", paramLabel = "FILE", description = "one host, hostlist or node group per line, '#' comments")
    Path hostfile;

    @Option(names = "--slurm", description = "the nodes of this Slurm allocation (SLURM_JOB_NODELIST); default transport srun (collect: one job step over them)")
    boolean slurm;

    List<String> nodes() {
        List<String> ns = new ArrayList<>();
        if (hostlist != null) ns.addAll(expand(hostlist, "--nodes"));
        else if (hostfile != null) {
            List<String> lines;
            try {
                lines = Files.readAllLines(hostfile);
            } catch (IOException e) {
                throw new Main.UsageError(hostfile + ": cannot read hostfile: " + e.getMessage());
            }
            int n = 0;
            for (String l : lines) {
                n++;
                int hash = l.indexOf('#');
                String s = (hash < 0 ? l : l.substring(0, hash)).trim();
                if (!s.isEmpty()) ns.addAll(expand(s.split("\\s+")[0], hostfile + ":" + n));
            }
        } else {
            String nl = System.getenv("SLURM_JOB_NODELIST");
            if (nl == null) throw new Main.UsageError("--slurm: SLURM_JOB_NODELIST is not set (run inside salloc/sbatch)");
            ns.addAll(io.ibaccept.model.Hostlist.expand(nl));
        }
        if (ns.isEmpty()) throw new Main.UsageError("no nodes given");
        return List.copyOf(new java.util.LinkedHashSet<>(ns));
    }

    /** A hostlist or node-group expression; where: the option or file:line it came from, for the message. */
    static List<String> expand(String expr, String where) {
        try {
            return new NodeGroups().expand(expr);
        } catch (NodeGroups.GroupError e) {
            throw new Main.UsageError(where + ": " + e.getMessage());
        }
    }
}
