package io.ibaccept.parse;

import io.ibaccept.model.SmDrill;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * ibaccept's own record of an SM failover drill: "sm_nodes: A B", "checked_nodes: ...", then one line per step,
 * "TIME KIND: TEXT" (TIME as ISO-8601 UTC), each followed by the output of its command as "  | " lines.
 */
public final class SmDrillParser {
    private SmDrillParser() {}

    static final Set<String> KINDS = Set.of("before", "ports_before", "stop", "takeover", "ports_after", "restart", "back", "restored", "refused", "pair");

    public static SmDrill parse(Text t, Issues issues) {
        DrillSteps.Read r = DrillSteps.read(t, issues, Set.of("sm_nodes", "checked_nodes"), KINDS);
        List<String> smNodes = words(r.header().getOrDefault("sm_nodes", "")), checked = words(r.header().getOrDefault("checked_nodes", ""));
        SmDrill partial = new SmDrill(smNodes, checked, r.steps(), null, null, List.of(), null, false, t.at(1));
        Double takeover = null, back = null;
        String newMaster = null;
        var tk = partial.step("takeover");
        if (tk.isPresent()) {
            Matcher m = DrillSteps.AFTER.matcher(tk.get().text());
            if (m.matches() && m.group(1) != null) {
                newMaster = m.group(1);
                takeover = Double.parseDouble(m.group(2));
            }
        }
        var bk = partial.step("back");
        if (bk.isPresent()) {
            Matcher m = DrillSteps.AFTER.matcher(bk.get().text());
            if (m.matches()) back = Double.parseDouble(m.group(2));
        }
        List<String> changed = new ArrayList<>();
        partial.step("ports_after").ifPresent(s -> {
            for (String part : s.text().split("; ")) {
                int colon = part.indexOf(": ");
                if (colon > 0 && !part.substring(colon + 2).equals("none")) changed.add(part);
            }
        });
        // a drill stopped midway has no "restored" line: its shutdown hook's restart says it
        boolean restored = partial.step("restored").map(s -> s.text().equals("yes"))
                .orElseGet(() -> partial.step("restart").map(s -> s.text().endsWith(": ok")).orElse(false));
        return new SmDrill(smNodes, checked, r.steps(), takeover, newMaster, changed, back, restored, t.at(1));
    }

    private static List<String> words(String s) {
        return s.isBlank() ? List.of() : Arrays.asList(s.trim().split("\\s+"));
    }
}
