package io.ibaccept.analysis;

import io.ibaccept.contract.Contract;
import io.ibaccept.rules.Coverage;
import io.ibaccept.fabric.DumpDiff;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ibaccept diff OLD NEW}: the dump changes ({@link DumpDiff}, on the fabric graphs the two analyses built) plus the findings that are new since the old
 * report and the ones that cleared. A finding is the same finding when its check and affected objects are the same
 * (counter values in the summary may differ).
 */
public final class AnalysisDiff {
    private AnalysisDiff() {}

    public static List<DumpDiff.Change> compare(Analysis before, Analysis after) {
        List<DumpDiff.Change> out = new ArrayList<>(DumpDiff.compare(before.data(), before.fabricGraph(), after.data(), after.fabricGraph()));
        Map<String, Finding> old = problems(before.report()), now = problems(after.report());
        now.forEach((k, f) -> {
            Finding o = old.get(k);
            if (o == null) out.add(new DumpDiff.Change("finding.new", f.check() + ": " + String.join(", ", f.objects()), "-", f.status() + " " + f.summary(), where(f)));
            else if (o.status() != f.status())
                out.add(new DumpDiff.Change("finding.status", f.check() + ": " + String.join(", ", f.objects()), o.status().name(), f.status() + " " + f.summary(), where(f)));
        });
        old.forEach((k, f) -> {
            if (!now.containsKey(k))
                out.add(new DumpDiff.Change("finding.cleared", f.check() + ": " + String.join(", ", f.objects()), f.status() + " " + f.summary(), "-", where(f)));
        });
        out.addAll(fromContract(after));
        return out;
    }

    /**
     * What in the later dump differs from the contract it was judged against: each finding judged against a declared
     * value (a contract check, a version or link off the declared one: its evidence cites the contract) and each
     * required check that did not cover its scope. Empty without a contract.
     */
    static List<DumpDiff.Change> fromContract(Analysis a) {
        Contract k = a.contract();
        if (k == null) return List.of();
        List<DumpDiff.Change> out = new ArrayList<>();
        for (Finding f : a.report().findings()) {
            if (f.status() != Status.FAIL && f.status() != Status.WARN) continue;
            boolean declared = f.check().startsWith("contract.") || f.evidence().stream().anyMatch(e -> e.where().equals(k.file()) || e.where().startsWith(k.file() + ":"));
            if (!declared) continue;
            String cited = f.evidence().stream().map(e -> e.where()).filter(w -> w.startsWith(k.file())).findFirst().orElse(k.file());
            out.add(new DumpDiff.Change("contract", f.check() + ": " + String.join(", ", f.objects().stream().limit(10).toList()), cited, f.status() + " " + f.summary(), where(f)));
        }
        for (Coverage.Required g : a.report().coverage().gaps())
            out.add(new DumpDiff.Change("contract.coverage", g.check(), "required by " + k.file(), g.missing(), ""));
        return out;
    }

    private static Map<String, Finding> problems(Report r) {
        Map<String, Finding> m = new LinkedHashMap<>();
        for (Finding f : r.findings())
            if (f.status() == Status.FAIL || f.status() == Status.WARN || f.status() == Status.ERROR)
                m.putIfAbsent(f.check() + "|" + (f.objects().isEmpty() ? f.summary() : String.join("|", f.objects())), f);
        return m;
    }

    private static String where(Finding f) {
        return f.evidence().isEmpty() ? "" : f.evidence().get(0).where();
    }
}
