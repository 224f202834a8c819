package io.ibaccept.analysis;

import io.ibaccept.contract.Contract;
import io.ibaccept.contract.ContractFile;
import io.ibaccept.dump.Cmd;
import io.ibaccept.dump.sources.Source;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.HostData;
import io.ibaccept.model.PerftestRun;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Coverage;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.checks.Checks;
import io.ibaccept.rules.counters.CounterWindowData;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which checks an acceptance needs, and whether each covered its scope: a check that did not run, or ran on fewer
 * hosts than are in scope (the contract's hosts, else the dump's), or a counter window shorter than the contract asks,
 * is a gap. The contract's list of required checks wins; without one, the default set below plus the checks that judge
 * what the contract declares.
 */
final class RequiredChecks {
    private RequiredChecks() {}

    /** What an acceptance proves at the least: ports, links, errors over a window, SM, partitions, memlock, versions, bandwidth. */
    static final List<String> DEFAULT = List.of("port.state", "link.width", "link.speed", "link.errors.window", "sm.count", "pkey", "memlock",
            "firmware", "ofed", "perftest.bw");

    /** The required check ids; an id no check has is a contract error with its line. */
    static List<String> of(Contract k) {
        Map<String, Check> byId = byId();
        if (k != null && !k.required().isEmpty()) {
            for (String id : k.required())
                if (!byId.containsKey(id))
                    throw new ContractFile.BadContract(k.where("required." + id) + ": no check is called '" + id + "' ('ibaccept rules' lists them)");
            return k.required();
        }
        Set<String> ids = new LinkedHashSet<>(DEFAULT);
        if (k != null) {
            if (!k.hosts().isEmpty() || !k.classes().isEmpty()) ids.add("contract.hosts");
            if (k.fabric() != null && (k.fabric().levels() != null || k.fabric().leaves() != null || k.fabric().spines() != null || k.fabric().cores() != null)
                    || !k.partitions().isEmpty() || k.sm() != null || !k.versions().switchFirmware().isEmpty())
                ids.add("contract.design");
            if (k.fabric() != null && k.fabric().rails() != null) ids.add("fabric.rails");
            if (k.fabric() != null && (k.fabric().blockingRatio() != null || !k.fabric().ratioByLevel().isEmpty())) ids.add("fabric.blocking");
            if (k.fabric() != null && k.fabric().switches() != null) ids.add("fabric.tree");
            if (k.mtu() != null) ids.add("mtu");
            if (k.fabric() != null && k.fabric().switchesFromPlan()) ids.add("fabric.plan");
            if (k.versions().ucx() != null) ids.add("ucx.version");
            if (k.versions().ompi() != null) ids.add("ompi.version");
            if (k.performance().latencyUsec() != null) ids.add("perftest.lat");
            if (k.performance().collectiveBusbwPercent() != null) ids.add("collective");
        }
        return List.copyOf(ids);
    }

    static Coverage judge(Report r, Contract k, RuleConfig cfg) {
        return judge(r, k, cfg, List.of());
    }

    /** window: the counter window's link table (empty without a window), for what its BER proof covers. */
    static Coverage judge(Report r, Contract k, RuleConfig cfg, List<io.ibaccept.rules.counters.LinkWindowRow> window) {
        return judge(of(k), r, k, cfg, window);
    }

    /** The coverage of these checks (a draft contract asks it of every check that ran). */
    static Coverage judge(List<String> ids, Report r, Contract k, RuleConfig cfg, List<io.ibaccept.rules.counters.LinkWindowRow> window) {
        ClusterData data = r.data();
        Map<String, Check> byId = byId();
        Map<String, List<Finding>> byCheck = new LinkedHashMap<>();
        for (Finding f : r.findings()) byCheck.computeIfAbsent(f.check(), x -> new ArrayList<>()).add(f);
        List<String> scope = k != null && !k.hosts().isEmpty() ? k.hosts() : k != null && !k.classes().isEmpty()
                ? k.classes().stream().flatMap(c -> c.hosts().stream()).toList() : List.copyOf(data.hosts().keySet());
        List<Coverage.Required> out = new ArrayList<>();
        for (String id : ids) {
            Check c = byId.get(id);
            String title = cfg.text(id, "title");
            List<Finding> fs = byCheck.getOrDefault(id, List.of());
            if (!cfg.enabled(id)) {
                out.add(new Coverage.Required(id, title, 1, 0, "disabled in the rules", "remove " + id + ".enabled=false"));
                continue;
            }
            boolean ran = fs.stream().anyMatch(f -> f.status() != Status.SKIP && f.status() != Status.ERROR);
            if (!ran) {
                Finding why = fs.stream().filter(f -> f.status() == Status.SKIP || f.status() == Status.ERROR).findFirst().orElse(null);
                out.add(new Coverage.Required(id, title, 1, 0, why == null ? "did not run" : why.summary(), ""));
                continue;
            }
            Coverage.Required proof = id.equals("link.errors.window") ? berProof(id, title, cfg, window) : null;
            out.add(proof != null ? proof : hosts(id, title, c, data, scope, k));
        }
        return new Coverage(k != null, k != null && !k.required().isEmpty(), out);
    }

    /**
     * A window proves a BER only for the bits it carried: when its least-loaded error-free link carried fewer than the
     * target needs (3.0/target bits at 95 %), the check does not cover the target; null when it does (or no window).
     */
    private static Coverage.Required berProof(String id, String title, RuleConfig cfg, List<io.ibaccept.rules.counters.LinkWindowRow> window) {
        double least = io.ibaccept.rules.counters.LinkErrorsWindow.leastProvenBits(window);
        if (Double.isNaN(least)) return null;
        double target = cfg.number(id, "ber_target");
        double need = io.ibaccept.rules.counters.Rates.bitsToProve(target, io.ibaccept.rules.counters.Rates.CONFIDENCE);
        if (least >= need) return null;
        String proven = least <= 0 ? "no BER (a link carried no traffic)"
                : String.format("BER < %.1e", io.ibaccept.rules.counters.Rates.berUpperBound(0, least, io.ibaccept.rules.counters.Rates.CONFIDENCE));
        return new Coverage.Required(id, title, 1, 0, String.format("the window proved %s on its least-loaded link (%.1e bits); the target %.0e needs %.1e bits on every link",
                proven, least, target, need), "load every link for long enough: ibaccept burn --duration auto");
    }

    /** A check that ran: over how many of the hosts in scope its per-host inputs (or pairs) reached. */
    private static Coverage.Required hosts(String id, String title, Check c, ClusterData data, List<String> scope, Contract k) {
        if (id.equals("link.errors.window") && k != null && k.counters().windowMin() != null) {
            double seconds = CounterWindowData.of(data).map(CounterWindowData::seconds).orElse(0.0);
            long min = k.counters().windowMin().toSeconds();
            if (seconds < min)
                return new Coverage.Required(id, title, 1, 0, "counter window of " + Math.round(seconds) + " s, the contract requires at least " + min + " s",
                        "collect --window " + (k.counters().windowMin().toSeconds() + 59) / 60 + "m");
        }
        if (id.startsWith("perftest.")) {
            Set<String> tested = new LinkedHashSet<>();
            for (PerftestRun run : data.perftests()) {
                tested.add(run.client());
                tested.add(run.server());
            }
            int covered = (int) scope.stream().filter(tested::contains).count();
            return covered >= scope.size() ? new Coverage.Required(id, title, scope.size(), covered, "", "")
                    : new Coverage.Required(id, title, scope.size(), covered, "perftest ran on " + covered + " of " + scope.size() + " hosts",
                            "ibaccept rdma --nodes NODES -o DUMP --pattern all-pairs");
        }
        for (Input in : c.inputs()) {
            List<Source<?>> perHost = in.anyOf().stream().<Source<?>>map(Cmd::source).filter(Source::perHost).toList();
            if (perHost.isEmpty() || perHost.size() != in.anyOf().size()) continue;
            int covered = 0;
            for (String h : scope) {
                HostData d = data.hosts().get(h);
                if (d != null && perHost.stream().anyMatch(s -> s.usableOn(d))) covered++;
            }
            if (covered < scope.size())
                return new Coverage.Required(id, title, scope.size(), covered,
                        String.join("/", perHost.stream().map(Source::fileName).toList()) + " not collected on " + (scope.size() - covered) + " of " + scope.size() + " hosts",
                        perHost.get(0).hint());
        }
        return new Coverage.Required(id, title, scope.size(), scope.size(), "", "");
    }

    private static Map<String, Check> byId() {
        Map<String, Check> m = new LinkedHashMap<>();
        for (Check c : Checks.all()) m.put(c.id(), c);
        return m;
    }
}
