package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.SmConfig;
import io.ibaccept.parse.SmConfigParser;
import java.time.Duration;

/** opensm.conf of the running opensm (its -F file, else /etc/opensm/opensm.conf or /etc/rdma/opensm.conf), keys redacted. */
final class OpensmConf {
    private OpensmConf() {}

    /**
     * The file as it is, except the keys (sm_key, sa_key, m_key, cc_key): a dump travels with tickets, so a key other
     * than opensm's defaults (0x0, 0x1) is replaced by a short SHA-256 of it (SM nodes can still be compared). Only a
     * value of hex digits reaches the hashing shell; anything else is replaced without a hash.
     */
    static final String REDACT_KEYS = "awk '{ if (($1==\"sm_key\"||$1==\"sa_key\"||$1==\"m_key\"||$1==\"cc_key\") && NF>=2) { v=tolower($2); "
            + "if (v ~ /^0x0*[01]$/) { print; next } "
            + "if (v ~ /^0x[0-9a-f]+$/) { c=\"printf %s \" v \" | sha256sum\"; h=\"\"; c | getline h; close(c); "
            + "print $1 \" <redacted sha256:\" substr(h,1,12) \">\"; next } "
            + "print $1 \" <redacted>\"; next } print }' \"$F\"";

    static final Source<SmConfig.Conf> SOURCE = Source.smNode(Cmd.OPENSM_CONF, "opensm.conf", SmConfigParser::conf)
            .collect(o -> OpensmScripts.collect(o, "F=$CONF; " + OpensmScripts.FILE_PRESENT + REDACT_KEYS, Duration.ofSeconds(20)))
            .bestEffort()
            .hint("collect from the SM nodes: 'ibaccept collect --nodes NODES --sm-nodes SMNODES -o DUMP';"
                    + " read from opensm's -F file, /etc/opensm/opensm.conf or /etc/rdma/opensm.conf")
            .inSmConfig(SmConfig::conf);
}
