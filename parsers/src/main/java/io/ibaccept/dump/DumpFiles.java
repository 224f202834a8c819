package io.ibaccept.dump;

import io.ibaccept.parse.Text;
import io.ibaccept.safety.SafePath;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Reading a dump, which is untrusted input: every path stays inside the dump root (no absolute paths, no '..', no
 * symlink whose target leaves the root, checked on real paths), only regular files are read (a FIFO would block),
 * and no file larger than the read limit is loaded. Text is decoded once from the bytes (UTF-8, or ISO-8859-1 when
 * it is not valid UTF-8).
 *
 * <p>An output may be stored gzip-compressed, as NAME.out.gz beside where NAME.out would be (the forwarding tables of a
 * large fabric are collected so): it is read through the decompressor, streamed, and its read limit bounds what it
 * decompresses to, so a small file that inflates without end is refused like a large one.
 */
final class DumpFiles {
    /** System property with the per-file read limit in MiB (default {@value #DEFAULT_MAX_MIB}). */
    static final String MAX_MIB_PROPERTY = "ibaccept.max-file-mib";
    static final long DEFAULT_MAX_MIB = 64;

    /** Why a file was not read; message is for the engineer and names the problem, the loader adds the file. */
    static final class Refused extends Exception {
        final boolean missing;

        Refused(String message, boolean missing) {
            super(message, null, false, false);
            this.missing = missing;
        }
    }

    /** Files above this are streamed line by line instead of read whole (property ibaccept.stream-above-mib). */
    static final long DEFAULT_STREAM_ABOVE_BYTES = 8L << 20;
    /** Most characters a parser that needs a whole streamed file may hold (property ibaccept.max-whole-file-mib). */
    static final long DEFAULT_MAX_WHOLE_MIB = 64;

    private final Path root;
    private final Path realRoot;
    private final long maxBytes;
    private final long streamAbove;
    private final long maxWholeChars;
    /** Entries of a zip dump that were not extracted because they are too large: name -> reason. */
    private final Map<String, String> withheld;
    /** SHA-256 of each file read to its end, by its real path relative to the real root: the dump id needs no second read. */
    private final Map<String, byte[]> digests = new java.util.concurrent.ConcurrentHashMap<>();

    DumpFiles(Path root, long maxBytes, Map<String, String> withheld) {
        this(root, maxBytes, withheld, mibProperty("ibaccept.stream-above-mib", DEFAULT_STREAM_ABOVE_BYTES >> 20),
                mibProperty("ibaccept.max-whole-file-mib", DEFAULT_MAX_WHOLE_MIB));
    }

    DumpFiles(Path root, long maxBytes, Map<String, String> withheld, long streamAbove, long maxWholeChars) {
        this.root = root.toAbsolutePath().normalize();
        Path real;
        try {
            real = this.root.toRealPath();
        } catch (IOException e) {
            real = this.root;
        }
        this.realRoot = real;
        this.maxBytes = maxBytes;
        this.withheld = withheld;
        this.streamAbove = streamAbove;
        this.maxWholeChars = maxWholeChars;
    }

    private static long mibProperty(String name, long dflt) {
        Long v = Long.getLong(name);
        return (v == null || v <= 0 || v >= (1L << 43) ? dflt : v) << 20;
    }

    /** Digests of the files read whole, by real path relative to the real root. */
    Map<String, byte[]> digests() {
        return digests;
    }

    private void digest(Path real, byte[] bytes, int length) {
        MessageDigest md = SHA256.get();
        md.update(bytes, 0, length);
        digests.put(key(real), md.digest());
    }

    /** Relative names of the real directories, each made once. */
    private final Map<Path, String> dirKeys = new java.util.concurrent.ConcurrentHashMap<>();

    private String key(Path real) {
        Path dir = real.getParent();
        String prefix = dir == null ? "" : dirKeys.computeIfAbsent(dir, d -> {
            String k = realRoot.relativize(d).toString().replace('\\', '/');
            return k.isEmpty() ? "" : k + "/";
        });
        return prefix + real.getFileName();
    }

    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(Sha256::jdk);

    static long maxBytesFromProperty() {
        String v = System.getProperty(MAX_MIB_PROPERTY);
        if (v == null || v.isBlank()) return DEFAULT_MAX_MIB << 20;
        try {
            long mib = Long.parseLong(v.trim());
            if (mib > 0 && mib < (1L << 43)) return mib << 20;
        } catch (NumberFormatException ignored) {
            // falls through to the message below
        }
        throw new IllegalArgumentException(MAX_MIB_PROPERTY + "=" + v + ": expected a positive number of MiB");
    }

    long maxBytes() {
        return maxBytes;
    }

    /** The suffix of an output stored gzip-compressed. */
    static final String GZ = ".gz";

    /** A regular file inside the dump: its checked real path, and its size when the check already read it (else -1). */
    private record Found(Path real, long size, boolean gzip) {
        Found(Path real, long size) {
            this(real, size, false);
        }
    }

    /** The file as stored: rel itself, else its compressed form rel.gz. */
    private Found stored(String rel) throws Refused {
        try {
            return find(rel);
        } catch (Refused r) {
            if (!r.missing) throw r;
            Found gz;
            try {
                gz = find(rel + GZ);
            } catch (Refused r2) {
                if (r2.missing) throw r;
                throw r2;
            }
            return new Found(gz.real(), gz.size(), true);
        }
    }

    /** The name the file is stored under: rel, or rel.gz when only its compressed form is in the dump. */
    String storedName(String rel) {
        try {
            return stored(rel).gzip() ? rel + GZ : rel;
        } catch (Refused r) {
            return rel;
        }
    }

    /** The checked real path of a regular file inside the dump. */
    Path file(String rel) throws Refused {
        return find(rel).real();
    }

    private Found find(String rel) throws Refused {
        if (!SafePath.isSafeRelative(rel)) throw new Refused("path leaves the dump (absolute, '..' or control characters): not read", false);
        String why = withheld.get(rel);
        if (why != null) throw new Refused(why, false);
        Path p = root.resolve(rel);
        boolean regular;
        long size;
        int names;
        try {
            // one stat: type, size and the number of names (a hard link may be another name of a file outside the dump)
            Map<String, Object> u = Files.readAttributes(p, "unix:isRegularFile,size,nlink", LinkOption.NOFOLLOW_LINKS);
            regular = (Boolean) u.get("isRegularFile");
            size = (Long) u.get("size");
            names = (Integer) u.get("nlink");
        } catch (IOException e) {
            // a parent may be a symlink that leaves the dump: that is not "missing"
            insideOrRefuse(p.getParent());
            throw new Refused("file missing from the dump", true);
        }
        if (regular && names > 1)
            throw new Refused("hard link (the file has " + names + " names; another may be outside the dump): not read"
                    + " (copy the dump with 'cp -r' or unzip it, not 'cp -l')", false);
        if (regular) {
            // not a link itself: its real path is its directory's (resolved once per directory) plus its name
            Path dir = realDir(p.getParent());
            if (dir == null) return new Found(insideOrRefuse(p), -1);
            if (!dir.startsWith(realRoot)) throw new Refused("symlink to a place outside the dump: not read", false);
            return new Found(dir.resolve(p.getFileName()), size); // the size read with the type: no second stat
        }
        if (!Files.exists(p)) throw new Refused("dangling symlink (its target does not exist): not read", false);
        Path real = insideOrRefuse(p);
        if (!Files.isRegularFile(real)) throw new Refused("not a regular file: not read", false);
        try {
            int targetNames = (Integer) Files.getAttribute(real, "unix:nlink");
            if (targetNames > 1) throw new Refused("symlink to a hard link (" + targetNames + " names; another may be outside the dump): not read", false);
        } catch (IOException e) {
            throw new Refused("cannot read: " + io.ibaccept.safety.IoMessages.why(e), false);
        }
        return new Found(real, -1);
    }

    /** Real paths of the dump's directories, each resolved once (a path component at a time costs a system call). */
    private final Map<Path, Path> realDirs = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Path NONE = Path.of("");

    private Path realDir(Path dir) {
        Path r = realDirs.computeIfAbsent(dir, d -> {
            try {
                return d.toRealPath();
            } catch (IOException e) {
                return NONE;
            }
        });
        return r == NONE ? null : r;
    }

    private Path insideOrRefuse(Path p) throws Refused {
        Path real;
        try {
            real = p.toRealPath();
        } catch (IOException e) {
            return p; // a missing parent directory: nothing to escape through
        }
        if (!real.startsWith(realRoot)) throw new Refused("symlink to a place outside the dump: not read", false);
        return real;
    }

    boolean exists(String rel) {
        try {
            stored(rel);
            return true;
        } catch (Refused r) {
            return !r.missing;
        }
    }

    /** The whole file as text; refused when above the read limit or binary (NUL bytes). */
    String text(String rel) throws Refused, IOException {
        Found f = find(rel);
        return whole(f.real(), sizeWithinLimit(f));
    }

    /**
     * The file as a Text: read whole when small, else {@linkplain Text#streamed streamed} line by line (decoded as
     * UTF-8; {@link #latin1} when that fails), so a large file is never held whole. Reading a streamed file
     * can fail later, as {@link Text.Unreadable}: binary content, a file that grew above the limit, an I/O error.
     */
    Text open(String rel) throws Refused, IOException {
        return open(rel, maxBytes, null);
    }

    /**
     * The same, with a read limit of its own (never below the dump's): one the fabric's size sets for an output that
     * grows with it. why says where that limit comes from, for the message of a file above it.
     */
    Text open(String rel, long limit, String why) throws Refused, IOException {
        Found f = stored(rel);
        Path real = f.real();
        long max = Math.max(limit, maxBytes);
        String reason = max == maxBytes ? null : why; // the fabric's limit, where it is the one that holds
        long size = sizeWithinLimit(f, max, reason);
        if (f.gzip()) return Text.streamed(rel + GZ, () -> gunzip(real, max, reason), false, maxWholeChars);
        if (size <= streamAbove) return new Text(rel, whole(real, size));
        return Text.streamed(rel, () -> new Checked(Files.newInputStream(real), real, size, max, reason), false, maxWholeChars);
    }

    /** The same file streamed as ISO-8859-1: it is not valid UTF-8 (the same choice {@link #decode} makes). */
    Text latin1(String rel, long limit, String why) throws Refused, IOException {
        Found f = stored(rel);
        long max = Math.max(limit, maxBytes);
        String reason = max == maxBytes ? null : why;
        long size = sizeWithinLimit(f, max, reason);
        if (f.gzip()) return Text.streamed(rel + GZ, () -> gunzip(f.real(), max, reason), true, maxWholeChars);
        return Text.streamed(rel, () -> new Checked(Files.newInputStream(f.real()), f.real(), size, max, reason), true, maxWholeChars);
    }

    private long sizeWithinLimit(Found f) throws Refused, IOException {
        return sizeWithinLimit(f, maxBytes, null);
    }

    private long sizeWithinLimit(Found f, long limit, String why) throws Refused, IOException {
        long size = f.size() >= 0 ? f.size() : Files.size(f.real());
        if (size > limit) throw new Refused(String.format(java.util.Locale.ROOT, "file is %.1f MiB, above the read limit of %d MiB%s: not read"
                + " (raise it with -D%s=N)", size / 1048576.0, limit >> 20, why == null ? "" : " (" + why + ")", MAX_MIB_PROPERTY), false);
        return size;
    }

    /**
     * A compressed output, decompressed as it is read: the digest (for the dump id) is of the stored bytes, the NUL check
     * and the read limit are on what they decompress to.
     */
    private InputStream gunzip(Path real, long limit, String why) throws IOException {
        MessageDigest md = Sha256.forSize(Files.size(real));
        InputStream raw = new java.security.DigestInputStream(new java.io.BufferedInputStream(Files.newInputStream(real), 1 << 16), md);
        InputStream inflated = ReadAhead.of(new java.util.zip.GZIPInputStream(raw, 1 << 16), real.getFileName().toString());
        return new Checked(inflated, real, -1, limit, why) {
            @Override
            void finished() throws IOException {
                // a stored file is hashed whole: what follows the last gzip member, if anything, too
                raw.transferTo(java.io.OutputStream.nullOutputStream());
                digests.put(key(real), md.digest());
            }
        };
    }

    private String whole(Path real, long size) throws Refused, IOException {
        // one array of the announced size (plus one byte, to see a file still growing), filled straight from the channel
        byte[] bytes = new byte[(int) Math.min(size + 1, maxBytes + 1)];
        int length;
        try (java.nio.channels.SeekableByteChannel ch = Files.newByteChannel(real)) {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            while (buf.hasRemaining() && ch.read(buf) >= 0) {
                // until the array is full or the file ends
            }
            length = buf.position();
        }
        if (length > maxBytes) throw new Refused("file grew above the read limit of " + (maxBytes >> 20) + " MiB while read: not read", false);
        boolean ascii = true;
        for (int i = 0; i < length; i++) {
            byte b = bytes[i];
            if (b == 0) throw new Refused(BINARY, false);
            if (b < 0) ascii = false;
        }
        if (length <= size) digest(real, bytes, length);
        // ASCII (nearly all tool output) is the same text in UTF-8 and ISO-8859-1: one copy, no decoder pass
        return ascii ? new String(bytes, 0, length, StandardCharsets.ISO_8859_1) : decodeNonAscii(bytes, length);
    }

    static final String BINARY = "binary content (NUL bytes): not tool output";


    /**
     * The bytes of a streamed file as they pass: hashed (kept when read to the end), size-bounded. size -1:
     * a decompressed stream, whose stored bytes are hashed below it ({@link #finished}).
     */
    private class Checked extends java.io.FilterInputStream {
        private final Path real;
        private final MessageDigest md;
        private final long limit;
        private final String why;
        private long count;
        private boolean done;

        Checked(InputStream in, Path real, long size, long limit, String why) {
            super(in);
            this.real = real;
            this.md = size < 0 ? null : Sha256.forSize(size);
            this.limit = limit;
            this.why = why;
        }

        /** The stream reached its end. */
        void finished() throws IOException {
            digests.put(key(real), md.digest());
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n < 0) {
                if (!done) finished();
                done = true;
                return n;
            }
            // NUL bytes are found by the line scan that reads them (Text.BinaryContent)
            count += n;
            if (count > limit)
                throw new IOException((md == null ? "file decompresses to more than the read limit of " : "file grew above the read limit of ")
                        + (limit >> 20) + " MiB" + (why == null ? "" : " (" + why + ")") + (md == null ? "" : " while read") + ": not read");
            if (md != null) md.update(b, off, n);
            return n;
        }
    }

    /** At most limit bytes of the file as text, "" when it cannot be read (stderr captures: only their start matters). */
    String head(String rel, int limit) {
        try {
            Path real = file(rel);
            byte[] bytes;
            boolean whole;
            try (InputStream in = Files.newInputStream(real)) {
                bytes = in.readNBytes(limit);
                whole = bytes.length < limit || in.read() < 0;
            }
            if (whole) digest(real, bytes, bytes.length);
            return decode(bytes, bytes.length);
        } catch (Refused | IOException e) {
            return "";
        }
    }

    /** Sub-directories of rel (names only), those that are real directories inside the dump. */
    List<String> dirs(String rel) {
        if (!SafePath.isSafeRelative(rel)) return List.of();
        Path dir = root.resolve(rel);
        if (!Files.isDirectory(dir)) return List.of();
        try {
            if (!dir.toRealPath().startsWith(realRoot)) return List.of();
        } catch (IOException e) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isDirectory).filter(p -> {
                try {
                    return p.toRealPath().startsWith(realRoot);
                } catch (IOException e) {
                    return false;
                }
            }).map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** UTF-8 when the bytes are valid UTF-8 (checked without a second copy), else ISO-8859-1; one String built. ASCII is copied as is. */
    static String decode(byte[] bytes, int length) {
        boolean ascii = true;
        for (int i = 0; i < length && ascii; i++) ascii = bytes[i] >= 0;
        if (ascii) return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
        return decodeNonAscii(bytes, length);
    }

    private static String decodeNonAscii(byte[] bytes, int length) {
        CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes, 0, length);
        CharBuffer scratch = CharBuffer.allocate(8192);
        boolean utf8 = true;
        while (true) {
            CoderResult r = dec.decode(in, scratch, true);
            if (r.isError()) {
                utf8 = false;
                break;
            }
            scratch.clear();
            if (r.isUnderflow()) {
                r = dec.flush(scratch);
                utf8 = !r.isError();
                break;
            }
        }
        return new String(bytes, 0, length, utf8 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
    }
}
