package io.ibaccept.dump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.model.ClusterData;
import io.ibaccept.model.InputProblem;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A dump is untrusted input from a ticket: nothing outside it is read, damaged manifests never look complete. */
class DumpSafetyTest {
    static final String MARKER = "root:x:0:0:SECRET-MARKER-7f3a:/root:/bin/bash";

    @TempDir
    Path tmp;

    Path dump() throws Exception {
        Path d = tmp.resolve("dump");
        DumpWriter w = new DumpWriter(d);
        w.manifest(new Manifest(1, "t", "2026-12-02T00:00:00Z", "test", "n1", List.of("n1"), Map.of()));
        w.command(Cmd.ULIMIT, "n1", new CommandResult("ulimit-l", "n1", "ulimit -l", CommandResult.OK, 0, 1, "", ""), "unlimited\n");
        return d;
    }

    /** Everything the model holds, as text, to search for the marker. */
    static String everything(ClusterData d) {
        return d.toString() + d.problems() + d.commands() + d.hosts() + d.fabric() + d.perftests();
    }

    @Test
    void traversalNodeNamesAndOutsideSymlinksReadNothingOutside() throws Exception {
        Path d = dump();
        Path secret = tmp.resolve("outside/secret");
        Files.createDirectories(secret.getParent());
        Files.writeString(secret, MARKER + "\n");
        // the manifest names a node that climbs out; nodes/ has a symlinked host dir and a symlinked file
        Files.writeString(d.resolve("manifest.txt"), "format: 1\ncluster: t\nnodes: n1 ../../outside n2 /etc -rf\n");
        Files.createSymbolicLink(d.resolve("nodes/n1/ibstat.out"), secret);
        Files.createSymbolicLink(d.resolve("nodes/n2"), secret.getParent());
        Files.createDirectories(d.resolve("fabric"));
        Files.createSymbolicLink(d.resolve("fabric/ibnetdiscover.out"), Path.of("../../outside/secret"));
        Files.createSymbolicLink(d.resolve("fabric/iblinkinfo.out"), tmp.resolve("no-such-file"));
        Files.createDirectories(d.resolve("perftest"));
        Files.createSymbolicLink(d.resolve("perftest/ib_write_bw__n1__n2.client.meta"), secret);
        Files.writeString(tmp.resolve("outside/ulimit-l.out"), "SECRET-MARKER-7f3a\n");

        ClusterData data = DumpLoader.load(d);
        assertThat(everything(data)).doesNotContain("SECRET-MARKER-7f3a");
        assertThat(data.manifest().nodes()).containsExactly("n1", "n2");
        assertThat(data.problems()).anySatisfy(p -> assertThat(p.message()).startsWith("node name '../../outside' is not a host name"));
        assertThat(data.problems()).anySatisfy(p -> assertThat(p.message()).startsWith("node name '/etc' is not a host name"));
        assertThat(data.problems()).anySatisfy(p -> assertThat(p.message()).startsWith("node name '-rf' is not a host name"));
        assertThat(data.problemsFor("n1", "ibstat")).singleElement().satisfies(p -> {
            assertThat(p.message()).isEqualTo("symlink to a place outside the dump: not read");
            assertThat(p.kind()).isEqualTo(InputProblem.Kind.PARSE_ERROR);
        });
        assertThat(data.problemsFor("n2", "ulimit-l")).singleElement()
                .satisfies(p -> assertThat(p.message()).isEqualTo("symlink to a place outside the dump: not read"));
        assertThat(data.problemsFor(null, "ibnetdiscover")).singleElement()
                .satisfies(p -> assertThat(p.message()).isEqualTo("symlink to a place outside the dump: not read"));
        assertThat(data.problemsFor(null, "iblinkinfo")).singleElement()
                .satisfies(p -> assertThat(p.message()).startsWith("dangling symlink"));
        assertThat(data.hosts().get("n1").memlockKib()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void symlinksInsideTheDumpAreFollowed() throws Exception {
        Path d = dump();
        Files.createDirectories(d.resolve("shared"));
        Files.writeString(d.resolve("shared/ofed"), "MLNX_OFED_LINUX-5.8-1.0.1.1:\n");
        Files.createSymbolicLink(d.resolve("nodes/n1/ofed_info.out"), Path.of("../../shared/ofed"));
        assertThat(DumpLoader.load(d).hosts().get("n1").ofedVersion()).isEqualTo("MLNX_OFED_LINUX-5.8-1.0.1.1");
    }

    @Test
    void aFifoIsNotReadSoItCannotHang() throws Exception {
        Path d = dump();
        Process p = new ProcessBuilder("mkfifo", d.resolve("nodes/n1/ibstat.out").toString()).start();
        assertThat(p.waitFor()).isZero();
        assertThat(DumpLoader.load(d).problemsFor("n1", "ibstat")).singleElement()
                .satisfies(x -> assertThat(x.message()).isEqualTo("not a regular file: not read"));
    }

    @Test
    void noNodesAtAllIsAnUnusableDump() throws Exception {
        Path d = dump();
        Files.writeString(d.resolve("manifest.txt"), "format: 1\ncluster: t\nnodes:\n");
        ZipDump.deleteTree(d.resolve("nodes"));
        assertThatThrownBy(() -> DumpLoader.load(d)).isInstanceOf(DumpLoader.DumpNotFound.class)
                .hasMessageContaining("no nodes in this dump").hasMessageContaining("'nodes:' line is empty or missing");
        Files.writeString(d.resolve("manifest.txt"), "format: 1\ncluster: t\n");
        assertThatThrownBy(() -> DumpLoader.load(d)).isInstanceOf(DumpLoader.DumpNotFound.class);
        Files.delete(d.resolve("manifest.txt"));
        assertThatThrownBy(() -> DumpLoader.load(d)).isInstanceOf(DumpLoader.DumpNotFound.class).hasMessageContaining("it is missing");
        // only hostile names: nothing usable either
        Files.writeString(d.resolve("manifest.txt"), "format: 1\nnodes: ../a /b\n");
        assertThatThrownBy(() -> DumpLoader.load(d)).isInstanceOf(DumpLoader.DumpNotFound.class);
    }

    @Test
    void emptyNodesLineFallsBackToTheNodesDirectory() throws Exception {
        Path d = dump();
        Files.writeString(d.resolve("manifest.txt"), "format: 1\ncluster: t\nnodes:\n");
        assertThat(DumpLoader.load(d).manifest().nodes()).containsExactly("n1");
    }

    @Test
    void duplicatedNodesPartialStateUnknownStateAndFormatAreProblems() throws Exception {
        Path d = dump();
        Files.writeString(d.resolve("manifest.txt"), "format: 1\nstate: partial\nnodes: n1 n1\n");
        ClusterData data = DumpLoader.load(d);
        assertThat(data.manifest().nodes()).containsExactly("n1");
        assertThat(data.problemsFor(null, "manifest")).anySatisfy(p -> {
            assertThat(p.message()).startsWith("node n1 is listed more than once");
            assertThat(p.where()).isEqualTo("manifest.txt:3");
        }).anySatisfy(p -> {
            assertThat(p.message()).startsWith("the collection that wrote this dump did not finish (state: partial");
            assertThat(p.kind()).isEqualTo(InputProblem.Kind.COMMAND_FAILED);
            assertThat(p.where()).isEqualTo("manifest.txt:2");
        });
        Files.writeString(d.resolve("manifest.txt"), "format: 1\nstate: halfway\nnodes: n1\n");
        assertThat(DumpLoader.load(d).problemsFor(null, "manifest")).singleElement()
                .satisfies(p -> assertThat(p.message()).startsWith("unknown state 'halfway'"));
        Files.writeString(d.resolve("manifest.txt"), "format: 2\nnodes: n1\n");
        assertThat(DumpLoader.load(d).problemsFor(null, "manifest")).singleElement()
                .satisfies(p -> assertThat(p.message()).isEqualTo("unsupported dump format 2 (this ibaccept reads 1)"));
        // a complete manifest written by the writer round-trips without problems
        new DumpWriter(d).manifest(new Manifest(1, "t", "", "", "n1", List.of("n1"), Map.of()).withState(Manifest.COMPLETE));
        assertThat(DumpLoader.load(d).problemsFor(null, "manifest")).isEmpty();
        assertThat(Files.readString(d.resolve("manifest.txt"))).contains("state: complete");
    }

    @Test
    void aMissingRequiredFileStaysAProblem() throws Exception {
        Path d = dump();
        Files.delete(d.resolve("nodes/n1/ulimit-l.out"));
        // its .meta says it ran: the output was lost from the dump, which is damage, not "not collected"
        assertThat(DumpLoader.load(d).problemsFor("n1", "ulimit-l")).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(InputProblem.Kind.PARSE_ERROR);
            assertThat(p.message()).isEqualTo("its ulimit-l.meta says the command ran (status ok) but the output file is missing:"
                    + " the dump was edited, cut or merged");
        });
        Files.delete(d.resolve("nodes/n1/ulimit-l.meta"));
        assertThat(DumpLoader.load(d).problemsFor("n1", "ulimit-l")).singleElement()
                .satisfies(p -> assertThat(p.kind()).isEqualTo(InputProblem.Kind.MISSING));
        assertThat(DumpLoader.load(d).problemsFor("n1", "smpquery-nodeinfo")).singleElement()
                .satisfies(p -> assertThat(p.kind()).isEqualTo(InputProblem.Kind.MISSING));
    }

    @Test
    void filesAboveTheReadLimitAreProblemsNamingTheFile() throws Exception {
        Path d = dump();
        Files.createDirectories(d.resolve("fabric"));
        byte[] line = "GUID 0x0002c90300000001 port 1: [SymbolErrorCounter == 65535]\n".getBytes(StandardCharsets.UTF_8);
        try (OutputStream o = Files.newOutputStream(d.resolve("fabric/ibqueryerrors.out"))) {
            for (int i = 0; i < (3 << 20) / line.length; i++) o.write(line);
        }
        ClusterData data = DumpLoader.load(d, 2L << 20);
        assertThat(data.problemsFor(null, "ibqueryerrors")).singleElement().satisfies(p -> {
            assertThat(p.where()).isEqualTo("fabric/ibqueryerrors.out");
            assertThat(p.message()).matches("file is 3[.,]0 MiB, above the read limit of 2 MiB: not read \\(raise it with -Dibaccept.max-file-mib=N\\)");
        });
    }

    @Test
    void decodingIsUtf8OrLatin1() {
        byte[] utf8 = "Mellanox ünï\n".getBytes(StandardCharsets.UTF_8);
        assertThat(DumpFiles.decode(utf8, utf8.length)).isEqualTo("Mellanox ünï\n");
        byte[] latin1 = "caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
        assertThat(DumpFiles.decode(latin1, latin1.length)).isEqualTo("caf\u00e9\n");
        byte[] cut = {'a', (byte) 0xc3};
        assertThat(DumpFiles.decode(cut, 2)).isEqualTo("a\u00c3");
    }

    @Test
    void zippedDumpLoadsLikeTheDirectory() throws Exception {
        Path d = dump();
        Path zip = tmp.resolve("ticket.zip");
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(zip))) {
            put(z, "dump/manifest.txt", Files.readString(d.resolve("manifest.txt")));
            put(z, "dump/nodes/n1/ulimit-l.out", "unlimited\n");
            put(z, "dump/nodes/n1/ulimit-l.meta", Files.readString(d.resolve("nodes/n1/ulimit-l.meta")));
        }
        ClusterData data = DumpLoader.load(zip);
        assertThat(data.source()).isEqualTo(zip.toString());
        assertThat(data.hosts().get("n1").memlockKib()).isEqualTo(Long.MAX_VALUE);
        assertThat(data.problemsFor(null, "zip")).isEmpty();
    }

    @Test
    void zipSlipEntriesAreSkippedAndOversizeEntriesWithheld() throws Exception {
        Path zip = tmp.resolve("evil/hostile.zip");
        Files.createDirectories(zip.getParent());
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(zip))) {
            put(z, "manifest.txt", "format: 1\nnodes: n1\n");
            put(z, "../../zip-slip-" + "marker", "pwned");
            put(z, "/tmp/absolute-zip-marker", "pwned");
            put(z, "nodes/n1/ulimit-l.out", "unlimited\n");
            put(z, "nodes/n1/ibstat.out", "x".repeat(3 << 20)); // compresses to almost nothing
        }
        ClusterData data = DumpLoader.load(zip, 1L << 20);
        assertThat(Files.exists(tmp.resolve("zip-slip-marker"))).isFalse();
        assertThat(Files.exists(tmp.resolve("evil/zip-slip-marker"))).isFalse();
        assertThat(Files.exists(Path.of("/tmp/absolute-zip-marker"))).isFalse();
        assertThat(data.problemsFor(null, "zip")).extracting(InputProblem::file)
                .containsExactlyInAnyOrder("../../zip-slip-marker", "/tmp/absolute-zip-marker");
        assertThat(data.problemsFor("n1", "ibstat")).singleElement()
                .satisfies(p -> assertThat(p.message()).startsWith("zip entry inflates to more than the read limit of 1 MiB"));
        assertThat(data.hosts().get("n1").memlockKib()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void zipBombsAndGarbageAreUnusable() throws Exception {
        Path zip = tmp.resolve("bomb.zip");
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(zip))) {
            put(z, "manifest.txt", "format: 1\nnodes: n1\n");
            for (int i = 0; i < 4; i++) put(z, "nodes/n1/f" + i, "0".repeat(1 << 20));
        }
        assertThatThrownBy(() -> ZipDump.extract(zip, new ZipDump.Limits(2 << 20, 3 << 20, 100)))
                .isInstanceOf(DumpLoader.DumpNotFound.class).hasMessageContaining("inflates to more than 3 MiB");
        assertThatThrownBy(() -> ZipDump.extract(zip, new ZipDump.Limits(2 << 20, 1L << 30, 3)))
                .isInstanceOf(DumpLoader.DumpNotFound.class).hasMessageContaining("more than 3 entries");
        Path garbage = tmp.resolve("garbage.zip");
        Files.writeString(garbage, "not a zip");
        assertThatThrownBy(() -> DumpLoader.load(garbage)).isInstanceOf(DumpLoader.DumpNotFound.class)
                .hasMessageContaining("not a readable zip archive");
    }

    @Test
    void duplicateZipEntriesAreNeitherRead() throws Exception {
        Path zip = tmp.resolve("merged.zip");
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(zip))) {
            put(z, "dump/manifest.txt", "format: 1\nnodes: n1\n");
            put(z, "dump/nodes/n1/ulimit-l.out", "64\n");
            put(z, "dump/nodes/n1/ulimit-l.oux", "unlimited\n"); // renamed below: ZipOutputStream refuses a duplicate
        }
        byte[] b = Files.readAllBytes(zip);
        String latin = new String(b, StandardCharsets.ISO_8859_1).replace("ulimit-l.oux", "ulimit-l.out");
        Files.write(zip, latin.getBytes(StandardCharsets.ISO_8859_1));
        ClusterData data = DumpLoader.load(zip);
        // the healthy second copy must not hide the first: neither is judged
        assertThat(data.hosts().get("n1").memlockKib()).isNull();
        assertThat(data.problemsFor("n1", "ulimit-l")).singleElement().satisfies(p -> {
            assertThat(p.file()).isEqualTo("nodes/n1/ulimit-l.out");
            assertThat(p.message()).contains("more than one entry named dump/nodes/n1/ulimit-l.out");
        });
    }

    @Test
    void aZipBombStopsFarBelowTheFreeSpace() throws Exception {
        ZipDump.Limits l = new ZipDump.Limits(64L << 20, 4096L << 20, 500_000);
        // by default at most 200 x the archive + 64 MiB, and never more than half the free space
        assertThat(l.totalFor(10L << 20, 100L << 30, false)).isEqualTo((10L << 20) * 200 + (64L << 20));
        assertThat(l.totalFor(10L << 20, 1L << 30, false)).isEqualTo(512L << 20);
        assertThat(l.totalFor(100L << 20, 100L << 30, true)).isEqualTo(4096L << 20);
        Path zip = tmp.resolve("bomb.zip");
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(zip))) {
            put(z, "manifest.txt", "format: 1\nnodes: n1\n");
            z.putNextEntry(new ZipEntry("nodes/n1/ibstat.out"));
            byte[] zeros = new byte[1 << 20];
            for (int i = 0; i < 120; i++) z.write(zeros);
            z.closeEntry();
        }
        assertThat(Files.size(zip)).isLessThan(1L << 20);
        assertThatThrownBy(() -> ZipDump.extract(zip, ZipDump.Limits.defaults(1L << 30)))
                .isInstanceOf(DumpLoader.DumpNotFound.class).hasMessageContaining("200 x the archive plus 64 MiB");
    }

    @Test
    void aRefusedSparseFileIsNotHashedWhole() throws Exception {
        Path d = dump();
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(d.resolve("nodes/n1/core").toFile(), "rw")) {
            f.setLength(16L << 30); // 16 GiB, sparse: reading it all would take about a minute
        }
        long t0 = System.nanoTime();
        ClusterData data = DumpLoader.load(d);
        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(30);
        assertThat(data.dumpId()).startsWith("sha256:");
        assertThat(data.hosts().get("n1").memlockKib()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aHardLinkIsNotReadSinceItsOtherNameMayBeOutsideTheDump() throws Exception {
        Path d = dump();
        Path outside = Files.writeString(tmp.resolve("shadow"), "unlimited\n");
        Files.delete(d.resolve("nodes/n1/ulimit-l.out"));
        Files.createLink(d.resolve("nodes/n1/ulimit-l.out"), outside);
        ClusterData data = DumpLoader.load(d);
        assertThat(data.hosts().get("n1").memlockKib()).isNull();
        assertThat(data.problemsFor("n1", "ulimit-l")).singleElement()
                .satisfies(p -> assertThat(p.message()).startsWith("hard link (the file has 2 names; another may be outside the dump): not read"));
    }

    @Test
    void aFailedCommandOfOneValueIsNotJudged() throws Exception {
        Path d = dump();
        // 'ulimit -l' exited 1 although it printed a number: that number proves nothing
        new DumpWriter(d).command(Cmd.ULIMIT, "n1", new CommandResult("ulimit-l", "n1", "ulimit -l", CommandResult.FAILED, 1, 1, "",
                "bash: ulimit: max locked memory: cannot modify limit\n"), "64\n");
        ClusterData data = DumpLoader.load(d);
        assertThat(data.hosts().get("n1").memlockKib()).isNull();
        assertThat(data.problemsFor("n1", "ulimit-l")).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(InputProblem.Kind.COMMAND_FAILED);
            assertThat(p.message()).endsWith("cannot modify limit; what it printed is not judged");
        });
    }

    @Test
    void anOutputLeftFromAnEarlierCollectionIsNotRead() throws Exception {
        Path d = dump(); // its manifest says the collection began 2026-12-02T00:00:00Z
        DumpWriter w = new DumpWriter(d);
        w.command(Cmd.ULIMIT, "n1", new CommandResult("ulimit-l", "n1", "ulimit -l", CommandResult.OK, 0, 1, "2026-11-30T10:00:00Z", ""), "64\n");
        ClusterData data = DumpLoader.load(d);
        assertThat(data.hosts().get("n1").memlockKib()).isNull();
        assertThat(data.problemsFor("n1", "ulimit-l")).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(InputProblem.Kind.MISSING);
            assertThat(p.message()).isEqualTo("left from an earlier collection (started 2026-11-30T10:00:00Z, before this dump's"
                    + " collection began at 2026-12-02T00:00:00Z): not read");
        });
        // one of this collection is read
        w.command(Cmd.ULIMIT, "n1", new CommandResult("ulimit-l", "n1", "ulimit -l", CommandResult.OK, 0, 1, "2026-12-02T00:05:00Z", ""), "64\n");
        assertThat(DumpLoader.load(d).hosts().get("n1").memlockKib()).isEqualTo(64);
    }

    @Test
    void anIblinkinfoCutBetweenTwoSwitchesIsNamed() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(DemoDump.DIR), "the demo dump is beside this module");
        Path d = DemoDump.copyTo(tmp.resolve("demo"));
        assertThat(DumpLoader.load(d).problemsFor(null, "iblinkinfo")).isEmpty();
        // cut on a line boundary, before its third switch: every line left reads fine
        List<String> lines = Files.readAllLines(d.resolve("fabric/iblinkinfo.out"));
        int third = 0;
        for (int i = 0, seen = 0; i < lines.size() && third == 0; i++) if (lines.get(i).startsWith("Switch") && ++seen == 3) third = i;
        Files.write(d.resolve("fabric/iblinkinfo.out"), lines.subList(0, third));
        assertThat(DumpLoader.load(d).problemsFor(null, "iblinkinfo")).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(InputProblem.Kind.PARSE_ERROR);
            assertThat(p.message()).startsWith("lists 2 of the 6 switches ibnetdiscover found (missing: ")
                    .endsWith("its output stops early (cut) or they did not answer when it ran; their links are known from ibnetdiscover only");
        });
    }

    static void put(ZipOutputStream z, String name, String content) throws Exception {
        z.putNextEntry(new ZipEntry(name));
        z.write(content.getBytes(StandardCharsets.UTF_8));
        z.closeEntry();
    }

    @Test
    void theWriterNeverWritesOutsideTheDump() throws Exception {
        DumpWriter w = new DumpWriter(tmp.resolve("out"));
        CommandResult r = new CommandResult("ibstat", "x", "ibstat", CommandResult.OK, 0, 1, "", "");
        for (String host : List.of("../../escaped", "/tmp/escaped", "..", "a/../../escaped"))
            assertThatThrownBy(() -> w.command(Cmd.IBSTAT, host, r, "x")).isInstanceOf(io.ibaccept.safety.Shell.UnsafeValue.class);
        assertThatThrownBy(() -> w.write("perftest/../../escaped.out", "x")).isInstanceOf(io.ibaccept.safety.Shell.UnsafeValue.class);
        assertThat(tmp.resolve("escaped")).doesNotExist();
        assertThat(Path.of("/tmp/escaped")).doesNotExist();
    }
}
