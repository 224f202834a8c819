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
import java.util.TreeMap;

/**
 * The dump id: "sha256:HEX", SHA-256 of the lines "sha256(file)  relative/path\n" for every regular file of the dump
 * directory, sorted by path (symbolic links are not followed). Recompute with
 * {@code (cd DUMP && find . -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 sha256sum) | sha256sum}.
 * Computed by the loader from the digests it took while reading each file (one read per file); only the files it did
 * not read whole (stderr captures above 64 KiB, files it refused, files it does not know) are read here. A text
 * starting with "unavailable" says why there is no id.
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
        return of(root, Map.of());
    }

    /** digests: SHA-256 of files already read, by path relative to root ('/' separated, no symlink on the way). */
    static String of(Path root, Map<String, byte[]> digests) {
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) return "unavailable: " + root + " is not a directory";
        try {
            TreeMap<String, Path> sorted = new TreeMap<>();
            // one directory walk with the attributes it already has (no extra stat per file); links are not followed
            java.util.ArrayDeque<String> prefixes = new java.util.ArrayDeque<>();
            Files.walkFileTree(root, new java.nio.file.SimpleFileVisitor<>() {
                @Override
                public java.nio.file.FileVisitResult preVisitDirectory(Path d, java.nio.file.attribute.BasicFileAttributes a) {
                    prefixes.push(prefixes.isEmpty() ? "" : prefixes.peek() + d.getFileName() + "/");
                    return java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    if (e != null) throw e;
                    prefixes.pop();
                    return java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult visitFile(Path p, java.nio.file.attribute.BasicFileAttributes a) {
                    if (a.isRegularFile()) sorted.put(prefixes.peek() + p.getFileName(), p);
                    return java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult visitFileFailed(Path p, IOException e) throws IOException {
                    throw e;
                }
            });
            List<Map.Entry<String, Path>> entries = new ArrayList<>(sorted.entrySet());
            HexFormat hexf = HexFormat.of();
            String[] hex = new String[entries.size()];
            java.util.stream.IntStream.range(0, hex.length).parallel().forEach(i -> {
                byte[] d = digests.get(entries.get(i).getKey());
                hex[i] = hexf.formatHex(d != null ? d : sha256(entries.get(i).getValue()));
            });
            MessageDigest all = DumpFiles.sha256();
            for (int i = 0; i < hex.length; i++)
                all.update((hex[i] + "  " + entries.get(i).getKey() + "\n").getBytes(StandardCharsets.UTF_8));
            return "sha256:" + hexf.formatHex(all.digest());
        } catch (IOException | UncheckedIOException e) {
            return "unavailable: the dump could not be read completely (" + e.getMessage() + ")";
        }
    }

    private static byte[] sha256(Path file) {
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            MessageDigest one = DumpFiles.sha256();
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) one.update(buf, 0, n);
            return one.digest();
        } catch (IOException e) {
            throw new UncheckedIOException(file.getFileName() + ": " + e.getMessage(), e);
        }
    }
}
