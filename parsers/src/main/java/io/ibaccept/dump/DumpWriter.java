package io.ibaccept.dump;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Writes a dump directory: manifest, and for each command its .out, .err (when non-empty) and .meta. */
public final class DumpWriter {
    private final Path root;

    public DumpWriter(Path root) {
        this.root = root;
        try {
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path root() {
        return root;
    }

    public void manifest(Manifest m) {
        write(Manifest.FILE, m.toText());
    }

    /** Records a command under the given relative stdout path (e.g. "nodes/n1/ibstat.out"). */
    public void command(String relOut, CommandResult r, String stdout) {
        command(relOut, r, stdout, Map.of());
    }

    /** As above, with extra meta keys after "host" (perftest records its "peer"). */
    public synchronized void command(String relOut, CommandResult r, String stdout, Map<String, String> extra) {
        write(relOut, stdout == null ? "" : stdout);
        if (r.stderr() != null && !r.stderr().isBlank()) write(base(relOut) + ".err", r.stderr());
        meta(relOut, r, extra);
    }

    /** Writes only the .meta of a command whose .out is already in place. */
    public void meta(String relOut, CommandResult r, Map<String, String> extra) {
        Map<String, String> kv = new LinkedHashMap<>();
        kv.put("name", r.name());
        kv.put("host", r.host());
        kv.putAll(extra);
        kv.put("command", r.commandLine());
        kv.put("status", r.status());
        kv.put("exit", String.valueOf(r.exitCode()));
        kv.put("duration_ms", String.valueOf(r.durationMs()));
        kv.put("started", r.started());
        write(base(relOut) + ".meta", KeyValues.format(kv));
    }

    private static String base(String relOut) {
        return relOut.substring(0, relOut.length() - ".out".length());
    }

    public void command(Cmd cmd, String host, CommandResult r, String stdout) {
        command(cmd.path(host), r, stdout);
    }

    public void write(String rel, String content) {
        Path p = root.resolve(rel);
        try {
            Files.createDirectories(p.getParent());
            Files.writeString(p, content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
