package io.ibaccept.safety;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A file the user names beside the dump (rules, waivers, node-name-map, cabling plan, contract): read whole, so it is
 * bounded before it is read. Only a regular file is read (a FIFO or a device would block or never end), at most the
 * given size (a 300 MB rules file is a mistake, not a configuration), as UTF-8. Every refusal is one sentence naming
 * the file, for exit 2.
 */
public final class SideInput {
    private SideInput() {}

    /** Why a side input was not read. */
    public static final class Refused extends IOException {
        public Refused(String message) {
            super(message);
        }
    }

    /** The file's text; what: "rules file", "waivers file", ... for the message. */
    public static String read(Path file, long maxBytes, String what) throws IOException {
        byte[] bytes = bytes(file, maxBytes, what);
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new Refused(file + ": the " + what + " is not UTF-8 text");
        }
    }

    /** The file's bytes, for a reader that decodes them itself; refused as {@link #read} refuses, binary content too (a NUL byte). */
    public static byte[] bytes(Path file, long maxBytes, String what) throws IOException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException e) {
            throw new Refused(file + ": cannot read the " + what + " (" + IoMessages.why(e) + ")");
        }
        if (!a.isRegularFile()) throw new Refused(file + ": the " + what + " is not a regular file");
        if (a.size() > maxBytes) throw new Refused(tooLarge(file, a.size(), maxBytes, what));
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes((int) maxBytes + 1); // a file still growing stops at the bound too
        } catch (IOException e) {
            throw new Refused(file + ": cannot read the " + what + " (" + IoMessages.why(e) + ")");
        }
        if (bytes.length > maxBytes) throw new Refused(tooLarge(file, bytes.length, maxBytes, what));
        for (int i = 0; i < bytes.length; i++)
            if (bytes[i] == 0) throw new Refused(file + ": the " + what + " is binary (a NUL byte at offset " + i + "), not text");
        return bytes;
    }

    private static String tooLarge(Path file, long size, long max, String what) {
        return String.format(java.util.Locale.ROOT, "%s: the %s is %.1f MiB, more than %d MiB: not read (not a %s, or one that"
                + " should be split)", file, what, size / 1048576.0, max >> 20, what);
    }
}
