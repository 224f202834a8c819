package io.ibaccept.dump.sources;

import io.ibaccept.parse.Parser;
import io.ibaccept.parse.PerftestParser;

/**
 * perftest pairs ('ibaccept rdma'): one ib_* test between a client and a server node, both sides' outputs kept; the
 * client reports the result (the command line follows the rdma options: see PerftestRunner).
 */
final class PerftestPair {
    private PerftestPair() {}

    static final Source<io.ibaccept.model.Perftest> SOURCE = Source.pair("perftest", (t, issues) -> PerftestParser.parse(t, issues, Boolean.FALSE))
            .collectedBy(Source.CollectedBy.RDMA)
            .optional()
            .hint("run 'ibaccept rdma --nodes NODES -o DUMP'")
            .usableWhen(d -> d.perftests().stream().anyMatch(r -> r.result() != null));

    /** The server side: secondary (the client reports the result); a banner-only server is normal for latency tests. */
    static final Parser<io.ibaccept.model.Perftest> SERVER = (t, issues) -> PerftestParser.parse(t, issues, Boolean.TRUE);
}
