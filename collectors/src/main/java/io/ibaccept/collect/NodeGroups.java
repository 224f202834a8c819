package io.ibaccept.collect;

import io.ibaccept.model.Hostlist;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Node sets with ClusterShell node groups: "@compute", "@rack1,node[01-04]", "@roles:gpu!node07". Where ClusterShell's
 * nodeset is on PATH it expands the expression (run without a shell, the expression one argument); otherwise its
 * configuration is read as ClusterShell reads it (lib/ClusterShell/NodeUtils.py, Defaults.config_paths): groups.conf
 * from /etc/clustershell, ~/.local/etc/clustershell, $XDG_CONFIG_HOME/clustershell (~/.config) and
 * $CLUSTERSHELL_CFGDIR, the last one found setting $CFGDIR; [Main] default, confdir (or groupsdir: *.conf files of
 * [source] sections) and autodir (*.yaml files, "source: {group: nodeset}"); each other section a source with its
 * map, all and list upcalls, run through /bin/sh -c in $CFGDIR with $GROUP, $SOURCE and $CFGDIR substituted.
 *
 * Supported: the operators ',' (union), '!' (difference), '&' (intersection) and '^' (symmetric difference), applied
 * left to right as ClusterShell does; @group (default source), @source:group, ranges in group names (@rack[1-2]),
 * groups inside groups (resolved in the source of the group that names them), @* and @source:* (the all upcall or
 * group, else every group). Not supported: @@source (group names, not nodes) and node wildcards.
 *
 * A group name reaches a shell only after it is checked against {@link #GROUP}: no shell syntax, no option-like start.
 */
public final class NodeGroups {
    /** An expression that cannot be resolved: the message names the group and where it was looked for. */
    public static final class GroupError extends IllegalArgumentException {
        GroupError(String message) {
            super(message);
        }
    }

    /** Group and source names that may be substituted into an upcall: letters, digits, '_', '.', '+', '-', not first '-'. */
    static final Pattern GROUP = Pattern.compile("[A-Za-z0-9_.+][A-Za-z0-9_.+-]{0,127}");
    private static final Duration UPCALL_TIMEOUT = Duration.ofSeconds(60);
    private static final int MAX_DEPTH = 32;

    private final Map<String, String> env;
    private final Path systemDir;

    /** env: the process environment (PATH, HOME, XDG_CONFIG_HOME, CLUSTERSHELL_CFGDIR); systemDir: /etc/clustershell. */
    public NodeGroups(Map<String, String> env, Path systemDir) {
        this.env = Map.copyOf(env);
        this.systemDir = systemDir;
    }

    public NodeGroups() {
        this(System.getenv(), Path.of("/etc/clustershell"));
    }

    /** Whether the expression needs ClusterShell (a group or a set operator); a plain hostlist does not. */
    public static boolean usesGroups(String expr) {
        return expr.chars().anyMatch(c -> c == '@' || c == '!' || c == '&' || c == '^');
    }

    /** The nodes of the expression, in order of first appearance. */
    public List<String> expand(String expr) {
        if (!usesGroups(expr)) return Hostlist.expand(expr);
        Path nodeset = onPath("nodeset");
        if (nodeset != null) return withNodeset(nodeset, expr);
        return new Config().nodes(expr);
    }

    private Path onPath(String name) {
        String path = env.getOrDefault("PATH", "");
        for (String dir : path.split(":")) {
            if (dir.isEmpty()) continue;
            Path p = Path.of(dir, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) return p;
        }
        return null;
    }

    // ---- ClusterShell's nodeset

    private List<String> withNodeset(Path nodeset, String expr) {
        // each group alone first: an empty one is an error naming it, not a silently smaller node set
        for (Token t : tokens(expr)) {
            if (!t.text.startsWith("@")) continue;
            if (run(List.of(nodeset.toString(), "-e", t.text), null, "nodeset -e " + t.text).isBlank())
                throw new GroupError("node group '" + t.text + "' resolves to no node (ClusterShell's " + nodeset + " -e, configuration "
                        + where() + ")");
        }
        List<String> nodes = words(run(List.of(nodeset.toString(), "-e", expr), null, "nodeset -e " + expr));
        if (nodes.isEmpty()) throw new GroupError("node set '" + expr + "' resolves to no node (ClusterShell's " + nodeset + " -e)");
        return nodes;
    }

    private String where() {
        String cfg = env.get("CLUSTERSHELL_CFGDIR");
        return cfg != null ? "in " + cfg : "in " + systemDir + " and the user's ClusterShell directories";
    }

    /** Runs argv (no shell unless argv says so), returns stdout; a failure or a timeout is a GroupError. */
    private String run(List<String> argv, Path cwd, String what) {
        try {
            Process p = Transport.start(argv, env, cwd);
            Transport.Drainer out = new Transport.Drainer(p.getInputStream(), "ibaccept-nodeset", 16 << 20);
            Transport.Drainer err = new Transport.Drainer(p.getErrorStream(), "ibaccept-nodeset-err", 64 << 10);
            try {
                if (!p.waitFor(UPCALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    Transport.stop(p);
                    throw new GroupError("'" + what + "' did not answer within " + UPCALL_TIMEOUT.toSeconds() + " s");
                }
                out.join(5000);
                err.join(5000);
            } finally {
                Transport.forget(p);
            }
            if (p.exitValue() != 0)
                throw new GroupError("'" + what + "' failed (exit " + p.exitValue() + ")" + (err.text().isBlank() ? "" : ": " + err.text().strip()));
            return out.text();
        } catch (IOException e) {
            throw new GroupError("cannot run '" + what + "': " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GroupError("interrupted while running '" + what + "'");
        }
    }

    private static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        for (String w : text.strip().split("\\s+")) if (!w.isEmpty()) out.add(w);
        return out;
    }

    // ---- the expression

    /** One operand and the operator before it (',' for the first). */
    record Token(char op, String text) {}

    /** Splits at the operators outside brackets, as ClusterShell's _scan_string does. */
    static List<Token> tokens(String expr) {
        List<Token> out = new ArrayList<>();
        char op = ',';
        int depth = 0, start = 0;
        for (int i = 0; i <= expr.length(); i++) {
            char c = i < expr.length() ? expr.charAt(i) : ',';
            if (c == '[') depth++;
            else if (c == ']') depth--;
            if (depth == 0 && (c == ',' || c == '!' || c == '&' || c == '^' || i == expr.length())) {
                String t = expr.substring(start, i).strip();
                if (!t.isEmpty()) out.add(new Token(op, t));
                else if (i < expr.length() && c != ',') throw new GroupError("node set '" + expr + "': nothing before '" + c + "'");
                op = c;
                start = i + 1;
            }
        }
        return out;
    }

    private static void apply(Set<String> set, char op, List<String> operand) {
        switch (op) {
            case ',' -> set.addAll(operand);
            case '!' -> operand.forEach(set::remove);
            case '&' -> set.retainAll(new LinkedHashSet<>(operand));
            case '^' -> {
                for (String n : operand) if (!set.remove(n)) set.add(n);
            }
            default -> throw new IllegalStateException("operator " + op);
        }
    }

    // ---- ClusterShell's configuration, read here

    /** A group source: a YAML mapping, or the upcalls of a section. */
    private record Source(String name, Map<String, String> groups, String file, Map<String, String> upcalls, Path cfgdir) {
        String describe() {
            return groups != null ? "source '" + name + "' of " + file : "source '" + name + "' of " + file + " (map: " + upcalls.get("map") + ")";
        }
    }

    private final class Config {
        private final Map<String, Source> sources = new LinkedHashMap<>();
        private final List<String> read = new ArrayList<>();
        private String defaultSource;

        Config() {
            List<Path> files = new ArrayList<>();
            String home = env.getOrDefault("HOME", "");
            files.add(systemDir.resolve("groups.conf"));
            if (!home.isEmpty()) files.add(Path.of(home, ".local/etc/clustershell/groups.conf"));
            String xdg = env.get("XDG_CONFIG_HOME");
            if (xdg != null && !xdg.isEmpty()) files.add(Path.of(xdg, "clustershell/groups.conf"));
            else if (!home.isEmpty()) files.add(Path.of(home, ".config/clustershell/groups.conf"));
            String cfg = env.get("CLUSTERSHELL_CFGDIR");
            if (cfg != null && !cfg.isEmpty()) files.add(Path.of(cfg, "groups.conf"));
            // ConfigParser.read: every file found, later values over earlier ones; $CFGDIR is the last file's directory
            Map<String, Map<String, String>> ini = new LinkedHashMap<>();
            Path cfgdir = null;
            for (Path f : files) {
                if (!Files.isRegularFile(f)) continue;
                Ini.parse(f, ini);
                read.add(f.toString());
                cfgdir = f.toAbsolutePath().getParent();
            }
            if (cfgdir == null) return;
            Map<String, String> main = ini.getOrDefault("Main", Map.of());
            String confdirs = main.containsKey("groupsdir") ? main.get("groupsdir") : main.get("confdir");
            if (confdirs != null) for (Path dir : dirs(confdirs, cfgdir)) for (Path f : list(dir, ".conf")) {
                Map<String, Map<String, String>> part = new LinkedHashMap<>();
                Ini.parse(f, part);
                read.add(f.toString());
                addSections(part, f.toString(), dir);
            }
            if (main.get("autodir") != null) for (Path dir : dirs(main.get("autodir"), cfgdir)) for (Path f : list(dir, ".yaml")) {
                read.add(f.toString());
                yaml(f);
            }
            addSections(ini, String.join(", ", files.stream().filter(Files::isRegularFile).map(Path::toString).toList()), cfgdir);
            defaultSource = main.get("default");
            if (defaultSource != null && !defaultSource.isEmpty() && !sources.containsKey(defaultSource))
                throw new GroupError("ClusterShell: default group source not found: \"" + defaultSource + "\" (" + String.join(", ", read) + ")");
            if (defaultSource == null || defaultSource.isEmpty()) defaultSource = sources.isEmpty() ? null : sources.keySet().iterator().next();
        }

        private List<Path> dirs(String value, Path cfgdir) {
            List<Path> out = new ArrayList<>();
            for (String d : io.ibaccept.safety.Shell.split(value)) {
                Path p = Path.of(d.replace("${CFGDIR}", cfgdir.toString()).replace("$CFGDIR", cfgdir.toString())).normalize();
                if (!out.contains(p)) out.add(p);
            }
            return out;
        }

        private List<Path> list(Path dir, String suffix) {
            if (!Files.isDirectory(dir)) return List.of();
            try (var s = Files.list(dir)) {
                return s.filter(p -> p.getFileName().toString().endsWith(suffix) && Files.isRegularFile(p)).sorted().toList();
            } catch (IOException e) {
                throw new GroupError("ClusterShell: cannot list " + dir + ": " + e.getMessage());
            }
        }

        private void add(Source s) {
            if (sources.containsKey(s.name())) throw new GroupError("ClusterShell: group source '" + s.name() + "': name collision (" + s.file() + ")");
            sources.put(s.name(), s);
        }

        private void addSections(Map<String, Map<String, String>> ini, String file, Path cwd) {
            ini.forEach((section, kv) -> {
                for (String name : section.split(",")) {
                    if (name.equals("Main")) continue;
                    if (!kv.containsKey("map")) throw new GroupError("ClusterShell: section [" + section + "] of " + file + " has no map upcall");
                    add(new Source(name, null, file, kv, cwd));
                }
            });
        }

        @SuppressWarnings("unchecked")
        private void yaml(Path f) {
            Object doc;
            try {
                byte[] bytes = Files.readAllBytes(f);
                if (bytes.length > 16 << 20) throw new GroupError("ClusterShell: " + f + " is larger than 16 MiB");
                doc = new org.yaml.snakeyaml.Yaml(new org.yaml.snakeyaml.constructor.SafeConstructor(new org.yaml.snakeyaml.LoaderOptions()))
                        .load(new String(bytes, StandardCharsets.UTF_8));
            } catch (IOException | RuntimeException e) {
                if (e instanceof GroupError g) throw g;
                throw new GroupError("ClusterShell: " + f + ": " + e.getMessage());
            }
            if (!(doc instanceof Map<?, ?> top)) throw new GroupError("ClusterShell: " + f + ": invalid content (base is not a dict)");
            top.forEach((src, groups) -> {
                if (!(src instanceof String name)) throw new GroupError("ClusterShell: " + f + ": group source " + src + " not a string (add quotes?)");
                if (!(groups instanceof Map<?, ?> gm)) throw new GroupError("ClusterShell: " + f + ": invalid content (group source '" + name + "' is not a dict)");
                Map<String, String> g = new LinkedHashMap<>();
                gm.forEach((k, v) -> {
                    if (!(k instanceof String group)) throw new GroupError("ClusterShell: " + f + ": " + name + ": group name " + k + " not a string (add quotes?)");
                    // a YAML list is one node set per item; null is the empty set
                    String value = v == null ? "" : v instanceof List<?> l ? String.join(",", l.stream().map(String::valueOf).toList()) : String.valueOf(v);
                    g.put(group, value);
                });
                add(new Source(name, g, f.toString(), null, f.getParent()));
            });
        }

        List<String> nodes(String expr) {
            if (sources.isEmpty() && expr.contains("@")) throw new GroupError("node set '" + expr + "' names a group, but no ClusterShell group source is configured (looked for groups.conf in "
                    + systemDir + ", ~/.local/etc/clustershell, ~/.config/clustershell" + (env.containsKey("CLUSTERSHELL_CFGDIR") ? ", " + env.get("CLUSTERSHELL_CFGDIR") : "")
                    + "; nodeset is not on PATH)");
            List<String> out = new ArrayList<>(parse(expr, null, 0));
            if (out.isEmpty()) throw new GroupError("node set '" + expr + "' resolves to no node");
            return out;
        }

        private Set<String> parse(String expr, String namespace, int depth) {
            if (depth > MAX_DEPTH) throw new GroupError("node group '" + expr + "' nests more than " + MAX_DEPTH + " groups deep (a group that names itself?)");
            Set<String> set = new LinkedHashSet<>();
            for (Token t : tokens(expr)) apply(set, t.op(), t.text().startsWith("@") ? group(t.text(), namespace, depth) : Hostlist.expand(t.text()));
            return set;
        }

        private List<String> group(String token, String namespace, int depth) {
            String body = token.substring(1), ns = namespace;
            if (body.startsWith("@")) throw new GroupError("'" + token + "' lists group names, not nodes: not supported here");
            int colon = body.indexOf(':');
            if (colon >= 0) {
                ns = body.substring(0, colon);
                body = body.substring(colon + 1);
            }
            String sourceName = ns == null ? defaultSource : ns;
            Source src = sourceName == null ? null : sources.get(sourceName);
            if (src == null) throw new GroupError("'" + token + "': no ClusterShell group source '" + (sourceName == null ? "<default>" : sourceName)
                    + "' (sources: " + String.join(", ", sources.keySet()) + "; read " + String.join(", ", read) + ")");
            Set<String> nodes = new LinkedHashSet<>();
            List<String> names = body.equals("*") ? List.of("*") : Hostlist.expand(body);
            for (String name : names) {
                if (!name.equals("*") && !GROUP.matcher(name).matches())
                    throw new GroupError("node group name '" + name + "' in '" + token + "' is not allowed: use letters, digits, '_', '.', '+' and '-'"
                            + " (not first)");
                String value = name.equals("*") ? all(src) : map(src, name);
                Set<String> resolved = value.isBlank() ? Set.of() : parse(value, ns, depth + 1);
                if (resolved.isEmpty()) throw new GroupError("node group '@" + src.name() + ":" + name + "' resolves to no node (" + src.describe() + ")");
                nodes.addAll(resolved);
            }
            return new ArrayList<>(nodes);
        }

        private String map(Source src, String group) {
            if (src.groups() != null) return src.groups().getOrDefault(group, "");
            return upcall(src, "map", group);
        }

        /** ClusterShell's all nodes of a source: its all upcall or group, else every group (list + map). */
        private String all(Source src) {
            if (src.groups() != null) {
                if (src.groups().containsKey("all")) return src.groups().get("all");
                return String.join(",", src.groups().values());
            }
            if (src.upcalls().containsKey("all")) return upcall(src, "all", null);
            if (!src.upcalls().containsKey("list")) throw new GroupError("ClusterShell " + src.describe() + " has neither an all nor a list upcall");
            List<String> values = new ArrayList<>();
            for (String g : words(upcall(src, "list", null))) values.add(upcall(src, "map", g));
            return String.join(",", values);
        }

        /** The upcall through /bin/sh -c, as ClusterShell runs it (Popen shell=True, cwd $CFGDIR); the output's words, joined. */
        private String upcall(Source src, String which, String group) {
            if (group != null && !GROUP.matcher(group).matches())
                throw new GroupError("node group name '" + group + "' from " + src.describe() + " is not allowed: use letters, digits, '_', '.', '+' and '-'");
            if (!GROUP.matcher(src.name()).matches()) throw new GroupError("ClusterShell group source name '" + src.name() + "' is not allowed here");
            Map<String, String> vars = new LinkedHashMap<>();
            vars.put("CFGDIR", src.cfgdir().toString());
            vars.put("SOURCE", src.name());
            if (group != null) vars.put("GROUP", group);
            String cmd = substitute(src.upcalls().get(which), vars);
            return String.join(",", words(run(List.of("/bin/sh", "-c", cmd), src.cfgdir(), cmd)));
        }
    }

    /** Python's string.Template.safe_substitute: $NAME and ${NAME} of the known names, $$ is '$', the rest as written. */
    static String substitute(String template, Map<String, String> vars) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < template.length(); i++) {
            char c = template.charAt(i);
            if (c != '$' || i + 1 >= template.length()) {
                out.append(c);
                continue;
            }
            char n = template.charAt(i + 1);
            if (n == '$') {
                out.append('$');
                i++;
                continue;
            }
            int end;
            String name;
            if (n == '{') {
                end = template.indexOf('}', i + 2);
                name = end < 0 ? null : template.substring(i + 2, end);
            } else {
                end = i + 1;
                while (end < template.length() && (Character.isLetterOrDigit(template.charAt(end)) || template.charAt(end) == '_')) end++;
                name = template.substring(i + 1, end);
                end--;
            }
            if (name != null && vars.containsKey(name)) {
                out.append(vars.get(name));
                i = end;
            } else out.append(c);
        }
        return out.toString();
    }

    /** Python's ConfigParser, as far as groups.conf uses it: sections, "key: value" or "key = value", comments, continuation lines. */
    static final class Ini {
        private Ini() {}

        static void parse(Path f, Map<String, Map<String, String>> into) {
            List<String> lines;
            try {
                if (Files.size(f) > 4 << 20) throw new GroupError("ClusterShell: " + f + " is larger than 4 MiB");
                lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new GroupError("ClusterShell: cannot read " + f + ": " + e.getMessage());
            }
            Map<String, String> section = null;
            String key = null;
            int n = 0;
            for (String line : lines) {
                n++;
                String t = line.strip();
                if (t.isEmpty() || t.startsWith("#") || t.startsWith(";")) continue;
                if (Character.isWhitespace(line.charAt(0)) && section != null && key != null) {
                    section.put(key, section.get(key) + "\n" + t);
                    continue;
                }
                if (t.startsWith("[") && t.endsWith("]")) {
                    section = into.computeIfAbsent(t.substring(1, t.length() - 1).strip(), s -> new LinkedHashMap<>());
                    key = null;
                    continue;
                }
                int sep = -1;
                for (int i = 0; i < t.length(); i++) if (t.charAt(i) == ':' || t.charAt(i) == '=') {
                    sep = i;
                    break;
                }
                if (section == null || sep <= 0) throw new GroupError("ClusterShell: " + f + ":" + n + ": not a section, option or comment: " + t);
                key = t.substring(0, sep).strip().toLowerCase(java.util.Locale.ROOT);
                section.put(key, t.substring(sep + 1).strip());
            }
        }
    }
}
