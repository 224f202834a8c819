package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.RdmaRuntime;
import io.ibaccept.parse.HostParsers;
import java.time.Duration;

/** ulimit-l-step: the locked-memory limit a Slurm job step gets on the node, next to the login shell's ulimit-l. */
final class UlimitLStep {
    private UlimitLStep() {}

    /**
     * Under the srun transport this already runs inside a step; over ssh a one-task step is started on this same node
     * (--immediate: never wait in the queue; the Slurm node name is the short host name). No srun on the node, or no
     * step could be started on it (not a Slurm node, node busy or drained, no account): the fact is not available,
     * recorded like a missing tool with srun's reason in stderr, so an optional fact never makes the verdict INCOMPLETE.
     */
    static final String SCRIPT = "if [ -n \"${SLURM_STEP_ID:-}\" ]; then ulimit -l; else command -v srun >/dev/null || exit 127; "
            + "srun --quiet --immediate=30 -N1 -n1 -w \"$(hostname -s)\" sh -c 'ulimit -l' "
            + "|| { echo \"no Slurm job step could be started on this node (srun exit $?)\" >&2; exit 127; }; fi";

    static final Source<Long> SOURCE = Source.node(Cmd.ULIMIT_STEP, "ulimit-l-step", HostParsers::memlockKib)
            .collect(SCRIPT, Duration.ofSeconds(60))
            .oneValue()
            .readsHostOs()
            .bestEffort()
            .hint("collected by 'ibaccept collect' on Slurm nodes (srun on the node itself, or inside the step with --slurm); needs srun on the nodes")
            .inRuntime(RdmaRuntime::stepMemlockKib);
}
