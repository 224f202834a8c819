package io.ibaccept.report;

import io.ibaccept.fabric.Fabric;
import io.ibaccept.fabric.FabricBuilder;
import io.ibaccept.model.ClusterData;
import java.lang.ref.WeakReference;

/**
 * What several outputs derive from the same dump, computed once: the dump id (a hash over every file of the dump),
 * the operations view of the topology and the fabric graph of the picture. writeAll renders ten files from one
 * ClusterData; without this each of them walked the dump and rebuilt the topology again. Kept for the last dump
 * rendered only (by identity, weakly), so nothing outlives the analysis.
 */
final class ReportFacts {
    private final ClusterData data;
    private String dumpId;
    private FabricView view;
    private Fabric fabric;
    private boolean fabricBuilt;
    private java.util.List<io.ibaccept.rules.counters.LinkWindowRow> linkWindow;
    private io.ibaccept.rules.RuleConfig linkWindowCfg;

    private ReportFacts(ClusterData data) {
        this.data = data;
    }

    private static WeakReference<ReportFacts> last = new WeakReference<>(null);

    static synchronized ReportFacts of(ClusterData data) {
        ReportFacts f = last.get();
        if (f == null || f.data != data) {
            f = new ReportFacts(data);
            last = new WeakReference<>(f);
        }
        return f;
    }

    synchronized String dumpId() {
        // the loader hashed the files while reading them; only a model built otherwise is hashed here
        if (dumpId == null) dumpId = data.dumpId() != null ? data.dumpId() : ReportText.hashDumpOf(data);
        return dumpId;
    }

    synchronized FabricView view() {
        if (view == null) view = new FabricView(data);
        return view;
    }

    /** The fabric graph of the dump's topology, or null when it has no switch. */
    synchronized Fabric fabric() {
        if (!fabricBuilt) {
            var fd = data.fabric();
            if (fd != null && (fd.topology() != null || fd.links() != null)) {
                Fabric f = FabricBuilder.build(fd.topology(), fd.links(), null);
                fabric = f.switches().isEmpty() ? null : f;
            }
            fabricBuilt = true;
        }
        return fabric;
    }

    /** The counter-window link table (rules CounterWindowTable), for the HTML, the PDF and linkwindow.csv. */
    synchronized java.util.List<io.ibaccept.rules.counters.LinkWindowRow> linkWindow(io.ibaccept.rules.RuleConfig cfg) {
        if (linkWindow == null || linkWindowCfg != cfg) {
            var fd = data.fabric();
            // no counter sample at all: nothing to tabulate (and no need to index the fabric for it)
            linkWindow = fd == null || fd.countersStart() == null && fd.countersEnd() == null ? java.util.List.of()
                    : io.ibaccept.rules.CounterWindowTable.rows(data, cfg);
            linkWindowCfg = cfg;
        }
        return linkWindow;
    }

    /** The hosts' leaves for the heat maps, from the same fabric graph as the picture (FabricView.of(data) built another). */
    private io.ibaccept.rules.perf.FabricView perfView() {
        Fabric f;
        try {
            f = fabric();
        } catch (RuntimeException e) {
            return io.ibaccept.rules.perf.FabricView.empty(); // as FabricView.of: the fabric checks report an unusable topology
        }
        return f == null ? io.ibaccept.rules.perf.FabricView.empty() : io.ibaccept.rules.perf.FabricView.of(f, data);
    }

    private java.util.List<PerfSection.Figure> perfFigures;
    private java.util.Map<String, java.util.List<String>> perfCommands;
    private io.ibaccept.rules.RuleConfig perfCfg;

    /** The RDMA performance figures (heat maps, sweeps) for the HTML and the PDF. */
    synchronized java.util.List<PerfSection.Figure> perfFigures(io.ibaccept.rules.Report r, io.ibaccept.rules.RuleConfig cfg) {
        perf(r, cfg);
        return perfFigures;
    }

    synchronized java.util.Map<String, java.util.List<String>> perfCommands(io.ibaccept.rules.Report r, io.ibaccept.rules.RuleConfig cfg) {
        perf(r, cfg);
        return perfCommands;
    }

    private void perf(io.ibaccept.rules.Report r, io.ibaccept.rules.RuleConfig cfg) {
        if (perfFigures != null && perfCfg == cfg) return;
        boolean none = data.perftests().isEmpty();
        perfFigures = none ? java.util.List.of() : PerfSection.figures(r, cfg, perfView());
        perfCommands = none ? java.util.Map.of() : PerfSection.commands(r, cfg);
        perfCfg = cfg;
    }
}
