package io.ibaccept.dump;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A command's output as text without losing a byte: UTF-8, where each byte that is not part of valid UTF-8 is kept as
 * the lone surrogate U+DC80..U+DCFF (the "surrogateescape" of Python) and written back as that byte. A dump then holds
 * what the tool printed verbatim, e.g. a device name in Latin-1 ("mlx5_0\xe9"), instead of U+FFFD.
 */
public final class RawText {
    private RawText() {}

    public static String decode(byte[] bytes, int length) {
        try { // nearly every output is valid UTF-8: one decode, no escapes
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, 0, length)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            // some bytes are not UTF-8: each is kept as its escape below
        }
        CharsetDecoder dec = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes, 0, length);
        CharBuffer out = CharBuffer.allocate(length + 1);
        while (true) {
            CoderResult r = dec.decode(in, out, true);
            if (r.isUnderflow()) break;
            if (r.isError()) {
                for (int i = 0; i < r.length(); i++) out.put((char) (0xdc00 | (in.get() & 0xff)));
            }
            // overflow cannot happen: every byte gives at most one char
        }
        dec.flush(out);
        out.flip();
        return out.toString();
    }

    public static byte[] encode(String s) {
        if (s.chars().noneMatch(c -> c >= 0xdc80 && c <= 0xdcff)) return s.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length() + 16);
        int runStart = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0xdc80 && c <= 0xdcff && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1)))) {
                out.writeBytes(s.substring(runStart, i).getBytes(StandardCharsets.UTF_8));
                out.write(c & 0xff);
                runStart = i + 1;
            }
        }
        out.writeBytes(s.substring(runStart).getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }
}
