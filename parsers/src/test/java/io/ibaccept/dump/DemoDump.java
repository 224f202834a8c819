package io.ibaccept.dump;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The bundled demo dump, and copies of it for tests that damage or extend it. */
final class DemoDump {
    private DemoDump() {}

    static final Path DIR = Path.of("..", "sample-dumps", "dumps", "demo-hdr16");

    /** A copy of the demo dump at target. */
    static Path copyTo(Path target) throws IOException {
        try (Stream<Path> s = Files.walk(DIR)) {
            for (Path f : s.toList()) {
                Path t = target.resolve(DIR.relativize(f).toString());
                if (Files.isDirectory(f)) Files.createDirectories(t);
                else Files.copy(f, t);
            }
        }
        return target;
    }
}
