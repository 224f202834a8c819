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
        return objects.stream().map(Finding::hostOf).distinct().toList();
    }

    static String hostOf(String object) {
        for (int i = 0; i < object.length(); i++) {
            char c = object.charAt(i);
            if (c == ' ' || c == '/' || c == ':') return object.substring(0, i);
        }
        return object;
    }
}
