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
 * waivers in force. Every list is bounded, so the page stays one page: the rest is "and N more".
 */
final class FirstPage {
    private FirstPage() {}

    static final String NO_CONTRACT = "no contract: expectations inferred from the fabric";
    static final int MAX_WAIVERS = 10;
    static final int MAX_THRESHOLDS = 10;

    /** The contract's file name and id, then what it declares; or the no-contract sentence. */
    static List<String> contract(Contract c) {
        if (c == null) return List.of(NO_CONTRACT);
        List<String> out = new ArrayList<>();
        String name = c.file() == null || c.file().isEmpty() ? "(unnamed)" : fileName(c.file());
        out.add("contract " + name + " (" + c.id() + ")");
        for (String l : c.summaryLines()) out.add(clip(l));
        return out;
    }

    private static String clip(String s) {
        return ReportText.clip(s, ReportCounts.MAX_LINE);
    }

    private static String fileName(String file) {
        try {
            Path p = Path.of(file).getFileName();
            return p == null ? file : p.toString();
        } catch (RuntimeException e) {
            return file;
        }
    }

    static final int MAX_FACTS = 8;

    /** What every host shares (versions, link rates), bounded; "none stated" when no such check passed. */
    static List<String> facts(List<String> facts) {
        if (facts.isEmpty()) return List.of("none stated (the checks that state them did not pass or did not run)");
        List<String> out = new ArrayList<>();
        for (String f : ReportCounts.bounded(facts, MAX_FACTS)) out.add(clip(f));
        return out;
    }

    /** The coverage summary, then one line per gap (at most ReportCounts.MAX_GAP_LINES, then "and N more"); empty when nothing was required. */
    static List<String> coverage(Coverage c) {
        return ReportCounts.coverageLines(c);
    }

    /** The FAIL/ERROR root findings, one line each as the console prints them; "none" when there is none. */
    static List<String> rootFailures(Report r) {
        List<String> lines = ReportCounts.rootFailureLines(r, ReportCounts.MAX_ROOT_LINES);
        return lines.isEmpty() ? List.of("none") : lines;
    }

    /** The waivers that applied (not expired): check, objects, reason, owner, expiry date. */
    static List<String[]> waiversInForce(Report r) {
        List<String[]> out = new ArrayList<>();
        for (WaiverUse u : r.waivers()) {
            if (u.expired()) continue;
            Waiver w = u.waiver();
            out.add(new String[] {clip(w.check()), clip(w.objects()), clip(w.reason()), clip(w.owner()), w.expires().toString()});
        }
        return out;
    }

    /** How many more waivers in force than page 1 lists. */
    static int moreWaivers(List<String[]> inForce) {
        return Math.max(0, inForce.size() - MAX_WAIVERS);
    }

    static List<String> thresholds(Report r) {
        List<String> changed = ReportText.changedThresholds(r);
        if (changed.isEmpty()) return List.of("none: all checks used the default thresholds");
        return ReportCounts.bounded(changed, MAX_THRESHOLDS);
    }
}
