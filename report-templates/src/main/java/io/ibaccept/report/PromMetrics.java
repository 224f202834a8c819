package io.ibaccept.report;

import io.ibaccept.rules.Coverage;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.Verdict;
import io.ibaccept.rules.counters.LinkErrorsWindow;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * ibaccept.prom: the verdict and the counts of the report as metrics for node_exporter's textfile collector (or any
 * scraper of the text format), counted as every other output counts ({@link ReportCounts}).
 * <p>
 * The format is the Prometheus text exposition format 0.0.4 restricted to what OpenMetrics 1.0 accepts as well: that
 * collector parses the files with the 0.0.4 parser (prometheus/common expfmt.TextParser), which rejects the
 * OpenMetrics types info and stateset, so the verdict is a gauge per possible verdict (1 on the one given) and the
 * dump's identity an {@code _info}-style gauge of value 1. Every family is a gauge with HELP and TYPE, no timestamps
 * (the collector refuses a file with them), no blank lines, and the file ends with {@code # EOF}, which the 0.0.4
 * parser reads as a comment and OpenMetrics requires.
 */
final class PromMetrics {
    private PromMetrics() {}

    static final String PREFIX = "ibaccept_";

    static void render(ReportFacts facts, Writer out) throws IOException {
        Report r = facts.report();
        ReportCounts counts = facts.counts();
        Families f = new Families();

        var m = r.data().manifest();
        Map<String, String> info = new LinkedHashMap<>();
        info.put("dump_id", facts.dumpId());
        info.put("cluster", m.cluster());
        info.put("collected", m.created());
        info.put("tool_version", ReportText.toolVersion());
        io.ibaccept.contract.Contract k = facts.contract();
        if (k != null) info.put("contract", k.id());
        f.family("dump_info", "The dump the report was made from: its id, cluster, collection time (as the manifest states it), tool version and contract id; value 1.")
                .sample(info, 1);
        java.time.Instant collected = instant(m.created());
        if (collected != null)
            f.family("collection_timestamp_seconds", "When the dump was collected (manifest), in seconds since the epoch.")
                    .sample(Map.of(), collected.getEpochSecond());

        Verdict verdict = r.verdict();
        Family v = f.family("verdict", "The acceptance verdict: 1 for the verdict given, 0 for the others.");
        for (Verdict each : Verdict.values()) v.sample(Map.of("verdict", each.name()), each == verdict ? 1 : 0);
        f.family("accepted", "1 when the dump is accepted (with or without warnings or waivers), 0 otherwise.")
                .sample(Map.of(), verdict.name().startsWith("ACCEPTED") ? 1 : 0);

        Family checks = f.family("checks", "Checks by their own status, the worst of their root findings (CONSEQUENCE: only consequences of another check's root finding).");
        counts.checkCounts().forEach((status, n) -> checks.sample(Map.of("status", status), n));
        Family check = f.family("check_status", "Each check with its own status; value 1.");
        for (ReportCounts.CheckCount c : counts.checks()) check.sample(labels("check", c.check(), "status", c.status()), 1);
        Family roots = f.family("root_findings", "Root findings (one per fault) by check and status.");
        for (ReportCounts.CheckCount c : counts.checks())
            c.rootsByStatus().forEach((status, n) -> roots.sample(labels("check", c.check(), "status", status.name()), n));
        Family cons = f.family("consequence_findings", "Findings listed under a root finding, by status; counted apart from the root findings.");
        counts.consequencesByStatus().forEach((status, n) -> cons.sample(Map.of("status", status.name()), n));

        Coverage cov = r.coverage();
        if (!cov.required().isEmpty()) {
            f.family("coverage_required_checks", "Checks the acceptance requires (the contract's list, else the default set).")
                    .sample(Map.of(), cov.required().size());
            f.family("coverage_complete_checks", "Required checks that covered everything in their scope.").sample(Map.of(), cov.completeCount());
            Family gaps = f.family("coverage_gap", "A required check that did not cover its scope; value: the objects in scope it did not judge (at least 1).");
            for (Coverage.Required g : cov.gaps())
                gaps.sample(Map.of("check", g.check()), Math.max(1, g.expected() - g.covered()));
        }

        List<LinkErrorsWindow.ClassBer> ber = LinkErrorsWindow.perClass(facts.linkWindow());
        if (!ber.isEmpty()) {
            Family links = f.family("window_links", "Links judged over the counter window, by link class.");
            Family worst = f.family("link_symbol_ber_worst", "The worst symbol BER measured over the counter window on a link with symbol errors, by link class.");
            Family bound = f.family("link_symbol_ber_proven_bound", "The BER bound (95 % confidence) the least-loaded error-free link of the class proves over the counter window.");
            for (LinkErrorsWindow.ClassBer c : ber) {
                Map<String, String> cls = Map.of("link_class", c.switchToSwitch() ? "switch_to_switch" : "host");
                links.sample(cls, c.links());
                if (!Double.isNaN(c.worstBer())) worst.sample(cls, c.worstBer());
                if (!Double.isNaN(c.provenBound())) bound.sample(cls, c.provenBound());
            }
        }
        f.write(out);
    }

    private static Map<String, String> labels(String k1, String v1, String k2, String v2) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(k1, v1);
        m.put(k2, v2);
        return m;
    }

    /** The manifest's collection time, or null when it is not an ISO-8601 time. */
    private static java.time.Instant instant(String iso) {
        if (iso == null || iso.isBlank()) return null;
        try {
            return java.time.OffsetDateTime.parse(iso.strip()).toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    /** The families in the order they were declared; one with no sample is not written. */
    private static final class Families {
        final List<Family> all = new ArrayList<>();

        Family family(String name, String help) {
            Family fam = new Family(PREFIX + name, help);
            all.add(fam);
            return fam;
        }

        void write(Writer out) throws IOException {
            StringBuilder sb = new StringBuilder();
            for (Family fam : all) {
                if (fam.samples.isEmpty()) continue;
                sb.append("# HELP ").append(fam.name).append(' ').append(fam.help).append('\n');
                sb.append("# TYPE ").append(fam.name).append(" gauge\n");
                for (String s : fam.samples) sb.append(fam.name).append(s).append('\n');
            }
            sb.append("# EOF\n");
            out.write(sb.toString());
        }
    }

    private static final class Family {
        final String name, help;
        final List<String> samples = new ArrayList<>();

        Family(String name, String help) {
            this.name = name;
            this.help = help;
        }

        void sample(Map<String, String> labels, double value) {
            StringBuilder sb = new StringBuilder();
            if (!labels.isEmpty()) {
                sb.append('{');
                labels.forEach((k, v) -> sb.append(sb.length() > 1 ? "," : "").append(k).append("=\"").append(labelValue(v)).append('"'));
                sb.append('}');
            }
            samples.add(sb.append(' ').append(number(value)).toString());
        }
    }

    /** A whole number as such, anything else in Java's shortest round-trip form with a lower-case exponent. */
    static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString((long) v);
        return Double.toString(v).toLowerCase(Locale.ROOT);
    }

    /**
     * A label value as both formats escape it: backslash, double quote and line feed. The value comes from the dump
     * (cluster name, check ids of input findings): a character that is not valid UTF-8 on its own (a lone surrogate)
     * becomes U+FFFD, since the 0.0.4 parser rejects a value that is not valid UTF-8, and other control characters
     * become U+FFFD too, so a file read line by line keeps one sample per line.
     */
    static String labelValue(String s) {
        if (s == null) return "";
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') sb.append("\\\\");
            else if (c == '"') sb.append("\\\"");
            else if (c == '\n') sb.append("\\n");
            else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) sb.append(c).append(s.charAt(++i));
            else if (Character.isSurrogate(c) || Character.isISOControl(c)) sb.append('\uFFFD');
            else sb.append(c);
        }
        return sb.toString();
    }
}
