package io.ibaccept.safety;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.dump.Manifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Links planted in an output directory (the tool often runs as root) never redirect a write. */
class OutputFilesTest {
    @TempDir
    Path tmp;

    @Test
    void aLinkPlantedAtAFileNameIsReplacedAndItsTargetIsNotTouched() throws IOException {
        Path out = Files.createDirectories(tmp.resolve("o"));
        Path victim = Files.writeString(tmp.resolve("victim"), "precious\n");
        Files.createSymbolicLink(out.resolve("findings.csv"), victim);
        writeString(out, "findings.csv", "new\n");
        assertThat(Files.readString(victim)).isEqualTo("precious\n");
        assertThat(Files.isSymbolicLink(out.resolve("findings.csv"))).isFalse();
        assertThat(Files.readString(out.resolve("findings.csv"))).isEqualTo("new\n");
        assertThat(leftovers(out)).isEmpty();
    }

    @Test
    void aLinkPlantedAsADirectoryIsRefusedAndNothingIsWrittenBehindIt() throws IOException {
        Path out = Files.createDirectories(tmp.resolve("dump"));
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.createDirectories(out.resolve("nodes"));
        Files.createSymbolicLink(out.resolve("nodes/cn0001"), elsewhere);
        assertThatThrownBy(() -> writeString(out, "nodes/cn0001/ibstat.out", "x"))
                .isInstanceOf(OutputFiles.Refused.class).hasMessageContaining("cn0001 is a symbolic link");
        assertThat(elsewhere).isEmptyDirectory();
        // a file where a directory must be
        Files.writeString(out.resolve("fabric"), "");
        assertThatThrownBy(() -> writeString(out, "fabric/ibnetdiscover.out", "x")).hasMessageContaining("is not a directory");
    }

    @Test
    void aDirectorySwappedForALinkWhileTheFileIsWrittenDoesNotRedirectIt() throws IOException {
        Path dump = Files.createDirectories(tmp.resolve("dump/nodes/cn0001"));
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        // the race of someone who can write into the dump: once the directory was checked, it becomes a link
        OutputFiles.write(tmp.resolve("dump"), "nodes/cn0001/ibstat.out", out -> {
            Files.move(dump, tmp.resolve("dump/nodes/cn0001-moved"));
            Files.createSymbolicLink(tmp.resolve("dump/nodes/cn0001"), elsewhere);
            out.write("CA 'mlx5_0'\n".getBytes());
        });
        assertThat(elsewhere).isEmptyDirectory();
        // written through the directory's descriptor: the file is in the directory that was checked
        assertThat(tmp.resolve("dump/nodes/cn0001-moved/ibstat.out")).hasContent("CA 'mlx5_0'");
        assertThat(leftovers(tmp.resolve("dump"))).isEmpty();
    }

    @Test
    void theDumpWriterNeitherFollowsNorReadsPlantedLinks() throws IOException {
        Path dump = Files.createDirectories(tmp.resolve("dump"));
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Path secret = Files.writeString(tmp.resolve("secret"), "root:x:0:0\n");
        Files.createDirectories(dump.resolve("nodes"));
        Files.createSymbolicLink(dump.resolve("nodes/cn0001"), elsewhere);
        Files.createSymbolicLink(dump.resolve(Manifest.FILE), secret);
        DumpWriter w = new DumpWriter(dump);
        // the manifest link: replaced by a manifest of this run, the target neither overwritten nor copied in
        w.state(Manifest.PARTIAL, new Manifest(Manifest.FORMAT, "c", "", "", "", List.of("cn0001"), Map.of(), Manifest.PARTIAL));
        assertThat(Files.readString(secret)).isEqualTo("root:x:0:0\n");
        assertThat(Files.isSymbolicLink(dump.resolve(Manifest.FILE))).isFalse();
        assertThat(Files.readString(dump.resolve(Manifest.FILE))).doesNotContain("root:x").contains("state: partial");
        CommandResult r = new CommandResult("ibstat", "cn0001", "ibstat", CommandResult.OK, 0, 1, "", "");
        assertThatThrownBy(() -> w.command("nodes/cn0001/ibstat.out", r, "CA 'mlx5_0'\n"))
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining("symbolic link");
        assertThat(elsewhere).isEmptyDirectory();
        w.command("nodes/cn0002/ibstat.out", r, "CA 'mlx5_0'\n");
        assertThat(dump.resolve("nodes/cn0002/ibstat.out")).hasContent("CA 'mlx5_0'");
        assertThat(leftovers(dump)).isEmpty();
    }

    @Test
    void aFileIsWholeOrAbsentAndKeepsTheUsualPermissions() throws IOException {
        Path out = Files.createDirectories(tmp.resolve("o"));
        writeString(out, "report.html", "old");
        assertThatThrownBy(() -> OutputFiles.write(out, "report.html", o -> {
            o.write("half of the new".getBytes());
            throw new IOException("No space left on device");
        })).hasMessageContaining("No space left");
        assertThat(out.resolve("report.html")).hasContent("old");
        assertThat(leftovers(out)).isEmpty();
        // not the 0600 of a temporary file: others may read a report as they could before
        assertThat(Files.getPosixFilePermissions(out.resolve("report.html"), LinkOption.NOFOLLOW_LINKS))
                .isEqualTo(Files.getPosixFilePermissions(Files.writeString(tmp.resolve("plain"), ""), LinkOption.NOFOLLOW_LINKS));
    }

    /** Temporary files a write left behind. */
    private static List<Path> leftovers(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".part")).toList();
        }
    }

    private static Path writeString(Path root, String rel, String text) throws IOException {
        return OutputFiles.write(root, rel, out -> out.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
}
