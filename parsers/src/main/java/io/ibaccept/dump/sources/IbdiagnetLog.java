package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.Ibdiagnet;
import io.ibaccept.parse.IbdiagnetParser;
import java.time.Duration;

/**
 * ibdiagnet2.log: the -E- and -W- messages of an ibdiagnet run on the fabric node (collect --ibdiagnet). The run writes
 * its files into {@link #DIR}; ibdiagnet2.db_csv is read from there next.
 */
final class IbdiagnetLog {
    private IbdiagnetLog() {}

    static final String DIR = "/tmp/ibaccept-ibdiagnet2";

    // --congestion_control (ibdiagnet 2.8+) adds the CC_* sections to db_csv; older versions reject unknown options,
    // and a run that the option breaks (no log written) is done again without it, so the rest of the data is kept
    static final String SCRIPT = "run() { rm -rf " + DIR + " && ibdiagnet -o " + DIR + " \"$@\" >/dev/null; }; "
            + "cc=; { ibdiagnet --help; ibdiagnet --deep_help; } 2>/dev/null | grep -q -e --congestion_control && cc=--congestion_control; "
            + "run $cc; [ $? -eq 127 ] && exit 127; if [ -n \"$cc\" ] && [ ! -s " + DIR + "/ibdiagnet2.log ]; then run; fi; "
            + "cat " + DIR + "/ibdiagnet2.log";

    static final Source<Ibdiagnet.Log> SOURCE = Source.fabric(Cmd.IBDIAGNET_LOG, "ibdiagnet2.log", IbdiagnetParser::log)
            .collect(o -> o.ibdiagnet() ? new Source.Collect(SCRIPT, Duration.ofSeconds(900)) : null)
            .optional()
            .hint("collect with --ibdiagnet; needs ibdiagnet (ibutils2) on the fabric node")
            .inFabric(FabricData::diagLog);
}
