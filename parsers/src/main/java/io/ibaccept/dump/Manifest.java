package io.ibaccept.dump;

import io.ibaccept.parse.ParseException;
import io.ibaccept.parse.Text;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** manifest.txt: what was collected, where, when and with which tool versions. */
public record Manifest(int format, String cluster, String created, String collector, String fabricNode,
                       List<String> nodes, Map<String, String> toolVersions, String state, List<String> smNodes) {
    public static final int FORMAT = 1;
    public static final String FILE = "manifest.txt";
    /**
     * state: a collector writes PARTIAL when it starts and COMPLETE when every output is written, so a dump of an
     * interrupted or killed run says so. Dumps written before the state line existed read as COMPLETE.
     */
    public static final String PARTIAL = "partial";
    public static final String COMPLETE = "complete";
    /*
     * smNodes: the SM nodes named with 'collect --sm-nodes' (the nodes meant to run the SM), empty when none were named.
     */

    public Manifest {
        // shown on report covers and consoles: a dump's escapes made visible (node names are checked by the loader)
        cluster = io.ibaccept.safety.Printable.of(cluster);
        created = io.ibaccept.safety.Printable.of(created);
        collector = io.ibaccept.safety.Printable.of(collector);
        fabricNode = io.ibaccept.safety.Printable.of(fabricNode);
        nodes = List.copyOf(nodes);
        Map<String, String> tools = new java.util.LinkedHashMap<>();
        toolVersions.forEach((k, v) -> tools.put(io.ibaccept.safety.Printable.of(k), io.ibaccept.safety.Printable.of(v)));
        toolVersions = Map.copyOf(tools);
        state = state == null || state.isBlank() ? COMPLETE : io.ibaccept.safety.Printable.of(state);
        smNodes = smNodes == null ? List.of() : List.copyOf(smNodes);
    }

    public Manifest(int format, String cluster, String created, String collector, String fabricNode,
                    List<String> nodes, Map<String, String> toolVersions, String state) {
        this(format, cluster, created, collector, fabricNode, nodes, toolVersions, state, List.of());
    }

    public Manifest(int format, String cluster, String created, String collector, String fabricNode,
                    List<String> nodes, Map<String, String> toolVersions) {
        this(format, cluster, created, collector, fabricNode, nodes, toolVersions, COMPLETE, List.of());
    }

    public Manifest withState(String newState) {
        return new Manifest(format, cluster, created, collector, fabricNode, nodes, toolVersions, newState, smNodes);
    }

    public Manifest withNodes(List<String> newNodes) {
        return new Manifest(format, cluster, created, collector, fabricNode, newNodes, toolVersions, state, smNodes);
    }

    public Manifest withSmNodes(List<String> named) {
        return new Manifest(format, cluster, created, collector, fabricNode, nodes, toolVersions, state, named);
    }

    public static Manifest parse(Text t) {
        Map<String, String> kv = KeyValues.parse(t);
        String fmt = kv.get("format");
        if (fmt == null) throw new ParseException(t.at(1), "missing 'format:' line (not an ibaccept manifest)");
        int format;
        try {
            format = Integer.parseInt(fmt);
        } catch (NumberFormatException e) {
            throw new ParseException(t.at(lineOf(t, "format")), "format must be a number, found '" + fmt + "'");
        }
        if (format != FORMAT)
            throw new ParseException(t.at(lineOf(t, "format")), "unsupported dump format " + format + " (this ibaccept reads " + FORMAT + ")");
        String nodes = kv.getOrDefault("nodes", "");
        Map<String, String> tools = new LinkedHashMap<>();
        kv.forEach((k, v) -> {
            if (k.startsWith("tool.")) tools.put(k.substring(5), v);
        });
        return new Manifest(format, kv.getOrDefault("cluster", "unnamed"), kv.getOrDefault("created", ""),
                kv.getOrDefault("collector", ""), kv.getOrDefault("fabric_node", ""),
                words(nodes), tools, kv.get("state"), words(kv.getOrDefault("sm_nodes", "")));
    }

    private static List<String> words(String s) {
        return s.isBlank() ? List.of() : Arrays.asList(s.trim().split("\\s+"));
    }

    public String toText() {
        Map<String, String> kv = new LinkedHashMap<>();
        kv.put("format", String.valueOf(format));
        kv.put("state", state);
        kv.put("cluster", cluster);
        kv.put("created", created);
        kv.put("collector", collector);
        kv.put("fabric_node", fabricNode);
        kv.put("nodes", String.join(" ", nodes));
        if (!smNodes.isEmpty()) kv.put("sm_nodes", String.join(" ", smNodes));
        toolVersions.forEach((k, v) -> kv.put("tool." + k, v));
        return "# ibaccept dump manifest\n" + KeyValues.format(kv);
    }

    static int lineOf(Text t, String key) {
        List<String> lines = t.lines();
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).trim().startsWith(key + ":")) return i + 1;
        return 1;
    }
}
