package io.ibaccept.parse;

import io.ibaccept.model.DrillStep;
import io.ibaccept.model.IslDrill;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;

/** ibaccept's own record of an ISL drill: "link: ...", then the steps (see {@link DrillSteps}). */
public final class IslDrillParser {
    private IslDrillParser() {}

    static final Set<String> KINDS = Set.of("before", "disable", "rerouted", "enable", "back", "restored", "refused", "pair");

    public static IslDrill parse(Text t, Issues issues) {
        DrillSteps.Read r = DrillSteps.read(t, issues, Set.of("link"), KINDS);
        Optional<DrillStep> rerouted = r.steps().stream().filter(s -> s.kind().equals("rerouted")).reduce((a, b) -> b);
        Optional<DrillStep> back = r.steps().stream().filter(s -> s.kind().equals("back")).reduce((a, b) -> b);
        Double reroute = rerouted.map(s -> seconds(s.text())).orElse(null);
        Double backS = back.map(s -> seconds(s.text())).orElse(null);
        boolean degraded = back.map(s -> s.text().contains(" below ")).orElse(false);
        // a drill stopped midway has no "restored" line: its shutdown hook's enable says it
        Optional<DrillStep> restoredStep = r.steps().stream().filter(s -> s.kind().equals("restored")).reduce((a, b) -> b);
        boolean restored = restoredStep.map(s -> s.text().equals("yes")).orElseGet(() -> r.steps().stream()
                .filter(s -> s.kind().equals("enable")).reduce((a, b) -> b).map(s -> s.text().endsWith(": ok")).orElse(false));
        return new IslDrill(r.header().getOrDefault("link", ""), r.steps(), reroute, backS, degraded, restored, t.at(1));
    }

    private static Double seconds(String text) {
        Matcher m = DrillSteps.AFTER.matcher(text);
        return m.matches() ? Double.valueOf(m.group(2)) : null;
    }
}
