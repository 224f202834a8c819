package io.ibaccept.cli;

import io.ibaccept.model.Hostlist;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Which nodes to work on: exactly one of --nodes, --hostfile, --slurm. */
final class NodeSelection {
    @Option(names = "--nodes", paramLabel = "HOSTLIST", description = "Slurm-style hostlist, e.g. 'node[001-128],gpu[01-04]'")
    String hostlist;

    @Option(names = "--hostfile", paramLabel = "FILE", description = "one host (or hostlist) per line, '#' comments")
    Path hostfile;

    @Option(names = "--slurm", description = "the nodes of this Slurm allocation (SLURM_JOB_NODELIST); default transport srun")
    boolean slurm;

    List<String> nodes() {
        List<String> ns = new ArrayList<>();
        if (hostlist != null) ns.addAll(Hostlist.expand(hostlist));
        else if (hostfile != null) {
            List<String> lines;
            try {
                lines = Files.readAllLines(hostfile);
            } catch (IOException e) {
                throw new Main.UsageError(hostfile + ": cannot read hostfile: " + e.getMessage());
            }
            for (String l : lines) {
                int hash = l.indexOf('#');
                String s = (hash < 0 ? l : l.substring(0, hash)).trim();
                if (!s.isEmpty()) ns.addAll(Hostlist.expand(s.split("\\s+")[0]));
            }
        } else {
            String nl = System.getenv("SLURM_JOB_NODELIST");
            if (nl == null) throw new Main.UsageError("--slurm: SLURM_JOB_NODELIST is not set (run inside salloc/sbatch)");
            ns.addAll(Hostlist.expand(nl));
        }
        if (ns.isEmpty()) throw new Main.UsageError("no nodes given");
        return ns;
    }
}
