package io.ibaccept.parse;

import io.ibaccept.model.Collective;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Parses nccl-tests output (src/common.cu): the "# nThread ..." banner, one "#  Rank N ..." line per rank, the two-line
 * column header ("size count type redop [root] time algbw busbw #wrong|error" for out-of-place then in-place), result
 * rows, and "# Avg bus bandwidth". Columns are mapped by the header (older releases have no root column and print
 * "error" instead of "#wrong"). The out-of-place half is the result. mpirun --tag-output prefixes ("[1,0]<stdout>:")
 * are stripped.
 */
public final class NcclTestsParser {
    private NcclTestsParser() {}

    private static final Pattern TAG = Pattern.compile("^\\[\\d+,\\d+\\]<std(?:out|err)>:");
    private static final Pattern RANK = Pattern.compile("^#\\s*Rank\\s+\\d+\\b");
    private static final Pattern BANNER = Pattern.compile("^#\\s*nThread\\s+\\d+");

    public static Collective parse(Text t) {
        List<String> lines = t.lines();
        int ranks = 0, banner = 0;
        List<String> cols = null;
        List<Collective.Row> rows = new ArrayList<>();
        List<Collective.BadLine> bad = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            String s = TAG.matcher(lines.get(i)).replaceFirst("").trim();
            if (BANNER.matcher(s).find()) {
                if (banner == 0) banner = ln;
                continue;
            }
            if (RANK.matcher(s).find()) {
                ranks++;
                continue;
            }
            if (s.startsWith("#") && s.contains("size") && s.contains("busbw")) {
                cols = new ArrayList<>(List.of(s.substring(1).trim().split("\\s+")));
                continue;
            }
            if (cols == null || s.isEmpty() || s.startsWith("#") || !Character.isDigit(s.charAt(0))) continue;
            String[] v = s.split("\\s+");
            try {
                rows.add(row(t, ln, cols, v));
            } catch (ParseException e) {
                bad.add(new Collective.BadLine(e.where(), e.reason()));
            }
        }
        if (cols == null) throw t.error(banner, banner == 0
                ? "no nccl-tests output ('# nThread ...' banner and results header): the benchmark did not start"
                : "nccl-tests banner without the results header (failed during init?)");
        if (rows.isEmpty() && bad.isEmpty()) throw t.error(banner, "nccl-tests printed no result rows (aborted?)");
        return new Collective("all_reduce_perf", "nccl-tests", "", ranks == 0 ? -1 : ranks, rows, bad, t.at(banner));
    }

    /** Maps the first occurrence of each column (out-of-place); "N/A" in a check column counts as not checked. */
    private static Collective.Row row(Text t, int ln, List<String> cols, String[] v) {
        int size = cols.indexOf("size"), time = cols.indexOf("time"), alg = cols.indexOf("algbw"), bus = cols.indexOf("busbw");
        int wrong = cols.indexOf("#wrong") >= 0 ? cols.indexOf("#wrong") : cols.indexOf("error");
        int need = Math.max(Math.max(size, time), Math.max(alg, bus)) + 1;
        if (size < 0 || time < 0) throw t.error(ln, "results header without size/time columns");
        if (v.length < need) throw t.error(ln, "row has " + v.length + " values, expected at least " + need + " (run cut short?)");
        boolean valid = true;
        if (wrong >= 0 && wrong < v.length && !v[wrong].equals("N/A")) {
            // "#wrong" is a count; old "error" is a max relative error printed as a float (e.g. 0e+00)
            valid = Nums.decimal(t, ln, v[wrong]) == 0;
        }
        return new Collective.Row(Nums.longValue(t, ln, v[size]), Nums.decimal(t, ln, v[time]), Double.NaN, Double.NaN,
                alg >= 0 ? Nums.decimal(t, ln, v[alg]) : Double.NaN, bus >= 0 ? Nums.decimal(t, ln, v[bus]) : Double.NaN,
                valid, t.at(ln));
    }

    /** The tool name from the command that ran (all_reduce_perf, all_to_all_perf...), for the record. */
    public static Collective withTool(Collective c, String tool) {
        return new Collective(tool, c.title(), c.version(), c.ranks(), c.rows(), c.badLines(), c.ref());
    }
}
