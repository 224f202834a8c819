package io.ibaccept.dump;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.model.ClusterData;
import io.ibaccept.model.PortCounters;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Large inputs are streamed: memory follows the fabric, not the file. The 200 MB file is generated here (never
 * committed) and loaded in a child JVM with a small heap, so a loader that holds the file whole fails the test with an
 * OutOfMemoryError. Also: hostile large files still give findings with file:line, and the dump id the loader computes
 * while reading is the documented hash of the dump's files.
 */
class LargeInputTest {
    @TempDir
    Path dir;

    private static final int SWITCHES = 648, PORTS = 36, GARBAGE_PER_RUN = 20_000;

    private void manifest(Path root) throws IOException {
        Files.createDirectories(root.resolve("fabric"));
        Files.createDirectories(root.resolve("nodes/n1"));
        Files.writeString(root.resolve("manifest.txt"), "format: 1\ncluster: big\ncreated: 2026-12-02T00:00:00Z\ncollector: test\n"
                + "fabric_node: n1\nnodes: n1\nstate: complete\n");
    }

    /**
     * An ibqueryerrors of a 648-switch fabric printed again and again (runs concatenated), each run followed by 20,000
     * distinct garbage lines, up to 200 MB: 23,328 ports and over a million unreadable lines.
     */
    private long writeHugeIbqueryerrors(Path file) throws IOException {
        long size = 0;
        int run = 0;
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.US_ASCII)) {
            while (size < 200_000_000L) {
                StringBuilder sb = new StringBuilder(4 << 20);
                for (int s = 0; s < SWITCHES; s++) {
                    String guid = String.format("0x0002c903%06x", s);
                    sb.append("Errors for ").append(guid).append(" \"MF0;leaf").append(s).append(":MSB7800/U1\"\n");
                    for (int p = 1; p <= PORTS; p++)
                        sb.append("   GUID ").append(guid).append(" port ").append(p).append(": [SymbolErrorCounter == ")
                                .append(run + p).append("] [LinkDownedCounter == 1] [PortRcvErrors == 12] [PortXmitDiscards == 3]")
                                .append(" [PortXmitWait == 77777]\n");
                }
                for (int g = 0; g < GARBAGE_PER_RUN; g++) sb.append("garbage run ").append(run).append(" line ").append(g).append('\n');
                w.append(sb);
                size += sb.length();
                run++;
            }
            w.append("## Summary: 648 nodes checked, 0 bad nodes found\n");
        }
        return size;
    }

    @Test
    void a200MegabyteIbqueryerrorsIsReadInASmallHeapWithItsPortsFoldedAndItsProblemsCapped() throws Exception {
        Path root = dir.resolve("dump");
        manifest(root);
        writeHugeIbqueryerrors(root.resolve("fabric/ibqueryerrors.out"));
        assertThat(Files.size(root.resolve("fabric/ibqueryerrors.out"))).isGreaterThan(200_000_000L);

        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx128m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                LargeFileChild.class.getName(), root.toString(), "256").redirectErrorStream(true).start();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("records=" + SWITCHES * PORTS)
                // 1,000 listed, then one that counts the rest and names where they start
                .contains("problems=" + (io.ibaccept.parse.Issues.DEFAULT_MAX_PER_FILE + 1))
                .containsPattern("summary=fabric/ibqueryerrors.out:\\d+");
    }

    @Test
    void aTwentyMegabyteLineInAStreamedFileIsAProblemWithItsLineAndTheRestIsRead() throws IOException {
        Path root = dir.resolve("dump");
        manifest(root);
        String head = "Errors for 0x0002c90300000001 \"leaf1\"\n   GUID 0x0002c90300000001 port 1: [SymbolErrorCounter == 5]\n";
        try (OutputStream o = Files.newOutputStream(root.resolve("fabric/ibqueryerrors.out"))) {
            o.write(head.getBytes(StandardCharsets.US_ASCII));
            byte[] chunk = "[SymbolErrorCounter == 9]".repeat(40_000).getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 21; i++) o.write(chunk); // one line of 21 MB
            o.write("\n   GUID 0x0002c90300000001 port 2: [LinkDownedCounter == 3]\n## Summary: 1 nodes checked\n"
                    .getBytes(StandardCharsets.US_ASCII));
        }
        ClusterData d = DumpLoader.load(root, 64L << 20);
        assertThat(d.fabric().errorCounters()).extracting(PortCounters::port).containsExactly(1, 2);
        assertThat(d.problemsFor(null, "ibqueryerrors")).singleElement().satisfies(pr -> {
            assertThat(pr.where()).isEqualTo("fabric/ibqueryerrors.out:3");
            assertThat(pr.message()).startsWith("line is 21000000 characters long (limit 65536): not parsed");
        });
    }

    @Test
    void aLargeBinaryFileIsOneProblemAndALargeLatin1FileIsRead() throws IOException {
        Path root = dir.resolve("dump");
        manifest(root);
        String port = "   GUID 0x0002c90300000001 port 1: [SymbolErrorCounter == 5]\n";
        try (OutputStream o = Files.newOutputStream(root.resolve("fabric/ibqueryerrors.out"))) {
            o.write("Errors for 0x0002c90300000001 \"leaf1\"\n".getBytes(StandardCharsets.US_ASCII));
            for (int i = 0; i < 200_000; i++) o.write(port.getBytes(StandardCharsets.US_ASCII));
            o.write(new byte[] {0x7f, 'E', 'L', 'F', 0, 0, 1, '\n'});
        }
        try (OutputStream o = Files.newOutputStream(root.resolve("fabric/perfquery.out"))) {
            byte[] block = "# Port counters: Lid 5 port 1 (CapMask: 0x5A00)\nSymbolErrorCounter:..............3\n"
                    .getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 110_000; i++) o.write(block);
            o.write("# Port counters: Lid 6 port 1 (caf\u00e9)\nSymbolErrorCounter:..............4\n".getBytes(StandardCharsets.ISO_8859_1));
        }
        assertThat(Files.size(root.resolve("fabric/perfquery.out"))).isGreaterThan(DumpFiles.DEFAULT_STREAM_ABOVE_BYTES);
        assertThat(Files.size(root.resolve("fabric/ibqueryerrors.out"))).isGreaterThan(DumpFiles.DEFAULT_STREAM_ABOVE_BYTES);
        ClusterData d = DumpLoader.load(root, 64L << 20);
        assertThat(d.fabric().errorCounters()).isNull();
        assertThat(d.problemsFor(null, "ibqueryerrors")).singleElement().satisfies(pr -> {
            assertThat(pr.where()).isEqualTo("fabric/ibqueryerrors.out");
            assertThat(pr.message()).isEqualTo("binary content (NUL bytes): not tool output");
        });
        // not UTF-8: read again as ISO-8859-1, as a small file is decoded; the repeated port is one record
        assertThat(d.fabric().perfCounters()).extracting(PortCounters::lid).containsExactly(5, 6);
        assertThat(d.problemsFor(null, "perfquery")).isEmpty();
    }

    @Test
    void aParserThatReadsWholeFilesIsBoundedWhileTheStreamingParsersAreNot() throws IOException {
        Path root = dir.resolve("dump");
        manifest(root);
        String link = "Switch: 0x0002c90300000001 leaf1:\n";
        Files.writeString(root.resolve("fabric/iblinkinfo.out"), link.repeat(2 * 1024 * 1024 / link.length() + 1));
        String block = "# Port counters: Lid 5 port 1 (CapMask: 0x5A00)\nSymbolErrorCounter:..............3\n";
        Files.writeString(root.resolve("fabric/perfquery.out"), block.repeat(2 * 1024 * 1024 / block.length() + 1));
        String oldStream = System.setProperty("ibaccept.stream-above-mib", "1");
        String oldWhole = System.setProperty("ibaccept.max-whole-file-mib", "1");
        ClusterData d;
        try {
            d = DumpLoader.load(root, 64L << 20);
        } finally {
            restore("ibaccept.stream-above-mib", oldStream);
            restore("ibaccept.max-whole-file-mib", oldWhole);
        }
        assertThat(d.fabric().links()).isNull();
        assertThat(d.problemsFor(null, "iblinkinfo")).singleElement().satisfies(pr -> {
            assertThat(pr.where()).isEqualTo("fabric/iblinkinfo.out");
            assertThat(pr.message()).startsWith("file is larger than 1 MiB, the most this parser reads whole into memory");
        });
        assertThat(d.fabric().perfCounters()).singleElement().satisfies(pc -> assertThat(pc.lid()).isEqualTo(5));
        assertThat(d.problemsFor(null, "perfquery")).isEmpty();
    }

    private static void restore(String key, String old) {
        if (old == null) System.clearProperty(key);
        else System.setProperty(key, old);
    }

    @Test
    void theDumpIdIsTheHashOfTheDumpsFilesForADirectoryAndForItsZip() throws Exception {
        Path demo = Path.of("..", "sample-dumps", "dumps", "demo-hdr16");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(demo), "the demo dump is beside this module");
        String expected = sha256sumOfTree(demo);
        ClusterData d = DumpLoader.load(demo);
        assertThat(d.dumpId()).isEqualTo(expected);

        Path zip = dir.resolve("demo.zip");
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(zip)); Stream<Path> s = Files.walk(demo)) {
            for (Path f : s.filter(Files::isRegularFile).sorted().toList()) {
                z.putNextEntry(new ZipEntry("demo-hdr16/" + demo.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, z);
                z.closeEntry();
            }
        }
        assertThat(DumpLoader.load(zip).dumpId()).isEqualTo(expected);

        // a file the loader does not read (and a stderr capture above 64 KiB) still counts
        Path copy = DemoDump.copyTo(dir.resolve("copy"));
        Files.writeString(copy.resolve("NOTES.txt"), "ticket 4711\n");
        Files.writeString(copy.resolve("fabric/ibnetdiscover.err"), "warning\n".repeat(20_000));
        // links are not files of the dump (find -type f): neither a linked file nor a linked directory counts
        Files.createSymbolicLink(copy.resolve("NOTES-link.txt"), copy.resolve("NOTES.txt"));
        Files.createSymbolicLink(copy.resolve("fabric-link"), copy.resolve("fabric"));
        // files large enough to be hashed by NSS where the JDK has it: one the loader streams, one it does not read
        byte[] blankLines = new byte[(int) Sha256.NATIVE_FROM_BYTES + 12_345];
        java.util.Arrays.fill(blankLines, (byte) '\n');
        Files.write(copy.resolve("fabric/ibqueryerrors.out"), blankLines, java.nio.file.StandardOpenOption.APPEND);
        Files.write(copy.resolve("NOTES-large.txt"), blankLines);
        assertThat(DumpLoader.load(copy).dumpId()).isEqualTo(sha256sumOfTree(copy)).isNotEqualTo(expected);
    }

    /** (cd DUMP && find . -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 sha256sum) | sha256sum, as the README says. */
    private static String sha256sumOfTree(Path root) throws Exception {
        Map<String, Path> files = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            s.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                    .forEach(p -> files.put(root.relativize(p).toString().replace('\\', '/'), p));
        }
        StringBuilder lines = new StringBuilder();
        HexFormat hex = HexFormat.of();
        for (var e : files.entrySet())
            lines.append(hex.formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(e.getValue()))))
                    .append("  ").append(e.getKey()).append('\n');
        return "sha256:" + hex.formatHex(MessageDigest.getInstance("SHA-256").digest(lines.toString().getBytes(StandardCharsets.UTF_8)));
    }

}
