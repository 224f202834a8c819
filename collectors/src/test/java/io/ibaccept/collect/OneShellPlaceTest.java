package io.ibaccept.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Processes are started in one place (Transport; SimFabric for the simulator itself), so validation cannot be bypassed. */
class OneShellPlaceTest {
    @Test
    void onlyTransportAndSimFabricStartProcesses() throws IOException {
        List<Path> roots = Stream.of(Path.of("src/main/java"), Path.of("../rdma-tests/src/main/java")).filter(Files::isDirectory).toList();
        assertThat(roots).isNotEmpty();
        for (Path root : roots) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    String name = f.getFileName().toString();
                    if (name.equals("Transport.java") || name.equals("SimFabric.java")) continue;
                    String src = Files.readString(f);
                    assertThat(src).as(f.toString()).doesNotContain("new ProcessBuilder").doesNotContain("Runtime.getRuntime().exec");
                }
            }
        }
    }
}
