package io.ibaccept.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Text from a hostile dump reaches the operator's terminal only as visible escapes, on every console path. */
class ConsoleEscapeTest {
    /** OSC title + bell, clear screen, colour, RLO, line separator, noncharacter, C1 CSI, backspace. */
    static final String CORPUS = "\u001b]0;pwned\u0007\u001b[2J\u001b[31m\u202e\u2028\ufffe\u009b\b";
    /** What must never reach the terminal raw (as UTF-8). */
    static final List<byte[]> RAW = Stream.of("\u001b", "\u0007", "\u202e", "\u2028", "\ufffe", "\u009b", "\b")
            .map(s -> s.getBytes(StandardCharsets.UTF_8)).toList();

    @TempDir
    Path tmp;

    @Test
    void theConsoleEscapesUnsafeCharactersAndBytesThatAreNotUtf8() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream c = Console.of(new PrintStream(buf, true, StandardCharsets.UTF_8));
        c.println("leaf03 " + CORPUS + " caf\u00e9 \u4e2d \ud83d\ude80");
        c.write(new byte[] {'m', 'l', 'x', '5', '_', '0', (byte) 0xe9, (byte) 0xc0, (byte) 0xaf, '\n'}, 0, 10); // Latin-1, overlong '/'
        c.flush();
        assertThat(buf.toString(StandardCharsets.UTF_8)).isEqualTo("leaf03 \\x1b]0;pwned\\x07\\x1b[2J\\x1b[31m\\u202e\\u2028\\ufffe\\x9b\\x08"
                + " caf\u00e9 \u4e2d \ud83d\ude80\nmlx5_0\\xe9\\xc0\\xaf\n");
    }

    @Test
    void analyzeAndDiffOfAHostileDumpPrintNoEscapeSequence() throws Exception {
        Path demo = MainTest.DEMO;
        Path dump = MainTest.copyOfDemo(tmp.resolve("hostile"));
        // a FAIL root quoting a tool's output, a failed command's stderr, a refused node name, the cluster name
        replace(dump.resolve("nodes/node12/chronyc-tracking.out"), "Leap status     : Not synchronised", "Leap status     : Not synchronised" + CORPUS);
        replace(dump.resolve("nodes/node04/ofed_info.meta"), "status: ok", "status: failed");
        replace(dump.resolve("nodes/node04/ofed_info.meta"), "exit: 0", "exit: 1");
        Files.writeString(dump.resolve("nodes/node04/ofed_info.err"), "ofed_info: " + CORPUS + "error\n");
        replace(dump.resolve("manifest.txt"), "cluster: demo-hdr16", "cluster: demo" + CORPUS);
        replace(dump.resolve("manifest.txt"), "nodes: node01", "nodes: no" + CORPUS + "de99 node01");

        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = Main.run(new String[] {"analyze", dump.toString(), "-o", tmp.resolve("o").toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(rc).isEqualTo(Main.NOT_ACCEPTED);
        String printed = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertThat(printed).contains("ofed_info: \\x1b]0;pwned\\x07").contains("\\u202e");
        assertClean(out.toByteArray(), "analyze stdout");
        assertClean(err.toByteArray(), "analyze stderr");
        // the reports carry the same text escaped: strict JSON and XML readers accept them
        for (String f : List.of("findings.json", "findings.csv", "junit.xml", "report.html", "inventory.csv", "drain.sh", "nhc.conf"))
            assertClean(Files.readAllBytes(tmp.resolve("o").resolve(f)), f);
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(tmp.resolve("o/findings.json").toFile());
        javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(tmp.resolve("o/junit.xml").toFile());

        out.reset();
        err.reset();
        Main.run(new String[] {"diff", demo.toString(), dump.toString(), "-o", tmp.resolve("d").toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertClean(out.toByteArray(), "diff stdout");
        assertClean(err.toByteArray(), "diff stderr");

        // a hostile path on the command line is echoed escaped too
        out.reset();
        err.reset();
        Main.run(new String[] {"analyze", tmp.resolve("no\u001b[2Jdump").toString(), "-o", tmp.resolve("x").toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("no\\x1b[2Jdump");
        assertClean(err.toByteArray(), "error message");
    }

    private static void replace(Path f, String from, String to) throws Exception {
        String s = Files.readString(f);
        assertThat(s).contains(from);
        Files.writeString(f, s.replace(from, to));
    }

    private static void assertClean(byte[] bytes, String what) {
        for (byte[] raw : RAW) assertThat(indexOf(bytes, raw)).as(what + " holds a raw %s", java.util.HexFormat.of().formatHex(raw)).isNegative();
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
            return i;
        }
        return -1;
    }
}
