package io.ibaccept.parse;

import io.ibaccept.model.PortCounters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses {@code perfquery} (basic "# Port counters", {@code -x} "# Port extended counters", {@code -E}/{@code -D}
 * "# PortRcvErrorDetails counters" ... blocks) and
 * {@code ibqueryerrors} (as infiniband-diags prints it: "Errors for [0xGUID] "name"" — CAs without the GUID — then
 * "GUID 0x.. port N: [Counter == value] ..."). Each block/port line is a record; bad values are issues.
 */
public final class CountersParser {
    private CountersParser() {}

    public static List<PortCounters> perfquery(Text t) {
        return perfquery(t, Issues.strict());
    }

    /**
     * Read block by block as the text goes (the file may be streamed). A block printed again for the same port (same
     * header: counter set, Lid and port; several runs concatenated) is folded into the first, which keeps its values.
     */
    public static List<PortCounters> perfquery(Text t, Issues issues) {
        Map<String, PortCounters> out = new LinkedHashMap<>();
        Map<String, String> names = new java.util.HashMap<>();
        DottedParser.eachBlock(t, issues, b -> {
            String h = b.header();
            // "# Port counters:", "# Port extended counters:" (-x), "# PortRcvErrorDetails counters:" (-E), ...
            boolean basic = h.startsWith("# Port counters: Lid ");
            boolean other = h.startsWith("# ") && h.indexOf(" counters: Lid ") > 0;
            if (!basic && !other) {
                if (b.fields().isEmpty()) return;
                issues.add(t, b.line() == 0 ? 1 : b.line(), "expected '# Port counters: Lid N port N' header");
                return;
            }
            PortCounters pc = issues.record(() -> {
                List<String> f = Fields.split(h.substring(h.indexOf("Lid ")));
                if (f.size() < 4 || !f.get(2).equals("port")) throw t.error(b.line(), "cannot read the Lid/port of '" + Text.excerpt(h) + "'");
                int lid = Nums.integer(t, b.line(), f.get(1));
                int port = Nums.integer(t, b.line(), f.get(3));
                Map<String, Long> c = new LinkedHashMap<>();
                for (Map.Entry<String, DottedParser.Field> e : b.fields().entrySet()) {
                    String k = canonical(names, e.getKey());
                    if (k.equals("PortSelect") || k.startsWith("CounterSelect")) continue;
                    int line = e.getValue().line();
                    Long v = issues.record(() -> Nums.counter(t, line, k, e.getValue().value(),
                            basic ? PortCounters.width(k) : 64));
                    if (v != null) c.put(k, v);
                }
                return new PortCounters(0, "", lid, port == 255 ? -1 : port, c, t.at(b.line()));
            });
            if (pc != null) out.merge(h.substring(0, h.indexOf(" counters: ")) + "|" + pc.lid() + "|" + pc.port(), pc, CountersParser::fold);
        });
        if (out.isEmpty()) throw t.error(0, "no '# Port counters' block found");
        return new ArrayList<>(out.values());
    }

    public static List<PortCounters> ibqueryerrors(Text t) {
        return ibqueryerrors(t, Issues.strict());
    }

    /**
     * ibqueryerrors lists only counters above its thresholds; per-port records, aggregate "ALL" lines skipped. Read
     * forward line by line (the file may be streamed), so memory follows the fabric: a port printed again (the output
     * of several runs concatenated) is folded into its first record, which keeps its values and takes only the
     * counters it lacks, as {@link io.ibaccept.model.FabricData#countersByPort()} merges sources.
     */
    public static List<PortCounters> ibqueryerrors(Text t, Issues issues) {
        Map<PortKey, PortCounters> out = new LinkedHashMap<>();
        Map<String, String> names = new java.util.HashMap<>();
        String node = "";
        long nodeGuid = 0;
        boolean sawSummary = false;
        Text.Cursor c = t.cursor();
        while (c.next()) {
            int ln = c.number();
            String line = c.line().trim();
            if (line.isEmpty()) continue;
            if (line.startsWith("##")) {
                sawSummary = true;
                continue;
            }
            if (line.startsWith("Errors for ")) {
                int q1 = line.indexOf('"');
                int q2 = line.lastIndexOf('"');
                if (q1 < 0 || q2 <= q1) {
                    issues.add(t, ln, "cannot read the node name of '" + Text.excerpt(line) + "'");
                    node = "";
                } else {
                    node = line.substring(q1 + 1, q2);
                }
                // switches: 'Errors for 0xGUID "name"'; CAs: 'Errors for "name"' (their port lines carry port GUIDs)
                String g = line.substring("Errors for ".length(), q1 < 0 ? line.length() : q1).trim();
                Long parsed = g.isEmpty() ? null : issues.record(() -> Nums.hex(t, ln, g));
                nodeGuid = parsed == null ? 0 : parsed;
                continue;
            }
            if (line.startsWith("GUID ")) {
                final String nodeName = node;
                final long ng = nodeGuid;
                PortCounters pc = issues.record(() -> portLine(t, ln, line, nodeName, ng, issues, names));
                if (pc != null) out.merge(new PortKey(pc.nodeGuid(), pc.portGuid(), pc.port()), pc, CountersParser::fold);
                continue;
            }
            if (line.startsWith("Link info:") || line.startsWith("Suppressing:")) continue;
            issues.add(t, ln, "unrecognised ibqueryerrors line: '" + Text.excerpt(line) + "'");
        }
        if (!sawSummary) issues.add(t, 0, "no '## Summary' line: ibqueryerrors output is truncated");
        return new ArrayList<>(out.values());
    }

    /** A port as ibqueryerrors names it: switch node GUID + port, or a CA's port GUID + port. */
    private record PortKey(long nodeGuid, long portGuid, int port) {
        // written out: the generated record methods are slow under the C1-only JIT the launcher uses, and a large
        // file looks every port line up here
        @Override
        public boolean equals(Object o) {
            return o instanceof PortKey k && k.nodeGuid == nodeGuid && k.portGuid == portGuid && k.port == port;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(nodeGuid * 31 + portGuid) * 31 + port;
        }
    }

    /** The same port read twice: the first record keeps its values and takes the counters it lacks from the later. */
    private static PortCounters fold(PortCounters first, PortCounters later) {
        if (!first.nodeName().isEmpty() && first.counters().keySet().containsAll(later.counters().keySet())) return first;
        Map<String, Long> c = new LinkedHashMap<>(later.counters());
        c.putAll(first.counters());
        return new PortCounters(first.nodeGuid(), first.nodeName().isEmpty() ? later.nodeName() : first.nodeName(),
                first.lid() >= 0 ? first.lid() : later.lid(), first.port(), c, first.ref(),
                first.portGuid() != 0 ? first.portGuid() : later.portGuid());
    }

    /** "GUID 0x2c903006e29b0 port 5: [SymbolErrorCounter == 65535] [LinkDownedCounter == 2]"; null for "port ALL". */
    private static PortCounters portLine(Text t, int ln, String line, String node, long nodeGuid, Issues issues,
                                         Map<String, String> names) {
        int colon = line.indexOf(':');
        List<String> f = Fields.split(colon < 0 ? line : line.substring(0, colon));
        if (colon < 0 || f.size() != 4 || !f.get(2).equals("port"))
            throw t.error(ln, "unrecognised ibqueryerrors line: '" + Text.excerpt(line) + "'");
        if (f.get(3).equals("ALL")) return null;
        long guid = Nums.hex(t, ln, f.get(1));
        int port = Nums.integer(t, ln, f.get(3));
        Map<String, Long> c = new LinkedHashMap<>();
        String rest = line.substring(colon + 1);
        int i = rest.indexOf('[');
        while (i >= 0) {
            int e = rest.indexOf(']', i);
            if (e < 0) throw t.error(ln, "unterminated counter '" + Text.excerpt(rest.substring(i)) + "'");
            String item = rest.substring(i + 1, e);
            int eq = item.indexOf("==");
            if (eq < 0) throw t.error(ln, "expected '[Counter == value]', found '[" + Text.excerpt(item) + "]'");
            String name = canonical(names, item.substring(0, eq).trim());
            Long v = issues.record(() -> Nums.counter(t, ln, name, item.substring(eq + 2), 64));
            if (v != null) c.put(name, v);
            i = rest.indexOf('[', e);
        }
        // a switch prints its node GUID on every port line; a CA's line GUID is the port's
        return new PortCounters(nodeGuid, node, -1, port, c, t.at(ln), nodeGuid != 0 && guid == nodeGuid ? 0 : guid);
    }

    /** One String per counter name across the records of a file (a large fabric repeats a dozen names millions of times). */
    static String canonical(Map<String, String> names, String name) {
        String known = names.get(name);
        if (known != null) return known;
        String current = OFED1_NAMES.getOrDefault(name, name);
        if (names.size() < 4096) names.put(name, current);
        return current;
    }

    /**
     * The PortCounters fields as the perfquery and ibqueryerrors of OFED 1.x printed them (a real capture is in
     * the tests' real/perfquery), by the names of today's infiniband-diags: same attribute, same order.
     */
    private static final Map<String, String> OFED1_NAMES = Map.ofEntries(Map.entry("SymbolErrors", "SymbolErrorCounter"),
            Map.entry("LinkRecovers", "LinkErrorRecoveryCounter"), Map.entry("LinkDowned", "LinkDownedCounter"),
            Map.entry("RcvErrors", "PortRcvErrors"), Map.entry("RcvRemotePhysErrors", "PortRcvRemotePhysicalErrors"),
            Map.entry("RcvSwRelayErrors", "PortRcvSwitchRelayErrors"), Map.entry("XmtDiscards", "PortXmitDiscards"),
            Map.entry("XmtConstraintErrors", "PortXmitConstraintErrors"), Map.entry("RcvConstraintErrors", "PortRcvConstraintErrors"),
            Map.entry("LinkIntegrityErrors", "LocalLinkIntegrityErrors"), Map.entry("ExcBufOverrunErrors", "ExcessiveBufferOverrunErrors"),
            Map.entry("XmtData", "PortXmitData"), Map.entry("RcvData", "PortRcvData"), Map.entry("XmtPkts", "PortXmitPkts"),
            Map.entry("RcvPkts", "PortRcvPkts"), Map.entry("XmtWait", "PortXmitWait"));
}
