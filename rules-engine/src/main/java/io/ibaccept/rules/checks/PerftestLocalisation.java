package io.ibaccept.rules.checks;

import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.perf.FabricView;
import io.ibaccept.rules.perf.Localisation;
import io.ibaccept.rules.perf.PairMatrix;
import io.ibaccept.rules.perf.PerfAnalysis;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The likely culprit behind the outlier pairs (perftest.outlier): a node, its HCA (with the other checks' PCIe/port
 * findings), a leaf switch, a leaf's uplinks or the path between two leaves, one root finding each with the bad pairs
 * as its evidence. Runs after the host checks so their findings are known.
 */
final class PerftestLocalisation implements PairTest {
    public String id() {
        return "perftest.localisation";
    }

    /** Its objects are suspect hosts, not a pair: the pairs are in its evidence. */
    public Naming naming() {
        return Naming.PAIRS_IN_EVIDENCE;
    }

    public List<Input> inputs() {
        return List.of(Input.perftestResults());
    }

    public void evaluate(Ctx c) {
        PerfAnalysis a = c.facts.perf();
        if (a.tested().isEmpty()) {
            c.skip("no pairwise test with at least " + PerfAnalysis.MIN_PAIRS + " pairs to localise from");
            return;
        }
        if (a.bad().isEmpty()) {
            c.pass("no outlier pairs to localise", List.of(), List.of());
            return;
        }
        FabricView view = c.facts.perfView(); // empty without a usable topology: localised by nodes only
        boolean confirmedAny = a.results().values().stream().anyMatch(r -> r.bad().stream()
                .anyMatch(o -> o.state() == io.ibaccept.rules.perf.Outliers.State.CONFIRMED));
        List<Localisation.Suspect> suspects = Localisation.analyse(a.tested(), a.bad(), view,
                PerfAnalysis.hardwareFindings(c.findings()));
        for (Localisation.Suspect s : suspects) {
            List<Evidence> ev = new ArrayList<>();
            for (String e : s.evidence()) ev.add(Evidence.of(e, ""));
            if (!view.knowsLeaves()) ev.add(Evidence.of("no topology (ibnetdiscover) in the dump: leaves and uplinks not considered", ""));
            TreeSet<String> objects = new TreeSet<>();
            int shown = 0;
            for (PairMatrix.Pair p : s.pairs()) {
                if (s.kind() != Localisation.Kind.NODE && s.kind() != Localisation.Kind.HCA) {
                    objects.add(p.a());
                    objects.add(p.b());
                }
                if (shown++ < 20) ev.add(Evidence.of("bad pair " + p, ""));
            }
            if (s.pairs().size() > 20) ev.add(Evidence.of("+" + (s.pairs().size() - 20) + " more bad pairs", ""));
            List<String> objs = switch (s.kind()) {
                case NODE, HCA, ISL -> List.of(s.name());
                default -> List.copyOf(objects);
            };
            Status st = s.kind() == Localisation.Kind.UNLOCALISED || !confirmedAny ? Status.WARN : Status.FAIL;
            c.problem(st, objs, ev, s.statement() + " [" + s.confidence().name().toLowerCase() + " confidence]",
                    s.kind().name().toLowerCase(), Map.of("name", s.name(), "statement", s.statement()));
        }
    }
}
