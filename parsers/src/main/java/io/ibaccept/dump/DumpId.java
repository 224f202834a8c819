package io.ibaccept.dump;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The dump id: "sha256:HEX", SHA-256 of the lines "sha256(file)  relative/path\n" for every regular file of the dump
 * directory, sorted by path (symbolic links are not followed). Recompute with
 * {@code (cd DUMP && find . -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 sha256sum) | sha256sum}.
 * Computed by the loader from the digests it took while reading each file (one read per file); only the files it did
 * not read whole (stderr captures above 64 KiB, files it refused, files it does not know) are read here. A file
 * above the read limit is not read for the id either (a 16 GiB sparse file would take a minute): its line is
 * "size:BYTES  relative/path" instead, so only then does the id differ from the sha256sum above. A text starting
 * with "unavailable" says why there is no id.
 */
public final class DumpId {
    private DumpId() {}

    /**
     * The id of a model the loader did not hash (built by hand or in a test): every file of its source directory is
     * read here. source: the dump's location as the model records it, or null.
     */
    public static String ofSource(String source) {
        if (source == null || source.isBlank()) return "unavailable: the dump's location is not known";
        Path root;
        try {
            root = Path.of(source);
        } catch (java.nio.file.InvalidPathException e) {
            return "unavailable: '" + source + "' is not a usable path";
        }
        return of(root, Map.of(), DumpFiles.maxBytesFromProperty());
    }

    /** digests: SHA-256 of files already read, by path relative to root ('/' separated, no symlink on the way). */
    static String of(Path root, Map<String, byte[]> digests, long maxBytes) {
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) return "unavailable: " + root + " is not a directory";
        try {
            List<Entry> files = new ArrayList<>(digests.size() + 16);
            List<Entry> unread = new ArrayList<>();
            list(root, "", digests, files, unread, maxBytes);
            files.sort(null);
            HexFormat hexf = HexFormat.of();
            unread.parallelStream().forEach(e -> e.digest = sha256(e.path, e.size));
            // the lines are hashed in blocks, not one update per file
            MessageDigest all = Sha256.forSize(files.size() * 100L); // a line is a hash, two blanks and a path
            java.io.ByteArrayOutputStream block = new java.io.ByteArrayOutputStream(1 << 16);
            byte[] hex = new byte[64];
            for (Entry e : files) {
                byte[] d = e.digest;
                String name = e.name;
                if (d == null) {
                    block.writeBytes(("size:" + e.size).getBytes(StandardCharsets.US_ASCII));
                } else {
                    for (int i = 0; i < 32; i++) {
                        hex[2 * i] = HEX[(d[i] >> 4) & 0xf];
                        hex[2 * i + 1] = HEX[d[i] & 0xf];
                    }
                    block.write(hex, 0, 64);
                }
                block.write(' ');
                block.write(' ');
                block.writeBytes(name.getBytes(StandardCharsets.UTF_8));
                block.write('\n');
                if (block.size() >= 1 << 16) {
                    all.update(block.toByteArray());
                    block.reset();
                }
            }
            all.update(block.toByteArray());
            return "sha256:" + hexf.formatHex(all.digest());
        } catch (IOException | UncheckedIOException e) {
            return "unavailable: the dump could not be read completely (" + io.ibaccept.safety.IoMessages.why(e) + ")";
        }
    }

    /**
     * The regular files under dir, by name relative to the root, each with its digest when the loader took one (one
     * lookup per file). A name the loader hashed is a regular file at its real path, so it costs no system call; any
     * other entry is looked at without following links (a symlink is neither a file of the dump nor a directory to
     * enter, as for find -type f). unread: the files to hash here; those above maxBytes keep a null digest.
     */
    private static void list(Path dir, String prefix, Map<String, byte[]> digests, List<Entry> files, List<Entry> unread,
                             long maxBytes) throws IOException {
        try (java.nio.file.DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                String name = prefix + p.getFileName();
                byte[] d = digests.get(name);
                if (d != null) {
                    files.add(new Entry(name, null, -1, d));
                    continue;
                }
                java.nio.file.attribute.BasicFileAttributes a =
                        Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (a.isDirectory()) {
                    list(p, name + "/", digests, files, unread, maxBytes);
                } else if (a.isRegularFile()) {
                    Entry e = new Entry(name, p, a.size(), null);
                    files.add(e);
                    if (a.size() <= maxBytes) unread.add(e);
                }
            }
        }
    }

    /** A regular file of the dump: its digest, or its path and size while it is still to be hashed (or too large to). */
    private static final class Entry implements Comparable<Entry> {
        final String name;
        final Path path;
        final long size;
        byte[] digest; // set by the parallel hashing, read after it has joined

        Entry(String name, Path path, long size, byte[] digest) {
            this.name = name;
            this.path = path;
            this.size = size;
            this.digest = digest;
        }

        @Override
        public int compareTo(Entry o) {
            return name.compareTo(o.name);
        }
    }

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private static byte[] sha256(Path file, long size) {
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            MessageDigest one = Sha256.forSize(size);
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) one.update(buf, 0, n);
            return one.digest();
        } catch (IOException e) {
            throw new UncheckedIOException(file.getFileName() + ": " + io.ibaccept.safety.IoMessages.why(e), e);
        }
    }
}
