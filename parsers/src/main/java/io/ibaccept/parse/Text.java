package io.ibaccept.parse;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The text of one input file with the name it is reported under (relative path inside the dump), split into lines.
 * A line longer than {@link #maxLineChars()} is never handed to a parser: it reads as an empty line (so line numbers
 * stay right) and is reported as one problem (see {@link Parsing}).
 *
 * <p>Two backings, one API: a text held in memory (split into a line list once), or a {@linkplain #streamed streamed}
 * file, read line by line from its source by {@link #cursor()} so that a parser that walks it forward holds one line
 * at a time, whatever the file's size. The large fabric-wide files are streamed; a parser that still asks for
 * {@link #lines()} or {@link #content()} of a streamed text gets the whole file read into memory, up to a bound
 * (above it the file is {@link Unreadable}).
 */
public final class Text implements AutoCloseable {
    /** Default bound on one line; real tool output stays far below (an ibdiagnet2.db_csv row is ~1,000 characters). */
    public static final int DEFAULT_MAX_LINE_CHARS = 65_536;

    /** Opens the bytes of a streamed file, from its start, each time it is called. */
    @FunctionalInterface
    public interface Source {
        InputStream open() throws IOException;
    }

    /** Reported for each over-long line of a streamed text as the cursor passes it: line number, length. */
    @FunctionalInterface
    public interface OverlongSink {
        void overlong(int line, long length);
    }

    /**
     * A streamed file could not be read to its end (I/O error, binary content, not decodable, too large to hold
     * whole): not a parse problem but the file's; the loader reports it and drops what the parser made of it.
     */
    public static final class Unreadable extends RuntimeException {
        public Unreadable(IOException cause) {
            super(cause.getMessage(), cause, false, false);
        }

        public IOException io() {
            return (IOException) getCause();
        }
    }

    /** A streamed file holds NUL bytes: binary content, not tool output. */
    public static final class BinaryContent extends IOException {
        public BinaryContent() {
            super("binary content (NUL bytes): not tool output", null);
        }
    }

    private final String name;
    private final int maxLine;
    // in memory
    private String content;
    private List<String> lines;
    private List<int[]> overlong;
    // streamed
    private final Source source;
    private final boolean latin1; // the source's bytes are ISO-8859-1, else UTF-8
    private final long maxWholeChars;
    private OverlongSink overlongSink = (l, n) -> {};
    private StreamCursor open;
    private boolean reachedEnd;
    private boolean blank = true;
    private boolean onlyIberror = true;

    public Text(String name, String content) {
        this(name, content, maxLineChars());
    }

    public Text(String name, String content, int maxLineChars) {
        if (name == null) throw new IllegalArgumentException("name");
        this.name = name;
        this.maxLine = maxLineChars;
        this.source = null;
        this.latin1 = false;
        this.maxWholeChars = 0;
        this.content = content == null ? "" : content; // split into lines when first asked (KeyValues reads without)
    }

    private Text(String name, Source source, boolean latin1, int maxLineChars, long maxWholeChars) {
        if (name == null || source == null) throw new IllegalArgumentException("name/source");
        this.name = name;
        this.maxLine = maxLineChars;
        this.source = source;
        this.latin1 = latin1;
        this.maxWholeChars = maxWholeChars;
    }

    /**
     * A file read line by line from source when a parser walks it with {@link #cursor()}, its bytes decoded as UTF-8
     * (input that is not UTF-8 makes it {@link Unreadable}), or as ISO-8859-1 when latin1. maxWholeChars bounds what
     * {@link #lines()}/{@link #content()} may hold in memory for a parser that needs the whole file.
     */
    public static Text streamed(String name, Source source, boolean latin1, long maxWholeChars) {
        return new Text(name, source, latin1, maxLineChars(), maxWholeChars);
    }

    /** A UTF-8 file streamed with its own line bound. */
    public static Text streamed(String name, Source source, int maxLineChars, long maxWholeChars) {
        return new Text(name, source, false, maxLineChars, maxWholeChars);
    }

    private void split(String c) {
        this.content = c;
        List<String> out = new ArrayList<>();
        List<int[]> longLines = new ArrayList<>();
        eachLine(c, (number, from, to) -> {
            if (to - from > maxLine) {
                longLines.add(new int[] {number, to - from});
                out.add("");
            } else {
                out.add(c.substring(from, to));
            }
        });
        this.overlong = List.copyOf(longLines);
        this.lines = Collections.unmodifiableList(out); // last: lines set means split
    }

    /** A line of a content, c[from, to) without its terminator, and its 1-based number. */
    @FunctionalInterface
    public interface LineSpan {
        void line(int number, int from, int to);
    }

    /**
     * Walks the lines of c in place, as every Text splits them: '\n', '\r' and "\r\n" end a line, a last line
     * without terminator counts when not empty. Over-long lines are handed on too: the caller applies its bound.
     */
    public static void eachLine(String c, LineSpan each) {
        int n = c.length();
        int start = 0;
        // terminators found with indexOf (no per-character loop); '\r' is looked for again only once passed
        int cr = c.indexOf('\r');
        for (int number = 1; start < n; number++) {
            if (cr >= 0 && cr < start) cr = c.indexOf('\r', start);
            int lf = c.indexOf('\n', start);
            int end = lf < 0 ? (cr < 0 ? n : cr) : (cr >= 0 && cr < lf ? cr : lf);
            each.line(number, start, end);
            if (end < n && c.charAt(end) == '\r' && end + 1 < n && c.charAt(end + 1) == '\n') end++;
            start = end + 1;
        }
    }

    /** A decoder that refuses input which is not in its charset, instead of replacing it. */
    private static CharsetDecoder strictDecoder(java.nio.charset.Charset cs) {
        return cs.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    }

    /** The configured line bound: system property {@code ibaccept.maxLineChars}, else {@link #DEFAULT_MAX_LINE_CHARS}. */
    public static int maxLineChars() {
        String v = System.getProperty("ibaccept.maxLineChars");
        if (v != null && !v.isBlank() && v.trim().chars().allMatch(Character::isDigit) && v.trim().length() < 10)
            return Math.max(80, Integer.parseInt(v.trim()));
        return DEFAULT_MAX_LINE_CHARS;
    }

    public String name() {
        return name;
    }

    /** True when this text is read from its file line by line (and not yet held whole). */
    public boolean isStreamed() {
        return source != null && lines == null;
    }

    /** The whole text. A streamed text is read into memory for it (bounded; {@link Unreadable} above the bound). */
    public String content() {
        materialize();
        return content;
    }

    /** Lines without terminators; index i is line number i + 1. Over-long lines read as "". Streamed: see {@link #content()}. */
    public List<String> lines() {
        materialize();
        return lines;
    }

    /** The line bound this text was split with. */
    public int lineLimit() {
        return maxLine;
    }

    /** {line number, length} of each line that was too long to parse (of a text held in memory). */
    public List<int[]> overlongLines() {
        if (source == null) materialize();
        return overlong == null ? List.of() : overlong;
    }

    /** Where the over-long lines of a streamed text are reported while it is read ({@link Parsing} sets it). */
    public void onOverlong(OverlongSink sink) {
        this.overlongSink = sink;
    }

    /**
     * A forward-only walk over the lines, the way to read a file that may be large: a streamed text is read from its
     * source as the cursor moves (one line held at a time), a text in memory walks its line list.
     */
    public Cursor cursor() {
        if (!isStreamed()) return new ListCursor(lines());
        closeQuietly();
        open = new StreamCursor();
        return open;
    }

    /** A forward-only line walk; {@link #next()} moves to the next line, false at the end. */
    public interface Cursor {
        boolean next();

        /** The current line, without its terminator; "" for an over-long line. */
        String line();

        /**
         * The current line as {@link #line()} has it, as characters a streamed cursor need not copy: valid until the
         * next {@link #next()}. For the parsers of the files with millions of lines, which turn most lines into numbers.
         */
        default CharSequence chars() {
            return line();
        }

        /** 1-based number of the current line. */
        int number();
    }

    /** After a streamed text was walked to its end: whether every line was blank (nothing printed). */
    public boolean streamedBlank() {
        return reachedEnd && blank;
    }

    /** After a streamed text was walked to its end: whether every non-blank line is an infiniband-diags iberror line. */
    public boolean streamedOnlyIberror() {
        return reachedEnd && onlyIberror;
    }

    @Override
    public void close() {
        closeQuietly();
    }

    private void closeQuietly() {
        if (open != null) open.close();
        open = null;
    }

    // synchronized: a text in memory is split on first use, and a parsed text may be read by more than one thread
    private synchronized void materialize() {
        if (lines != null) return;
        if (source == null) {
            split(content);
            return;
        }
        StringBuilder sb = new StringBuilder();
        char[] buf = new char[1 << 16];
        try (Reader r = new java.io.InputStreamReader(source.open(), strictDecoder(latin1 ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8))) {
            for (int n; (n = r.read(buf)) > 0; ) {
                for (int i = 0; i < n; i++) if (buf[i] == 0) throw new BinaryContent();
                if (sb.length() + (long) n > maxWholeChars)
                    throw new Unreadable(new IOException("file is larger than " + (maxWholeChars >> 20) + " MiB, the most"
                            + " this parser reads whole into memory (only the large fabric-wide files are read line by line):"
                            + " not read (raise it with -Dibaccept.max-whole-file-mib=N)"));
                sb.append(buf, 0, n);
            }
        } catch (IOException e) {
            throw new Unreadable(e);
        }
        split(sb.toString());
        String c = content;
        reachedEnd = true;
        blank = c.isBlank();
        for (String l : lines) if (!l.isBlank() && !l.contains(": iberror: ")) onlyIberror = false;
        if (!overlong.isEmpty()) onlyIberror = false;
    }

    public SourceRef at(int lineNumber) {
        return new SourceRef(name, lineNumber);
    }

    public ParseException error(int lineNumber, String message) {
        return new ParseException(at(lineNumber), message);
    }

    /** A line shortened for a message: hostile input never ends up whole in a report. */
    public static String excerpt(String s) {
        return s.length() > 120 ? s.substring(0, 117) + "..." : s;
    }

    private static final class ListCursor implements Cursor {
        private final List<String> lines;
        private int i = -1;

        ListCursor(List<String> lines) {
            this.lines = lines;
        }

        @Override
        public boolean next() {
            if (i + 1 >= lines.size()) {
                i = lines.size();
                return false;
            }
            i++;
            return true;
        }

        @Override
        public String line() {
            return lines.get(i);
        }

        @Override
        public int number() {
            return i + 1;
        }
    }

    /**
     * Splits the bytes of the source into lines exactly as {@link #split} splits the decoded text ('\n', '\r' and "\r\n"
     * end a line; a last line without terminator counts when not empty), holding at most maxLine characters of one line.
     * Lines are split on the bytes (no UTF-8 sequence holds a '\n' or '\r' byte) and each line is decoded on its own: an
     * ASCII line, nearly every line of tool output, is one copy of its bytes, with no decoder and no char buffer.
     */
    private final class StreamCursor implements Cursor {
        private InputStream in;
        private final byte[] buf = new byte[1 << 16];
        private int pos;
        private int lim;
        private boolean eof;
        private boolean pendingCr;
        // a line that runs over the end of buf is gathered here, up to the bytes maxLine characters can take
        private byte[] held = new byte[256];
        private int heldLength;
        private final CharsetDecoder utf8 = latin1 ? null : strictDecoder(StandardCharsets.UTF_8);
        private String line;
        private int number;
        // the current line's bytes when they are its characters (ASCII, or ISO-8859-1): the String is made on demand
        private final Latin1Chars chars = new Latin1Chars();
        private boolean lazy;

        @Override
        public boolean next() {
            if (eof && pos >= lim) return end();
            heldLength = 0;
            lazy = false;
            long bytes = 0;
            long units = 0; // UTF-16 characters, counted from the bytes as they pass (for a line too long to decode)
            boolean ascii = true;
            boolean any = false;
            long holdable = latin1 ? maxLine : 3L * maxLine; // a UTF-16 character takes at most 3 UTF-8 bytes
            int from = -1, to = -1; // the line within buf, when it did not run over a refill
            while (true) {
                if (pos >= lim && !fill()) {
                    if (!any) return end();
                    break; // last line without terminator
                }
                if (pendingCr) {
                    pendingCr = false;
                    if (buf[pos] == '\n') {
                        pos++;
                        continue;
                    }
                }
                int start = pos;
                int p = pos;
                int n;
                // one comparison for nearly every byte: above '\r' is printable ASCII; tabs, other control bytes and
                // (signed) non-ASCII bytes fall through to the second look
                int extra = 0;
                for (byte b; p < lim; p++) {
                    if ((b = buf[p]) > '\r') continue;
                    if (b == '\n' || b == '\r') break;
                    if (b == 0) {
                        close();
                        throw new Unreadable(new BinaryContent());
                    }
                    if (b < 0 && !latin1) {
                        ascii = false;
                        if ((b & 0xc0) == 0x80) extra--; // a continuation byte adds no character
                        else if ((b & 0xf8) == 0xf0) extra++; // a 4-byte sequence is two UTF-16 characters
                    }
                }
                n = p - start;
                units += n + extra;
                if (n > 0) {
                    any = true;
                    if (bytes == 0 && p < lim) {
                        from = start;
                        to = p;
                    } else {
                        if (from >= 0) {
                            hold(buf, from, to - from);
                            from = -1;
                        }
                        if (bytes + n <= holdable) hold(buf, start, n);
                    }
                    bytes += n;
                }
                if (p < lim) {
                    pendingCr = buf[p] == '\r';
                    pos = p + 1;
                    any = true;
                    break;
                }
                pos = p;
            }
            number++;
            if (units > maxLine || bytes > holdable) {
                line = "";
                blank = false; // a line of tens of thousands of blanks is printed output too
                onlyIberror = false;
                overlongSink.overlong(number, units);
                return true;
            }
            byte[] src = from >= 0 ? buf : held;
            int off = from >= 0 ? from : 0, n = from >= 0 ? to - from : heldLength;
            if (latin1 || ascii) {
                chars.set(src, off, n);
                lazy = true;
                line = null;
            } else {
                line = decode(src, off, n);
            }
            if (blank || onlyIberror) {
                boolean blankLine = lazy ? chars.isBlank() : line.isBlank();
                if (!blankLine) blank = false;
                if (onlyIberror && !blankLine && !line().contains(": iberror: ")) onlyIberror = false;
            }
            return true;
        }

        private void hold(byte[] b, int off, int n) {
            if (heldLength + n > held.length) held = java.util.Arrays.copyOf(held, Math.max(held.length * 2, heldLength + n));
            System.arraycopy(b, off, held, heldLength, n);
            heldLength += n;
        }

        private String decode(byte[] b, int off, int n) {
            try {
                return utf8.decode(java.nio.ByteBuffer.wrap(b, off, n)).toString();
            } catch (java.nio.charset.CharacterCodingException e) {
                close();
                throw new Unreadable(e);
            }
        }

        private boolean end() {
            reachedEnd = true;
            line = null;
            close();
            return false;
        }

        private boolean fill() {
            if (eof) return false;
            try {
                if (in == null) in = source.open();
                int n;
                do {
                    n = in.read(buf, 0, buf.length);
                } while (n == 0);
                if (n < 0) {
                    eof = true;
                    pos = lim = 0;
                    return false;
                }
                pos = 0;
                lim = n;
                return true;
            } catch (IOException e) {
                close();
                throw new Unreadable(e);
            }
        }

        @Override
        public String line() {
            if (lazy) {
                // ASCII is the same text in UTF-8 and ISO-8859-1: one copy
                line = chars.toString();
                lazy = false;
            }
            return line;
        }

        @Override
        public CharSequence chars() {
            return lazy ? chars : line;
        }

        @Override
        public int number() {
            return number;
        }

        void close() {
            lazy = false;
            eof = true;
            pos = lim = 0;
            if (in != null) {
                try {
                    in.close();
                } catch (IOException e) {
                    // nothing to keep from a failed close of a file only read
                }
                in = null;
            }
        }
    }

    /** Bytes read as ISO-8859-1 characters, in place (one byte, one character). */
    private static final class Latin1Chars implements CharSequence {
        private byte[] b;
        private int off;
        private int n;

        void set(byte[] b, int off, int n) {
            this.b = b;
            this.off = off;
            this.n = n;
        }

        @Override
        public int length() {
            return n;
        }

        @Override
        public char charAt(int i) {
            if (i < 0 || i >= n) throw new IndexOutOfBoundsException(i);
            return (char) (b[off + i] & 0xff);
        }

        @Override
        public CharSequence subSequence(int from, int to) {
            java.util.Objects.checkFromToIndex(from, to, n);
            return new String(b, off + from, to - from, StandardCharsets.ISO_8859_1);
        }

        boolean isBlank() {
            for (int i = off; i < off + n; i++) if (!Character.isWhitespace((char) (b[i] & 0xff))) return false;
            return true;
        }

        @Override
        public String toString() {
            return new String(b, off, n, StandardCharsets.ISO_8859_1);
        }
    }
}
