package io.ibaccept.dump;

import io.ibaccept.model.ClusterData;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.HostData;
import io.ibaccept.model.InputProblem;
import io.ibaccept.model.PerftestRun;
import io.ibaccept.parse.CounterSampleParser;
import io.ibaccept.parse.CountersParser;
import io.ibaccept.parse.HostParsers;
import io.ibaccept.parse.IbdiagnetParser;
import io.ibaccept.parse.IblinkinfoParser;
import io.ibaccept.parse.IbnetdiscoverParser;
import io.ibaccept.parse.IbstatParser;
import io.ibaccept.parse.MlxlinkParser;
import io.ibaccept.parse.ParseException;
import io.ibaccept.parse.PerftestParser;
import io.ibaccept.parse.SmParser;
import io.ibaccept.parse.SmpqueryParser;
import io.ibaccept.parse.Text;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Reads a dump directory and parses every file. Never throws for bad content: each missing or rejected input becomes
 * an {@link InputProblem} and the corresponding model field stays null.
 */
public final class DumpLoader {
    private final Path root;
    private final List<InputProblem> problems = Collections.synchronizedList(new ArrayList<>());
    private final List<CommandResult> commands = Collections.synchronizedList(new ArrayList<>());

    private DumpLoader(Path root) {
        this.root = root;
    }

    /** Thrown only when the directory itself is unusable (does not exist / is not a directory). */
    public static final class DumpNotFound extends RuntimeException {
        public DumpNotFound(String message) {
            super(message, null, false, false);
        }
    }

    public static ClusterData load(Path root) {
        if (!Files.isDirectory(root)) throw new DumpNotFound(root + ": not a dump directory (does not exist or is not a directory)");
        return new DumpLoader(root).run();
    }

    private ClusterData run() {
        Manifest manifest = manifest();
        List<String> hosts = new ArrayList<>(manifest.nodes());
        if (hosts.isEmpty()) hosts.addAll(listDirs("nodes"));
        Map<String, HostData> hostData = new ConcurrentHashMap<>();
        hosts.parallelStream().forEach(h -> hostData.put(h, host(h)));
        FabricData fabric = new FabricData(
                parse(null, Cmd.IBNETDISCOVER, IbnetdiscoverParser::parse),
                parse(null, Cmd.IBLINKINFO, IblinkinfoParser::parse),
                parse(null, Cmd.SMINFO, SmParser::sminfo),
                parse(null, Cmd.SAQUERY_SM, SmParser::saquerySm),
                parse(null, Cmd.PERFQUERY, CountersParser::perfquery),
                parse(null, Cmd.IBQUERYERRORS, CountersParser::ibqueryerrors),
                parse(null, Cmd.IBDIAGNET_LOG, IbdiagnetParser::log),
                parse(null, Cmd.IBDIAGNET_DB, IbdiagnetParser::db),
                parse(null, Cmd.COUNTERS_START, CounterSampleParser::parse), parse(null, Cmd.COUNTERS_END, CounterSampleParser::parse));
        List<PerftestRun> perftests = perftests();
        List<InputProblem> sorted = new ArrayList<>(problems);
        sorted.sort(java.util.Comparator.comparing(InputProblem::file).thenComparingInt(InputProblem::line));
        List<CommandResult> cmds = new ArrayList<>(commands);
        cmds.sort(java.util.Comparator.comparing(CommandResult::host).thenComparing(CommandResult::name));
        return new ClusterData(root.toString(), manifest, new TreeMap<>(hostData), fabric, perftests, cmds, sorted);
    }

    private Manifest manifest() {
        Text t = read(Manifest.FILE, null, "manifest");
        if (t != null) {
            try {
                return Manifest.parse(t);
            } catch (ParseException e) {
                problem(InputProblem.Kind.PARSE_ERROR, null, "manifest", e.where().file(), e.where().line(), e.reason());
            }
        }
        return new Manifest(Manifest.FORMAT, root.getFileName().toString(), "", "", "", listDirs("nodes"), Map.of());
    }

    private HostData host(String h) {
        return new HostData(h,
                parse(h, Cmd.IBSTAT, IbstatParser::parse),
                parse(h, Cmd.PORTINFO, SmpqueryParser::portInfo),
                parse(h, Cmd.PKEYS, SmpqueryParser::pkeys),
                parse(h, Cmd.PEER_PKEYS, SmpqueryParser::pkeys),
                parse(h, Cmd.NODEINFO, SmpqueryParser::nodeInfo),
                parse(h, Cmd.ULIMIT, HostParsers::memlockKib),
                parse(h, Cmd.OFED_INFO, HostParsers::ofedVersion),
                parse(h, Cmd.MLXLINK, MlxlinkParser::parse),
                parse(h, Cmd.MLXLINK_PCIE, MlxlinkParser::parse),
                parse(h, Cmd.ETHTOOL, HostParsers::ethtoolStats),
                parse(h, Cmd.NATIVE_PROBE, t -> KeyValues.parse(t)),
                parse(h, Cmd.UPTIME, CounterSampleParser::uptimeSeconds));
    }

    private List<PerftestRun> perftests() {
        List<PerftestRun> runs = new ArrayList<>();
        Path dir = root.resolve("perftest");
        if (!Files.isDirectory(dir)) return runs;
        List<String> metas;
        try (Stream<Path> s = Files.list(dir)) {
            metas = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".client.meta")).sorted().toList();
        } catch (IOException e) {
            return runs;
        }
        for (String meta : metas) {
            String id = meta.substring(0, meta.length() - ".client.meta".length());
            String rel = "perftest/" + id + ".client.meta";
            Text mt = read(rel, null, "perftest");
            if (mt == null) continue;
            Map<String, String> kv;
            try {
                kv = KeyValues.parse(mt);
            } catch (ParseException e) {
                problem(InputProblem.Kind.PARSE_ERROR, null, "perftest", rel, e.where().line(), e.reason());
                continue;
            }
            String client = kv.getOrDefault("host", "");
            String server = kv.getOrDefault("peer", "");
            String test = kv.getOrDefault("name", id);
            var c = parseFile(client, "perftest", "perftest/" + id + ".client.out", PerftestParser::parse);
            // the server side is secondary (the client reports the result): absent altogether is fine
            boolean serverCollected = Files.exists(dir.resolve(id + ".server.out")) || Files.exists(dir.resolve(id + ".server.meta"));
            var sv = serverCollected ? parseFile(server, "perftest", "perftest/" + id + ".server.out", PerftestParser::parse) : null;
            runs.add(new PerftestRun(id, test, client, server, c, sv, "perftest/" + id + ".client.out"));
        }
        return runs;
    }

    private <T> T parse(String host, Cmd cmd, Function<Text, T> parser) {
        String rel = cmd.path(host);
        if (cmd.optional() && !Files.exists(root.resolve(rel))
                && !Files.exists(root.resolve(rel.substring(0, rel.length() - 4) + ".meta"))) return null; // not requested
        return parseFile(host, cmd.fileName(), rel, parser);
    }

    /** Reads meta + out, records command status problems, then parses; null if anything is unusable. */
    private <T> T parseFile(String host, String name, String rel, Function<Text, T> parser) {
        String base = rel.substring(0, rel.length() - 4);
        Path meta = root.resolve(base + ".meta");
        if (Files.exists(meta)) {
            Text mt = read(base + ".meta", host, name);
            if (mt != null) {
                try {
                    Map<String, String> kv = KeyValues.parse(mt);
                    String status = kv.getOrDefault("status", CommandResult.OK);
                    int exit = parseInt(kv.get("exit"));
                    String stderr = readQuiet(base + ".err");
                    CommandResult cr = new CommandResult(name, host == null ? kv.getOrDefault("host", "") : host,
                            kv.getOrDefault("command", name), status, exit, parseInt(kv.get("duration_ms")),
                            kv.getOrDefault("started", ""), stderr);
                    commands.add(cr);
                    if (!cr.ok()) {
                        String why = firstLine(stderr);
                        InputProblem.Kind kind = switch (status) {
                            case CommandResult.MISSING_TOOL -> InputProblem.Kind.TOOL_MISSING;
                            case CommandResult.TIMEOUT -> InputProblem.Kind.TIMEOUT;
                            case CommandResult.UNREACHABLE -> InputProblem.Kind.UNREACHABLE;
                            default -> InputProblem.Kind.COMMAND_FAILED;
                        };
                        problem(kind, host, name, rel, 0, "'" + cr.commandLine() + "' " + describe(cr)
                                + (why.isEmpty() ? "" : ": " + why));
                        return null;
                    }
                } catch (ParseException e) {
                    problem(InputProblem.Kind.PARSE_ERROR, host, name, e.where().file(), e.where().line(), e.reason());
                }
            }
        }
        Text t = read(rel, host, name);
        if (t == null) return null;
        if (t.content().isBlank()) {
            problem(InputProblem.Kind.EMPTY, host, name, rel, 0, "'" + name + "' printed nothing" + emptyHint(name));
            return null;
        }
        try {
            return parser.apply(t);
        } catch (ParseException e) {
            problem(InputProblem.Kind.PARSE_ERROR, host, name, e.where().file(), e.where().line(), e.reason());
        } catch (RuntimeException e) {
            problem(InputProblem.Kind.PARSE_ERROR, host, name, rel, 0, "unreadable content (" + e.getClass().getSimpleName() + ")");
        }
        return null;
    }

    /** Tools that print nothing when the fabric has no SM (no LIDs to query) get a hint. */
    private static String emptyHint(String name) {
        return switch (name) {
            case "ibqueryerrors", "perfquery", "saquery-s" -> " (no LIDs assigned: is a subnet manager running?)";
            default -> "";
        };
    }

    private static String describe(CommandResult cr) {
        return switch (cr.status()) {
            case CommandResult.MISSING_TOOL -> "is not installed on " + cr.host();
            case CommandResult.TIMEOUT -> "timed out after " + cr.durationMs() + " ms on " + cr.host();
            case CommandResult.UNREACHABLE -> "could not run: " + cr.host() + " unreachable";
            default -> "exited with code " + cr.exitCode() + " on " + cr.host();
        };
    }

    private Text read(String rel, String host, String name) {
        Path p = root.resolve(rel);
        try {
            byte[] bytes = Files.readAllBytes(p);
            String s;
            try {
                s = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
            } catch (CharacterCodingException e) {
                s = new String(bytes, StandardCharsets.ISO_8859_1);
            }
            if (s.indexOf('\0') >= 0) {
                problem(InputProblem.Kind.PARSE_ERROR, host, name, rel, 0, "binary content (NUL bytes): not tool output");
                return null;
            }
            return new Text(rel, s);
        } catch (NoSuchFileException e) {
            problem(InputProblem.Kind.MISSING, host, name, rel, 0, "file missing from the dump");
        } catch (IOException e) {
            problem(InputProblem.Kind.MISSING, host, name, rel, 0, "cannot read: " + e.getMessage());
        }
        return null;
    }

    private String readQuiet(String rel) {
        try {
            return Files.readString(root.resolve(rel), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private List<String> listDirs(String rel) {
        Path d = root.resolve(rel);
        if (!Files.isDirectory(d)) return List.of();
        try (Stream<Path> s = Files.list(d)) {
            return s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private void problem(InputProblem.Kind kind, String host, String command, String file, int line, String msg) {
        problems.add(new InputProblem(kind, host, command, file, line, msg));
    }

    private static int parseInt(String s) {
        try {
            return s == null ? 0 : Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String firstLine(String s) {
        if (s == null) return "";
        return s.lines().filter(l -> !l.isBlank()).findFirst().orElse("").trim();
    }
}
