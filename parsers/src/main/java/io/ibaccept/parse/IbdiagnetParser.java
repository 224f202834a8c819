package io.ibaccept.parse;

import io.ibaccept.model.Ibdiagnet;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/** Parses ibdiagnet2.log (-E-/-W- lines) and ibdiagnet2.db_csv (START_X ... END_X CSV sections). */
public final class IbdiagnetParser {
    private IbdiagnetParser() {}

    private static final Pattern VERSION = Pattern.compile("ibdiagnet\\S*\\s+(?:version\\s+)?v?(\\d+\\.\\d+[\\w.\\-]*)",
            Pattern.CASE_INSENSITIVE);

    public static Ibdiagnet.Log log(Text t) {
        List<Ibdiagnet.Message> msgs = new ArrayList<>();
        String version = "";
        List<String> lines = t.lines();
        boolean sawIbdiag = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!sawIbdiag && line.toLowerCase().contains("ibdiag")) sawIbdiag = true;
            if (version.isEmpty()) {
                Matcher m = VERSION.matcher(line);
                if (m.find()) version = m.group(1);
            }
            String s = line.trim();
            Ibdiagnet.Level level = s.startsWith("-E-") ? Ibdiagnet.Level.ERROR : s.startsWith("-W-") ? Ibdiagnet.Level.WARNING : null;
            if (level == null) continue;
            // detail lines (indented, e.g. "symbol_error_counter : 1234 (threshold=1)") belong to the message
            int first = i + 1;
            StringBuilder text = new StringBuilder(s.substring(3).trim());
            while (i + 1 < lines.size() && !lines.get(i + 1).isBlank() && Character.isWhitespace(lines.get(i + 1).charAt(0))) {
                text.append("; ").append(lines.get(i + 1).trim().replaceAll("\\s+", " "));
                i++;
            }
            msgs.add(new Ibdiagnet.Message(level, text.toString(), t.at(first)));
        }
        if (!sawIbdiag && msgs.isEmpty()) throw t.error(0, "not an ibdiagnet log (no ibdiagnet banner, no -E-/-W- lines)");
        return new Ibdiagnet.Log(version, msgs);
    }

    public static Ibdiagnet.Db db(Text t) {
        Map<String, Ibdiagnet.Section> sections = new LinkedHashMap<>();
        List<String> lines = t.lines();
        int i = 0;
        while (i < lines.size()) {
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) {
                i++;
                continue;
            }
            if (!line.startsWith("START_")) throw t.error(i + 1, "expected START_<SECTION>, found '" + abbreviate(line) + "'");
            String name = line.substring(6);
            int startLine = i + 1;
            int j = i + 1;
            while (j < lines.size() && !lines.get(j).trim().equals("END_" + name)) j++;
            if (j >= lines.size()) throw t.error(startLine, "section " + name + " has no END_" + name + " (truncated file?)");
            sections.put(name, section(t, name, lines, i + 1, j));
            i = j + 1;
        }
        if (sections.isEmpty()) throw t.error(0, "no START_/END_ sections found");
        return new Ibdiagnet.Db(sections);
    }

    private static Ibdiagnet.Section section(Text t, String name, List<String> lines, int from, int to) {
        if (from >= to) return new Ibdiagnet.Section(name, List.of(), List.of());
        StringBuilder sb = new StringBuilder();
        for (int k = from; k < to; k++) sb.append(lines.get(k)).append('\n');
        List<String> header;
        List<Ibdiagnet.Row> rows = new ArrayList<>();
        try (CSVParser p = CSVParser.parse(new StringReader(sb.toString()),
                CSVFormat.DEFAULT.builder().setIgnoreSurroundingSpaces(true).get())) {
            List<CSVRecord> recs = p.getRecords();
            header = recs.get(0).toList();
            for (int r = 1; r < recs.size(); r++) {
                CSVRecord rec = recs.get(r);
                int line = from + (int) rec.getRecordNumber(); // rows never span lines
                if (rec.size() != header.size())
                    throw t.error(line, name + " row has " + rec.size() + " fields, header has " + header.size());
                Map<String, String> values = new LinkedHashMap<>();
                for (int c = 0; c < header.size(); c++) values.put(header.get(c), rec.get(c));
                rows.add(new Ibdiagnet.Row(values, t.at(line)));
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            throw t.error(from + 1, "malformed CSV in section " + name + ": " + e.getMessage());
        }
        return new Ibdiagnet.Section(name, header, rows);
    }

    private static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }
}
