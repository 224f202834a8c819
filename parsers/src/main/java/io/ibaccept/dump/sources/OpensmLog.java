package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.SmConfig;
import io.ibaccept.parse.SmConfigParser;
import java.time.Duration;

/** opensm.log: a bounded tail of the running opensm's log file (its -f file, else log_file, else /var/log/opensm.log). */
final class OpensmLog {
    private OpensmLog() {}

    /** Lines of the log collected (its end). */
    static final int TAIL_LINES = 5000;

    static final Source<SmConfig.Log> SOURCE = Source.smNode(Cmd.OPENSM_LOG, "opensm.log", SmConfigParser::log)
            .collect(o -> OpensmScripts.collect(o, "F=$LOGF; " + OpensmScripts.FILE_PRESENT + "tail -n " + TAIL_LINES + " -- \"$F\"",
                    Duration.ofSeconds(30)))
            .bestEffort()
            .hint("collect from the SM nodes: 'ibaccept collect --nodes NODES --sm-nodes SMNODES -o DUMP';"
                    + " the tail of opensm's -f/log_file (default /var/log/opensm.log), readable by root")
            .inSmConfig(SmConfig::log);
}
