package io.ibaccept.parse;

import io.ibaccept.model.PortCounters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses {@code perfquery} and {@code ibqueryerrors}. */
public final class CountersParser {
    private CountersParser() {}

    private static final Pattern PQ_HEADER = Pattern.compile("^# Port (?:extended )?counters: Lid (\\d+) port (\\d+).*");

    public static List<PortCounters> perfquery(Text t) {
        List<PortCounters> out = new ArrayList<>();
        for (DottedParser.Block b : DottedParser.parse(t)) {
            Matcher m = PQ_HEADER.matcher(b.header());
            if (!m.matches()) {
                if (b.fields().isEmpty()) continue;
                throw t.error(b.line() == 0 ? 1 : b.line(), "expected '# Port counters: Lid N port N' header");
            }
            Map<String, Long> c = new LinkedHashMap<>();
            for (Map.Entry<String, DottedParser.Field> e : b.fields().entrySet()) {
                if (e.getKey().equals("PortSelect") || e.getKey().startsWith("CounterSelect")) continue;
                c.put(e.getKey(), Nums.longValue(t, e.getValue().line(), e.getValue().value()));
            }
            int port = Integer.parseInt(m.group(2));
            out.add(new PortCounters(0, "", Integer.parseInt(m.group(1)), port == 255 ? -1 : port, c, t.at(b.line())));
        }
        if (out.isEmpty()) throw t.error(0, "no '# Port counters' block found");
        return out;
    }

    private static final Pattern QE_NODE = Pattern.compile("^Errors for (?:(0x[0-9a-fA-F]+) )?\"(.*)\"\\s*$");
    private static final Pattern QE_PORT = Pattern.compile("^GUID (0x[0-9a-fA-F]+) port (ALL|\\d+):(.*)$");
    private static final Pattern QE_COUNTER = Pattern.compile("\\[(\\w+) == (\\d+)\\]");

    /** ibqueryerrors lists only counters above its thresholds; per-port records, aggregate "ALL" lines skipped. */
    public static List<PortCounters> ibqueryerrors(Text t) {
        List<PortCounters> out = new ArrayList<>();
        List<String> lines = t.lines();
        String node = "";
        boolean sawSummary = false;
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String line = lines.get(i).trim();
            if (line.isEmpty()) continue;
            if (line.startsWith("##")) {
                sawSummary = true;
                continue;
            }
            Matcher m = QE_NODE.matcher(line);
            if (m.matches()) {
                node = m.group(2);
                continue;
            }
            m = QE_PORT.matcher(line);
            if (m.matches()) {
                if (m.group(2).equals("ALL")) continue;
                Map<String, Long> c = new LinkedHashMap<>();
                Matcher cm = QE_COUNTER.matcher(m.group(3));
                while (cm.find()) c.put(cm.group(1), Nums.longValue(t, ln, cm.group(2)));
                out.add(new PortCounters(Nums.hex(t, ln, m.group(1)), node, -1, Integer.parseInt(m.group(2)), c, t.at(ln)));
                continue;
            }
            if (line.startsWith("Link info:") || line.startsWith("Suppressing:")) continue;
            throw t.error(ln, "unrecognised ibqueryerrors line: '" + line + "'");
        }
        if (!sawSummary) throw t.error(0, "no '## Summary' line: ibqueryerrors output is truncated");
        return out;
    }
}
