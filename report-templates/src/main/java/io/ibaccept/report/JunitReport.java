package io.ibaccept.report;

import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Report;
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
 * junit.xml for CI: one testsuite per check, one testcase per check and object (the check itself for findings without
 * objects). FAIL is a failure (message: the summary; text: cause, fix, evidence), ERROR an error, SKIP skipped,
 * WAIVED skipped with the waiver, WARN passes with the warning in system-out.
 */
public final class JunitReport {
    private JunitReport() {}

    private record Case(String name, Finding finding) {}

    public static void render(Report r, Writer out) {
        Map<String, List<Case>> suites = new LinkedHashMap<>();
        for (Finding f : r.findings()) {
            List<Case> cases = suites.computeIfAbsent(f.check(), k -> new ArrayList<>());
            if (f.objects().isEmpty()) cases.add(new Case(f.check(), f));
            else for (String o : f.objects()) cases.add(new Case(o, f));
        }
        try {
            XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
            x.writeStartDocument("UTF-8", "1.0");
            x.writeCharacters("\n");
            int[] total = totals(suites.values().stream().flatMap(List::stream).toList());
            x.writeStartElement("testsuites");
            x.writeAttribute("name", clean("ibaccept " + r.data().manifest().cluster()));
            attrs(x, total);
            x.writeCharacters("\n");
            for (Map.Entry<String, List<Case>> s : suites.entrySet()) {
                x.writeStartElement("testsuite");
                x.writeAttribute("name", clean("ibaccept." + s.getKey()));
                attrs(x, totals(s.getValue()));
                x.writeCharacters("\n");
                for (Case c : s.getValue()) testcase(x, r, s.getKey(), c);
                x.writeEndElement();
                x.writeCharacters("\n");
            }
            x.writeEndElement();
            x.writeEndDocument();
            x.flush();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("junit.xml could not be written: " + e.getMessage(), e);
        }
    }

    private static void testcase(XMLStreamWriter x, Report r, String check, Case c) throws XMLStreamException {
        Finding f = c.finding();
        x.writeStartElement("testcase");
        x.writeAttribute("classname", clean("ibaccept." + check));
        x.writeAttribute("name", clean(c.name()));
        switch (f.status()) {
            case FAIL -> detail(x, "failure", f, details(f));
            case ERROR -> detail(x, "error", f, details(f));
            case SKIP -> {
                x.writeStartElement("skipped");
                x.writeAttribute("message", clean(f.summary()));
                x.writeEndElement();
            }
            case WAIVED -> {
                Waiver w = r.waiverFor(f);
                x.writeStartElement("skipped");
                x.writeAttribute("message", clean("WAIVED: " + f.summary() + (w == null ? "" : "; " + ReportText.waiverText(w))));
                x.writeEndElement();
            }
            case WARN -> {
                x.writeStartElement("system-out");
                x.writeCharacters(clean("WARN: " + details(f)));
                x.writeEndElement();
            }
            case PASS -> { }
        }
        x.writeEndElement();
        x.writeCharacters("\n");
    }

    private static void detail(XMLStreamWriter x, String element, Finding f, String text) throws XMLStreamException {
        x.writeStartElement(element);
        x.writeAttribute("message", clean(f.summary()));
        x.writeAttribute("type", f.status().name());
        x.writeCharacters(clean(text));
        x.writeEndElement();
    }

    private static String details(Finding f) {
        StringBuilder sb = new StringBuilder(f.summary()).append("\nCause: ").append(f.cause()).append("\nFix: ").append(f.fix());
        for (Evidence e : f.evidence()) sb.append("\n").append(e.where().isEmpty() ? "" : e.where() + "  ").append(e.text());
        return sb.toString();
    }

    private static int[] totals(List<Case> cases) {
        int[] t = new int[4]; // tests, failures, errors, skipped
        for (Case c : cases) {
            t[0]++;
            switch (c.finding().status()) {
                case FAIL -> t[1]++;
                case ERROR -> t[2]++;
                case SKIP, WAIVED -> t[3]++;
                default -> { }
            }
        }
        return t;
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
