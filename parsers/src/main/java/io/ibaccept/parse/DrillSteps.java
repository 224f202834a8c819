package io.ibaccept.parse;

import io.ibaccept.model.DrillStep;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the drills' records share: '#' comments, "key: value" header lines, then one "TIME KIND: TEXT" line per step
 * (TIME as ISO-8601 UTC), each followed by its command's output as "  | " lines.
 */
final class DrillSteps {
    private DrillSteps() {}

    private static final Pattern STEP = Pattern.compile("^(\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z) ([a-z_]+): (.*)$");
    /** "node02 after 8.1 s", "node01 MASTER after 2.3 s (...)", "after 9.2 s, ...": the seconds. */
    static final Pattern AFTER = Pattern.compile("^(?:(.+?) (?:MASTER |STANDBY )?)?after (\\d+(?:\\.\\d+)?) s\\b.*");

    record Read(Map<String, String> header, List<DrillStep> steps) {}

    static Read read(Text t, Issues issues, Set<String> headerKeys, Set<String> kinds) {
        Map<String, String> header = new LinkedHashMap<>();
        List<DrillStep> steps = new ArrayList<>();
        for (int i = 0; i < t.lines().size(); i++) {
            String line = t.lines().get(i);
            if (line.isBlank() || line.startsWith("#") || line.startsWith("  | ")) continue;
            int colon = line.indexOf(": ");
            if (colon > 0 && headerKeys.contains(line.substring(0, colon))) {
                header.put(line.substring(0, colon), line.substring(colon + 2));
                continue;
            }
            Matcher m = STEP.matcher(line);
            if (m.matches() && kinds.contains(m.group(2))) steps.add(new DrillStep(m.group(2), m.group(1), m.group(3), t.at(i + 1)));
            else issues.add(t, i + 1, "unrecognised drill line: '" + Text.excerpt(line) + "'");
        }
        if (steps.isEmpty()) throw t.error(0, "no drill steps (lines 'TIME KIND: TEXT')");
        return new Read(header, steps);
    }
}
