package io.ibaccept.rules;

import java.util.List;

/** One result of one check: which objects, what was seen, why it probably happened and how to fix it. */
public record Finding(String check, String title, Status status, List<String> objects, List<Evidence> evidence,
                      String summary, String cause, String fix) {
    public Finding {
        objects = List.copyOf(objects);
        evidence = List.copyOf(evidence);
    }

    /** Host names among the affected objects ("node03" for "node03", "node03 port 1", "node03/mlx5_0"). */
    public List<String> hosts() {
        return objects.stream().map(o -> o.split("[ /:]")[0]).distinct().toList();
    }
}
