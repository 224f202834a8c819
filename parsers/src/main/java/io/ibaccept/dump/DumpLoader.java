package io.ibaccept.dump;

import io.ibaccept.dump.sources.Results;
import io.ibaccept.dump.sources.Source;
import io.ibaccept.dump.sources.Sources;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.HostData;
import io.ibaccept.model.InputProblem;
import io.ibaccept.model.Perftest;
import io.ibaccept.model.PerftestRun;
import io.ibaccept.parse.Nums;
import io.ibaccept.parse.Parsed;
import io.ibaccept.parse.Parser;
import io.ibaccept.parse.Parsing;
import io.ibaccept.parse.ParseException;
import io.ibaccept.parse.Text;
import io.ibaccept.safety.IoMessages;
import io.ibaccept.safety.Printable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Reads a dump directory and parses every file. Never throws for bad content: each missing or rejected input becomes
 * an {@link InputProblem} and the corresponding model field stays null.
 */
public final class DumpLoader {
    private final Path root;
    /** root made absolute: a dump given as "." normalizes to the empty path, which no subdirectory starts with. */
    private final Path absoluteRoot;
    /** What the dump is called in the model and messages: the directory, or the .zip it was extracted from. */
    private final String label;
    private final DumpFiles files;
    private final List<InputProblem> problems = Collections.synchronizedList(new ArrayList<>());
    private final List<CommandResult> commands = Collections.synchronizedList(new ArrayList<>());
    /** When the collection that wrote this dump began (the manifest's created), or null when unknown. */
    private java.time.Instant collectedSince;

    private DumpLoader(Path root, String label, DumpFiles files, List<InputProblem> early) {
        this.root = root;
        this.absoluteRoot = root.toAbsolutePath().normalize();
        this.label = label;
        this.files = files;
        problems.addAll(early);
    }

    /**
     * Thrown only when the dump as a whole is unusable: it does not exist, is not a directory or a zip, the zip is
     * unsafe or too large, or it names no nodes at all. The CLI exits 2 with the message.
     */
    public static final class DumpNotFound extends RuntimeException {
        public DumpNotFound(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Loads with the per-file read limit of the system property ibaccept.max-file-mib (default 64 MiB). Files above
     * ibaccept.stream-above-mib (default 8) are parsed as they are read; the large fabric-wide files (ibqueryerrors,
     * perfquery, ibdiagnet2.pm, counter samples) then hold memory in proportion to the fabric, any other parser reads
     * at most ibaccept.max-whole-file-mib (default 64) whole.
     */
    public static ClusterData load(Path root) {
        return load(root, DumpFiles.maxBytesFromProperty());
    }

    /** maxFileBytes: a file larger than this is not read; it becomes an input problem naming the file. */
    public static ClusterData load(Path root, long maxFileBytes) {
        if (Files.isRegularFile(root) && root.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".zip")) {
            ZipDump.Extracted z = ZipDump.extract(root, ZipDump.Limits.defaults(maxFileBytes));
            try {
                List<InputProblem> early = new ArrayList<>();
                z.skipped().forEach((entry, why) -> early.add(new InputProblem(InputProblem.Kind.PARSE_ERROR, null, "zip", Printable.of(entry), 0, why)));
                return new DumpLoader(z.root(), root.toString(), new DumpFiles(z.root(), maxFileBytes, z.withheld()), early).run();
            } finally {
                z.delete();
            }
        }
        if (!Files.isDirectory(root)) throw new DumpNotFound(root + ": not a dump directory (does not exist or is not a directory)");
        return new DumpLoader(root, root.toString(), new DumpFiles(root, maxFileBytes, Map.of()), List.of()).run();
    }

    private ClusterData run() {
        Manifest manifest = manifest();
        collectedSince = instant(manifest.created());
        List<String> hosts = new ArrayList<>(manifest.nodes());
        if (hosts.isEmpty()) hosts.addAll(listDirs("nodes"));
        Map<String, HostData> hostData = new ConcurrentHashMap<>();
        hosts.parallelStream().forEach(h -> hostData.put(h, host(h)));
        FabricData fabric = Sources.fabric(parseAll(null, Source.Scope.FABRIC), smConfigs(hosts));
        switchesMissingFromIblinkinfo(fabric);
        emptyWithoutSwitches(fabric);
        List<PerftestRun> perftests = perftests();
        List<InputProblem> sorted = new ArrayList<>(problems);
        sorted.sort(java.util.Comparator.comparing(InputProblem::file).thenComparingInt(InputProblem::line));
        List<CommandResult> cmds = new ArrayList<>(commands);
        cmds.sort(java.util.Comparator.comparing(CommandResult::host).thenComparing(CommandResult::name));
        List<io.ibaccept.model.CollectiveRun> collectives = CollectiveLoader.loadDir(root);
        // after every read: the files already hashed while read are not read again
        String dumpId = DumpId.of(root, files.digests(), files.maxBytes());
        return new ClusterData(label, manifest, new TreeMap<>(hostData), fabric, perftests, cmds, sorted, collectives, dumpId);
    }

    /**
     * A tool that rightly prints nothing on a fabric without switches, or without a port joining two switches, did so on
     * one: not a problem.
     */
    private void emptyWithoutSwitches(FabricData fabric) {
        if (fabric.topology() == null || fabric.topology().nodes().isEmpty()) return;
        java.util.Set<String> switchIds = new java.util.HashSet<>();
        for (io.ibaccept.model.Topology.Node n : fabric.topology().nodes())
            if (n.type() == io.ibaccept.model.Topology.NodeType.SWITCH) switchIds.add(n.id());
        boolean switchLinks = fabric.topology().nodes().stream().anyMatch(n -> switchIds.contains(n.id())
                && n.ports().stream().anyMatch(p -> switchIds.contains(p.remoteId())));
        if (switchLinks) return;
        java.util.Set<String> silent = new java.util.HashSet<>();
        for (Source<?> s : Sources.all())
            if ((s.silentWithoutSwitchLinks() || s.silentWithoutSwitches() && switchIds.isEmpty()) && s.scope() == Source.Scope.FABRIC)
                silent.add(s.cmd().path(null));
        problems.removeIf(p -> p.kind() == InputProblem.Kind.EMPTY && silent.contains(p.file()));
    }

    /**
     * iblinkinfo prints every switch of the fabric, as ibnetdiscover does: switches of the topology with no block in it
     * mean its output stops early (cut on a line boundary, which no line shows) or they did not answer when it ran.
     * One problem at its last line; their links are then known from ibnetdiscover only.
     */
    private void switchesMissingFromIblinkinfo(FabricData fabric) {
        if (fabric.topology() == null || fabric.links() == null || fabric.links().isEmpty()) return;
        java.util.Set<Long> listed = new java.util.HashSet<>();
        int last = 0;
        for (io.ibaccept.model.LinkInfo li : fabric.links()) {
            if (li.switchNode()) listed.add(li.nodeGuid());
            if (li.ref() != null) last = Math.max(last, li.ref().line());
        }
        if (listed.isEmpty()) return; // not the switch listing (a CA-only or single-port query attached by hand)
        List<String> missing = new ArrayList<>();
        int switches = 0;
        for (io.ibaccept.model.Topology.Node n : fabric.topology().nodes()) {
            if (n.type() != io.ibaccept.model.Topology.NodeType.SWITCH) continue;
            switches++;
            if (!listed.contains(n.guid())) missing.add(n.description().isEmpty() ? n.id() : n.description());
        }
        if (missing.isEmpty()) return;
        problem(InputProblem.Kind.PARSE_ERROR, null, Cmd.IBLINKINFO.fileName(), Cmd.IBLINKINFO.path(null), Math.max(1, last),
                "lists " + (switches - missing.size()) + " of the " + switches + " switches ibnetdiscover found (missing: "
                        + String.join(", ", missing.subList(0, Math.min(5, missing.size()))) + (missing.size() > 5 ? ", ..." : "")
                        + "): its output stops early (cut) or they did not answer when it ran; their links are known from ibnetdiscover only");
    }

    private Manifest manifest() {
        Text t = read(Manifest.FILE, null, "manifest");
        Manifest m = null;
        if (t != null) {
            try {
                m = Manifest.parse(t);
            } catch (ParseException e) {
                problem(InputProblem.Kind.PARSE_ERROR, null, "manifest", e.where().file(), e.where().line(), e.reason());
            }
        }
        boolean read = m != null; // a manifest that could not be read is already a problem of its own
        if (m == null) m = new Manifest(Manifest.FORMAT, java.util.Objects.toString(root.getFileName(), label), "", "", "", List.of(), Map.of());
        int nodesLine = t == null ? 0 : Manifest.lineOf(t, "nodes");
        List<String> nodes = usableNodes(m.nodes(), Manifest.FILE, nodesLine);
        if (m.nodes().isEmpty()) {
            nodes = usableNodes(files.dirs("nodes"), "nodes", 0);
            // the nodes meant to be collected are what a missing node is missing from: without them nothing says the
            // directories found are the cluster, and a node never collected cannot be told
            if (read && !nodes.isEmpty())
                problem(InputProblem.Kind.MISSING, null, "manifest", Manifest.FILE, nodesLine, "its 'nodes:' line is empty or missing: the nodes"
                        + " meant to be collected are not declared, so a node that was not collected cannot be told (the " + nodes.size()
                        + " directories under nodes/ are read)");
        }
        if (nodes.isEmpty() && !files.exists("perftest"))
            throw new DumpNotFound(label + ": no nodes in this dump (the manifest lists none"
                    + (t == null ? ", it is missing" : ": its 'nodes:' line is empty or missing")
                    + ", and there is no usable nodes/ directory): nothing to analyse");
        if (Manifest.PARTIAL.equals(m.state()))
            problem(InputProblem.Kind.COMMAND_FAILED, null, "manifest", Manifest.FILE, t == null ? 0 : Manifest.lineOf(t, "state"),
                    "the collection that wrote this dump did not finish (state: partial; interrupted or killed):"
                            + " outputs may be missing or cut, collect again");
        else if (!Manifest.COMPLETE.equals(m.state()))
            problem(InputProblem.Kind.PARSE_ERROR, null, "manifest", Manifest.FILE, t == null ? 0 : Manifest.lineOf(t, "state"),
                    "unknown state '" + m.state() + "' (expected complete or partial): the dump may be incomplete");
        List<String> smNodes = m.smNodes().isEmpty() ? List.of() : usableNodes(m.smNodes(), Manifest.FILE, Manifest.lineOf(t, "sm_nodes"));
        return m.withNodes(nodes).withSmNodes(smNodes);
    }

    /**
     * Node names come from an untrusted dump and become directory names and words in fix commands: names that are not
     * host names (e.g. '../../etc', '-rf', 'a;b') and repeated names are problems, not reads.
     */
    private List<String> usableNodes(List<String> names, String file, int line) {
        java.util.LinkedHashSet<String> seen = new java.util.LinkedHashSet<>();
        for (String n : names) {
            if (!io.ibaccept.safety.Shell.isHost(n)) {
                problem(InputProblem.Kind.PARSE_ERROR, null, "manifest", file, line, "node name '" + printable(n)
                        + "' is not a host name (letters, digits, '-', '_', '.'): its files are not read");
            } else if (!seen.add(n)) {
                problem(InputProblem.Kind.PARSE_ERROR, null, "manifest", file, line, "node " + n
                        + " is listed more than once: the dump was edited or merged, check which outputs belong to it");
            }
        }
        return List.copyOf(seen);
    }

    /** A node name for a message: its first 80 characters (problem() escapes what is unsafe). */
    private static String printable(String s) {
        return s.length() > 80 ? s.substring(0, 80) : s;
    }

    private HostData host(String h) {
        return Sources.host(h, parseAll(h, Source.Scope.NODE));
    }

    /** Every source of the scope, parsed (host: null for the fabric-wide ones). */
    private Results parseAll(String host, Source.Scope scope) {
        Results r = new Results();
        for (Source<?> s : Sources.all())
            if (s.scope() == scope) {
                parseInto(r, host, s);
                // the fabric-wide outputs after the topology are read to the limits its size sets
                if (scope == Source.Scope.FABRIC && topology == null) topology = Sources.topology(r);
            }
        return r;
    }

    /** The fabric's topology once its source is parsed: the fabric-wide outputs' read limits follow from it. */
    private io.ibaccept.model.Topology topology;

    private <T> void parseInto(Results r, String host, Source<T> s) {
        r.put(s, parse(host, s));
    }

    // the files of each SM node, on the hosts where they were collected
    private Map<String, io.ibaccept.model.SmConfig> smConfigs(List<String> hosts) {
        Map<String, io.ibaccept.model.SmConfig> out = new TreeMap<>();
        // an SM node named with --sm-nodes need not be a collected node: its directory holds only the SM files
        java.util.Set<String> candidates = new java.util.LinkedHashSet<>(hosts);
        for (String d : listDirs("nodes")) if (present(Cmd.OPENSM_PROCESS.path(d)) || present(Cmd.OPENSM_CONF.path(d))) candidates.add(d);
        for (String h : candidates) {
            io.ibaccept.model.SmConfig sm = Sources.smConfig(h, parseAll(h, Source.Scope.SM_NODE));
            if (sm != null) out.put(h, sm);
        }
        return out;
    }

    private List<PerftestRun> perftests() {
        List<PerftestRun> runs = new ArrayList<>();
        Source<Perftest> src = Sources.PERFTEST;
        Path dir = root.resolve(src.fileName());
        if (!Files.isDirectory(dir)) return runs;
        List<String> names;
        try (Stream<Path> s = Files.list(dir)) {
            names = s.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            return runs;
        }
        java.util.Set<String> present = new java.util.HashSet<>(names);
        for (String meta : names) {
            if (!meta.endsWith(".client.meta")) continue;
            String id = meta.substring(0, meta.length() - ".client.meta".length());
            String rel = src.fileName() + "/" + id + ".client.meta";
            Text mt = read(rel, null, src.fileName());
            if (mt == null) continue;
            Map<String, String> kv;
            try {
                kv = KeyValues.parse(mt);
            } catch (ParseException e) {
                problem(InputProblem.Kind.PARSE_ERROR, null, src.fileName(), rel, e.where().line(), e.reason());
                continue;
            }
            String client = kv.getOrDefault("host", "");
            String server = kv.getOrDefault("peer", "");
            String test = kv.getOrDefault("name", id);
            var c = parseFile(client, src, src.path(id + ".client"), src.parser());
            // the server side is secondary (the client reports the result): absent altogether is fine; a banner-only
            // server is normal for latency tests (PerftestParser knows which)
            boolean serverCollected = present.contains(id + ".server.out") || present.contains(id + ".server.meta");
            var sv = serverCollected ? parseFile(server, src, src.path(id + ".server"), Sources.PERFTEST_SERVER) : null;
            runs.add(new PerftestRun(id, test, client, server, c, sv, src.path(id + ".client")));
        }
        return runs;
    }

    private <T> T parse(String host, Source<T> source) {
        String rel = source.path(host);
        if (source.optional() && !presentOutput(rel) && !present(rel.substring(0, rel.length() - 4) + ".meta")) return null; // not requested
        return parseFile(host, source, rel, source.parser());
    }

    /**
     * Reads meta + out and parses. A failed command (non-zero exit) is recorded as its own problem, and whatever it
     * printed is still parsed (an ibstat that exits 255 after eight good CAs keeps them). Each unreadable record is
     * its own problem with file:line; null only when nothing in the file was usable.
     */
    private <T> T parseFile(String host, Source<?> source, String rel, Parser<T> parser) {
        String name = source.fileName();
        String base = rel.substring(0, rel.length() - 4);
        boolean failed = false;
        boolean ran = false;
        if (present(base + ".meta")) {
            Text mt = read(base + ".meta", host, name);
            if (mt != null) {
                try {
                    Map<String, String> kv = KeyValues.parse(mt);
                    java.time.Instant started = instant(kv.get("started"));
                    boolean byCollect = source.collectedBy() == Source.CollectedBy.COLLECT || source.collectedBy() == Source.CollectedBy.COUNTER_WINDOW;
                    if (byCollect && started != null && collectedSince != null && started.isBefore(collectedSince)) {
                        // collect writes the manifest before its first command: an output older than it was left in the
                        // directory by an earlier collection, and this one did not collect it again
                        problem(InputProblem.Kind.MISSING, host, name, rel, 0, "left from an earlier collection (started "
                                + kv.get("started") + ", before this dump's collection began at " + collectedSince + "): not read");
                        return null;
                    }
                    String status = kv.getOrDefault("status", CommandResult.OK);
                    ran = CommandResult.OK.equals(status);
                    int exit = parseInt(kv.get("exit"));
                    String stderr = present(base + ".err") ? readQuiet(base + ".err") : "";
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
                        boolean unjudged = kind == InputProblem.Kind.COMMAND_FAILED && source.oneValue();
                        problem(kind, host, name, rel, 0, "'" + cr.commandLine() + "' " + describe(cr)
                                + (why.isEmpty() ? "" : ": " + why) + (unjudged ? "; what it printed is not judged" : ""));
                        if (unjudged) return null; // one value from a failed run proves nothing (Source.oneValue)
                        // a tool that exited non-zero ran to its end: keep what it printed (ibstat exits 255 after
                        // listing the CAs it could read). A timed-out one was killed mid-output: a cut topology or
                        // counter list would read as missing nodes, so it is not used.
                        if (kind != InputProblem.Kind.COMMAND_FAILED) return null;
                        failed = true;
                    }
                } catch (ParseException e) {
                    problem(InputProblem.Kind.PARSE_ERROR, host, name, e.where().file(), e.where().line(), e.reason());
                }
            }
        }
        if (failed && !presentOutput(rel)) return null;
        if (ran && !presentOutput(rel)) {
            // collect writes the output before its .meta: a meta of a run that went fine without it is a damaged dump
            problem(InputProblem.Kind.PARSE_ERROR, host, name, rel, 0, "its " + base.substring(base.lastIndexOf('/') + 1)
                    + ".meta says the command ran (status ok) but the output file is missing: the dump was edited, cut or merged");
            return null;
        }
        if (present(rel) && present(rel + DumpFiles.GZ)) {
            // collect writes one form and removes the other: two are an edited or merged dump, and either may be stale
            problem(InputProblem.Kind.PARSE_ERROR, host, name, rel, 0, "both " + rel + " and " + rel + DumpFiles.GZ
                    + " are in the dump (one is left from another collection): neither is read");
            return null;
        }
        Text t = open(rel, host, source, false);
        if (t == null) return null;
        if (t.isStreamed()) return parseStreamed(host, source, rel, parser, t, failed);
        if (t.content().isBlank()) {
            if (!failed) problem(InputProblem.Kind.EMPTY, host, name, rel, 0, "'" + name + "' printed nothing" + emptyHint(source));
            return null;
        }
        // infiniband-diags' ibexit() prints "<tool>: iberror: failed: <why>" on stdout before exiting non-zero: the
        // failure (already its own problem), not a record
        if (failed && onlyIberror(t.content())) return null;
        return issues(host, name, Parsing.run(t, parser));
    }

    private <T> T issues(String host, String name, Parsed<T> r) {
        for (ParseException e : r.issues())
            problem(InputProblem.Kind.PARSE_ERROR, host, name, e.where().file(), e.where().line(), e.reason());
        return r.value();
    }

    /**
     * A large file, parsed as it is read (the same checks as a file read whole, made as the lines go by): a file that
     * turns out binary or unreadable is one problem and nothing of it is kept; one that is not UTF-8 is read again as
     * ISO-8859-1, as a file read whole is decoded.
     */
    private <T> T parseStreamed(String host, Source<?> source, String rel, Parser<T> parser, Text t, boolean failed) {
        String name = source.fileName();
        Parsed<T> r;
        try {
            r = Parsing.run(t, parser);
        } catch (Text.Unreadable u) {
            IOException io = u.io();
            if (io instanceof java.nio.charset.CharacterCodingException && !(io instanceof io.ibaccept.parse.Text.BinaryContent)) {
                Text latin = open(rel, host, source, true);
                return latin == null ? null : parseStreamed(host, source, rel, parser, latin, failed);
            }
            String why = io instanceof io.ibaccept.parse.Text.BinaryContent || io.getMessage() != null && io.getMessage().startsWith("file ")
                    ? io.getMessage() : "cannot read: " + IoMessages.why(io);
            problem(InputProblem.Kind.PARSE_ERROR, host, name, rel, 0, why);
            return null;
        }
        if (t.streamedBlank()) {
            if (!failed) problem(InputProblem.Kind.EMPTY, host, name, rel, 0, "'" + name + "' printed nothing" + emptyHint(source));
            return null;
        }
        if (failed && t.streamedOnlyIberror()) return null;
        return issues(host, name, r);
    }

    private static boolean onlyIberror(String content) {
        for (String line : content.split("\n", -1))
            if (!line.isBlank() && !line.contains(": iberror: ") && !line.startsWith("ibpanic: [")) return false;
        return true;
    }

    /** File names per directory, each directory listed once (no stat and no exception per absent file). */
    private final Map<String, java.util.Set<String>> listings = new ConcurrentHashMap<>();

    /** Whether a command's output is in the dump, as written or compressed (NAME.out.gz). */
    private boolean presentOutput(String rel) {
        return present(rel) || present(rel + DumpFiles.GZ);
    }

    /** Whether a file of the dump exists, by its directory's listing; names that leave the dump are never present. */
    private boolean present(String rel) {
        int slash = rel.lastIndexOf('/');
        String dir = slash < 0 ? "" : rel.substring(0, slash);
        String name = rel.substring(slash + 1);
        java.util.Set<String> names = listings.computeIfAbsent(dir, d -> {
            Path p = absoluteRoot.resolve(d).normalize();
            if (!p.startsWith(absoluteRoot) || !Files.isDirectory(p)) return java.util.Set.of();
            try (Stream<Path> s = Files.list(p)) {
                return s.map(x -> x.getFileName().toString()).collect(java.util.stream.Collectors.toUnmodifiableSet());
            } catch (IOException e) {
                return java.util.Set.of();
            }
        });
        return names.contains(name);
    }

    private static String emptyHint(Source<?> source) {
        return source.silentWithoutSm() ? " (no LIDs assigned: is a subnet manager running?)" : "";
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
        return reading(rel, host, name, () -> new Text(rel, files.text(rel)));
    }

    /**
     * A command's output: in memory when small, streamed when large or compressed (latin1: streamed as ISO-8859-1), to
     * the read limit the fabric sets for it, if any.
     */
    private Text open(String rel, String host, Source<?> source, boolean latin1) {
        Source.ReadLimit limit = source.readLimit(topology);
        long bytes = limit == null ? 0 : limit.bytes();
        String why = limit == null ? null : limit.why();
        return reading(rel, host, source.fileName(), () -> latin1 ? files.latin1(rel, bytes, why) : files.open(rel, bytes, why));
    }

    private interface TextSource {
        Text get() throws IOException, DumpFiles.Refused;
    }

    /** The file's text, or null with the reason recorded as an input problem (missing, refused, unreadable). */
    private Text reading(String rel, String host, String name, TextSource source) {
        try {
            return source.get();
        } catch (DumpFiles.Refused r) {
            problem(r.missing ? InputProblem.Kind.MISSING : InputProblem.Kind.PARSE_ERROR, host, name, rel, 0, r.getMessage());
        } catch (NoSuchFileException e) {
            problem(InputProblem.Kind.MISSING, host, name, rel, 0, "file missing from the dump");
        } catch (IOException e) {
            problem(InputProblem.Kind.MISSING, host, name, rel, 0, "cannot read: " + io.ibaccept.safety.IoMessages.why(e));
        }
        return null;
    }

    /** A stderr capture: only its start is shown, so at most 64 KiB is read. */
    private String readQuiet(String rel) {
        return files.head(rel, 64 * 1024);
    }

    /** Sub-directories inside the dump whose names are host names (the others are reported by manifest()). */
    private List<String> listDirs(String rel) {
        return files.dirs(rel).stream().filter(io.ibaccept.safety.Shell::isHost).toList();
    }

    private void problem(InputProblem.Kind kind, String host, String command, String file, int line, String msg) {
        // quoted from the dump (stderr lines, file and node names): shown on consoles and in strict JSON
        problems.add(new InputProblem(kind, Printable.of(host), Printable.of(command), Printable.of(file), line, Printable.of(msg)));
    }

    /** An ISO-8601 instant as collect writes it, or null (empty, hand-written or another format: no judgement). */
    static java.time.Instant instant(String s) {
        if (s == null || s.isBlank()) return null;
        String t = s.trim();
        java.time.Instant fast = utcSeconds(t);
        if (fast != null) return fast;
        try {
            return java.time.Instant.parse(t);
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    /**
     * "2026-12-02T12:00:00Z", the form Instant.toString() gives collect's .meta files, read without java.time's
     * formatter (a few microseconds a call with C1, and there is one per command); null for any other form, which
     * Instant.parse then reads or refuses.
     */
    private static java.time.Instant utcSeconds(String t) {
        if (t.length() != 20 || t.charAt(4) != '-' || t.charAt(7) != '-' || t.charAt(10) != 'T' || t.charAt(13) != ':'
                || t.charAt(16) != ':' || t.charAt(19) != 'Z') return null;
        int year = Nums.digits(t, 0, 4), month = Nums.digits(t, 5, 7), day = Nums.digits(t, 8, 10);
        int hour = Nums.digits(t, 11, 13), minute = Nums.digits(t, 14, 16), second = Nums.digits(t, 17, 19);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > java.time.YearMonth.of(year, month).lengthOfMonth()
                || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return null;
        long days = java.time.LocalDate.of(year, month, day).toEpochDay();
        return java.time.Instant.ofEpochSecond(days * 86_400 + hour * 3_600L + minute * 60L + second);
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
