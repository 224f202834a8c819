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
    // --get_cable_info and --get_phy_info add the module and FEC/BER files (ibdiagnet2.cables, ibdiagnet2.net_dump_ext),
    // asked for where this ibdiagnet lists them
    static final String SCRIPT = "run() { rm -rf " + DIR + " && ibdiagnet -o " + DIR + " \"$@\" >/dev/null; }; "
            + "help=$({ ibdiagnet --help; ibdiagnet --deep_help; } 2>/dev/null); opts=; "
            + "for o in --congestion_control --get_cable_info --get_phy_info; do printf '%s\\n' \"$help\" | grep -q -e \"$o\" && opts=\"$opts $o\"; done; "
            + "run $opts; [ $? -eq 127 ] && exit 127; if [ -n \"$opts\" ] && [ ! -s " + DIR + "/ibdiagnet2.log ]; then run; fi; "
            + "cat " + DIR + "/ibdiagnet2.log";

    /** Exit code of {@link #file}'s script when the run wrote no such file (an ibdiagnet without the option that writes it). */
    static final int NO_FILE = 3;

    /** How a file of the same run is collected: read from {@link #DIR}; absent is not a failure. */
    static Source.Collect file(String name) {
        return new Source.Collect("[ -e " + DIR + "/" + name + " ] || exit " + NO_FILE + "; cat " + DIR + "/" + name, Duration.ofSeconds(60),
                java.util.Set.of(0), java.util.Set.of(NO_FILE));
    }

    static final Source<Ibdiagnet.Log> SOURCE = Source.fabric(Cmd.IBDIAGNET_LOG, "ibdiagnet2.log", IbdiagnetParser::log)
            .collect(o -> o.ibdiagnet() ? new Source.Collect(SCRIPT, Duration.ofSeconds(900)) : null)
            .optional()
            .hint("collect with --ibdiagnet; needs ibdiagnet (ibutils2) on the fabric node")
            .inFabric(FabricData::diagLog);
}
