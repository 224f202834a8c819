package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.SmConfig;
import io.ibaccept.parse.SmConfigParser;
import java.time.Duration;

/**
 * The routing files the running opensm names (its command line, else opensm.conf): root, compute-node, I/O and ID GUID
 * files, the routing order, the port-profile ignore list, hop weights and port search order. Each one as
 * "### KEY PATH" and its text (at most 4 MB), so a twin of the fabric routes as the SM does.
 */
final class OpensmRoutingFiles {
    private OpensmRoutingFiles() {}

    /** opensm.conf key and its command-line options (short, long). */
    static final String[][] FILES = {{"root_guid_file", "-a", "--root_guid_file"}, {"cn_guid_file", "-u", "--cn_guid_file"},
            {"io_guid_file", "-G", "--io_guid_file"}, {"ids_guid_file", "-m", "--ids_guid_file"},
            {"guid_routing_order_file", "-X", "--guid_routing_order_file"}, {"port_prof_ignore_file", "-i", "--port_prof_ignore_file"},
            {"hop_weights_file", "-w", "--hop_weights_file"}, {"port_search_ordering_file", "-O", "--port_search_ordering_file"}};

    static String script() {
        StringBuilder s = new StringBuilder("found=; ");
        for (String[] f : FILES)
            s.append("v=$(optv ").append(f[1]).append(' ').append(f[2]).append("); [ -n \"$v\" ] || v=$(confv ").append(f[0]).append("); ")
                    .append("if [ -n \"$v\" ] && [ \"$v\" != '(null)' ]; then found=1; p=$(abs \"$v\"); printf '### %s %s\\n' ").append(f[0])
                    .append(" \"$v\"; if [ -r \"$p\" ]; then head -c 4000000 -- \"$p\"; echo; else echo '### unreadable'; fi; fi; ");
        return s.append("[ -n \"$found\" ] || { echo 'opensm names no routing file' >&2; exit ").append(OpensmScripts.NOT_HERE).append("; }").toString();
    }

    static final Source<SmConfig.RoutingFiles> SOURCE = Source.smNode(Cmd.OPENSM_ROUTING_FILES, "opensm-routing-files", SmConfigParser::routingFiles)
            .collect(o -> OpensmScripts.collect(o, script(), Duration.ofSeconds(20)))
            .bestEffort()
            .hint("collect from the SM nodes: 'ibaccept collect --nodes NODES --sm-nodes SMNODES -o DUMP';"
                    + " the files opensm's root_guid_file, cn_guid_file, guid_routing_order_file (and the like) name")
            .inSmConfig(SmConfig::routingFiles);
}
