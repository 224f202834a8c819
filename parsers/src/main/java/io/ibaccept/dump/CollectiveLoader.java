package io.ibaccept.dump;

import io.ibaccept.model.Collective;
import io.ibaccept.model.CollectiveRun;
import io.ibaccept.parse.NcclTestsParser;
import io.ibaccept.parse.OsuParser;
import io.ibaccept.parse.ParseException;
import io.ibaccept.parse.Text;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the collective benchmark runs of a dump directory (collective/NAME.meta + .out + .err, written by
 * CollectiveRunner). Only regular files directly in collective/ whose names are benchmark names are read, each at
 * most MAX_BYTES; a bad file becomes the run's problem with file:line, never an exception.
 */
public final class CollectiveLoader {
    private CollectiveLoader() {}

    static final long MAX_BYTES = 16L << 20;
    private static final Pattern NAME = Pattern.compile("(osu_[a-z_]+|[a-z_]+_perf)");

    /** From a dump directory or a .zip dump (extracted with the loader's limits, then removed). */
    public static List<CollectiveRun> load(Path root) {
        if (Files.isRegularFile(root) && root.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".zip")) {
            ZipDump.Extracted z = ZipDump.extract(root, ZipDump.Limits.defaults(MAX_BYTES));
            try {
                return loadDir(z.root());
            } finally {
                z.delete();
            }
        }
        return loadDir(root);
    }

    /** From an unpacked dump directory (DumpLoader calls this for ClusterData.collectives). */
    static List<CollectiveRun> loadDir(Path root) {
        Path dir = root.resolve("collective");
        List<CollectiveRun> out = new ArrayList<>();
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) return out;
        List<String> metas;
        try (Stream<Path> s = Files.list(dir)) {
            metas = s.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".meta")).sorted().toList();
        } catch (IOException e) {
            return out;
        }
        for (String m : metas) {
            String name = m.substring(0, m.length() - ".meta".length());
            if (!NAME.matcher(name).matches()) continue;
            out.add(run(dir, name));
        }
        return out;
    }

    private static CollectiveRun run(Path dir, String name) {
        String rel = "collective/" + name;
        Map<String, String> kv;
        try {
            kv = KeyValues.parse(new Text(rel + ".meta", read(dir.resolve(name + ".meta"))));
        } catch (ParseException e) {
            return bad(name, Map.of(), e.reason(), e.where().toString());
        } catch (IOException e) {
            return bad(name, Map.of(), "cannot read: " + io.ibaccept.safety.IoMessages.why(e), rel + ".meta");
        }
        String status = kv.getOrDefault("status", CommandResult.OK);
        String stderr = "";
        try {
            Path err = dir.resolve(name + ".err");
            if (Files.isRegularFile(err, LinkOption.NOFOLLOW_LINKS)) stderr = read(err);
        } catch (IOException ignored) {
            // stderr is only context
        }
        if (!CommandResult.OK.equals(status))
            return new CollectiveRun(name, kv.getOrDefault("host", ""), kv.getOrDefault("launcher", ""), num(kv.get("ranks")),
                    num(kv.get("ppn")), nodes(kv), kv.getOrDefault("command", name), status, stderr, null,
                    status + (stderr.isBlank() ? "" : ": " + stderr.strip().lines().findFirst().orElse("")), rel + ".meta");
        Collective c = null;
        String problem = null, where = null;
        try {
            Text t = new Text(rel + ".out", read(dir.resolve(name + ".out")));
            c = name.startsWith("osu_") ? OsuParser.parse(t) : NcclTestsParser.withTool(NcclTestsParser.parse(t), name);
        } catch (ParseException e) {
            problem = e.reason();
            where = e.where().toString();
        } catch (IOException e) {
            problem = "cannot read: " + io.ibaccept.safety.IoMessages.why(e);
            where = rel + ".out";
        }
        int ranks = num(kv.get("ranks"));
        if (ranks <= 0 && c != null) ranks = c.ranks();
        return new CollectiveRun(name, kv.getOrDefault("host", ""), kv.getOrDefault("launcher", ""), ranks, num(kv.get("ppn")),
                nodes(kv), kv.getOrDefault("command", name), status, stderr, c, problem, where);
    }

    private static CollectiveRun bad(String name, Map<String, String> kv, String problem, String where) {
        return new CollectiveRun(name, "", "", -1, -1, List.of(), name, CommandResult.FAILED, "", null, problem, where);
    }

    private static List<String> nodes(Map<String, String> kv) {
        String n = kv.getOrDefault("nodes", "").trim();
        return n.isEmpty() ? List.of() : Arrays.stream(n.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static int num(String s) {
        try {
            return s == null ? -1 : Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String read(Path p) throws IOException {
        if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) throw new IOException("missing or not a regular file");
        if (Files.size(p) > MAX_BYTES) throw new IOException("larger than " + (MAX_BYTES >> 20) + " MiB");
        return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
    }
}
