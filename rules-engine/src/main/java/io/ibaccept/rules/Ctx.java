package io.ibaccept.rules;

import io.ibaccept.model.ClusterData;
import io.ibaccept.model.InputProblem;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** What a check sees: the data, its typed settings, the fabric index, and where it puts its findings. */
public final class Ctx {
    public final ClusterData data;
    public final RuleConfig cfg;
    public final FabricIndex index;
    private final List<Finding> out = new ArrayList<>();
    private final Map<Finding, java.util.Set<String>> covers = new java.util.IdentityHashMap<>();
    private final Map<Finding, java.util.Set<String>> needs = new java.util.IdentityHashMap<>();
    private String check;
    private Check.Naming naming = Check.Naming.OBJECTS;
    private Refs refs;
    /** What the analysis derives from the dump once (fabric graph, plan comparison, RDMA analysis), shared with the reports. */
    public final DumpFacts facts;

    Ctx(DumpFacts facts) {
        this.data = facts.data();
        this.cfg = facts.rules();
        this.index = facts.index();
        this.facts = facts;
    }

    /** The fabric graph (ibnetdiscover + iblinkinfo + node-name-map), built on first use, once per analysis. */
    public io.ibaccept.fabric.Fabric fabric() {
        return facts.fabric();
    }

    /** What the forwarding tables do (dump_fts walked over the fabric graph), once per analysis; null without them. */
    public io.ibaccept.fabric.Routing routing() {
        return facts.routing();
    }

    /** The fat-tree reading of the fabric graph, shared by the fabric checks; throws as {@link #fabric()}. */
    public io.ibaccept.fabric.FatTree.Result fatTree() {
        return facts.fatTree();
    }

    /** The node-name-map, if the user gave one (--node-name-map FILE). */
    public Optional<io.ibaccept.fabric.NodeNameMap> names() {
        return Optional.ofNullable(facts.options().names());
    }

    /** The acceptance contract, if the user gave one (analyze --contract FILE): what is declared is judged against it. */
    public Optional<io.ibaccept.contract.Contract> contract() {
        return Optional.ofNullable(facts.contract());
    }

    /** The customer's cabling plan, if the user gave one (analyze --expect PLAN). */
    public Optional<io.ibaccept.fabric.CablingPlan> plan() {
        return Optional.ofNullable(facts.options().plan());
    }

    void begin(Check c) {
        this.check = c.id();
        this.naming = c.naming();
    }

    /** The finding with its typed references, resolved once from what the current check names, as it declares. */
    private Finding referenced(Finding f) {
        if (!f.refs().isEmpty()) return f;
        if (refs == null) refs = new Refs(data, index);
        List<Ref> r = refs.of(f, naming);
        return r.isEmpty() ? f : f.withRefs(r);
    }

    /** Findings so far (checks use it to tell whether they reported anything). */
    public List<Finding> findings() {
        return out;
    }

    public String check() {
        return check;
    }

    /** A NUMBER setting; "unlimited" (NUMBER_OR_UNLIMITED) is +infinity. Validated when the rules were loaded. */
    public double number(String key) {
        return cfg.number(check, key);
    }

    public String text(String key) {
        return cfg.text(check, key);
    }

    /** A SPEED setting; empty for "auto". */
    public Optional<LinkSpeed> speed(String key) {
        String v = text(key);
        return v.equalsIgnoreCase("auto") ? Optional.empty() : LinkSpeed.parse(v);
    }

    /** A WIDTH setting; empty for "auto". */
    public Optional<LinkWidth> width(String key) {
        String v = text(key);
        return v.equalsIgnoreCase("auto") ? Optional.empty() : LinkWidth.parse(v);
    }

    /** A LIST setting: its non-empty comma-separated items. */
    public List<String> list(String key) {
        return listOf(check, key);
    }

    /** A LIST setting of another check, for a fact two checks share (the designated SM nodes are sm.count's). */
    public List<String> listOf(String otherCheck, String key) {
        return Arrays.stream(cfg.text(otherCheck, key).split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    public boolean bool(String key) {
        return text(key).toLowerCase(Locale.ROOT).equals("true");
    }

    /** A WARN/FAIL finding with cause and fix from the rules file (keys cause[.variant] / fix[.variant]). */
    public Finding problem(Status status, List<String> objects, List<Evidence> evidence, String summary, String variant,
                           Map<String, ?> vars) {
        String suffix = variant == null || variant.isEmpty() ? "" : "." + variant;
        Finding f = referenced(new Finding(check, cfg.text(check, "title"), status, objects, evidence, summary,
                cfg.fill(check, "cause" + suffix, vars), cfg.fill(check, "fix" + suffix, vars), variant, "", null));
        out.add(f);
        return f;
    }

    public void pass(String summary, List<String> objects, List<Evidence> evidence) {
        out.add(referenced(new Finding(check, cfg.text(check, "title"), Status.PASS, objects, evidence, summary, "", "")));
    }

    /** Part of the check could not run (e.g. one perftest pair); whole-input skips are the engine's job. */
    public void skip(String reason) {
        out.add(new Finding(check, cfg.text(check, "title"), Status.SKIP, List.of(), List.of(), reason, "", ""));
    }

    /** Adds f with its typed references; returns the finding as added (the one to declare covers/explainedBy for). */
    public Finding add(Finding f) {
        Finding g = referenced(f);
        out.add(g);
        return g;
    }

    /**
     * Declares f a possible root cause of the faults named by keys (e.g. "host-down:cn07", "sm:none"): findings that
     * {@link #explainedBy} keys it covers are listed under it. A finding may cover and need keys at once (a host
     * port down is a root, unless the switch it hangs off is missing).
     */
    public void covers(Finding f, java.util.Collection<String> keys) {
        covers.computeIfAbsent(f, k -> new java.util.LinkedHashSet<>()).addAll(keys);
    }

    /** Declares f a consequence of the faults named by keys, if one finding covers them all. */
    public void explainedBy(Finding f, java.util.Collection<String> keys) {
        needs.computeIfAbsent(f, k -> new java.util.LinkedHashSet<>()).addAll(keys);
    }

    /** Replaces finding i by g, keeping what it covers and needs. */
    void replace(int i, Finding f, Finding g) {
        out.set(i, g);
        if (covers.containsKey(f)) covers.put(g, covers.remove(f));
        if (needs.containsKey(f)) needs.put(g, needs.remove(f));
    }

    Map<Finding, java.util.Set<String>> covers() {
        return covers;
    }

    Map<Finding, java.util.Set<String>> needs() {
        return needs;
    }

    /** "(see input findings: nodes/n1/ibstat.out:3 ...)" for the problems of a command, or "" if none. */
    public String inputs(String host, String command) {
        List<InputProblem> ps = data.problemsFor(host, command);
        if (ps.isEmpty()) return "";
        return " (" + ps.get(0).where() + ": " + ps.get(0).message() + (ps.size() > 1 ? "; +" + (ps.size() - 1) + " more" : "") + ")";
    }
}
