package io.ibaccept.safety;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** Why a file operation failed, in words for an engineer (never a Java exception class name). */
public final class IoMessages {
    private IoMessages() {}

    public static String why(IOException e) {
        if (e instanceof NoSuchFileException) return "no such file or directory";
        if (e instanceof AccessDeniedException) return "permission denied";
        if (e instanceof FileAlreadyExistsException) return "a file of that name is in the way";
        if (e instanceof NotDirectoryException) return "not a directory";
        if (e instanceof FileSystemException fs && fs.getReason() != null) return fs.getReason().toLowerCase(java.util.Locale.ROOT);
        String m = e.getMessage();
        return m == null || m.isBlank() ? "input/output error" : m;
    }
}
