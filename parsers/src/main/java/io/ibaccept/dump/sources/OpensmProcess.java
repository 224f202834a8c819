package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.SmConfig;
import io.ibaccept.parse.SmConfigParser;
import java.time.Duration;

/** opensm-process: ibaccept's record of the running opensm: pid, arguments, and the config, partitions and log files it uses. */
final class OpensmProcess {
    private OpensmProcess() {}

    static final Source<SmConfig.Process> SOURCE = Source.smNode(Cmd.OPENSM_PROCESS, "opensm-process", SmConfigParser::process)
            .collect(o -> OpensmScripts.collect(o, "echo \"pid: $SMPID\"; echo \"config: $CONF\"; echo \"partitions: $PART\"; echo \"log: $LOGF\"; "
                    + "printf '%s\\n' \"$ARGS\" | while IFS= read -r a; do [ -n \"$a\" ] && printf 'arg: %s\\n' \"$a\"; done; exit 0",
                    Duration.ofSeconds(20)))
            .bestEffort()
            .hint("collect from the SM nodes: 'ibaccept collect --nodes NODES --sm-nodes SMNODES -o DUMP'"
                    + " (by default from the collected nodes where an opensm process runs)")
            .inSmConfig(SmConfig::process);
}
