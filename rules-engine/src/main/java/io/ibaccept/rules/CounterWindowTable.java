package io.ibaccept.rules;

import io.ibaccept.model.ClusterData;
import io.ibaccept.model.CounterSample;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.rules.counters.CounterWindowData;
import io.ibaccept.rules.counters.LinkWindowRow;
import io.ibaccept.rules.counters.WindowJudge;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-link counter table of the report (worst first): errors in the window, rate, BER, carried load. With only
 * one sample the rows carry the cumulative counts, snapshotOnly set and no rates.
 */
public final class CounterWindowTable {
    private CounterWindowTable() {}

    /** verdicts: the links judged over the window (the ones the link.errors.window check reported), empty without one. */
    static List<LinkWindowRow> rows(ClusterData d, FabricIndex idx, List<WindowJudge.Verdict> verdicts) {
        if (CounterWindowData.of(d).isPresent()) return verdicts.stream().map(WindowJudge.Verdict::row).toList();
        CounterSample one = d.fabric().countersStart() != null ? d.fabric().countersStart() : d.fabric().countersEnd();
        if (one == null) return List.of();
        Map<String, CounterSample.Port> byKey = new HashMap<>();
        for (CounterSample.Port p : one.ports()) byKey.put(p.key(), p);
        List<LinkWindowRow> rows = new ArrayList<>();
        for (FabricIndex.Link l : idx.links()) {
            long errs = errors(byKey.get(key(l.a()))) + (l.b() == null ? 0 : errors(byKey.get(key(l.b()))));
            boolean isl = l.a().switchNode() && l.b() != null && l.b().switchNode();
            rows.add(new LinkWindowRow(l.a().nodeName() + " port " + l.a().port(), l.b() == null ? "" : l.b().nodeName() + " port " + l.b().port(),
                    isl, 0, false, Double.NaN, Double.NaN, 0, false, 0, Double.NaN, errs, true,
                    errs > 0 ? Status.WARN : Status.PASS, "single counter sample: cumulative since the last reboot or clear, no rate"));
        }
        rows.sort(LinkWindowRow.WORST_FIRST);
        return rows;
    }

    private static String key(LinkInfo l) {
        return l.lid() + ":" + l.port();
    }

    private static long errors(CounterSample.Port p) {
        if (p == null) return 0;
        long n = 0;
        for (String c : List.of("SymbolErrorCounter", "LinkErrorRecoveryCounter", "LinkDownedCounter", "PortRcvErrors",
                "PortRcvRemotePhysicalErrors", "LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors", "PortXmitDiscards"))
            n += p.counters().getOrDefault(c, 0L);
        return n;
    }
}
