package io.ibaccept.dump;

import io.ibaccept.safety.SafePath;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * A zipped dump (as attached to a ticket), extracted safely into a private temporary directory: entries with absolute
 * names, '..' or control characters are skipped and reported; nothing is written outside the directory; symlink
 * entries cannot become links (java.util.zip writes their target text as a plain file); the number of entries and the
 * bytes actually inflated (not the sizes the archive claims) are capped, per entry and in total.
 */
final class ZipDump {
    private ZipDump() {}

    /** maxEntryBytes: larger entries are withheld (an input problem when read); total/entries: beyond them, unusable. */
    record Limits(long maxEntryBytes, long maxTotalBytes, int maxEntries) {
        static final String TOTAL_PROPERTY = "ibaccept.max-zip-mib";

        static Limits defaults(long maxEntryBytes) {
            long total = Long.getLong(TOTAL_PROPERTY, 4096) << 20;
            return new Limits(maxEntryBytes, total, 500_000);
        }

        /**
         * The total bound for this zip: the configured one, but never more than half the free space where it is
         * extracted, nor more than 200 x the archive plus 64 MiB unless configured (tool output compresses about
         * 10-30 x; a zip bomb inflates a thousand times), so a bomb stops long before the disk is full.
         */
        long totalFor(long zipBytes, long freeBytes, boolean configured) {
            long bound = maxTotalBytes;
            if (!configured) bound = Math.min(bound, Math.max(zipBytes, 0) * 200 + (64L << 20));
            if (freeBytes > 0) bound = Math.min(bound, freeBytes / 2);
            return bound;
        }
    }

    /** root: the dump root (the zip's single top directory if it has one); withheld: entry -> why it was not extracted. */
    record Extracted(Path tempDir, Path root, Map<String, String> withheld, Map<String, String> skipped) {
        void delete() {
            deleteTree(tempDir);
        }
    }

    static Extracted extract(Path zip, Limits limits) {
        Path tmp;
        try {
            tmp = Files.createTempDirectory("ibaccept-zip-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory to extract " + zip + ": " + io.ibaccept.safety.IoMessages.why(e), e);
        }
        Map<String, String> withheld = new LinkedHashMap<>();
        Map<String, String> skipped = new LinkedHashMap<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        long maxTotal;
        boolean configured = System.getProperty(Limits.TOTAL_PROPERTY) != null;
        try {
            maxTotal = limits.totalFor(Files.size(zip), Files.getFileStore(tmp).getUsableSpace(), configured);
        } catch (IOException e) {
            maxTotal = limits.maxTotalBytes();
        }
        long total = 0;
        int count = 0;
        byte[] buf = new byte[64 * 1024];
        try (ZipFile zf = new ZipFile(zip.toFile())) {
            Enumeration<? extends ZipEntry> en = zf.entries();
            while (en.hasMoreElements()) {
                ZipEntry e = en.nextElement();
                if (++count > limits.maxEntries())
                    throw unusable(zip, "more than " + limits.maxEntries() + " entries (a dump of 8,000 nodes has about 120,000)");
                String name = e.getName();
                String rel = name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
                if (!SafePath.isSafeRelative(rel)) {
                    skipped.put(printable(name), "zip entry with an absolute name, '..' or control characters: not extracted");
                    continue;
                }
                Path target = SafePath.resolve(tmp, rel);
                if (!seen.add(rel) && !e.isDirectory()) {
                    // two entries of one name: which is the dump's is unknown, so neither is read (the second would
                    // silently replace the first, e.g. a healthy ulimit-l.out hiding a failing one)
                    Files.deleteIfExists(target);
                    withheld.put(rel, "the zip holds more than one entry named " + rel + ": none of them is read (the archive was edited or merged)");
                    continue;
                }
                if (e.isDirectory()) {
                    Files.createDirectories(target);
                    continue;
                }
                Files.createDirectories(target.getParent());
                long written = 0;
                boolean tooBig = false;
                try (InputStream in = zf.getInputStream(e); OutputStream out = Files.newOutputStream(target)) {
                    int n;
                    while ((n = in.read(buf)) > 0) {
                        written += n;
                        total += n;
                        if (total > maxTotal)
                            throw unusable(zip, "inflates to more than " + (maxTotal >> 20) + " MiB (the bound is the least of "
                                    + (configured ? "-D" + Limits.TOTAL_PROPERTY + "=N" : "200 x the archive plus 64 MiB")
                                    + " and half the free space of " + tmp.getParent() + (configured ? ")"
                                    : "; raise it with -D" + Limits.TOTAL_PROPERTY + "=N if this is a real dump and there is room)"));
                        if (written > limits.maxEntryBytes()) {
                            tooBig = true;
                            break;
                        }
                        out.write(buf, 0, n);
                    }
                }
                if (tooBig) {
                    Files.delete(target);
                    total -= written;
                    withheld.put(rel, "zip entry inflates to more than the read limit of " + (limits.maxEntryBytes() >> 20)
                            + " MiB: not read (raise it with -D" + DumpFiles.MAX_MIB_PROPERTY + "=N)");
                }
            }
        } catch (ZipException e) {
            deleteTree(tmp);
            throw unusable(zip, "not a readable zip archive (" + e.getMessage() + ")");
        } catch (IOException e) {
            deleteTree(tmp);
            throw unusable(zip, "cannot extract: " + io.ibaccept.safety.IoMessages.why(e));
        } catch (RuntimeException e) {
            deleteTree(tmp);
            throw e;
        }
        Path root = dumpRoot(tmp);
        // the loader names files from the dump root: under a single top directory, without its name
        String prefix = root.equals(tmp) ? "" : tmp.relativize(root) + "/";
        Map<String, String> byDumpPath = new LinkedHashMap<>();
        withheld.forEach((k, v) -> byDumpPath.put(k.startsWith(prefix) ? k.substring(prefix.length()) : k, v));
        return new Extracted(tmp, root, byDumpPath, skipped);
    }

    /** "zip -r dump.zip dump/" puts everything under one directory: that directory is the dump. */
    private static Path dumpRoot(Path tmp) {
        if (Files.exists(tmp.resolve(Manifest.FILE))) return tmp;
        try (Stream<Path> s = Files.list(tmp)) {
            List<Path> all = s.toList();
            if (all.size() == 1 && Files.isDirectory(all.get(0))) return all.get(0);
        } catch (IOException ignored) {
            // the loader reports what it cannot read
        }
        return tmp;
    }

    private static DumpLoader.DumpNotFound unusable(Path zip, String why) {
        return new DumpLoader.DumpNotFound(zip + ": " + why);
    }

    private static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        s.codePoints().limit(200).forEach(c -> sb.appendCodePoint(c < 0x20 || c == 0x7f ? '?' : c));
        return sb.toString();
    }

    static void deleteTree(Path dir) {
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
                    Files.delete(f);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.delete(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException ignored) {
            // a temp directory left behind is not worth failing the analysis for
        }
    }
}
