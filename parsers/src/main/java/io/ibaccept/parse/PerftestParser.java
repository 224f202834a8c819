package io.ibaccept.parse;

import io.ibaccept.model.Perftest;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses perftest output (the "#bytes #iterations ..." results table and the banner above it). */
public final class PerftestParser {
    private PerftestParser() {}

    private static final Pattern COLUMN = Pattern.compile(
            "#bytes|#iterations|BW peak\\[([^\\]]+)\\]|BW average\\[[^\\]]+\\]|MsgRate\\[Mpps\\]|t_min\\[usec\\]|t_max\\[usec\\]"
                    + "|t_typical\\[usec\\]|t_avg\\[usec\\]|t_stdev\\[usec\\]|99% percentile\\[usec\\]|99\\.9% percentile\\[usec\\]");
    private static final Pattern TITLE = Pattern.compile("^\\s*(\\S+ (?:BW|Latency) Test)\\s*$");
    private static final Pattern DEVICE = Pattern.compile("Device\\s*:\\s*(\\S+)");
    private static final Pattern LINK = Pattern.compile("Link type\\s*:\\s*(\\S+)");
    private static final Pattern MTU = Pattern.compile("Mtu\\s*:\\s*(\\d+)");

    public static Perftest parse(Text t) {
        List<String> lines = t.lines();
        String title = "", device = "", link = "", unit = "";
        int mtu = -1, headerLine = -1;
        List<String> columns = new ArrayList<>();
        List<Perftest.Row> rows = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String s = line.trim();
            Matcher m;
            if (title.isEmpty() && (m = TITLE.matcher(s)).matches()) title = m.group(1);
            if (device.isEmpty() && (m = DEVICE.matcher(s)).find()) device = m.group(1);
            if (link.isEmpty() && (m = LINK.matcher(s)).find()) link = m.group(1);
            if (mtu < 0 && (m = MTU.matcher(s)).find()) mtu = Integer.parseInt(m.group(1));
            if (s.startsWith("#bytes")) {
                headerLine = i + 1;
                columns.clear();
                Matcher c = COLUMN.matcher(s);
                while (c.find()) {
                    columns.add(c.group().replaceAll("\\[.*", ""));
                    if (c.group(1) != null) unit = c.group(1);
                }
                continue;
            }
            if (headerLine > 0 && !s.isEmpty() && Character.isDigit(s.charAt(0))) {
                String[] vals = s.split("\\s+");
                if (vals.length < columns.size())
                    throw t.error(i + 1, "results row has " + vals.length + " values, header has " + columns.size()
                            + " columns (truncated run?)");
                rows.add(row(t, i + 1, columns, vals));
            } else if (headerLine > 0 && s.startsWith("---") && !rows.isEmpty()) {
                headerLine = -1;
            }
        }
        if (columns.isEmpty()) throw t.error(0, "no perftest results header ('#bytes ...'): the test did not run to completion");
        if (rows.isEmpty()) throw t.error(headerLine > 0 ? headerLine : 0, "perftest header without result rows (test aborted?)");
        boolean bw = columns.contains("BW average");
        return new Perftest(title, device, link, mtu, bw, bw ? unit : "", rows, t.at(rows.get(0).ref().line()));
    }

    private static Perftest.Row row(Text t, int ln, List<String> cols, String[] vals) {
        double[] v = new double[13];
        java.util.Arrays.fill(v, Double.NaN);
        String[] names = {"#bytes", "#iterations", "BW peak", "BW average", "MsgRate", "t_min", "t_max", "t_typical",
                "t_avg", "t_stdev", "99% percentile", "99.9% percentile"};
        for (int c = 0; c < cols.size(); c++) {
            int idx = java.util.Arrays.asList(names).indexOf(cols.get(c));
            if (idx >= 0) v[idx] = Nums.decimal(t, ln, vals[c]);
        }
        return new Perftest.Row((long) v[0], (long) v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11],
                t.at(ln));
    }
}
