package io.ibaccept.parse;

import io.ibaccept.model.Perftest;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses perftest output as perftest_parameters.c prints it: the banner (title such as "RDMA_Write BW Test" or
 * "RDMA_Write Bidirectional BW Test", then " Key : value" pairs, two per line on wide banners), the "#bytes ..."
 * header and one row per message size ({@code -a} prints 2 B .. 8 MiB). Lines between rows that are not rows
 * ("Conflicting CPU frequency values detected ...") are skipped. A short or malformed row is one issue; the others stay.
 */
public final class PerftestParser {
    private PerftestParser() {}

    private static final String[] NAMES = {"#bytes", "#iterations", "BW peak", "BW average", "MsgRate", "t_min",
            "t_max", "t_typical", "t_avg", "t_stdev", "99% percentile", "99.9% percentile"};

    /** A client side (the one that holds the result). */
    public static Perftest parse(Text t) {
        return parse(t, Issues.strict(), Boolean.FALSE);
    }

    public static Perftest parse(Text t, Issues issues) {
        return parse(t, issues, Boolean.FALSE);
    }

    /**
     * server: true/false when the side is known. A client without rows is an error (the test did not complete);
     * a server without rows is fine where that test's server prints none ({@link Perftest#serverPrintsRows}).
     */
    public static Perftest parse(Text t, Issues issues, Boolean server) {
        List<String> lines = t.lines();
        String title = "", device = "", link = "", unit = "";
        int mtu = -1, headerLine = -1, titleLine = 0;
        List<Integer> columns = new ArrayList<>();
        List<Perftest.Row> rows = new ArrayList<>();
        boolean inTable = false;
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String s = lines.get(i).trim();
            if (s.isEmpty()) continue;
            if (reportsFailure(s)) {
                // perftest's own error lines ("Completion with error at client", "Couldn't connect to ...")
                issues.add(t, ln, "perftest reported: '" + Text.excerpt(s) + "'");
                continue;
            }
            if (title.isEmpty() && (s.endsWith(" BW Test") || s.endsWith(" Latency Test")) && s.indexOf(':') < 0) {
                title = s;
                titleLine = ln;
                continue;
            }
            if (s.startsWith("#bytes")) {
                headerLine = ln;
                columns.clear();
                unit = header(s, columns, unit);
                inTable = true;
                continue;
            }
            if (inTable) {
                if (s.startsWith("---")) {
                    if (!rows.isEmpty()) inTable = false;
                    continue;
                }
                if (s.charAt(0) >= '0' && s.charAt(0) <= '9') {
                    Perftest.Row r = issues.record(() -> row(t, ln, columns, s));
                    if (r != null) rows.add(r);
                }
                continue; // warnings between rows
            }
            if (device.isEmpty()) device = value(s, "Device");
            if (link.isEmpty()) link = value(s, "Link type");
            if (mtu < 0) {
                String m = value(s, "Mtu");
                int end = 0;
                while (end < m.length() && Character.isDigit(m.charAt(end))) end++;
                if (end > 0 && end < 8) mtu = Integer.parseInt(m.substring(0, end));
            }
        }
        if (title.isEmpty() && headerLine < 0)
            throw t.error(0, "no perftest results header ('#bytes ...') and no test banner: the test did not run");
        boolean bw = title.isEmpty() ? columns.contains(3) : title.endsWith(" BW Test");
        if (rows.isEmpty()) {
            if (Boolean.FALSE.equals(server))
                throw t.error(headerLine > 0 ? headerLine : titleLine, headerLine > 0
                        ? "perftest header without result rows (test aborted?)"
                        : "the client printed its banner but no results: the test did not run to completion");
            if (Boolean.TRUE.equals(server) && Perftest.serverPrintsRows(title.isEmpty() ? (bw ? "bw" : "_lat") : title))
                throw t.error(headerLine > 0 ? headerLine : titleLine,
                        "the server of a bandwidth test printed no result rows (test aborted?)");
        }
        String printed = bw ? unit : "";
        String effective = bw ? effectiveUnit(unit, rows) : "";
        SourceRef ref = t.at(rows.isEmpty() ? titleLine : rows.get(0).ref().line());
        return new Perftest(title, device, link, mtu, bw, effective, rows, ref, title.contains("Bidirectional"), printed);
    }

    private static final String[] FAILURES = {"Completion with error", "Couldn't ", "Failed ", "Failed to", "Unable to",
            "Problems with warm up", "ERROR", "Error:", " Failed"};

    /** The start of an error line perftest prints when a run breaks (perftest_resources.c, *_bw.c, *_lat.c). */
    private static boolean reportsFailure(String s) {
        for (String f : FAILURES) if (s.startsWith(f.trim())) return true;
        return false;
    }

    /**
     * Records which known column sits at each position, by where each known name occurs in the header (columns
     * perftest adds at the end, such as "tps average" or CPU utilisation, are not read). Returns the bandwidth unit.
     */
    private static String header(String s, List<Integer> columns, String unit) {
        int[] pos = new int[NAMES.length];
        for (int k = 0; k < NAMES.length; k++) pos[k] = s.indexOf(NAMES[k]);
        List<Integer> order = new ArrayList<>();
        for (int k = 0; k < NAMES.length; k++) if (pos[k] >= 0) order.add(k);
        order.sort((x, y) -> Integer.compare(pos[x], pos[y]));
        columns.addAll(order);
        if (pos[2] >= 0) {
            int open = pos[2] + NAMES[2].length();
            int close = s.indexOf(']', open);
            if (open < s.length() && s.charAt(open) == '[' && close > open) unit = s.substring(open + 1, close);
        }
        return unit;
    }

    /**
     * The unit the values are in. The header is not trusted: a --report_gbits client makes the server print a
     * "[MB/sec]" header over Gb/s values. MsgRate x size gives the true rate; pick the unit that agrees with it.
     */
    private static String effectiveUnit(String printed, List<Perftest.Row> rows) {
        int asGbps = 0, asMBps = 0;
        for (Perftest.Row r : rows) {
            if (Double.isNaN(r.msgRateMpps()) || Double.isNaN(r.bwAverage()) || r.msgRateMpps() <= 0 || r.bwAverage() <= 0) continue;
            double trueGbps = r.msgRateMpps() * 1e6 * r.bytes() * 8 / 1e9;
            double g = r.bwAverage();
            double m = r.bwAverage() * 1048576.0 * 8 / 1e9;
            if (Math.abs(g - trueGbps) < Math.abs(m - trueGbps)) asGbps++;
            else asMBps++;
        }
        if (asGbps == 0 && asMBps == 0) return printed;
        return asGbps > asMBps ? "Gb/sec" : "MB/sec";
    }

    /** " Device         : mlx5_0" or "Dual-port : OFF    Device : mlx5_0": the value after "key :", up to whitespace. */
    private static String value(String s, String key) {
        int k = s.indexOf(key);
        while (k >= 0) {
            int j = k + key.length();
            while (j < s.length() && (s.charAt(j) == ' ' || s.charAt(j) == '\t')) j++;
            if (j < s.length() && s.charAt(j) == ':' && (k == 0 || s.charAt(k - 1) == ' ' || s.charAt(k - 1) == '\t')) {
                j++;
                while (j < s.length() && (s.charAt(j) == ' ' || s.charAt(j) == '\t')) j++;
                int e = j;
                while (e < s.length() && s.charAt(e) != ' ' && s.charAt(e) != '\t') e++;
                return s.substring(j, e);
            }
            k = s.indexOf(key, k + 1);
        }
        return "";
    }

    private static Perftest.Row row(Text t, int ln, List<Integer> cols, String s) {
        List<String> vals = Fields.split(s);
        if (vals.size() < cols.size())
            throw t.error(ln, "results row has " + vals.size() + " values, header has " + cols.size()
                    + " columns (truncated run?)");
        double[] v = new double[NAMES.length];
        java.util.Arrays.fill(v, Double.NaN);
        for (int c = 0; c < cols.size(); c++) {
            int idx = cols.get(c);
            if (idx >= 0) v[idx] = Nums.decimal(t, ln, vals.get(c));
        }
        if (v[0] < 0 || v[0] > (1L << 40)) throw t.error(ln, "message size " + vals.get(0) + " is out of range");
        return new Perftest.Row((long) v[0], (long) v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11],
                t.at(ln));
    }
}
