package io.ibaccept.fabric;

import io.ibaccept.parse.SourceRef;
import java.util.List;
import java.util.Map;

/**
 * One thing a fabric analysis found: a kind (the variant whose cause and fix texts its check family file carries), the objects it
 * names ("leaf03 port 20"), a one-line summary, the facts with where each was read, and the values its fix text uses.
 * severe = the fabric is not as designed (FAIL); otherwise worth a look (WARN).
 */
public record Issue(String kind, boolean severe, List<String> objects, String summary, List<Fact> facts, Map<String, String> vars) {
    public Issue {
        objects = List.copyOf(objects);
        facts = List.copyOf(facts);
        vars = Map.copyOf(vars);
    }

    public record Fact(String text, SourceRef ref) {}

    /**
     * A ratio over the allowed one that most leaves share: an oversubscription by design until the contract says
     * otherwise (a warning that names the ratio to declare), not missing cables.
     */
    Issue asDesign(long leavesWithHosts, boolean portStatesKnown) {
        java.util.Map<String, String> v = new java.util.HashMap<>(vars);
        v.put("leaves", String.valueOf(leavesWithHosts));
        v.put("design", vars.get("ratio").replace(":1", ""));
        String s = summary.replaceFirst(", allowed [^,]*$", "") + " - the same on most of the " + leavesWithHosts
                + " leaves with hosts: oversubscribed by design? allowed " + vars.get("allowed")
                + (portStatesKnown ? "" : " (no port states without iblinkinfo: a spine lost by every leaf alike would look the same)");
        return new Issue("ratio_design", false, objects, s, facts, v);
    }
}
