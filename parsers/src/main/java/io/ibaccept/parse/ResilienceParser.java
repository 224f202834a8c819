package io.ibaccept.parse;

import io.ibaccept.model.Resilience;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * ibaccept's own record of a resilience run (written by io.ibaccept.collect.Resilience): '#' comments, "key: value"
 * header lines, then one line per loss: "loss KIND" and tab-separated fields, the name first, then key=value.
 */
public final class ResilienceParser {
    private ResilienceParser() {}

    static final Set<String> HEADER = Set.of("engine", "twin", "healthy worst uplink", "healthy credit loops", "coverage", "time", "sm", "not taken out");

    public static Resilience parse(Text t, Issues issues) {
        Map<String, String> header = new LinkedHashMap<>();
        List<Resilience.Loss> losses = new ArrayList<>();
        for (int i = 0; i < t.lines().size(); i++) {
            String line = t.lines().get(i);
            if (line.isBlank() || line.startsWith("#")) continue;
            if (line.startsWith("loss ")) {
                try {
                    losses.add(loss(line, t.at(i + 1)));
                } catch (RuntimeException bad) {
                    issues.add(t, i + 1, "unreadable loss line (" + bad.getMessage() + "): '" + Text.excerpt(line) + "'");
                }
                continue;
            }
            int colon = line.indexOf(": ");
            if (colon > 0 && HEADER.contains(line.substring(0, colon))) header.put(line.substring(0, colon), line.substring(colon + 2));
            else issues.add(t, i + 1, "unrecognised resilience line: '" + Text.excerpt(line) + "'");
        }
        if (!header.containsKey("coverage")) throw t.error(0, "no 'coverage:' line: the resilience run did not finish");
        return new Resilience(header, losses, t.at(1));
    }

    private static Resilience.Loss loss(String line, SourceRef ref) {
        String[] f = line.split("\t");
        if (f.length < 2) throw new IllegalArgumentException("no name");
        String kind = f[0].substring("loss ".length()).trim();
        if (!kind.equals("cable") && !kind.equals("switch")) throw new IllegalArgumentException("kind '" + kind + "'");
        Map<String, String> kv = new LinkedHashMap<>();
        for (String x : Arrays.asList(f).subList(2, f.length)) {
            int eq = x.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("field without '=': " + x);
            kv.put(x.substring(0, eq), x.substring(eq + 1));
        }
        String cut = kv.getOrDefault("cut_off", "");
        return new Resilience.Loss(kind, f[1], num(kv, "unreachable"), cut.isEmpty() ? List.of() : List.of(cut.split(",")), num(kv, "loops"),
                num(kv, "credit_loops"), num(kv, "worst_uplink"), kv.getOrDefault("worst_at", ""), num(kv, "lost_hosts"), kv.getOrDefault("fix", ""), ref);
    }

    private static int num(Map<String, String> kv, String key) {
        String v = kv.get(key);
        if (v == null) throw new IllegalArgumentException("no " + key);
        return Integer.parseInt(v);
    }
}
