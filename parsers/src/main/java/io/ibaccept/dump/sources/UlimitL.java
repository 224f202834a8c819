package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.parse.HostParsers;
import java.time.Duration;

/** ulimit -l: the locked-memory limit of the login shell (over ssh) or of the job step (srun), in KiB. */
final class UlimitL {
    private UlimitL() {}

    static final Source<Long> SOURCE = Source.node(Cmd.ULIMIT, "ulimit-l", HostParsers::memlockKib)
            .collect("ulimit -l", Duration.ofSeconds(10))
            .oneValue()
            .recollectHint(" (use --slurm to see the limit of a job step)")
            .inHost(HostData::memlockKib);
}
