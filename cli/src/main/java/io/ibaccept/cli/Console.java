package io.ibaccept.cli;

import io.ibaccept.safety.Printable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The operator's terminal: everything the commands print goes through here, and much of it comes from a dump (file
 * excerpts, ibdiagnet messages, .err lines, file names). Escape sequences and other unsafe characters
 * ({@link Printable}) are printed as visible escapes, so a hostile dump can neither retitle nor clear the terminal,
 * recolour it or reverse the text. Only the progress bar writes its own control sequences, to {@link #raw}.
 */
final class Console extends PrintStream {
    private final PrintStream raw;

    private Console(PrintStream raw) {
        super(new Escaping(raw), true, StandardCharsets.UTF_8);
        this.raw = raw;
    }

    /** out, escaped (out itself when it is already). */
    static PrintStream of(PrintStream out) {
        return out instanceof Console ? out : new Console(out);
    }

    /** The stream underneath, for the progress bar's own cursor movements. */
    PrintStream raw() {
        return raw;
    }

    /** UTF-8 in, the same bytes out except unsafe characters and bytes that are not UTF-8, which become escapes. */
    private static final class Escaping extends OutputStream {
        private final OutputStream out;
        private final byte[] pending = new byte[4];
        private int have;
        private int need;

        Escaping(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            ByteArrayOutputStream o = new ByteArrayOutputStream(len + 16);
            for (int i = off; i < off + len; i++) take(b[i] & 0xff, o);
            o.writeTo(out);
        }

        private void take(int b, ByteArrayOutputStream o) {
            if (need > 0) {
                if ((b & 0xc0) == 0x80) {
                    pending[have++] = (byte) b;
                    if (have == need) {
                        String ch = new String(pending, 0, have, StandardCharsets.UTF_8);
                        int c = ch.codePointAt(0);
                        if (ch.length() == Character.charCount(c) && c != 0xfffd && !Printable.unsafe(c)) o.write(pending, 0, have);
                        else escapeBytes(o); // overlong or surrogate encodings decode to U+FFFD: shown as the bytes they were
                        have = need = 0;
                    }
                    return;
                }
                escapeBytes(o); // a sequence cut short
                have = need = 0;
            }
            if (b < 0x80) {
                if (Printable.unsafe(b)) o.writeBytes(("\\x" + hex(b)).getBytes(StandardCharsets.US_ASCII));
                else o.write(b);
            } else if ((b & 0xe0) == 0xc0 || (b & 0xf0) == 0xe0 || (b & 0xf8) == 0xf0) {
                need = (b & 0xe0) == 0xc0 ? 2 : (b & 0xf0) == 0xe0 ? 3 : 4;
                pending[have++] = (byte) b;
            } else {
                o.writeBytes(("\\x" + hex(b)).getBytes(StandardCharsets.US_ASCII));
            }
        }

        /** The pending bytes: an unsafe character's escape, or \\x per byte when they are not UTF-8. */
        private void escapeBytes(ByteArrayOutputStream o) {
            String ch = new String(pending, 0, have, StandardCharsets.UTF_8);
            int c = ch.codePointAt(0);
            if (have == need && ch.length() == Character.charCount(c) && c != 0xfffd) {
                o.writeBytes(Printable.of(ch).getBytes(StandardCharsets.US_ASCII)); // an unsafe character, as \\u202e
                return;
            }
            for (int i = 0; i < have; i++) o.writeBytes(("\\x" + hex(pending[i] & 0xff)).getBytes(StandardCharsets.US_ASCII));
        }

        private static String hex(int b) {
            return (b < 0x10 ? "0" : "") + Integer.toHexString(b);
        }

        @Override
        public synchronized void flush() throws IOException {
            out.flush();
        }
    }
}
