package io.ibaccept.report;

import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.Waiver;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * junit.xml for CI, counted as every other output counts (ReportCounts): one testcase per check, judged by the check's
 * own status, the worst of its root findings. FAIL is a failure and ERROR an error (message: the first such root
 * finding and how many there are; text: each root finding with cause, fix and evidence, and what is listed under it),
 * SKIP and WAIVED are skipped (WAIVED with the waiver), WARN passes with the warnings in system-out, and a check whose
 * findings are all consequences of another check's root finding passes with them in system-out: the failure is
 * counted once, at the root.
 */
public final class JunitReport {
    private JunitReport() {}

    public static void render(Report r, Writer out) {
        ReportCounts counts = ReportCounts.of(r);
        Map<String, List<Finding>> roots = new LinkedHashMap<>(), consequences = new LinkedHashMap<>();
        java.util.Set<Finding> rootSet = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        rootSet.addAll(r.roots());
        for (Finding f : r.worstFirst())
            (rootSet.contains(f) ? roots : consequences).computeIfAbsent(f.check(), k -> new ArrayList<>()).add(f);
        try {
            XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
            x.writeStartDocument("UTF-8", "1.0");
            x.writeCharacters("\n");
            int[] total = {counts.checks().size(), (int) counts.checks("FAIL"), (int) counts.checks("ERROR"),
                    (int) (counts.checks("SKIP") + counts.checks("WAIVED"))};
            x.writeStartElement("testsuites");
            x.writeAttribute("name", clean("ibaccept " + r.data().manifest().cluster()));
            attrs(x, total);
            x.writeCharacters("\n");
            x.writeStartElement("testsuite");
            x.writeAttribute("name", clean("ibaccept." + r.data().manifest().cluster()));
            attrs(x, total);
            x.writeCharacters("\n");
            for (ReportCounts.CheckCount c : counts.checks())
                testcase(x, r, c, roots.getOrDefault(c.check(), List.of()), consequences.getOrDefault(c.check(), List.of()));
            x.writeEndElement();
            x.writeCharacters("\n");
            x.writeEndElement();
            x.writeEndDocument();
            x.flush();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("junit.xml could not be written: " + e.getMessage(), e);
        }
    }

    private static void testcase(XMLStreamWriter x, Report r, ReportCounts.CheckCount c, List<Finding> roots, List<Finding> consequences)
            throws XMLStreamException {
        x.writeStartElement("testcase");
        x.writeAttribute("classname", clean("ibaccept." + c.check()));
        x.writeAttribute("name", clean(c.check()));
        switch (c.status()) {
            case "FAIL" -> detail(x, "failure", Status.FAIL, roots, consequences);
            case "ERROR" -> detail(x, "error", Status.ERROR, roots, consequences);
            case "SKIP" -> {
                x.writeStartElement("skipped");
                x.writeAttribute("message", clean(first(roots, Status.SKIP).summary()));
                x.writeEndElement();
            }
            case "WAIVED" -> {
                Finding f = first(roots, Status.WAIVED);
                Waiver w = r.waiverFor(f);
                x.writeStartElement("skipped");
                x.writeAttribute("message", clean("WAIVED: " + f.summary() + (w == null ? "" : "; " + ReportText.waiverText(w))));
                x.writeEndElement();
            }
            default -> { }
        }
        StringBuilder outText = new StringBuilder();
        if (c.status().equals("WARN"))
            for (Finding f : roots) if (f.status() == Status.WARN) outText.append("WARN: ").append(details(f)).append('\n');
        if (c.consequenceOnly() || (!c.status().equals("FAIL") && !c.status().equals("ERROR") && !consequences.isEmpty()))
            for (Finding f : consequences)
                outText.append(f.status()).append(" (consequence, counted at its root ").append(f.parent()).append("): ").append(f.summary()).append('\n');
        if (outText.length() > 0) {
            x.writeStartElement("system-out");
            x.writeCharacters(clean(outText.toString().strip()));
            x.writeEndElement();
        }
        x.writeEndElement();
        x.writeCharacters("\n");
    }

    private static Finding first(List<Finding> fs, Status s) {
        return fs.stream().filter(f -> f.status() == s).findFirst().orElse(fs.get(0));
    }

    /** The message names the first root finding of that status and how many there are; the text details each, then the consequences. */
    private static void detail(XMLStreamWriter x, String element, Status s, List<Finding> roots, List<Finding> consequences) throws XMLStreamException {
        List<Finding> these = roots.stream().filter(f -> f.status() == s).toList();
        x.writeStartElement(element);
        x.writeAttribute("message", clean((these.size() > 1 ? these.size() + " root findings " + s + ", first: " : "") + these.get(0).summary()));
        x.writeAttribute("type", s.name());
        StringBuilder sb = new StringBuilder();
        for (Finding f : roots) {
            if (f.status() == Status.PASS || f.status() == Status.SKIP) continue;
            if (sb.length() > 0) sb.append("\n\n");
            sb.append(f.status()).append(' ').append(details(f));
        }
        for (Finding f : consequences)
            sb.append("\n\n").append(f.status()).append(" (consequence, counted at its root ").append(f.parent()).append("): ").append(f.summary());
        x.writeCharacters(clean(sb.toString()));
        x.writeEndElement();
    }

    private static String details(Finding f) {
        StringBuilder sb = new StringBuilder(f.summary());
        if (!f.objects().isEmpty()) sb.append("\nObjects: ").append(String.join(", ", f.objects()));
        sb.append("\nCause: ").append(f.cause()).append("\nFix: ").append(f.fix());
        for (Evidence e : f.evidence()) sb.append("\n").append(e.where().isEmpty() ? "" : e.where() + "  ").append(e.text());
        return sb.toString();
    }

    private static void attrs(XMLStreamWriter x, int[] t) throws XMLStreamException {
        x.writeAttribute("tests", String.valueOf(t[0]));
        x.writeAttribute("failures", String.valueOf(t[1]));
        x.writeAttribute("errors", String.valueOf(t[2]));
        x.writeAttribute("skipped", String.valueOf(t[3]));
    }

    /** Drops characters XML 1.0 cannot carry (control characters from a damaged dump would make the file unparsable). */
    static String clean(String s) {
        if (s == null) return "";
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            boolean ok = cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD)
                    || (cp >= 0x10000 && cp <= 0x10FFFF);
            sb.appendCodePoint(ok ? cp : 0xFFFD);
        }
        return sb.toString();
    }
}
