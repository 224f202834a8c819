package io.ibaccept.safety;

import java.nio.file.Path;

/**
 * Paths built from untrusted names (host names, test names, manifest entries, zip entries) stay inside their root.
 * Lexical checks only: {@code io.ibaccept.dump.DumpFiles} adds the real-path (symlink) check for reading.
 */
public final class SafePath {
    private SafePath() {}

    /** One path component that cannot climb or jump: not empty, not '.' or '..', no '/', '\', NUL or control characters. */
    public static boolean isSafeName(String s) {
        if (s == null || s.isEmpty() || s.equals(".") || s.equals("..") || s.length() > 255) return false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '/' || c == '\\' || c < 0x20 || c == 0x7f) return false;
        }
        return true;
    }

    /** True when rel is relative, every component is a safe name, and it resolves below root. */
    public static boolean isSafeRelative(String rel) {
        if (rel == null || rel.isEmpty() || rel.startsWith("/") || rel.startsWith("\\")) return false;
        for (String part : rel.split("/", -1)) if (!isSafeName(part)) return false;
        return true;
    }

    /** root/rel, refused unless rel is a safe relative path ("nodes/HOST/ibstat.out"). */
    public static Path resolve(Path root, String rel) {
        if (!isSafeRelative(rel)) throw new Shell.UnsafeValue("path " + Shell.show(rel) + " would leave " + root
                + " (absolute, '..', empty or control characters)");
        Path p = root.resolve(rel).normalize();
        if (!p.startsWith(root.normalize())) throw new Shell.UnsafeValue("path " + Shell.show(rel) + " would leave " + root);
        return p;
    }
}
