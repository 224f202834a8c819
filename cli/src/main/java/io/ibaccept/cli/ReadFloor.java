package io.ibaccept.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The floor 'bench' measures analyze against: a JVM that walks the dump and reads and decodes every file in parallel,
 * without parsing anything (a compressed output is decompressed, as reading it needs). What analyze costs above this
 * is the analysis itself. Prints the process line of
 * {@link Phases} on stderr, as a one-shot analyze does with --timings.
 */
final class ReadFloor {
    private ReadFloor() {}

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args[0]);
        List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(Files::isRegularFile).toList();
        }
        AtomicLong chars = new AtomicLong();
        files.parallelStream().forEach(p -> {
            try {
                if (p.getFileName().toString().endsWith(".gz")) {
                    chars.addAndGet(decodeCompressed(p));
                    return;
                }
                // decoded as the loader decodes: UTF-8, malformed input replaced
                chars.addAndGet(decoder().decode(ByteBuffer.wrap(Files.readAllBytes(p))).length());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        System.out.println(files.size() + " files, " + chars.get() + " characters");
        new Phases().print(System.err);
    }

    private static java.nio.charset.CharsetDecoder decoder() {
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
    }

    /** A compressed output, decompressed and decoded block by block (it may be gigabytes of text). */
    private static long decodeCompressed(Path p) throws IOException {
        long n = 0;
        try (java.io.Reader r = new java.io.InputStreamReader(new java.util.zip.GZIPInputStream(Files.newInputStream(p), 1 << 16), decoder())) {
            char[] buf = new char[1 << 16];
            for (int k; (k = r.read(buf)) > 0; ) n += k;
        }
        return n;
    }
}
