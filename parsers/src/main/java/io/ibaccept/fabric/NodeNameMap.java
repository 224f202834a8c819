package io.ibaccept.fabric;

import io.ibaccept.parse.SourceRef;
import io.ibaccept.parse.Text;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The node-name-map of ibnetdiscover/iblinkinfo/opensm ({@code --node-name-map FILE}): one {@code 0xGUID "name"} per
 * line, '#' comments, as infiniband-diags' open_node_name_map() reads it (the GUID may be written without 0x; the name
 * runs to the closing quote). Lines it cannot read are kept as problems with file:line, the rest still apply.
 */
public record NodeNameMap(Map<Long, String> names, List<Problem> problems) {
    public NodeNameMap {
        names = Map.copyOf(names);
        problems = List.copyOf(problems);
    }

    public record Problem(SourceRef ref, String message) {}

    public static final NodeNameMap EMPTY = new NodeNameMap(Map.of(), List.of());

    private static final Pattern LINE = Pattern.compile("^(?:0[xX])?([0-9a-fA-F]{1,16})\\s+\"([^\"]*)\"\\s*(?:#.*)?$");
    private static final Pattern UNQUOTED = Pattern.compile("^(?:0[xX])?([0-9a-fA-F]{1,16})\\s+(\\S.*?)\\s*$");

    public static NodeNameMap parse(Text t) {
        Map<Long, String> names = new HashMap<>();
        List<Problem> problems = new java.util.ArrayList<>();
        List<String> lines = t.lines();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) continue;
            Matcher m = LINE.matcher(line);
            if (!m.matches()) m = UNQUOTED.matcher(line);
            if (!m.matches()) {
                problems.add(new Problem(t.at(i + 1), "not a '0xGUID \"name\"' line: '" + clip(line) + "'"));
                continue;
            }
            String name = m.group(2).trim();
            if (name.isEmpty()) {
                problems.add(new Problem(t.at(i + 1), "empty name"));
                continue;
            }
            names.put(Long.parseUnsignedLong(m.group(1), 16), name);
        }
        return new NodeNameMap(names, problems);
    }

    public static NodeNameMap load(java.nio.file.Path file) throws java.io.IOException {
        // a name per GUID: 32 MiB is some 500,000 GUIDs, far above any fabric
        return parse(new Text(file.toString(), io.ibaccept.safety.SideInput.read(file, 32L << 20, "node-name-map")));
    }

    public Optional<String> name(long guid) {
        return Optional.ofNullable(names.get(guid));
    }

    private static String clip(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
