package io.ibaccept.cli;

import static io.ibaccept.cli.MainTest.DEMO;
import static io.ibaccept.cli.MainTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every file named beside the dump, on every command that takes it, is refused the same way when it cannot be what
 * it claims: one sentence naming the file, exit 2, no report. A cabling plan not read must not let the cabling pass.
 */
class SideInputsTest {
    /** command, option, what the message calls the file. */
    static final List<String[]> OPTIONS = List.of(
            new String[] {"analyze", "--rules", "rules file"}, new String[] {"analyze", "--waivers", "waivers file"},
            new String[] {"analyze", "--node-name-map", "node-name-map"}, new String[] {"analyze", "--expect", "cabling plan"},
            new String[] {"analyze", "--contract", "contract"}, new String[] {"diff", "--rules", "rules file"},
            new String[] {"diff", "--node-name-map", "node-name-map"}, new String[] {"diff", "--contract", "contract"},
            new String[] {"contract", "--expect", "cabling plan"});

    @Test
    void anUnreadableSideInputIsRefusedWithExit2OnEveryCommand(@TempDir Path tmp) throws Exception {
        Assumptions.assumeTrue(Files.exists(Path.of("/dev/urandom")), "a character device to name");
        Path fifo = tmp.resolve("fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        Path dir = Files.createDirectories(tmp.resolve("dir"));
        Path big = tmp.resolve("big");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(65L << 20); // sparse, above every bound (the plan's 64 MiB is the largest)
        }
        Path binary = tmp.resolve("binary");
        Files.write(binary, new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, (byte) 0xff, (byte) 0xfe});
        // kind, file, what the message says after "FILE: "
        List<String[]> kinds = List.of(new String[] {"FIFO", fifo.toString(), "the %s is not a regular file"},
                new String[] {"character device", "/dev/urandom", "the %s is not a regular file"},
                new String[] {"directory", dir.toString(), "the %s is not a regular file"},
                new String[] {"missing", tmp.resolve("none").toString(), "cannot read the %s (no such file or directory)"},
                new String[] {"too large", big.toString(), "the %s is 65.0 MiB, more than "},
                new String[] {"binary", binary.toString(), "the %s is binary (a NUL byte at offset 3), not text"});
        List<String> failures = new ArrayList<>();
        int n = 0;
        for (String[] o : OPTIONS)
            for (String[] k : kinds) {
                Path out = tmp.resolve("out" + n++);
                List<String> args = new ArrayList<>(switch (o[0]) {
                    case "analyze" -> List.of("analyze", DEMO.toString(), "-o", out.toString());
                    case "diff" -> List.of("diff", DEMO.toString(), DEMO.toString(), "-o", out.toString());
                    default -> List.of("contract", "init", DEMO.toString(), "-o", out.resolve("c.yaml").toString());
                });
                args.add(o[1]);
                args.add(k[1]);
                MainTest.Run r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(60),
                        () -> run(args.toArray(String[]::new)), o[0] + " " + o[1] + " " + k[0] + " blocked");
                String expected = "ibaccept: " + k[1] + ": " + String.format(k[2], o[2]);
                if (r.code() != Main.USAGE || !r.err().startsWith(expected) || r.err().lines().count() != 1 || !r.out().isEmpty() || Files.exists(out))
                    failures.add(o[0] + " " + o[1] + " " + k[0] + ": exit " + r.code() + ", err " + r.err().strip() + ", out " + r.out().lines().findFirst().orElse("")
                            + (Files.exists(out) ? ", wrote " + out : ""));
            }
        assertThat(failures).isEmpty();
    }
}
