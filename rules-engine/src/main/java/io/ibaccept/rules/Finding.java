package io.ibaccept.rules;

import java.util.List;

/**
 * One result of one check: which objects, what was seen, why it probably happened and how to fix it. variant names
 * which of the check's causes it is ("down", "init.nosm"; empty for the check's only one), as its cause and fix keys
 * do. id is unique in a report ("port.state#3"); parent is the id of the root finding this one is a consequence of
 * (null for a root): a dead leaf switch is one root finding with the host ports behind it and their input skips as
 * consequences.
 */
public record Finding(String check, String title, Status status, List<String> objects, List<Evidence> evidence,
                      String summary, String cause, String fix, String variant, String id, String parent, List<Ref> refs) {
    public Finding {
        // text quoted from a dump reaches terminals, strict JSON/XML readers and PDFs: escapes and controls made visible
        summary = io.ibaccept.safety.Printable.of(summary);
        cause = io.ibaccept.safety.Printable.of(cause);
        fix = io.ibaccept.safety.Printable.of(fix);
        objects = List.copyOf(objects.stream().map(io.ibaccept.safety.Printable::of).toList());
        evidence = List.copyOf(evidence);
        variant = variant == null ? "" : variant;
        id = id == null ? "" : id;
        refs = refs == null ? List.of() : List.copyOf(refs);
    }

    public Finding(String check, String title, Status status, List<String> objects, List<Evidence> evidence,
                   String summary, String cause, String fix, String variant, String id, String parent) {
        this(check, title, status, objects, evidence, summary, cause, fix, variant, id, parent, List.of());
    }

    public Finding(String check, String title, Status status, List<String> objects, List<Evidence> evidence,
                   String summary, String cause, String fix) {
        this(check, title, status, objects, evidence, summary, cause, fix, "", "", null, List.of());
    }

    public boolean isConsequence() {
        return parent != null;
    }

    Finding withId(String newId) {
        return new Finding(check, title, status, objects, evidence, summary, cause, fix, variant, newId, parent, refs);
    }

    Finding withSummary(String newSummary) {
        return new Finding(check, title, status, objects, evidence, newSummary, cause, fix, variant, id, parent, refs);
    }

    Finding withParent(String parentId) {
        return new Finding(check, title, status, objects, evidence, summary, cause, fix, variant, id, parentId, refs);
    }

    Finding with(List<Evidence> newEvidence, String parentId) {
        return new Finding(check, title, status, objects, newEvidence, summary, cause, fix, variant, id, parentId, refs);
    }

    Finding withRefs(List<Ref> newRefs) {
        return new Finding(check, title, status, objects, evidence, summary, cause, fix, variant, id, parent, newRefs);
    }

    /** Host names among the affected objects ("node03" for "node03", "node03 port 1", "node03/mlx5_0"). */
    public List<String> hosts() {
        return objects.stream().map(Finding::hostOf).distinct().toList();
    }

    static String hostOf(String object) {
        for (int i = 0; i < object.length(); i++) {
            char c = object.charAt(i);
            if (c == ' ' || c == '/' || c == ':') return object.substring(0, i);
        }
        return object;
    }
}
