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
}
