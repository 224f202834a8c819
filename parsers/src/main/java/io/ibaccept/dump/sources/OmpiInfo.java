package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.RdmaRuntime;
import io.ibaccept.parse.RuntimeParsers;
import java.time.Duration;

/** ompi_info: the Open MPI version and the pml components built in. */
final class OmpiInfo {
    private OmpiInfo() {}

    static final Source<RdmaRuntime.Ompi> SOURCE = Source.node(Cmd.OMPI_INFO, "ompi_info", RuntimeParsers::ompiInfo)
            .collect("ompi_info", Duration.ofSeconds(60))
            .readsHostOs()
            .bestEffort()
            .recollectHint("; needs Open MPI on the nodes' PATH (load its module in the login shell)")
            .inRuntime(RdmaRuntime::ompi);
}
