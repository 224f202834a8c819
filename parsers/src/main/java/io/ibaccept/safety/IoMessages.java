package io.ibaccept.safety;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.regex.Pattern;

/** Why a file operation failed, in words for an engineer (never a Java exception class name). */
public final class IoMessages {
    private IoMessages() {}

    /** "java.io.IOException: ", "com.lowagie.text.ExceptionConverter: ": what Throwable.toString() puts before a message. */
    private static final Pattern CLASS_NAME = Pattern.compile("\\b(?:[a-z_$][\\w$]*\\.)+[A-Z][\\w$]*(?:Exception|Error|Converter)\\b:?\\s*");

    public static String why(IOException e) {
        if (e instanceof NoSuchFileException) return "no such file or directory";
        if (e instanceof AccessDeniedException) return "permission denied";
        if (e instanceof FileAlreadyExistsException) return "a file of that name is in the way";
        if (e instanceof NotDirectoryException) return "not a directory";
        if (e instanceof FileSystemException fs && fs.getReason() != null) return fs.getReason().toLowerCase(java.util.Locale.ROOT);
        return words(e.getMessage(), "input/output error");
    }

    /**
     * Why anything failed, for a message: an I/O failure anywhere in the causes says what the system said (a report
     * writer that wraps "No space left on device" in its own exception); otherwise the message, without class names.
     */
    public static String why(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause())
            if (c instanceof IOException io) {
                String own = t == io ? "" : words(t.getMessage(), "");
                String system = why(io);
                // "junit.xml could not be written: java.io.IOException: No space left on device" says it once
                if (own.isEmpty()) return system;
                return own.toLowerCase(java.util.Locale.ROOT).contains(system.toLowerCase(java.util.Locale.ROOT)) ? own : own + ": " + system;
            }
        return words(t.getMessage(), "an unexpected error");
    }

    /** message with the class names Throwable.toString() puts in front of wrapped messages left out. */
    private static String words(String message, String none) {
        if (message == null) return none;
        String m = CLASS_NAME.matcher(message).replaceAll("").strip();
        return m.isEmpty() ? none : m;
    }
}
