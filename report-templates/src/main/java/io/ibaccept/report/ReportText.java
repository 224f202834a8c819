package io.ibaccept.report;

import io.ibaccept.model.ClusterData;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Hostlists;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.RuleConfig;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.Waiver;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/** Wording and grouping shared by the HTML, PDF and machine-readable renderers, so all say the same thing. */
final class ReportText {
    private ReportText() {}

    record NodeRow(String host, Status worst, String link, List<String> findings) {}

    /**
     * Findings with the same check, status, cause and fix (host names aside) shown as one: its objects as hostlists,
     * the first evidence lines and how many more there are in findings.csv/json.
     */
    record Group(String check, String title, Status status, List<Finding> members, String summary, String objects,
                 List<Evidence> evidence, int moreEvidence, String cause, String fix, String rootCheck) {
        int size() {
            return members.size();
        }

        /** A group of consequences, listed right under the root group it follows from (rootCheck is the root's check). */
        boolean consequence() {
            return rootCheck != null;
        }

        /** The summary as shown: a consequence says what it follows from. */
        String shownSummary() {
            return consequence() ? "-> consequence of the " + rootCheck + " finding above: " + summary : summary;
        }
    }

    /** One line per check of the aggregate view: how many hosts have a non-passing finding, as a hostlist. */
    record CheckAggregate(String check, String title, Status worst, int hosts, String hostlist) {}

    record LeafAggregate(String leaf, int hosts, int withProblems, String problemHosts) {}

    /** What the verdict means for this report (never "all checks passed" while required checks did not run). */
    static String headline(Report r) {
        return r.meaning();
    }

    static String meta(Report r) {
        var m = r.data().manifest();
        return "Cluster " + m.cluster() + " | " + r.data().hosts().size() + " nodes | collected " + (m.created().isEmpty() ? "(unknown)" : time(m.created()))
                + (m.fabricNode().isEmpty() ? "" : " from " + m.fabricNode()) + " | dump " + r.data().source();
    }

    private static final java.time.format.DateTimeFormatter SECONDS = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    /**
     * A time as every report shows it: whole seconds and the time zone, "2026-12-03 21:43:17 UTC" (an offset other
     * than UTC as "+01:00"). A text that is not an ISO-8601 time is shown as written.
     */
    static String time(String iso) {
        if (iso == null || iso.isBlank()) return iso == null ? "" : iso;
        String s = iso.strip();
        try {
            return time(java.time.OffsetDateTime.parse(s));
        } catch (java.time.format.DateTimeParseException e) {
            try {
                return time(java.time.ZonedDateTime.parse(s).toOffsetDateTime());
            } catch (java.time.format.DateTimeParseException e2) {
                return s;
            }
        }
    }

    static String time(java.time.Instant t) {
        return time(t.atOffset(java.time.ZoneOffset.UTC));
    }

    private static String time(java.time.OffsetDateTime t) {
        java.time.ZoneOffset o = t.getOffset();
        return SECONDS.format(t) + " " + (o.getTotalSeconds() == 0 ? "UTC" : o.getId());
    }

    static Map<String, String> titles(Report r) {
        Map<String, String> m = new HashMap<>();
        for (Finding f : r.findings()) m.putIfAbsent(f.check(), f.title());
        return m;
    }

    static String waiverText(Waiver w) {
        return "waived until " + w.expires() + " by " + w.owner() + ": " + w.reason() + " (" + w.where() + ")";
    }

    // ---- provenance for the cover page and the JSON ----

    static String toolVersion() {
        String v = ReportText.class.getPackage().getImplementationVersion();
        if (v != null && !v.isBlank()) return v;
        try (InputStream in = ReportText.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String pv = p.getProperty("version", "").strip();
                if (!pv.isEmpty() && !pv.startsWith("${")) return pv;
            }
        } catch (IOException e) {
            // fall through: the version is then unknown, which the cover page says
        }
        return "unknown";
    }

    /** "key = value (default: x)" for every rule setting that differs from the defaults. */
    static List<String> changedThresholds(Report r) {
        RuleConfig cfg = r.rules() != null ? r.rules() : RuleConfig.defaults();
        Properties now = cfg.asProperties(), dflt = RuleConfig.defaults().asProperties();
        List<String> out = new ArrayList<>();
        for (String k : new TreeSet<>(now.stringPropertyNames())) {
            String v = now.getProperty(k).strip(), d = dflt.getProperty(k);
            if (d == null) out.add(k + " = " + v + " (not a default setting)");
            else if (!d.strip().equals(v)) out.add(k + " = " + v + " (default: " + d.strip() + ")");
        }
        return out;
    }

    // ---- grouping ----

    private static final int SHAPE_MAX_HOSTS = 8;

    /**
     * Root findings grouped as above, each group followed by the groups of its members' consequences (so a dead leaf
     * is one row with the host ports behind it under it, not many unrelated rows). A consequence whose root is not
     * among the findings given (e.g. the root is waived) is grouped like a root.
     */
    static List<Group> groups(Report r, List<Finding> findings, ReportLayout layout) {
        Map<String, Finding> byId = new HashMap<>();
        for (Finding f : findings) if (!f.id().isEmpty()) byId.put(f.id(), f);
        Set<String> ids = byId.keySet();
        Map<String, List<Finding>> roots = new LinkedHashMap<>();
        Map<String, String> rootKeyOfId = new HashMap<>();
        List<Finding> consequences = new ArrayList<>();
        for (Finding f : findings) {
            if (f.isConsequence() && ids.contains(f.parent())) {
                consequences.add(f);
                continue;
            }
            String key = key(f);
            roots.computeIfAbsent(key, k -> new ArrayList<>()).add(f);
            if (!f.id().isEmpty()) rootKeyOfId.put(f.id(), key);
        }
        Map<String, Map<String, List<Finding>>> under = new HashMap<>();
        for (Finding f : consequences) {
            String rootKey = rootKeyOfId.get(f.parent());
            if (rootKey == null) rootKey = rootKeyOfConsequence(f, rootKeyOfId, byId);
            under.computeIfAbsent(rootKey, k -> new LinkedHashMap<>()).computeIfAbsent(key(f), k -> new ArrayList<>()).add(f);
        }
        List<Group> out = new ArrayList<>();
        for (Map.Entry<String, List<Finding>> e : roots.entrySet()) {
            out.add(group(e.getValue(), layout, null));
            String rootCheck = e.getValue().get(0).check();
            for (List<Finding> c : under.getOrDefault(e.getKey(), Map.of()).values()) out.add(group(c, layout, rootCheck));
        }
        return out;
    }

    private static String key(Finding f) {
        List<String> hosts = f.hosts();
        return f.check() + "\u0000" + f.status() + "\u0000" + shape(f.cause(), hosts) + "\u0000" + shape(f.fix(), hosts);
    }

    /** A consequence of a consequence: follow the parents up to the root group. */
    private static String rootKeyOfConsequence(Finding f, Map<String, String> rootKeyOfId, Map<String, Finding> byId) {
        Finding at = f;
        for (int hops = 0; at != null && at.isConsequence() && hops < 16; hops++) {
            String k = rootKeyOfId.get(at.parent());
            if (k != null) return k;
            at = byId.get(at.parent());
        }
        return key(f);
    }

    private static Group group(List<Finding> members, ReportLayout layout, String rootCheck) {
        Finding first = members.get(0);
        List<String> objects = new ArrayList<>();
        Set<String> hosts = new LinkedHashSet<>();
        for (Finding f : members) {
            objects.addAll(f.objects());
            hosts.addAll(f.hosts());
        }
        String hostlist = hosts.size() > 1 ? Hostlists.compress(hosts) : null;
        String summary, cause, fix;
        if (members.size() == 1) {
            summary = first.summary();
            cause = first.cause();
            fix = first.fix();
        } else {
            List<String> firstHosts = first.hosts();
            String shape = shape(first.summary(), firstHosts);
            boolean same = members.stream().allMatch(f -> shape(f.summary(), f.hosts()).equals(shape));
            summary = same && shape.contains(HOST) ? fill(shape, hostlist)
                    : members.size() + " findings like: " + first.summary();
            cause = fill(shape(first.cause(), firstHosts), hostlist);
            fix = fill(shape(first.fix(), firstHosts), hostlist);
        }
        List<Evidence> ev = new ArrayList<>();
        int total = 0;
        for (Finding f : members) {
            for (Evidence e : f.evidence()) {
                if (ev.size() < layout.maxEvidence()) ev.add(new Evidence(clip(e.text(), MAX_EVIDENCE_TEXT), clip(e.where(), MAX_EVIDENCE_TEXT)));
                total++;
            }
        }
        return new Group(first.check(), first.title(), first.status(), List.copyOf(members), clip(summary, MAX_TEXT),
                compressObjects(objects, layout.maxObjectsText()), ev, total - ev.size(), clip(cause, MAX_TEXT), clip(fix, MAX_TEXT),
                rootCheck);
    }

    private static final String HOST = "\u0001";

    /** Longest text of one cell in HTML/PDF: a damaged dump can put megabytes on one line; CSV/JSON keep it whole. */
    static final int MAX_TEXT = 2000;

    /** Longest evidence line in HTML/PDF: a line of a tool's output names one thing; the whole line is in findings.csv. */
    static final int MAX_EVIDENCE_TEXT = 400;

    /** Most waivers a report lists one row each; findings.json keeps them all. */
    static final int MAX_WAIVER_ROWS = 200;

    /**
     * The waivers a report lists, those that matter first: the ones that waived a finding of this dump, then the
     * expired ones, then the rest in file order, at most {@link #MAX_WAIVER_ROWS} (a site's waivers file may hold
     * tens of thousands, which no reader scans and no PDF should hold in memory).
     */
    static List<io.ibaccept.rules.WaiverUse> waiversToList(io.ibaccept.rules.Report r) {
        List<io.ibaccept.rules.WaiverUse> sorted = new ArrayList<>(r.waivers());
        sorted.sort(java.util.Comparator.comparingInt((io.ibaccept.rules.WaiverUse u) -> u.findings() > 0 ? 0 : u.expired() ? 1 : 2));
        return sorted.subList(0, Math.min(sorted.size(), MAX_WAIVER_ROWS));
    }

    /** The line that follows a cut waiver list, or null when every waiver is listed. */
    static String moreWaiversLine(io.ibaccept.rules.Report r) {
        int more = r.waivers().size() - MAX_WAIVER_ROWS;
        return more <= 0 ? null : "... and " + more + " more waivers that waived nothing in this dump (all " + r.waivers().size()
                + " are in findings.json)";
    }

    static String clip(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max) + "... (" + (s.length() - max) + " more characters in findings.csv)";
    }

    /** The text with each of the finding's host names (as whole words) replaced by a placeholder. */
    static String shape(String text, List<String> hosts) {
        if (text == null || text.isEmpty() || hosts.isEmpty() || hosts.size() > SHAPE_MAX_HOSTS) return text == null ? "" : text;
        String s = text;
        for (String h : hosts) if (!h.isEmpty()) s = replaceWord(s, h);
        return s;
    }

    /** Replaces h where it stands as a whole host name (not inside node10 when h is node1). Plain scanning: no regex per host. */
    private static String replaceWord(String s, String h) {
        int at = s.indexOf(h);
        if (at < 0) return s;
        StringBuilder sb = new StringBuilder(s.length());
        int from = 0;
        while (at >= 0) {
            int end = at + h.length();
            boolean before = at == 0 || !hostChar(s.charAt(at - 1));
            // a '.' after the name ends a sentence; before it, the name is part of a longer one
            boolean after = end == s.length() || !hostChar(s.charAt(end)) || s.charAt(end) == '.';
            if (before && after) {
                sb.append(s, from, at).append(HOST);
                from = end;
            }
            at = s.indexOf(h, end);
        }
        return sb.append(s, from, s.length()).toString();
    }

    private static boolean hostChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.';
    }

    private static String fill(String shape, String hostlist) {
        return hostlist == null ? shape.replace(HOST, "") : shape.replace(HOST, hostlist);
    }

    static String hostOf(String object) {
        for (int i = 0; i < object.length(); i++) {
            char c = object.charAt(i);
            if (c == ' ' || c == '/' || c == ':') return object.substring(0, i);
        }
        return object;
    }

    /** Objects as hostlists per object kind: "node[0001-2000] HCA-1 port 1"; cut at max characters with the remaining count. */
    static String compressObjects(List<String> objects, int max) {
        if (objects.isEmpty()) return "";
        Map<String, List<String>> byRest = new LinkedHashMap<>();
        for (String o : portRuns(new LinkedHashSet<>(objects))) {
            String h = hostOf(o);
            byRest.computeIfAbsent(o.substring(h.length()), k -> new ArrayList<>()).add(h);
        }
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : byRest.entrySet()) {
            String list = Hostlists.compress(e.getValue());
            parts.add(e.getKey().isEmpty() ? list : (topLevelComma(list) ? "{" + list + "}" : list) + e.getKey());
        }
        StringBuilder sb = new StringBuilder();
        int shown = 0;
        for (String p : parts) {
            if (sb.length() + p.length() > max && shown > 0) {
                sb.append(" ... and ").append(parts.size() - shown).append(" more (full list in findings.csv)");
                break;
            }
            if (shown++ > 0) sb.append(", ");
            sb.append(p.length() > max ? p.substring(0, max) + "..." : p);
        }
        return sb.toString();
    }

    private static final java.util.regex.Pattern PORT = java.util.regex.Pattern.compile("^(.+) port (\\d{1,4})$");

    /**
     * The ports of one device as one object with their ranges: "leaf01 ports 1-24, 31 (25 ports)" for the 25 objects
     * "leaf01 port 1" ... (a switch whose counters name every port would otherwise fill a PDF page).
     */
    static List<String> portRuns(java.util.Collection<String> objects) {
        Map<String, java.util.TreeSet<Integer>> ports = new LinkedHashMap<>();
        for (String o : objects) {
            java.util.regex.Matcher m = PORT.matcher(o);
            if (m.matches()) ports.computeIfAbsent(m.group(1), k -> new java.util.TreeSet<>()).add(Integer.parseInt(m.group(2)));
        }
        List<String> out = new ArrayList<>();
        Set<String> done = new java.util.HashSet<>();
        for (String o : objects) {
            java.util.regex.Matcher m = PORT.matcher(o);
            if (!m.matches() || ports.get(m.group(1)).size() < 2) {
                out.add(o);
                continue;
            }
            if (!done.add(m.group(1))) continue;
            java.util.TreeSet<Integer> ps = ports.get(m.group(1));
            out.add(m.group(1) + " ports " + ranges(ps) + " (" + ps.size() + " ports)");
        }
        return out;
    }

    /** "1-24, 31, 33-34" */
    static String ranges(java.util.SortedSet<Integer> ns) {
        StringBuilder sb = new StringBuilder();
        Integer start = null, prev = null;
        for (int n : ns) {
            if (prev != null && n == prev + 1) {
                prev = n;
                continue;
            }
            if (start != null) sb.append(sb.length() > 0 ? ", " : "").append(start.equals(prev) ? String.valueOf(start) : start + "-" + prev);
            start = prev = n;
        }
        if (start != null) sb.append(sb.length() > 0 ? ", " : "").append(start.equals(prev) ? String.valueOf(start) : start + "-" + prev);
        return sb.toString();
    }

    private static boolean topLevelComma(String list) {
        int depth = 0;
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            if (c == '[') depth++;
            else if (c == ']') depth--;
            else if (c == ',' && depth == 0) return true;
        }
        return false;
    }

    // ---- per node ----

    /** Rows for the nodes that have a non-passing finding, in host order; the rest are summarised by {@link #cleanHosts}. */
    static List<NodeRow> problemNodeRows(Report r) {
        List<NodeRow> rows = new ArrayList<>();
        Map<String, List<Finding>> byHost = r.byHost();
        for (HostData h : r.data().hosts().values()) {
            Status worst = Status.PASS;
            List<String> fs = new ArrayList<>();
            for (Finding f : byHost.getOrDefault(h.host(), List.of())) {
                // skipped checks are listed in their own section; a node's row shows what is wrong with it
                if (f.status() == Status.PASS || f.status() == Status.SKIP) continue;
                if (f.status().worseThan(worst)) worst = f.status();
                fs.add(f.status() + " " + f.check() + ": " + clip(f.summary(), MAX_TEXT));
            }
            if (!fs.isEmpty()) rows.add(new NodeRow(h.host(), worst, link(h), fs));
        }
        return rows;
    }

    static List<String> cleanHosts(Report r, List<NodeRow> problemRows) {
        Set<String> bad = new java.util.HashSet<>();
        problemRows.forEach(n -> bad.add(n.host()));
        return r.data().hosts().keySet().stream().filter(h -> !bad.contains(h)).toList();
    }

    static List<CheckAggregate> checkAggregates(Report r) {
        Map<String, Set<String>> hosts = new LinkedHashMap<>();
        Map<String, Status> worst = new HashMap<>();
        Set<String> known = r.data().hosts().keySet();
        for (Finding f : r.findings()) {
            if (f.status() == Status.PASS || f.status() == Status.SKIP) continue;
            for (String h : f.hosts()) {
                if (!known.contains(h)) continue;
                hosts.computeIfAbsent(f.check(), k -> new TreeSet<>()).add(h);
                worst.merge(f.check(), f.status(), (a, b) -> a.worseThan(b) ? a : b);
            }
        }
        Map<String, String> titles = titles(r);
        List<CheckAggregate> out = new ArrayList<>();
        hosts.forEach((c, hs) -> out.add(new CheckAggregate(c, titles.getOrDefault(c, c), worst.get(c), hs.size(), Hostlists.compress(hs))));
        return out;
    }

    static List<LeafAggregate> leafAggregates(Report r, FabricView fabric, List<NodeRow> problemRows) {
        Set<String> bad = new java.util.HashSet<>();
        problemRows.forEach(n -> bad.add(n.host()));
        List<LeafAggregate> out = new ArrayList<>();
        for (Map.Entry<String, Set<String>> e : fabric.leafHosts.entrySet()) {
            List<String> p = e.getValue().stream().filter(bad::contains).toList();
            out.add(new LeafAggregate(e.getKey(), e.getValue().size(), p.size(), p.isEmpty() ? "-" : Hostlists.compress(p)));
        }
        return out;
    }

    /** PASS and SKIP findings summarised per check and status: one line each, objects as hostlists. */
    record PassLine(String check, String title, Status status, int findings, String text) {}

    static List<PassLine> passLines(Report r, ReportLayout layout) {
        Map<String, List<Finding>> m = new LinkedHashMap<>();
        for (Finding f : r.worstFirst())
            if (f.status() == Status.PASS || f.status() == Status.SKIP) m.computeIfAbsent(f.check() + "\u0000" + f.status(), k -> new ArrayList<>()).add(f);
        List<PassLine> out = new ArrayList<>();
        for (List<Finding> fs : m.values()) {
            Finding f = fs.get(0);
            String text;
            if (fs.size() == 1) text = clip(f.summary(), MAX_TEXT);
            else {
                List<String> objects = fs.stream().flatMap(x -> x.objects().stream()).toList();
                text = fs.size() + " results" + (objects.isEmpty() ? "" : " on " + compressObjects(objects, layout.maxObjectsText()))
                        + "; e.g. " + clip(f.summary(), MAX_TEXT);
            }
            out.add(new PassLine(f.check(), f.title(), f.status(), fs.size(), text));
        }
        return out;
    }

    private static String link(HostData h) {
        if (h.ibstat() == null) return "ibstat unavailable";
        List<String> parts = new ArrayList<>();
        for (Ibstat.Ca ca : h.ibstat())
            for (Ibstat.Port p : ca.ports())
                parts.add(ca.name() + "/" + p.number() + " " + p.state() + (p.rate() > 0 && p.isActive() ? " " + p.rate() + "G" : "") + " lid " + p.baseLid());
        return String.join(", ", parts);
    }
}
