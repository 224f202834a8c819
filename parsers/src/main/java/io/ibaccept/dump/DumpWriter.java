package io.ibaccept.dump;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import io.ibaccept.safety.OutputFiles;
import io.ibaccept.safety.SafePath;

/** Writes a dump directory: manifest, and for each command its .out, .err (when non-empty) and .meta. */
public final class DumpWriter {
    private final Path root;

    public DumpWriter(Path root) {
        this.root = root;
        try {
            OutputFiles.directory(root, "");
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
        removeStale(relOut + DumpFiles.GZ);
        write(relOut, stdout == null ? "" : stdout);
        if (r.stderr() != null && !r.stderr().isBlank()) write(base(relOut) + ".err", r.stderr());
        meta(relOut, r, extra);
    }

    /**
     * Writes a command's stdout as it arrives into relOut.gz, its compressed form ({@link
     * io.ibaccept.dump.sources.Source#storedCompressed}), replacing what is there; {@link #commandStored} records it.
     */
    public void stream(String relOut, java.io.InputStream stdout) throws IOException {
        String rel = relOut + DumpFiles.GZ;
        SafePath.resolve(root, rel);
        OutputFiles.write(root, rel, out -> stdout.transferTo(out));
    }

    /** Records a command whose stdout {@link #stream} wrote: its .err and .meta, and no stale uncompressed output. */
    public synchronized void commandStored(String relOut, CommandResult r) {
        removeStale(relOut);
        if (r.stderr() != null && !r.stderr().isBlank()) write(base(relOut) + ".err", r.stderr());
        meta(relOut, r, Map.of());
    }

    /** The other form of an output written again (NAME.out against NAME.out.gz): left, it would be read instead. */
    private void removeStale(String rel) {
        try {
            Files.deleteIfExists(SafePath.resolve(root, rel));
        } catch (IOException e) {
            throw new UncheckedIOException(root.resolve(rel) + ": " + io.ibaccept.safety.IoMessages.why(e), e);
        }
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

    /**
     * Marks the dump partial or complete for a run that adds to it (rdma): the state line of an existing manifest is
     * replaced, other lines are kept as they are; without a manifest, ifAbsent is written with the state.
     */
    public synchronized void state(String state, Manifest ifAbsent) {
        try {
            String text = readManifest(root);
            if (text == null) { // none, or a planted link: replaced, its target neither read nor written
                manifest(ifAbsent.withState(state));
                return;
            }
            StringBuilder sb = new StringBuilder();
            boolean replaced = false;
            for (String line : text.split("\n")) {
                if (line.trim().startsWith("state:")) {
                    if (!replaced) sb.append("state: ").append(state).append('\n');
                    replaced = true;
                } else sb.append(line).append('\n');
            }
            if (!replaced) sb.append("state: ").append(state).append('\n');
            write(Manifest.FILE, sb.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The text of the dump's manifest, or null when there is none or it is a link (whose target is not read). A manifest
     * of many thousand nodes is read whole, never cut; one above 64 MiB is not this tool's.
     */
    public static String readManifest(Path root) throws IOException {
        Path m = root.resolve(Manifest.FILE);
        if (!OutputFiles.isPlainFile(m)) return null;
        try (java.io.InputStream in = Files.newInputStream(m, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            byte[] b = in.readNBytes((64 << 20) + 1);
            if (b.length > 64 << 20) throw new IOException(m + " is larger than 64 MiB: not a manifest of this tool");
            return new String(b, StandardCharsets.UTF_8);
        }
    }

    /**
     * rel comes from host and test names: it must stay inside the dump ({@link SafePath}), whatever they contain, and
     * a link planted in the dump is never written through ({@link OutputFiles}).
     */
    public void write(String rel, String content) {
        SafePath.resolve(root, rel);
        try {
            byte[] bytes = RawText.encode(content); // what the tool printed, byte for byte
            OutputFiles.write(root, rel, out -> out.write(bytes));
        } catch (IOException e) {
            throw new UncheckedIOException(e instanceof OutputFiles.Refused ? e.getMessage()
                    : root.resolve(rel) + ": " + io.ibaccept.safety.IoMessages.why(e), e);
        }
    }
}
