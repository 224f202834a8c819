package io.ibaccept.report;

import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one counting scheme of every output (console, HTML, PDF, findings.json, junit.xml, ibaccept.prom), so they never disagree:
 * <ul>
 * <li><b>checks</b>: each check once, by its own status: the worst status of its root findings. A check whose findings
 * are all consequences of another check's root finding (a bandwidth pair behind a down port) has the status
 * {@link #CONSEQUENCE}: what is wrong there is counted at the root. junit.xml has one testcase per check, failed when
 * the check's status is FAIL, in error when ERROR.</li>
 * <li><b>root findings</b> by status ({@link Report#counts()}): one fault, one root finding.</li>
 * <li><b>consequences</b>: findings listed under a root finding, counted apart and never again in the two above.</li>
 * </ul>
 * findings.csv and findings.json list every finding, roots and consequences (the parent column/field tells them apart).
 */
public final class ReportCounts {
    /** The status of a check that has only consequences of other checks' root findings. */
    public static final String CONSEQUENCE = "CONSEQUENCE";

    /** The order the check statuses are listed in (worst first, as the statuses, then consequence-only). */
    public static final List<String> CHECK_STATES = List.of("FAIL", "ERROR", "WARN", "WAIVED", "SKIP", "PASS", CONSEQUENCE);

    /** Longest summary in a line of page 1 and the console (a damaged dump can make one megabytes long); findings.csv keeps it whole. */
    static final int MAX_LINE = 500;

    /** Most root failures page 1 and the console list; the rest is "and N more". */
    public static final int MAX_ROOT_LINES = 15;

    /**
     * One check: status is its own (worst root status, or CONSEQUENCE), worst the worst of all its findings
     * (consequences included); roots its root findings, problems those that are neither PASS nor SKIP, consequences
     * its findings listed under another root, rootChecks the checks of those roots, rootsByStatus its root findings per
     * status (only the statuses it has).
     */
    public record CheckCount(String check, String title, String status, Status worst, int roots, int problems, int consequences,
                             Status worstConsequence, List<String> rootChecks, Map<Status, Integer> rootsByStatus) {
        public boolean consequenceOnly() {
            return CONSEQUENCE.equals(status);
        }
    }

    private final Map<Status, Long> findings;
    private final Map<Status, Long> consequencesByStatus;
    private final long consequences;
    private final List<CheckCount> checks;
    private final Map<String, Long> checkCounts;

    private ReportCounts(Map<Status, Long> findings, Map<Status, Long> consequencesByStatus, long consequences, List<CheckCount> checks,
                         Map<String, Long> checkCounts) {
        this.findings = findings;
        this.consequencesByStatus = consequencesByStatus;
        this.consequences = consequences;
        this.checks = checks;
        this.checkCounts = checkCounts;
    }

    public static ReportCounts of(Report r) {
        List<Finding> roots = r.roots();
        Set<Finding> rootSet = Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        rootSet.addAll(roots);
        Map<String, Finding> byId = new HashMap<>();
        for (Finding f : r.findings()) if (!f.id().isEmpty()) byId.putIfAbsent(f.id(), f);

        Map<Status, Long> cons = new EnumMap<>(Status.class);
        for (Status s : Status.values()) cons.put(s, 0L);
        Map<String, Acc> acc = new LinkedHashMap<>();
        for (Finding f : r.findings()) {
            Acc a = acc.computeIfAbsent(f.check(), k -> new Acc(f.title()));
            a.worst = a.worst == null || f.status().worseThan(a.worst) ? f.status() : a.worst;
            if (rootSet.contains(f)) {
                a.roots++;
                a.rootsByStatus.merge(f.status(), 1, Integer::sum);
                if (f.status() != Status.PASS && f.status() != Status.SKIP) a.problems++;
                a.status = a.status == null || f.status().worseThan(a.status) ? f.status() : a.status;
            } else {
                a.consequences++;
                cons.merge(f.status(), 1L, Long::sum);
                a.worstConsequence = a.worstConsequence == null || f.status().worseThan(a.worstConsequence) ? f.status() : a.worstConsequence;
                Finding root = rootOf(f, byId);
                if (root != null) a.rootChecks.add(root.check());
            }
        }
        List<CheckCount> checks = new ArrayList<>();
        Map<String, Long> byState = new LinkedHashMap<>();
        for (String s : CHECK_STATES) byState.put(s, 0L);
        acc.forEach((check, a) -> {
            String status = a.status == null ? CONSEQUENCE : a.status.name();
            byState.merge(status, 1L, Long::sum);
            checks.add(new CheckCount(check, a.title, status, a.worst, a.roots, a.problems, a.consequences, a.worstConsequence,
                    List.copyOf(a.rootChecks), Collections.unmodifiableMap(new EnumMap<>(a.rootsByStatus))));
        });
        long total = cons.values().stream().mapToLong(Long::longValue).sum();
        return new ReportCounts(Collections.unmodifiableMap(r.counts()), Collections.unmodifiableMap(cons), total, List.copyOf(checks),
                Collections.unmodifiableMap(byState));
    }

    private static final class Acc {
        final String title;
        Status status, worst, worstConsequence;
        int roots, problems, consequences;
        final Set<String> rootChecks = new LinkedHashSet<>();
        final Map<Status, Integer> rootsByStatus = new EnumMap<>(Status.class);

        Acc(String title) {
            this.title = title;
        }
    }

    /** The root finding a consequence is listed under (following consequences of consequences), or null. */
    static Finding rootOf(Finding f, Map<String, Finding> byId) {
        Finding at = f;
        for (int hops = 0; at != null && at.isConsequence() && hops < 64; hops++) {
            Finding up = byId.get(at.parent());
            if (up == null) return at == f ? null : at;
            at = up;
        }
        return at == f ? null : at;
    }

    /** Root findings per status (all statuses present): {@link Report#counts()}. */
    public Map<Status, Long> findings() {
        return findings;
    }

    public long findings(Status s) {
        return findings.getOrDefault(s, 0L);
    }

    /** Findings listed under a root, counted apart. */
    public long consequences() {
        return consequences;
    }

    public Map<Status, Long> consequencesByStatus() {
        return consequencesByStatus;
    }

    /** One entry per check, in rule order. */
    public List<CheckCount> checks() {
        return checks;
    }

    /** Checks per status (keys {@link #CHECK_STATES}, all present). */
    public Map<String, Long> checkCounts() {
        return checkCounts;
    }

    public long checks(String state) {
        return checkCounts.getOrDefault(state, 0L);
    }

    /** "checks: 9 failed, 0 input errors, 3 warned, 18 passed, 15 skipped, 10 consequences only (55 checks)". */
    public String checksLine() {
        return "checks: " + checks("FAIL") + " failed, " + checks("ERROR") + " input errors, " + checks("WARN") + " warned, "
                + (checks("WAIVED") > 0 ? checks("WAIVED") + " waived, " : "") + checks("PASS") + " passed, " + checks("SKIP") + " skipped, "
                + checks(CONSEQUENCE) + " with consequences only (" + checks.size() + " checks)";
    }

    /** "root findings: 9 FAIL, 0 ERROR, 4 WARN, 19 PASS, 15 SKIP; 14 consequences listed under them". */
    public String findingsLine() {
        return "root findings: " + findings(Status.FAIL) + " FAIL, " + findings(Status.ERROR) + " ERROR, " + findings(Status.WARN) + " WARN, "
                + (findings(Status.WAIVED) > 0 ? findings(Status.WAIVED) + " WAIVED, " : "") + findings(Status.PASS) + " PASS, "
                + findings(Status.SKIP) + " SKIP; " + consequences + " consequence" + (consequences == 1 ? "" : "s") + " listed under them";
    }

    /**
     * The FAIL and ERROR root findings, one line each, as the console prints them: "FAIL check: summary [+N
     * consequence(s)]" (N: every finding listed under it), at most max lines and then "and N more".
     */
    public static List<String> rootFailureLines(Report r, int max) {
        Map<String, Finding> byId = new HashMap<>();
        for (Finding f : r.findings()) if (!f.id().isEmpty()) byId.putIfAbsent(f.id(), f);
        Map<Finding, Long> under = new java.util.IdentityHashMap<>();
        for (Finding f : r.findings()) {
            if (!f.isConsequence()) continue;
            Finding root = rootOf(f, byId);
            if (root != null) under.merge(root, 1L, Long::sum);
        }
        List<Finding> failing = r.roots().stream().filter(f -> f.status() == Status.FAIL || f.status() == Status.ERROR)
                .sorted(java.util.Comparator.comparing(Finding::status)).toList();
        List<String> out = new ArrayList<>();
        for (Finding f : failing.subList(0, Math.min(max, failing.size()))) {
            long n = under.getOrDefault(f, 0L);
            out.add(f.status() + " " + f.check() + ": " + ReportText.clip(f.summary(), MAX_LINE) + (n > 0 ? " [+" + n + " consequence(s)]" : ""));
        }
        if (failing.size() > max) out.add(moreLine(failing.size() - max));
        return out;
    }

    /** Most coverage gaps page 1 and the console list; the rest is "and N more". */
    public static final int MAX_GAP_LINES = 10;

    /** The coverage summary, then one line per gap (at most MAX_GAP_LINES, then "and N more"); empty when nothing was required. */
    public static List<String> coverageLines(io.ibaccept.rules.Coverage c) {
        if (c == null || c.summary().isEmpty()) return List.of();
        List<String> out = new ArrayList<>();
        out.add(c.summary());
        for (String l : bounded(c.gapLines(), MAX_GAP_LINES)) out.add(ReportText.clip(l, MAX_LINE));
        return out;
    }

    /** At most max of the lines, then "and N more". */
    static List<String> bounded(List<String> lines, int max) {
        if (lines.size() <= max) return lines;
        List<String> out = new ArrayList<>(lines.subList(0, max));
        out.add(moreLine(lines.size() - max));
        return out;
    }

    static String moreLine(int n) {
        return "and " + n + " more";
    }
}
