package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.SmConfig;
import io.ibaccept.parse.SmConfigParser;
import java.time.Duration;

/** partitions.conf of the running opensm (its -P file, else partition_config_file, else /etc/opensm/partitions.conf). */
final class PartitionsConf {
    private PartitionsConf() {}

    static final Source<SmConfig.Partitions> SOURCE = Source.smNode(Cmd.PARTITIONS_CONF, "partitions.conf", SmConfigParser::partitions)
            .collect(o -> OpensmScripts.collect(o, "F=$PART; " + OpensmScripts.FILE_PRESENT + "cat -- \"$F\"", Duration.ofSeconds(20)))
            .bestEffort()
            .hint("collect from the SM nodes: 'ibaccept collect --nodes NODES --sm-nodes SMNODES -o DUMP';"
                    + " read from opensm's -P file, partition_config_file or /etc/opensm/partitions.conf (absent: opensm runs the default partition only)")
            .inSmConfig(SmConfig::partitions);
}
