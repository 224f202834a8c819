package io.ibaccept.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A node group that cannot be resolved stops collect as bad usage, naming where it was written; nothing runs. */
class NodeSelectionTest {
    @Test
    void anUnresolvableGroupIsBadUsageNamingTheFileLine(@TempDir Path tmp) throws Exception {
        Path marker = tmp.resolve("pwned");
        Path hosts = Files.writeString(tmp.resolve("hosts.txt"), "# compute nodes\nnode01\n@x$(touch " + marker + ")\n");
        Path out = tmp.resolve("dump");
        MainTest.Run r = MainTest.run("collect", "--hostfile", hosts.toString(), "-o", out.toString(), "--transport", "local");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).startsWith("ibaccept: " + hosts + ":3: ");
        assertThat(marker).doesNotExist();
        assertThat(out).doesNotExist();
    }
}
