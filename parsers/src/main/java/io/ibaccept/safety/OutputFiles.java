package io.ibaccept.safety;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Writing into an output directory (a dump being collected, a report directory) that may hold planted symbolic links:
 * the tool often runs as root, so a link must never redirect a write. Directories below the root are made one
 * component at a time and an existing component that is a link (or not a directory) is refused; a file is written to
 * a new temporary file beside its name (created exclusively, so never through a link) and renamed over the name,
 * which replaces a link there instead of following it and leaves either the old file or the new one, never half a
 * file. The root itself is what the user named and may be a link.
 */
public final class OutputFiles {
    private OutputFiles() {}


    /** What writes a file's content. */
    public interface Body {
        void to(OutputStream out) throws IOException;
    }

    /** Thrown when a planted link or a file stands where a directory of the output must be. */
    public static final class Refused extends IOException {
        public Refused(String message) {
            super(message);
        }
    }

    /** root/relDir ("" for root), made below root where missing; refused if any component below root is a link or not a directory. */
    public static Path directory(Path root, String relDir) throws IOException {
        Files.createDirectories(root);
        if (relDir == null || relDir.isEmpty()) return root;
        if (!SafePath.isSafeRelative(relDir)) throw new Refused(root + "/" + Shell.show(relDir) + ": not a path inside the output directory");
        Path d = root;
        for (String part : relDir.split("/")) {
            d = d.resolve(part);
            try {
                Files.createDirectory(d);
            } catch (FileAlreadyExistsException e) {
                BasicFileAttributes a = Files.readAttributes(d, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (a.isSymbolicLink()) throw new Refused(d + " is a symbolic link: not written through (it was not made by ibaccept)");
                if (!a.isDirectory()) throw new Refused(d + " is not a directory");
            }
        }
        return d;
    }

    /**
     * Writes root/rel (directories as {@link #directory}), replacing what is there atomically. On Linux every step below
     * root goes through directory file descriptors (openat with O_NOFOLLOW, renameat): a directory swapped for a link
     * after it was checked cannot redirect the write either.
     */
    public static Path write(Path root, String rel, Body body) throws IOException {
        if (!SafePath.isSafeRelative(rel)) throw new Refused(root + "/" + Shell.show(rel) + ": not a path inside the output directory");
        Files.createDirectories(root);
        try (java.nio.file.DirectoryStream<Path> top = Files.newDirectoryStream(root)) {
            if (top instanceof java.nio.file.SecureDirectoryStream<Path> sds) {
                below(sds, root, rel.split("/"), 0, body);
                return root.resolve(rel);
            }
        }
        int slash = rel.lastIndexOf('/');
        Path dir = directory(root, slash < 0 ? "" : rel.substring(0, slash));
        return replace(dir, rel.substring(slash + 1), body);
    }

    private static void below(java.nio.file.SecureDirectoryStream<Path> dir, Path where, String[] parts, int i, Body body) throws IOException {
        if (i == parts.length - 1) {
            replaceIn(dir, where, parts[i], body);
            return;
        }
        Path name = Path.of(parts[i]);
        java.nio.file.SecureDirectoryStream<Path> child;
        try {
            child = dir.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS);
        } catch (java.nio.file.NoSuchFileException e) {
            // no mkdirat in Java: made by path, then opened through this directory's descriptor, never through a link
            try {
                Files.createDirectory(where.resolve(name));
            } catch (FileAlreadyExistsException raced) {
                // made meanwhile: opened (and checked) below
            }
            child = open(dir, where, name);
        } catch (java.nio.file.FileSystemException e) {
            throw refusal(dir, where, name);
        }
        try (java.nio.file.SecureDirectoryStream<Path> entered = child) {
            below(entered, where.resolve(name), parts, i + 1, body);
        }
    }

    private static java.nio.file.SecureDirectoryStream<Path> open(java.nio.file.SecureDirectoryStream<Path> dir, Path where, Path name) throws IOException {
        try {
            return dir.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS);
        } catch (java.nio.file.FileSystemException e) {
            throw refusal(dir, where, name);
        }
    }

    /** Why name in dir cannot be entered: a link or not a directory (O_NOFOLLOW refused it). */
    private static IOException refusal(java.nio.file.SecureDirectoryStream<Path> dir, Path where, Path name) {
        try {
            BasicFileAttributes a = dir.getFileAttributeView(name, java.nio.file.attribute.BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .readAttributes();
            if (a.isSymbolicLink()) return new Refused(where.resolve(name) + " is a symbolic link: not written through (it was not made by ibaccept)");
            return new Refused(where.resolve(name) + " is not a directory");
        } catch (IOException e) {
            return e;
        }
    }

    /** replace() relative to an open directory: the temporary file is created there (O_EXCL) and renamed over name (renameat). */
    private static void replaceIn(java.nio.file.SecureDirectoryStream<Path> dir, Path where, String name, Body body) throws IOException {
        if (!SafePath.isSafeName(name)) throw new Refused(where + "/" + Shell.show(name) + ": not a file name");
        Path tmp = null;
        java.nio.channels.SeekableByteChannel ch = null;
        for (int attempt = 0; ch == null; attempt++) {
            tmp = Path.of("." + name + "." + Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong()) + ".part");
            try {
                ch = dir.newByteChannel(tmp, java.util.Set.of(java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE));
            } catch (FileAlreadyExistsException e) {
                if (attempt > 8) throw e;
            }
        }
        boolean done = false;
        try {
            try (OutputStream out = new java.io.BufferedOutputStream(java.nio.channels.Channels.newOutputStream(ch))) {
                body.to(out);
            }
            dir.move(tmp, dir, Path.of(name));
            done = true;
        } finally {
            if (!done) {
                try {
                    dir.deleteFile(tmp);
                } catch (IOException gone) {
                    // nothing left to remove
                }
            }
        }
    }

    /** Writes dir/name through a temporary file renamed over name: a link at name is replaced, not followed. */
    public static Path replace(Path dir, String name, Body body) throws IOException {
        if (!SafePath.isSafeName(name)) throw new Refused(dir + "/" + Shell.show(name) + ": not a file name");
        Path target = dir.resolve(name);
        // created exclusively (O_EXCL never follows a link) with the usual permissions (the umask's), not 0600
        Path tmp = null;
        OutputStream raw = null;
        for (int attempt = 0; raw == null; attempt++) {
            tmp = dir.resolve("." + name + "." + Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong()) + ".part");
            try {
                raw = Files.newOutputStream(tmp, java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE);
            } catch (FileAlreadyExistsException e) {
                if (attempt > 8) throw e;
            }
        }
        boolean done = false;
        try {
            try (OutputStream out = new java.io.BufferedOutputStream(raw)) {
                body.to(out);
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            done = true;
            return target;
        } finally {
            if (!done) Files.deleteIfExists(tmp);
        }
    }

    /** Whether p is a regular file itself (a link to one is not: its target may be anywhere). */
    public static boolean isPlainFile(Path p) {
        return Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS);
    }
}
