package io.ibaccept.parse;

import io.ibaccept.model.Collective;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses OSU micro-benchmarks collective output (c/mpi/collective/*: "# OSU MPI Allreduce Latency Test v7.5", an
 * optional "# Datatype: MPI_CHAR." line, the "# Size  Avg Latency(us) [Min Latency(us) Max Latency(us) Iterations]
 * [P50/P90/P99 Tail Lat(us)] [Validation]" header, then one row per size). Columns are mapped by the header, so the
 * default, -f (full) and --validation layouts all read. Lines before the header (MPI launcher chatter) are ignored.
 */
public final class OsuParser {
    private OsuParser() {}

    private static final Pattern TITLE = Pattern.compile("^#\\s*(OSU (?:MPI|OpenSHMEM|UPC\\+\\+|NCCL|RCCL)[^#]*?Test)\\s*(v\\S+)?\\s*$");
    private static final Pattern COLUMN = Pattern.compile(
            "Size|Avg Latency\\(us\\)|Min Latency\\(us\\)|Max Latency\\(us\\)|Iterations|P\\d+ Tail Lat\\(us\\)|Validation|Latency \\(us\\)|Latency\\(us\\)");

    public static Collective parse(Text t) {
        List<String> lines = t.lines();
        String title = "", version = "";
        int titleLine = 0;
        List<String> cols = null;
        List<Collective.Row> rows = new ArrayList<>();
        List<Collective.BadLine> bad = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String s = lines.get(i).trim();
            int ln = i + 1;
            Matcher m = TITLE.matcher(s);
            if (m.matches()) {
                title = m.group(1).trim();
                version = m.group(2) == null ? "" : m.group(2);
                titleLine = ln;
                cols = null;
                continue;
            }
            if (s.startsWith("#") && s.substring(1).trim().startsWith("Size")) {
                cols = new ArrayList<>();
                Matcher c = COLUMN.matcher(s);
                while (c.find()) cols.add(c.group());
                continue;
            }
            if (cols == null || s.isEmpty() || s.startsWith("#") || !Character.isDigit(s.charAt(0))) continue;
            String[] v = s.split("\\s+");
            if (v.length < cols.size()) {
                bad.add(new Collective.BadLine(t.at(ln), "row has " + v.length + " values, header has " + cols.size()
                        + " columns (run cut short?)"));
                continue;
            }
            try {
                rows.add(row(t, ln, cols, v));
            } catch (ParseException e) {
                bad.add(new Collective.BadLine(e.where(), e.reason()));
            }
        }
        if (titleLine == 0) throw t.error(0, "no OSU benchmark header ('# OSU MPI ... Test vX'): the benchmark did not start");
        if (cols == null) throw t.error(titleLine, "OSU header without the '# Size ...' column line (run aborted?)");
        if (rows.isEmpty() && bad.isEmpty())
            throw t.error(titleLine, "OSU benchmark printed no result rows (aborted or killed?)");
        return new Collective(toolOf(title), title, version, -1, rows, bad, t.at(titleLine));
    }

    private static Collective.Row row(Text t, int ln, List<String> cols, String[] v) {
        long bytes = -1;
        double avg = Double.NaN, min = Double.NaN, max = Double.NaN;
        boolean valid = true;
        for (int c = 0; c < cols.size(); c++) {
            String col = cols.get(c);
            switch (col) {
                case "Size" -> bytes = Nums.longValue(t, ln, v[c]);
                case "Avg Latency(us)", "Latency (us)", "Latency(us)" -> avg = Nums.decimal(t, ln, v[c]);
                case "Min Latency(us)" -> min = Nums.decimal(t, ln, v[c]);
                case "Max Latency(us)" -> max = Nums.decimal(t, ln, v[c]);
                case "Validation" -> valid = v[c].equalsIgnoreCase("Pass");
                default -> { }
            }
        }
        if (bytes < 0 || Double.isNaN(avg)) throw t.error(ln, "row without size or average latency");
        return new Collective.Row(bytes, avg, min, max, Double.NaN, Double.NaN, valid, t.at(ln));
    }

    /** "OSU MPI Allreduce Latency Test" -> "osu_allreduce"; "All-to-All Personalized Exchange" -> "osu_alltoall". */
    static String toolOf(String title) {
        String s = title.toLowerCase(Locale.ROOT);
        if (s.contains("all-to-allv")) return "osu_alltoallv";
        if (s.contains("all-to-all")) return "osu_alltoall";
        if (s.contains("allreduce")) return "osu_allreduce";
        if (s.contains("allgather")) return "osu_allgather";
        if (s.contains("broadcast") || s.contains("bcast")) return "osu_bcast";
        if (s.contains("reduce")) return "osu_reduce";
        if (s.contains("barrier")) return "osu_barrier";
        return "osu";
    }
}
