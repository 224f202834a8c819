package io.ibaccept.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.ibaccept.model.InputProblem;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.analysis.Analysis;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.Waiver;
import io.ibaccept.rules.WaiverUse;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** findings.json: the verdict and every finding for CI systems and ticket tools. The schema is in SCHEMA.md. */
public final class JsonReport {
    private JsonReport() {}

    public static final int SCHEMA_VERSION = 1;

    public record Doc(int schemaVersion, String tool, String toolVersion, String cluster, DumpInfo dump, VerdictInfo verdict,
                      Map<String, Long> counts, long consequences, Map<String, Long> checkCounts, List<CheckJson> checks,
                      CoverageJson coverage, @JsonInclude(JsonInclude.Include.NON_NULL) ContractJson contract,
                      List<FindingJson> findings, List<WaiverJson> waivers, List<ProblemJson> inputProblems) {}

    public record DumpInfo(String path, String id, String created, int nodes) {}

    /** line: the label as page 1 prints it, qualified when required checks did not run. */
    public record VerdictInfo(String code, String label, String meaning, String line) {}

    /** One check, counted once (see ReportCounts): status is its own, worst includes the consequences listed under other roots. */
    public record CheckJson(String check, String title, String status, String worst, int roots, int problems, int consequences) {}

    public record CoverageJson(boolean declared, String summary, List<RequiredJson> required) {}

    public record RequiredJson(String check, String title, int expected, int covered, String missing, String hint, boolean complete) {}

    public record ContractJson(String file, String id, List<String> summary) {}

    public record FindingJson(String check, String title, String status, List<String> objects, List<EvidenceJson> evidence,
                              String summary, String cause, String fix, String variant, @JsonInclude(JsonInclude.Include.NON_NULL) WaiverJson waiver,
                              String id, @JsonInclude(JsonInclude.Include.NON_NULL) String parent, List<RefJson> refs) {}

    /**
     * A typed reference of a finding: kind host (name), port (node, port), cable (ends), hca-end (name: the host at a
     * cable's HCA end), pair (a, b) or node (name); key is one string per referenced thing.
     */
    public record RefJson(String kind, String key, @JsonInclude(JsonInclude.Include.NON_NULL) String name,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String node, @JsonInclude(JsonInclude.Include.NON_NULL) Integer port,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String ends, @JsonInclude(JsonInclude.Include.NON_NULL) String a,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String b) {
        static RefJson of(io.ibaccept.rules.Ref r) {
            if (r instanceof io.ibaccept.rules.Ref.Host h) return new RefJson("host", r.key(), h.name(), null, null, null, null, null);
            if (r instanceof io.ibaccept.rules.Ref.Port p) return new RefJson("port", r.key(), null, p.node(), p.port(), null, null, null);
            if (r instanceof io.ibaccept.rules.Ref.Cable c) return new RefJson("cable", r.key(), null, null, null, c.ends(), null, null);
            if (r instanceof io.ibaccept.rules.Ref.HcaEnd h) return new RefJson("hca-end", r.key(), h.host(), null, null, null, null, null);
            if (r instanceof io.ibaccept.rules.Ref.Pair p) return new RefJson("pair", r.key(), null, null, null, null, p.a(), p.b());
            if (r instanceof io.ibaccept.rules.Ref.Partition p) return new RefJson("partition", r.key(), p.name(), null, null, null, null, null);
            if (r instanceof io.ibaccept.rules.Ref.Sm s) return new RefJson("sm", r.key(), s.node(), null, null, null, null, null);
            io.ibaccept.rules.Ref.Node n = (io.ibaccept.rules.Ref.Node) r;
            return new RefJson("node", r.key(), n.name(), null, null, null, null, null);
        }

        /** The reference this JSON stands for (what a program reading findings.json back works with). */
        public io.ibaccept.rules.Ref toRef() {
            return switch (kind) {
                case "host" -> new io.ibaccept.rules.Ref.Host(name);
                case "port" -> new io.ibaccept.rules.Ref.Port(node, port);
                case "cable" -> new io.ibaccept.rules.Ref.Cable(ends);
                case "hca-end" -> new io.ibaccept.rules.Ref.HcaEnd(name);
                case "pair" -> new io.ibaccept.rules.Ref.Pair(a, b);
                case "partition" -> new io.ibaccept.rules.Ref.Partition(name);
                case "sm" -> new io.ibaccept.rules.Ref.Sm(name);
                default -> new io.ibaccept.rules.Ref.Node(name);
            };
        }
    }

    /** where is "file:line" as in the report; file and line split out (line 0: the file as a whole or derived). */
    public record EvidenceJson(String text, String where, String file, int line) {}

    public record WaiverJson(String check, String objects, String reason, String owner, String expires, String where,
                             @JsonInclude(JsonInclude.Include.NON_NULL) Boolean expired,
                             @JsonInclude(JsonInclude.Include.NON_NULL) Integer findings) {}

    public record ProblemJson(String kind, String host, String command, String file, int line, String message) {}


    public static Doc toDoc(Analysis a) {
        Report r = a.report();
        ReportCounts rc = ReportCounts.of(r);
        Map<String, Long> counts = new LinkedHashMap<>();
        rc.findings().forEach((s, n) -> counts.put(s.name(), n));
        List<CheckJson> checks = rc.checks().stream().map(c -> new CheckJson(c.check(), c.title(), c.status(), c.worst().name(), c.roots(),
                c.problems(), c.consequences())).toList();
        var cov = r.coverage();
        CoverageJson coverage = new CoverageJson(cov.declared(), cov.summary(), cov.required().stream().map(q -> new RequiredJson(q.check(),
                q.title(), q.expected(), q.covered(), q.missing(), q.hint(), q.complete())).toList());
        var c = a.contract();
        ContractJson contract = c == null ? null : new ContractJson(c.file(), c.id(), c.summaryLines());
        List<FindingJson> findings = r.worstFirst().stream().map(f -> finding(r, f)).toList();
        List<WaiverJson> waivers = r.waivers().stream().map(u -> waiver(u.waiver(), u)).toList();
        List<ProblemJson> problems = r.data().problems().stream().map(JsonReport::problem).toList();
        var m = r.data().manifest();
        return new Doc(SCHEMA_VERSION, "ibaccept", ReportText.toolVersion(), m.cluster(),
                new DumpInfo(r.data().source(), a.dumpId(), m.created(), r.data().hosts().size()),
                new VerdictInfo(r.verdict().name(), r.verdict().label(), r.meaning(), r.verdictLine()), counts, rc.consequences(),
                new LinkedHashMap<>(rc.checkCounts()), checks, coverage, contract, findings, waivers, problems);
    }

    private static final JsonFactory JSON = new JsonFactory().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

    /**
     * Written with Jackson's streaming generator, field by field in the records' order, as the data binding would
     * print the Doc: the same bytes without building bean serializers by reflection (about 70 ms of a one-shot demo).
     */
    public static void render(Analysis a, OutputStream out) {
        Doc d = toDoc(a);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeNumberField("schemaVersion", d.schemaVersion());
            str(g, "tool", d.tool());
            str(g, "toolVersion", d.toolVersion());
            str(g, "cluster", d.cluster());
            g.writeObjectFieldStart("dump");
            str(g, "path", d.dump().path());
            str(g, "id", d.dump().id());
            str(g, "created", d.dump().created());
            g.writeNumberField("nodes", d.dump().nodes());
            g.writeEndObject();
            g.writeObjectFieldStart("verdict");
            str(g, "code", d.verdict().code());
            str(g, "label", d.verdict().label());
            str(g, "meaning", d.verdict().meaning());
            str(g, "line", d.verdict().line());
            g.writeEndObject();
            g.writeObjectFieldStart("counts");
            for (Map.Entry<String, Long> e : d.counts().entrySet()) g.writeNumberField(e.getKey(), e.getValue());
            g.writeEndObject();
            g.writeNumberField("consequences", d.consequences());
            g.writeObjectFieldStart("checkCounts");
            for (Map.Entry<String, Long> e : d.checkCounts().entrySet()) g.writeNumberField(e.getKey(), e.getValue());
            g.writeEndObject();
            g.writeArrayFieldStart("checks");
            for (CheckJson c : d.checks()) {
                g.writeStartObject();
                str(g, "check", c.check());
                str(g, "title", c.title());
                str(g, "status", c.status());
                str(g, "worst", c.worst());
                g.writeNumberField("roots", c.roots());
                g.writeNumberField("problems", c.problems());
                g.writeNumberField("consequences", c.consequences());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeObjectFieldStart("coverage");
            g.writeBooleanField("declared", d.coverage().declared());
            str(g, "summary", d.coverage().summary());
            g.writeArrayFieldStart("required");
            for (RequiredJson q : d.coverage().required()) {
                g.writeStartObject();
                str(g, "check", q.check());
                str(g, "title", q.title());
                g.writeNumberField("expected", q.expected());
                g.writeNumberField("covered", q.covered());
                str(g, "missing", q.missing());
                str(g, "hint", q.hint());
                g.writeBooleanField("complete", q.complete());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
            if (d.contract() != null) {
                g.writeObjectFieldStart("contract");
                str(g, "file", d.contract().file());
                str(g, "id", d.contract().id());
                strings(g, "summary", d.contract().summary());
                g.writeEndObject();
            }
            g.writeArrayFieldStart("findings");
            for (FindingJson f : d.findings()) {
                g.writeStartObject();
                str(g, "check", f.check());
                str(g, "title", f.title());
                str(g, "status", f.status());
                strings(g, "objects", f.objects());
                g.writeArrayFieldStart("evidence");
                for (EvidenceJson e : f.evidence()) {
                    g.writeStartObject();
                    str(g, "text", e.text());
                    str(g, "where", e.where());
                    str(g, "file", e.file());
                    g.writeNumberField("line", e.line());
                    g.writeEndObject();
                }
                g.writeEndArray();
                str(g, "summary", f.summary());
                str(g, "cause", f.cause());
                str(g, "fix", f.fix());
                str(g, "variant", f.variant());
                if (f.waiver() != null) {
                    g.writeFieldName("waiver");
                    waiver(g, f.waiver());
                }
                str(g, "id", f.id());
                if (f.parent() != null) str(g, "parent", f.parent());
                g.writeArrayFieldStart("refs");
                for (RefJson x : f.refs()) {
                    g.writeStartObject();
                    str(g, "kind", x.kind());
                    str(g, "key", x.key());
                    if (x.name() != null) str(g, "name", x.name());
                    if (x.node() != null) str(g, "node", x.node());
                    if (x.port() != null) g.writeNumberField("port", x.port());
                    if (x.ends() != null) str(g, "ends", x.ends());
                    if (x.a() != null) str(g, "a", x.a());
                    if (x.b() != null) str(g, "b", x.b());
                    g.writeEndObject();
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("waivers");
            for (WaiverJson w : d.waivers()) waiver(g, w);
            g.writeEndArray();
            g.writeArrayFieldStart("inputProblems");
            for (ProblemJson p : d.inputProblems()) {
                g.writeStartObject();
                str(g, "kind", p.kind());
                str(g, "host", p.host());
                str(g, "command", p.command());
                str(g, "file", p.file());
                g.writeNumberField("line", p.line());
                str(g, "message", p.message());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void waiver(JsonGenerator g, WaiverJson w) throws IOException {
        g.writeStartObject();
        str(g, "check", w.check());
        str(g, "objects", w.objects());
        str(g, "reason", w.reason());
        str(g, "owner", w.owner());
        str(g, "expires", w.expires());
        str(g, "where", w.where());
        if (w.expired() != null) g.writeBooleanField("expired", w.expired());
        if (w.findings() != null) g.writeNumberField("findings", w.findings());
        g.writeEndObject();
    }

    private static void str(JsonGenerator g, String name, String value) throws IOException {
        if (value == null) g.writeNullField(name);
        else g.writeStringField(name, value);
    }

    private static void strings(JsonGenerator g, String name, List<String> values) throws IOException {
        if (values == null) {
            g.writeNullField(name);
            return;
        }
        g.writeArrayFieldStart(name);
        for (String v : values) g.writeString(v);
        g.writeEndArray();
    }

    private static FindingJson finding(Report r, Finding f) {
        Waiver w = f.status() == Status.WAIVED ? r.waiverFor(f) : null;
        return new FindingJson(f.check(), f.title(), f.status().name(), f.objects(),
                f.evidence().stream().map(JsonReport::evidence).toList(), f.summary(), f.cause(), f.fix(), f.variant(),
                w == null ? null : waiver(w, null), f.id(), f.parent(), f.refs().stream().map(RefJson::of).toList());
    }

    static EvidenceJson evidence(Evidence e) {
        String where = e.where();
        int colon = where.lastIndexOf(':');
        if (colon > 0 && colon < where.length() - 1 && where.substring(colon + 1).chars().allMatch(Character::isDigit)
                && where.length() - colon - 1 <= 9)
            return new EvidenceJson(e.text(), where, where.substring(0, colon), Integer.parseInt(where.substring(colon + 1)));
        return new EvidenceJson(e.text(), where, where, 0);
    }

    private static WaiverJson waiver(Waiver w, WaiverUse u) {
        return new WaiverJson(w.check(), w.objects(), w.reason(), w.owner(), w.expires().toString(), w.where(),
                u == null ? null : u.expired(), u == null ? null : u.findings());
    }

    private static ProblemJson problem(InputProblem p) {
        return new ProblemJson(p.kind().name(), p.host(), p.command(), p.file(), p.line(), p.message());
    }
}
