package io.ibaccept.parse;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

final class Fixtures {
    private Fixtures() {}

    static Text load(String path) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/" + path)) {
            if (in == null) throw new IllegalArgumentException("no fixture " + path);
            return new Text(path, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first n lines of a fixture, as a file truncated mid-transfer would be. */
    static Text truncated(String path, int n) {
        Text t = load(path);
        return new Text(path, String.join("\n", t.lines().subList(0, n)) + "\n");
    }
}
