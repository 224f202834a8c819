package io.ibaccept.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.CommandResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.ExtendWith;

/** Two simulators at once on one machine: each SimFabric has its own IBSIM_SOCKNAME, its tools see only its fabric. */
@ExtendWith(RequiresSimulator.class)
class SimFabricIsolationTest {
    /** One leaf switch with the given hosts on ports 1..n. */
    static String leaf(String sw, List<String> hosts) {
        StringBuilder sb = new StringBuilder("Switch\t36 \"S-" + sw + "\"\t# \"" + sw + "\"\n");
        for (int i = 0; i < hosts.size(); i++) sb.append("[").append(i + 1).append("]\t\"H-").append(hosts.get(i)).append("\"[1]\n");
        sb.append('\n');
        for (int i = 0; i < hosts.size(); i++)
            sb.append("Ca\t1 \"H-").append(hosts.get(i)).append("\"\t# \"").append(hosts.get(i)).append(" HCA-1\"\n[1]\t\"S-")
                    .append(sw).append("\"[").append(i + 1).append("]\n\n");
        return sb.toString();
    }

    @Test
    void twoSimulatorsRunSideBySide(@TempDir Path tmp) throws Exception {
        List<String> a = List.of("alpha1", "alpha2"), b = List.of("beta1", "beta2", "beta3");
        try (SimFabric fa = SimFabric.start(leaf("leafa", a), tmp.resolve("a")); SimFabric fb = SimFabric.start(leaf("leafb", b), tmp.resolve("b"))) {
            assertThat(fa.sockName()).isNotEqualTo(fb.sockName());
            CompletableFuture<Void> sa = CompletableFuture.runAsync(() -> fa.startSm("alpha1", 1, null, null));
            CompletableFuture<Void> sb = CompletableFuture.runAsync(() -> fb.startSm("beta1", 1, null, null));
            sa.join();
            sb.join();
            fa.awaitActive(a, Duration.ofSeconds(60));
            fb.awaitActive(b, Duration.ofSeconds(60));
            // concurrently, each fabric's tools see their own switch and HCAs only
            CompletableFuture<ExecResult> da = CompletableFuture.supplyAsync(() -> fa.transport().run("alpha2", "ibnetdiscover", Duration.ofSeconds(60)));
            CompletableFuture<ExecResult> db = CompletableFuture.supplyAsync(() -> fb.transport().run("beta3", "ibnetdiscover", Duration.ofSeconds(60)));
            ExecResult ra = da.join(), rb = db.join();
            assertThat(ra.status()).as(ra.stderr()).isEqualTo(CommandResult.OK);
            assertThat(rb.status()).as(rb.stderr()).isEqualTo(CommandResult.OK);
            assertThat(caNames(ra.stdout())).containsExactlyInAnyOrder("alpha1 HCA-1", "alpha2 HCA-1");
            assertThat(caNames(rb.stdout())).containsExactlyInAnyOrder("beta1 HCA-1", "beta2 HCA-1", "beta3 HCA-1");
            assertThat(ra.stdout()).contains("leafa").doesNotContain("leafb");
        }
    }

    static List<String> caNames(String ibnetdiscover) {
        List<String> out = new ArrayList<>();
        for (String l : ibnetdiscover.split("\n")) {
            if (!l.startsWith("Ca\t")) continue;
            int h = l.indexOf("# \"");
            out.add(l.substring(h + 3, l.indexOf('"', h + 3)));
        }
        return out;
    }
}
