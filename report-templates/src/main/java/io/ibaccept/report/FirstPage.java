package io.ibaccept.report;

import io.ibaccept.contract.Contract;
import io.ibaccept.rules.Coverage;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.Waiver;
import io.ibaccept.rules.WaiverUse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What page 1 says, the page that is signed (the HTML's first screen, the PDF's cover), worded once for both: the
 * contract judged against, the coverage of the required checks, the root failures as the console prints them and the
 * waivers in force. Every list is bounded, so the page stays one page: the rest is "and N more", naming the section
 * that has it all. The PDF steps down through {@link #LEVELS} until the page, signatures included, fits.
 */
final class FirstPage {
    private FirstPage() {}

    /** How many lines of each list page 1 shows, and how long a line may be. */
    record Bounds(int rootLines, int gapLines, int factLines, int waiverRows, int thresholdLines, int lineChars) {}

    /** From the console's bounds (the HTML, and the PDF when they fit) down to what fits beside any cover table. */
    static final List<Bounds> LEVELS = List.of(
            new Bounds(ReportCounts.MAX_ROOT_LINES, ReportCounts.MAX_GAP_LINES, 8, 10, 10, ReportCounts.MAX_LINE),
            new Bounds(10, 6, 5, 5, 5, 220),
            new Bounds(6, 4, 3, 3, 3, 160),
            new Bounds(4, 2, 2, 2, 2, 120),
            new Bounds(2, 1, 1, 1, 1, 90));
    static final Bounds DEFAULT = LEVELS.get(0);

    /** Where the rest of each list is. */
    static final String SEE_FAILURES = " (see Failures and warnings)", SEE_PASSED = " (see Passed and skipped checks)",
            SEE_WAIVERS = " (see Waivers)", SEE_JSON = " (all in findings.json)";

    static final String NO_CONTRACT = "no contract: expectations inferred from the fabric";

    /** The contract's file name and id, then what it declares; or the no-contract sentence. */
    static List<String> contract(Contract c) {
        return contract(c, DEFAULT);
    }

    static List<String> contract(Contract c, Bounds b) {
        if (c == null) return List.of(NO_CONTRACT);
        List<String> out = new ArrayList<>();
        String name = c.file() == null || c.file().isEmpty() ? "(unnamed)" : fileName(c.file());
        out.add("contract " + name + " (" + c.id() + ")");
        for (String l : c.summaryLines()) out.add(ReportText.clip(l, b.lineChars()));
        return out;
    }

    /** At most max lines, each at most b.lineChars long, then "and N more" and where the rest is. */
    static List<String> bounded(List<String> lines, int max, Bounds b, String see) {
        List<String> out = new ArrayList<>();
        for (String l : lines.subList(0, Math.min(max, lines.size()))) out.add(ReportText.clip(l, b.lineChars()));
        if (lines.size() > max) out.add(ReportCounts.moreLine(lines.size() - max) + see);
        return out;
    }

    private static String fileName(String file) {
        try {
            Path p = Path.of(file).getFileName();
            return p == null ? file : p.toString();
        } catch (RuntimeException e) {
            return file;
        }
    }

    /** What every host shares (versions, link rates), bounded; "none stated" when no such check passed. */
    static List<String> facts(List<String> facts) {
        return facts(facts, DEFAULT);
    }

    static List<String> facts(List<String> facts, Bounds b) {
        if (facts.isEmpty()) return List.of("none stated (the checks that state them did not pass or did not run)");
        return bounded(facts, b.factLines(), b, SEE_PASSED);
    }

    /** The coverage summary, then one line per gap (bounded, then "and N more"); empty when nothing was required. */
    static List<String> coverage(Coverage c) {
        return coverage(c, DEFAULT);
    }

    static List<String> coverage(Coverage c, Bounds b) {
        if (c == null || c.summary().isEmpty()) return List.of();
        List<String> out = new ArrayList<>();
        out.add(c.summary());
        out.addAll(bounded(c.gapLines(), b.gapLines(), b, SEE_PASSED));
        return out;
    }

    /** The FAIL/ERROR root findings, one line each as the console prints them; "none" when there is none. */
    static List<String> rootFailures(Report r) {
        return rootFailures(r, DEFAULT);
    }

    static List<String> rootFailures(Report r, Bounds b) {
        List<String> lines = ReportCounts.rootFailureLines(r, b.rootLines());
        if (lines.isEmpty()) return List.of("none");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            boolean more = i == lines.size() - 1 && lines.size() > b.rootLines();
            out.add(more ? lines.get(i) + SEE_FAILURES : ReportText.clip(lines.get(i), b.lineChars()));
        }
        return out;
    }

    /**
     * N-1 on the fabric's twin, a line of its own when the dump holds a resilience run (also when the answer is yes):
     * "survives the loss of any one ISL: yes / no (N critical cables)"; null without one.
     */
    static String resilience(io.ibaccept.analysis.Analysis a) {
        var d = a.data();
        if (d == null || d.fabric() == null || d.fabric().resilience() == null) return null;
        return d.fabric().resilience().pageOneLine();
    }

    /** The waivers that applied (not expired): check, objects, reason, owner, expiry date. */
    static List<String[]> waiversInForce(Report r) {
        return waiversInForce(r, DEFAULT);
    }

    static List<String[]> waiversInForce(Report r, Bounds b) {
        List<String[]> out = new ArrayList<>();
        int cell = Math.max(40, b.lineChars() / 2);
        for (WaiverUse u : r.waivers()) {
            if (u.expired()) continue;
            Waiver w = u.waiver();
            out.add(new String[] {ReportText.clip(w.check(), cell), ReportText.clip(w.objects(), cell), ReportText.clip(w.reason(), cell),
                    ReportText.clip(w.owner(), cell), w.expires().toString()});
        }
        return out;
    }

    /** How many more waivers in force than page 1 lists. */
    static int moreWaivers(List<String[]> inForce, Bounds b) {
        return Math.max(0, inForce.size() - b.waiverRows());
    }

    /** The line after the waivers page 1 lists, or null when it lists them all. */
    static String moreWaiversLine(List<String[]> inForce, Bounds b) {
        int more = moreWaivers(inForce, b);
        return more == 0 ? null : ReportCounts.moreLine(more) + SEE_WAIVERS;
    }

    static List<String> thresholds(Report r) {
        return thresholds(r, DEFAULT);
    }

    static List<String> thresholds(Report r, Bounds b) {
        List<String> changed = ReportText.changedThresholds(r);
        if (changed.isEmpty()) return List.of("none: all checks used the default thresholds");
        return bounded(changed, b.thresholdLines(), b, SEE_JSON);
    }

    /** A value of the acceptance record (a node list, tool versions), at most b.lineChars long. */
    static String recordValue(String v, Bounds b) {
        return ReportText.clip(v, b.lineChars());
    }
}
