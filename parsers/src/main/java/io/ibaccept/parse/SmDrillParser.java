package io.ibaccept.parse;

import io.ibaccept.model.SmDrill;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ibaccept's own record of an SM failover drill: "sm_nodes: A B", "checked_nodes: ...", then one line per step,
 * "TIME KIND: TEXT" (TIME as ISO-8601 UTC), each followed by the output of its command as "  | " lines.
 */
public final class SmDrillParser {
    private SmDrillParser() {}

    static final Set<String> KINDS = Set.of("before", "ports_before", "stop", "takeover", "ports_after", "restart", "back", "restored", "refused");
    private static final Pattern STEP = Pattern.compile("^(\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z) ([a-z_]+): (.*)$");
    private static final Pattern AFTER = Pattern.compile("^(\\S+) (?:MASTER |STANDBY )?after (\\d+(?:\\.\\d+)?) s\\b.*");

    public static SmDrill parse(Text t, Issues issues) {
        List<String> smNodes = List.of(), checked = List.of();
        List<SmDrill.Step> steps = new ArrayList<>();
        for (int i = 0; i < t.lines().size(); i++) {
            String line = t.lines().get(i);
            if (line.isBlank() || line.startsWith("#") || line.startsWith("  | ")) continue;
            if (line.startsWith("sm_nodes: ")) smNodes = words(line.substring(10));
            else if (line.startsWith("checked_nodes: ")) checked = words(line.substring(15));
            else {
                Matcher m = STEP.matcher(line);
                if (m.matches() && KINDS.contains(m.group(2))) steps.add(new SmDrill.Step(m.group(2), m.group(1), m.group(3), t.at(i + 1)));
                else issues.add(t, i + 1, "unrecognised drill line: '" + Text.excerpt(line) + "'");
            }
        }
        if (steps.isEmpty()) throw t.error(0, "no drill steps (lines 'TIME KIND: TEXT')");
        SmDrill partial = new SmDrill(smNodes, checked, steps, null, null, List.of(), null, false, t.at(1));
        Double takeover = null, back = null;
        String newMaster = null;
        var tk = partial.step("takeover");
        if (tk.isPresent()) {
            Matcher m = AFTER.matcher(tk.get().text());
            if (m.matches()) {
                newMaster = m.group(1);
                takeover = Double.parseDouble(m.group(2));
            }
        }
        var bk = partial.step("back");
        if (bk.isPresent()) {
            Matcher m = AFTER.matcher(bk.get().text());
            if (m.matches()) back = Double.parseDouble(m.group(2));
        }
        List<String> changed = new ArrayList<>();
        partial.step("ports_after").ifPresent(s -> {
            for (String part : s.text().split("; ")) {
                int colon = part.indexOf(": ");
                if (colon > 0 && !part.substring(colon + 2).equals("none")) changed.add(part);
            }
        });
        boolean restored = partial.step("restored").map(s -> s.text().equals("yes")).orElse(false);
        return new SmDrill(smNodes, checked, steps, takeover, newMaster, changed, back, restored, t.at(1));
    }

    private static List<String> words(String s) {
        return s.isBlank() ? List.of() : Arrays.asList(s.trim().split("\\s+"));
    }
}
