package io.ibaccept.rules;

import io.ibaccept.fabric.CablingPlan;
import io.ibaccept.fabric.Fabric;
import io.ibaccept.fabric.FabricBuilder;
import io.ibaccept.fabric.FabricOptions;
import io.ibaccept.fabric.PlanDiff;
import io.ibaccept.model.ClusterData;
import io.ibaccept.rules.counters.LinkWindowRow;
import io.ibaccept.rules.perf.FabricView;
import io.ibaccept.rules.perf.PerfAnalysis;
import java.util.List;
import java.util.function.Supplier;

/**
 * What the checks and the reports derive from one dump, each computed at most once and only when first asked for:
 * the fabric graph (with the node-name-map), its fat-tree reading, the routing walk, the port index of iblinkinfo, the
 * cabling plan comparison, the RDMA performance analysis with the hosts' leaves, and the counter-window link table.
 * One instance belongs to one analysis; nothing is kept beyond it. Safe to share between the report threads.
 */
public final class DumpFacts {
    private final ClusterData data;
    private final RuleConfig cfg;
    private final FabricOptions options;
    private final io.ibaccept.contract.Contract contract;
    private final Once<Fabric> fabric;
    private final Once<Fabric> diagFabric;
    private final Once<io.ibaccept.fabric.Routing> routing;
    private final Once<io.ibaccept.fabric.FatTree.Result> fatTree;
    private final Once<FabricIndex> index;
    private final Once<PlanDiff.Result> planDiff;
    private final Once<PerfAnalysis> perf;
    private final Once<FabricView> perfView;
    private final Once<List<io.ibaccept.rules.counters.WindowJudge.Verdict>> windowVerdicts;
    private final Once<List<LinkWindowRow>> linkWindow;
    private final Once<HostLinkMajority> hostLinkMajority;
    /** What the Once values below derived, in the order they finished. */
    private final List<Derived> derived = java.util.Collections.synchronizedList(new java.util.ArrayList<>());

    public DumpFacts(ClusterData data, RuleConfig cfg, FabricOptions options) {
        this(data, cfg, options, null);
    }

    /** contract: what the cluster must be, or null (expectations are then inferred from the fabric). */
    public DumpFacts(ClusterData data, RuleConfig cfg, FabricOptions options, io.ibaccept.contract.Contract contract) {
        this.contract = contract;
        this.data = data;
        this.cfg = cfg;
        this.options = options == null ? FabricOptions.NONE : options;
        fabric = new Once<>("fabric_graph", () -> FabricBuilder.build(data, this.options.names()));
        index = new Once<>("port_index", () -> new FabricIndex(data, fabricOrNull()));
        diagFabric = new Once<>("ibdiagnet_fabric_graph", () -> {
            var fd = data.fabric();
            return fd == null || fd.diagTopology() == null ? null : FabricBuilder.build(fd.diagTopology(), null, this.options.names());
        });
        routing = new Once<>("routing_walk", () -> {
            Fabric f = fabricIfBuilt();
            var t = data.fabric() == null ? null : data.fabric().lfts();
            return f == null || t == null ? null : io.ibaccept.fabric.Routing.analyze(f, t);
        });
        fatTree = new Once<>("fat_tree", () -> io.ibaccept.fabric.FatTree.validate(fabric(), treeSettings()));
        planDiff = new Once<>("plan_diff", this::comparePlan);
        perf = new Once<>("rdma_analysis", () -> PerfAnalysis.of(data, cfg));
        perfView = new Once<>("rdma_leaves", this::leaves);
        hostLinkMajority = new Once<>("host_link_majority", this::majority);
        windowVerdicts = new Once<>("window_verdicts", () -> io.ibaccept.rules.counters.CounterWindowData.of(data)
                .map(w -> new io.ibaccept.rules.counters.WindowJudge(data, w, io.ibaccept.rules.counters.WindowJudge.Limits.of(cfg)).judge(index().links()))
                .orElse(List.of()));
        linkWindow = new Once<>("link_window", () -> {
            var fd = data.fabric();
            // no counter sample at all: nothing to tabulate (and no need to index the fabric for it)
            return fd == null || fd.countersStart() == null && fd.countersEnd() == null ? List.of() : CounterWindowTable.rows(data, index(), windowVerdicts());
        });
    }

    public ClusterData data() {
        return data;
    }

    public RuleConfig rules() {
        return cfg;
    }

    public FabricOptions options() {
        return options;
    }

    /** The acceptance contract, or null. */
    public io.ibaccept.contract.Contract contract() {
        return contract;
    }

    /** The fabric graph (ibnetdiscover + iblinkinfo + node-name-map). Throws what the builder threw, each time asked. */
    public Fabric fabric() {
        return fabric.get();
    }

    /**
     * The graph of ibdiagnet's own copy of the topology (ibdiagnet2.ibnetdiscover), for ibdiagnet's port reports when the
     * dump's graph does not hold their nodes; null without that file.
     */
    public Fabric diagFabric() {
        return diagFabric.get();
    }

    /** What the switches' forwarding tables do on the fabric (dump_fts walked); null without tables or fabric graph. */
    public io.ibaccept.fabric.Routing routing() {
        return routing.get();
    }

    /**
     * The fat-tree reading of the fabric graph (levels, leaves, uplinks, blocking) against what was declared: the
     * contract's ratios, the cabling plan, fabric.tree's and fabric.blocking's settings. Throws as {@link #fabric()}.
     */
    public io.ibaccept.fabric.FatTree.Result fatTree() {
        return fatTree.get();
    }

    private io.ibaccept.fabric.FatTree.Settings treeSettings() {
        double ratio = cfg.number("fabric.blocking", "ratio");
        var byLevel = contract == null || contract.fabric() == null ? java.util.Map.<Integer, Double>of() : contract.fabric().ratioByLevel();
        boolean declared = ratio > 1.0001 || !byLevel.isEmpty() || contract != null && contract.fabric() != null && contract.fabric().blockingRatio() != null;
        return new io.ibaccept.fabric.FatTree.Settings((int) cfg.number("fabric.tree", "switches_expected"), ratio,
                (int) cfg.number("fabric.tree", "hosts_tolerance"), options.plan(), declared, byLevel);
    }

    /** The fabric graph, switchless or not; null when it cannot be built (the fabric checks say why). */
    public Fabric fabricIfBuilt() {
        var fd = data.fabric();
        if (fd == null || fd.topology() == null && fd.links() == null) return null;
        try {
            return fabric();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The fabric graph for a picture: null when it cannot be built or has no switch (the fabric checks say why). */
    public Fabric fabricOrNull() {
        var fd = data.fabric();
        Fabric f = fabricIfBuilt();
        return f == null || f.switches().isEmpty() ? null : f;
    }

    FabricIndex index() {
        return index.get();
    }

    /** The cabling plan against the fabric (analyze --expect), or null without a plan. */
    public PlanDiff.Result planDiff() {
        return planDiff.get();
    }

    /** The pairwise RDMA judgement of every test (perftest.outlier's thresholds). */
    public PerfAnalysis perf() {
        return perf.get();
    }

    /** The hosts' leaves and the switches' uplinks for RDMA localisation and the heat maps; empty without a topology. */
    public FabricView perfView() {
        return perfView.get();
    }

    /** The negotiated rate of a host's first active HCA port, as perftest.bw judges its pairs against it. */
    public java.util.Optional<FabricIndex.Rate> rateOf(String host) {
        return index().rateOf(host);
    }

    /**
     * The rate a host's link is designed to run at, each of width and speed from the first that says it: what the
     * contract declares for the host (its class's link, else every host link's), the configured expectation of host
     * links (link.width/link.speed expected.host, else expected), what most active host links run at (a tie: the
     * better). It is what a measured bandwidth is held against: a pair on a link trained at 1X reaches all of its 50
     * Gb/s but a quarter of the 200 Gb/s the fabric was built for. where says how it was found.
     */
    public java.util.Optional<FabricIndex.Rate> designRateOf(String host) {
        io.ibaccept.contract.Contract.Link declared = contract == null ? null : contract.hostLinkFor(host);
        HostLinkMajority m = hostLinkMajority.get();
        io.ibaccept.model.LinkWidth w = declared != null && declared.width() != null ? declared.width()
                : expected("link.width", io.ibaccept.model.LinkWidth::parse).orElse(m.width());
        io.ibaccept.model.LinkSpeed s = declared != null && declared.speed() != null ? declared.speed()
                : expected("link.speed", io.ibaccept.model.LinkSpeed::parse).orElse(m.speed());
        if (w == null || s == null) return java.util.Optional.empty();
        String where = declared != null && (declared.width() != null || declared.speed() != null) ? "declared in the contract"
                : expected("link.width", io.ibaccept.model.LinkWidth::parse).isPresent() || expected("link.speed", io.ibaccept.model.LinkSpeed::parse).isPresent()
                ? "configured for host links" : "most common among host links";
        return java.util.Optional.of(new FabricIndex.Rate(w, s, where));
    }

    /** A check's expectation for host links: its .host setting, else its general one; empty for "auto". */
    private <T> java.util.Optional<T> expected(String check, java.util.function.Function<String, java.util.Optional<T>> parse) {
        for (String key : new String[] {"expected.host", "expected"}) {
            String v = cfg.text(check, key);
            java.util.Optional<T> t = v == null || v.isBlank() || v.equalsIgnoreCase("auto") ? java.util.Optional.empty() : parse.apply(v.trim());
            if (t.isPresent()) return t;
        }
        return java.util.Optional.empty();
    }

    /** The width and speed most active host links run at (null when there is none). */
    private record HostLinkMajority(io.ibaccept.model.LinkWidth width, io.ibaccept.model.LinkSpeed speed) {}

    private HostLinkMajority majority() {
        java.util.Map<io.ibaccept.model.LinkWidth, Integer> widths = new java.util.HashMap<>();
        java.util.Map<io.ibaccept.model.LinkSpeed, Integer> speeds = new java.util.HashMap<>();
        for (FabricIndex.Link l : index().links()) {
            if (!l.a().isActive() || index().linkClass(l) != Fabric.LinkClass.HOST) continue;
            if (l.a().width() != null) widths.merge(l.a().width(), 1, Integer::sum);
            if (l.a().speed() != null) speeds.merge(l.a().speed(), 1, Integer::sum);
        }
        return new HostLinkMajority(most(widths), most(speeds));
    }

    private static <T extends Comparable<? super T>> T most(java.util.Map<T, Integer> counts) {
        return counts.entrySet().stream().max(java.util.Map.Entry.<T, Integer>comparingByValue().thenComparing(java.util.Map.Entry.comparingByKey()))
                .map(java.util.Map.Entry::getKey).orElse(null);
    }

    /** Every link judged over the counter window (two samples); empty without a window. */
    public List<io.ibaccept.rules.counters.WindowJudge.Verdict> windowVerdicts() {
        return windowVerdicts.get();
    }

    /** The per-link counter table of the report and linkwindow.csv; empty without counter samples. */
    public List<LinkWindowRow> linkWindow() {
        return linkWindow.get();
    }

    private PlanDiff.Result comparePlan() {
        CablingPlan plan = options.plan();
        if (plan == null) return null;
        var fd = data.fabric();
        if (fd == null || fd.topology() == null && fd.links() == null)
            return new PlanDiff.Result(plan.cables().size(), 0, List.of(), List.of(), plan.problems(), List.of());
        try {
            return PlanDiff.compare(fabric(), plan);
        } catch (RuntimeException e) {
            // an unusable topology: fabric.plan reports it as its ERROR, and the reports still get written
            return new PlanDiff.Result(plan.cables().size(), 0, List.of(), List.of(), plan.problems(), List.of());
        }
    }

    private FabricView leaves() {
        var fd = data.fabric();
        if (fd == null || fd.topology() == null && fd.links() == null) return FabricView.empty();
        try {
            return FabricView.of(fabric(), data, routing());
        } catch (RuntimeException e) {
            return FabricView.empty(); // the fabric checks report an unusable topology; localisation then works without leaves
        }
    }

    /** A fact as it was derived: its name and the wall time it took, the facts it asked for first included. */
    public record Derived(String name, long nanos) {}

    /**
     * The facts derived so far, in the order they were finished: each name at most once per analysis ('analyze
     * --timings' prints them; a test counts them).
     */
    public List<Derived> derived() {
        synchronized (derived) {
            return List.copyOf(derived);
        }
    }

    /** A value computed on first use by whichever thread asks first; a failure is kept and thrown again. */
    private final class Once<T> {
        private final String name;
        private Supplier<T> compute;
        private T value;
        private RuntimeException failure;

        Once(String name, Supplier<T> compute) {
            this.name = name;
            this.compute = compute;
        }

        synchronized T get() {
            if (compute != null) {
                long start = System.nanoTime();
                try {
                    value = compute.get();
                } catch (RuntimeException e) {
                    failure = e;
                }
                compute = null;
                derived.add(new Derived(name, System.nanoTime() - start));
            }
            if (failure != null) throw failure;
            return value;
        }
    }
}
