package io.ibaccept.analysis;

import io.ibaccept.contract.Contract;
import io.ibaccept.dump.DumpId;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.fabric.CablingPlan;
import io.ibaccept.fabric.Fabric;
import io.ibaccept.fabric.FabricOptions;
import io.ibaccept.fabric.NodeNameMap;
import io.ibaccept.fabric.PlanDiff;
import io.ibaccept.model.ClusterData;
import io.ibaccept.rules.DumpFacts;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.RulesEngine;
import io.ibaccept.rules.Waivers;
import io.ibaccept.rules.counters.LinkWindowRow;
import io.ibaccept.rules.perf.FabricView;
import io.ibaccept.rules.perf.PerfAnalysis;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;

/**
 * One analysis of one dump: the dump's model, the fabric graph built once (with the node-name-map and the cabling
 * plan), the checks' findings with their root/consequence tree and waivers, and everything the outputs show that is
 * derived from them (plan comparison and work order, RDMA performance analysis, counter-window table, dump id). The
 * checks and every output read the same instances: a report writer only renders an Analysis. analyze, diff, bench and
 * rdma --retest all start here.
 */
public final class Analysis {
    /** What the user gives besides the dump; names, plan and waivers may be null. today decides which waivers expired. */
    public record Options(RuleConfig rules, NodeNameMap names, CablingPlan plan, Waivers waivers, LocalDate today, Contract contract) {
        public Options {
            if (rules == null) rules = RuleConfig.defaults();
            if (today == null) today = LocalDate.now();
        }

        public Options(RuleConfig rules, NodeNameMap names, CablingPlan plan, Waivers waivers, LocalDate today) {
            this(rules, names, plan, waivers, today, null);
        }

        public static Options defaults() {
            return of(RuleConfig.defaults());
        }

        public static Options of(RuleConfig rules) {
            return new Options(rules, null, null, null, null);
        }

        public Options withNames(NodeNameMap n) {
            return new Options(rules, n, plan, waivers, today, contract);
        }

        public Options withPlan(CablingPlan p) {
            return new Options(rules, names, p, waivers, today, contract);
        }

        public Options withWaivers(Waivers w, LocalDate on) {
            return new Options(rules, names, plan, w, on, contract);
        }

        public Options withContract(Contract c) {
            return new Options(rules, names, plan, waivers, today, c);
        }
    }

    private final DumpFacts facts;
    private final Report report;
    private final Contract contract;
    private String dumpId;

    private Analysis(DumpFacts facts, Report report, Contract contract) {
        this.facts = facts;
        this.report = report;
        this.contract = contract;
    }

    /**
     * The rules with what the contract declares written over them (the checks then judge against it); also checks the
     * contract against the checks (required check ids, values of the settings it fills), so a bad contract stops
     * before the dump is read. k may be null.
     */
    public static RuleConfig rulesFor(RuleConfig rules, Contract k) {
        if (k == null) return rules;
        RequiredChecks.of(k);
        return ContractRules.apply(rules, k);
    }

    /** The checks an acceptance requires: the contract's list, else the default set and the checks of what it declares. */
    public static List<String> requiredChecks(Contract k) {
        return RequiredChecks.of(k);
    }

    /** Loads the dump (directory or .zip) and analyses it. */
    public static Analysis of(Path dump, Options o) {
        return of(DumpLoader.load(dump), o);
    }

    public static Analysis of(ClusterData data, Options o) {
        Contract k = o.contract();
        RuleConfig rules = rulesFor(o.rules(), k);
        DumpFacts facts = new DumpFacts(data, rules, new FabricOptions(o.names(), o.plan()), k);
        Report r = new RulesEngine(rules).run(facts);
        r = r.withCoverage(RequiredChecks.judge(r, k, rules, facts.linkWindow()));
        if (o.waivers() != null) r = o.waivers().apply(r, o.today());
        return new Analysis(facts, r, o.contract());
    }

    /**
     * Findings judged elsewhere (a hand-made report in a test, a report read back), with what the outputs derive from
     * its dump: the rules it records (else the defaults), no node-name-map, plan or further waivers.
     */
    public static Analysis of(Report judged) {
        RuleConfig cfg = judged.rules() != null ? judged.rules() : RuleConfig.defaults();
        return new Analysis(new DumpFacts(judged.data(), cfg, FabricOptions.NONE), judged.rules() != null ? judged : judged.withRules(cfg), null);
    }

    /** With the default rules and nothing else given. */
    public static Analysis of(ClusterData data) {
        return of(data, Options.defaults());
    }

    public ClusterData data() {
        return facts.data();
    }

    public RuleConfig rules() {
        return facts.rules();
    }

    /** The acceptance contract the dump was judged against, or null: expectations were inferred from the fabric. */
    public Contract contract() {
        return contract;
    }

    /** What was derived from the dump so far (fabric graph, routing walk, RDMA analysis, ...), each at most once. */
    public List<DumpFacts.Derived> derived() {
        return facts.derived();
    }

    /**
     * The facts the checks that state them passed with ("firmware: all 16 host(s) with MT4123 run firmware
     * 20.31.1014"): uniform, so no check flags them, and still to be held against what was bought.
     */
    public List<String> facts() {
        java.util.Set<String> stating = new java.util.HashSet<>();
        for (io.ibaccept.rules.Check c : io.ibaccept.rules.checks.Checks.all()) if (c.statesFacts()) stating.add(c.id());
        List<String> out = new java.util.ArrayList<>();
        for (io.ibaccept.rules.Finding f : report.findings())
            if (f.status() == io.ibaccept.rules.Status.PASS && stating.contains(f.check())) out.add(f.check() + ": " + f.summary());
        return out;
    }

    /** The findings (waivers applied) and the verdict. */
    public Report report() {
        return report;
    }

    /** The node-name-map given, or null. */
    public NodeNameMap names() {
        return facts.options().names();
    }

    /** The fabric graph the checks judged, for pictures: null when the dump has no usable topology with a switch. */
    public Fabric fabric() {
        return facts.fabricOrNull();
    }

    /** The fabric graph, switchless (hosts back to back) or not, for comparing two dumps: null when it cannot be built. */
    public Fabric fabricGraph() {
        return facts.fabricIfBuilt();
    }

    /** The cabling plan against the fabric (work order, missing cables), or null without --expect. */
    public PlanDiff.Result planDiff() {
        return facts.planDiff();
    }

    /** The pairwise RDMA judgement the perftest checks used. */
    public PerfAnalysis perf() {
        return facts.perf();
    }

    /**
     * The data rate (Gb/s) a host's link is designed for (the contract's, else the expected rate of host links; see
     * DumpFacts.designRateOf): what the heat maps hold a pair's bandwidth against, the trained rate said beside it.
     */
    public java.util.Optional<io.ibaccept.rules.FabricIndex.Rate> designRate(String host) {
        return facts.designRateOf(host);
    }

    /** The hosts' leaves and the switches' uplinks the RDMA localisation used. */
    public FabricView perfView() {
        return facts.perfView();
    }

    /** The data rate (Gb/s) of a host's HCA link, the one perftest.bw measures its pairs against. */
    public java.util.Optional<Double> lineGbps(String host) {
        return facts.rateOf(host).map(io.ibaccept.rules.FabricIndex.Rate::dataGbps);
    }

    /** What the forwarding tables do (dump_fts walked), as the routing checks judged it; null without tables. */
    public io.ibaccept.fabric.Routing routing() {
        return facts.routing();
    }

    /** The per-link counter-window table; empty without counter samples. */
    public List<LinkWindowRow> linkWindow() {
        return facts.linkWindow();
    }

    /**
     * "sha256:HEX" over the dump's files (see {@link DumpId}); the loader hashed them while reading, a model built
     * otherwise is hashed from its source directory here, once.
     */
    public synchronized String dumpId() {
        if (dumpId == null) dumpId = data().dumpId() != null ? data().dumpId() : DumpId.ofSource(data().source());
        return dumpId;
    }

    /** The worst FAIL/WARN finding naming one part of the fabric, and its check. */
    public record PartProblem(io.ibaccept.rules.Status status, String check) {
        public PartProblem worse(PartProblem o) {
            return o == null || status.compareTo(o.status) <= 0 ? this : o;
        }
    }

    /**
     * The worst FAIL/WARN finding per typed reference key (ports, cables, HCA ends, nodes, SMs), from the findings
     * naming at most maxParts nodes (0: any number): what the pictures colour each part by. A finding about most of
     * the fabric would colour all of it and show nothing.
     */
    public java.util.Map<String, PartProblem> problemsByRef(int maxParts) {
        java.util.Map<String, PartProblem> out = new java.util.HashMap<>();
        for (io.ibaccept.rules.Finding f : report().findings()) {
            if (f.status() != io.ibaccept.rules.Status.FAIL && f.status() != io.ibaccept.rules.Status.WARN) continue;
            if (maxParts > 0 && f.refs().stream().map(Analysis::part).distinct().count() > maxParts) continue;
            PartProblem p = new PartProblem(f.status(), f.check());
            for (io.ibaccept.rules.Ref r : f.refs())
                if (r instanceof io.ibaccept.rules.Ref.Port || r instanceof io.ibaccept.rules.Ref.Cable || r instanceof io.ibaccept.rules.Ref.HcaEnd
                        || r instanceof io.ibaccept.rules.Ref.Node || r instanceof io.ibaccept.rules.Ref.Sm)
                    out.merge(r.key(), p, PartProblem::worse);
        }
        return out;
    }

    /** The node a reference is about (a cable: itself), to count how many parts a finding names. */
    private static String part(io.ibaccept.rules.Ref r) {
        if (r instanceof io.ibaccept.rules.Ref.Port p) return p.node();
        if (r instanceof io.ibaccept.rules.Ref.HcaEnd h) return h.host();
        if (r instanceof io.ibaccept.rules.Ref.Node n) return n.name();
        if (r instanceof io.ibaccept.rules.Ref.Sm m) return m.node();
        return r.key();
    }
}
