package io.ibaccept.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.model.PortCounters;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A streamed Text reads exactly like the same text held in memory, and the streaming parsers give the same result. */
class StreamedTextTest {

    /** Hands out one byte per read: every line end and "\r\n" falls across a buffer boundary. */
    private static Text trickle(String name, String content, int maxLine) {
        return Text.streamed(name, () -> new InputStream() {
            private final InputStream in = bytes(content);

            @Override
            public int read() throws IOException {
                return in.read();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return in.read(b, off, Math.min(len, 1));
            }
        }, maxLine, 1 << 20);
    }

    private static Text streamed(String name, String content) {
        return Text.streamed(name, () -> bytes(content), Text.maxLineChars(), 1L << 30);
    }

    private static List<String> walk(Text t) {
        List<String> out = new ArrayList<>();
        Text.Cursor c = t.cursor();
        while (c.next()) {
            assertThat(c.number()).isEqualTo(out.size() + 1);
            out.add(c.line());
        }
        return out;
    }

    @Test
    void linesAndNumbersAreThoseOfTheTextInMemory() {
        String longLine = "x".repeat(200);
        for (String s : List.of("", "a", "a\n", "a\n\n", "\n", "\r\n", "a\r\nb\rc\n", "a\r\r\nb", "\n\n x \n",
                "one\n" + longLine + "\ntwo", longLine, "a\r", "  \t\n \n", "\u00e9\r\n\u00fc\u20ac\ud834\udd1ex\n",
                "\u20ac".repeat(100) + "\n" + "\u20ac".repeat(101) + "\n\ud834\udd1e".repeat(51))) {
            Text mem = new Text("f", s, 100);
            List<String> lines = walk(trickle("f", s, 100));
            assertThat(lines).as("'%s'", s.replace("\r", "\\r").replace("\n", "\\n")).isEqualTo(mem.lines());
            Text fast = Text.streamed("f", () -> bytes(s), 100, 1 << 20);
            assertThat(walk(fast)).isEqualTo(mem.lines());
            assertThat(fast.streamedBlank()).isEqualTo(s.isBlank());
        }
    }

    @Test
    void overLongLinesOfAStreamedFileAreProblemsWithTheirLineAndTheRestIsRead() {
        String content = "Errors for 0x0002c90300001111 \"sw1\"\n" + "y".repeat(300_000)
                + "\n   GUID 0x0002c90300001111 port 3: [SymbolErrorCounter == 5]\n## Summary: 1 nodes checked\n";
        Parsed<List<PortCounters>> p = Parsing.run(streamed("fabric/ibqueryerrors.out", content), CountersParser::ibqueryerrors);
        assertThat(p.value()).singleElement().satisfies(pc -> {
            assertThat(pc.port()).isEqualTo(3);
            assertThat(pc.ref().line()).isEqualTo(3);
        });
        assertThat(p.issues()).singleElement().satisfies(e -> {
            assertThat(e.where().toString()).isEqualTo("fabric/ibqueryerrors.out:2");
            assertThat(e.reason()).startsWith("line is 300000 characters long (limit 65536)");
        });
    }

    @Test
    void streamingParsersGiveTheSameRecordsAndIssuesAsInMemory() throws IOException {
        for (String[] f : new String[][] {{"fixtures/sim/ibqueryerrors.out", "q"}, {"real/ibqueryerrors/rdma-list-sx6036-fdr-mlx4.txt", "q"},
                {"fixtures/sim/perfquery.out", "p"}, {"real/perfquery/treydock-x-edr-switch-2ports.txt", "p"},
                {"real/perfquery/treydock-rcv-error-details-edr-switch.txt", "p"}, {"real/ibdiagnet2.pm/gary-minghuili-ndr-quantum2-full.txt", "m"},
                {"fixtures/sim/counters-sample.out", "c"}}) {
            String content = resource(f[0]) + "\ngarbage line\n"; // one bad record as well
            Parser<?> parser = switch (f[1]) {
                case "q" -> CountersParser::ibqueryerrors;
                case "p" -> CountersParser::perfquery;
                case "m" -> IbdiagnetParser::pm;
                default -> CounterSampleParser::parse;
            };
            Parsed<?> mem = Parsing.run(new Text(f[0], content), parser);
            Parsed<?> str = Parsing.run(streamed(f[0], content), parser);
            assertThat(str.value()).as(f[0]).isNotNull().isEqualTo(mem.value());
            assertThat(str.issues().stream().map(Throwable::getMessage).toList())
                    .isEqualTo(mem.issues().stream().map(Throwable::getMessage).toList()).isNotEmpty();
        }
    }

    @Test
    void forwardingTablesReadInPlaceFromTheBytesAreThoseReadFromTheTextInMemory() throws IOException {
        for (String f : List.of("real/dump_fts/ibsim-2s4l-ftree.txt", "real/dump_fts/ibsim-ring4-lash.txt", "real/dump_fts/llnl-minos-ibroute-lmc2-excerpt.txt")) {
            // a damaged entry, one with a non-ASCII description, and a line longer than the bound
            String content = resource(f) + "0x00zz 001 : (Channel Adapter portguid 0x0002c9030000aaaa: 'x')\n"
                    + "0x0fff 001 : (Channel Adapter portguid 0x0002c9030000bbbb: 'n\u00f6de HCA-1')\n" + "0x".repeat(200) + "\n";
            Parsed<io.ibaccept.model.ForwardingTables> mem = Parsing.run(new Text(f, content, 300), IbrouteParser::fabric);
            Parsed<io.ibaccept.model.ForwardingTables> str = Parsing.run(trickle(f, content, 300), IbrouteParser::fabric);
            assertThat(tables(str.value())).as(f).isNotEmpty().isEqualTo(tables(mem.value()));
            assertThat(str.value().destinations()).isEqualTo(mem.value().destinations()).isNotEmpty();
            // a text in memory reports its over-long lines first, a streamed one as it passes them
            assertThat(str.issues().stream().map(Throwable::getMessage).toList())
                    .containsExactlyInAnyOrderElementsOf(mem.issues().stream().map(Throwable::getMessage).toList()).hasSizeGreaterThanOrEqualTo(2);
        }
    }

    private static List<String> tables(io.ibaccept.model.ForwardingTables t) {
        return t.switches().stream().map(l -> l.switchName() + " " + Long.toHexString(l.switchGuid()) + " lid " + l.switchLid() + " "
                + l.lids().mapToObj(lid -> lid + ">" + l.port(lid)).toList()).toList();
    }

    @Test
    void aPortPrintedAgainIsFoldedIntoItsFirstRecord() {
        String run = "Errors for 0x0002c90300001111 \"sw1\"\n   GUID 0x0002c90300001111 port 3: [SymbolErrorCounter == 5]\n"
                + "Errors for \"cn01 HCA-1\"\n   GUID 0x0002c90300002222 port 1: [LinkDownedCounter == 1]\n";
        String twice = run + run.replace("[LinkDownedCounter == 1]", "[LinkDownedCounter == 9] [PortRcvErrors == 4]")
                + "## Summary: 2 nodes checked\n";
        List<PortCounters> r = CountersParser.ibqueryerrors(streamed("q", twice), Issues.strict());
        assertThat(r).hasSize(2);
        assertThat(r.get(0).ref().line()).isEqualTo(2);
        // the first record keeps its value and gains what only the later one had
        assertThat(r.get(1).counters()).containsEntry("LinkDownedCounter", 1L).containsEntry("PortRcvErrors", 4L);

        String pq = "# Port counters: Lid 5 port 1 (CapMask: 0x5A00)\nSymbolErrorCounter:..............3\n";
        assertThat(CountersParser.perfquery(streamed("p", pq + pq.replace("..3", "..7")), Issues.strict()))
                .singleElement().satisfies(pc -> assertThat(pc.get("SymbolErrorCounter")).isEqualTo(3));
    }

    @Test
    void millionsOfGarbageLinesAreAThousandProblemsAndOneThatCountsTheRest() {
        int lines = 1_000_000;
        Text t = Text.streamed("fabric/ibqueryerrors.out", () -> new InputStream() {
            private int i;
            private byte[] cur = new byte[0];
            private int pos;

            @Override
            public int read() {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0];
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (pos == cur.length) {
                    if (i == lines) return -1;
                    cur = (i == lines - 1 ? "## Summary: 0 nodes checked\n" : "garbage " + i + "\n").getBytes(StandardCharsets.US_ASCII);
                    i++;
                    pos = 0;
                }
                int n = Math.min(len, cur.length - pos);
                System.arraycopy(cur, pos, b, off, n);
                pos += n;
                return n;
            }
        }, Text.maxLineChars(), 1L << 20);
        Parsed<List<PortCounters>> p = Parsing.run(t, CountersParser::ibqueryerrors);
        assertThat(p.value()).isEmpty();
        assertThat(p.issues()).hasSize(Issues.DEFAULT_MAX_PER_FILE + 1);
        ParseException last = p.issues().get(p.issues().size() - 1);
        assertThat(last.where().line()).isEqualTo(Issues.DEFAULT_MAX_PER_FILE + 1);
        assertThat(last.reason()).startsWith("998,999 more problem(s) in this file from here on are not listed (at most 1,000 per file");
    }

    @Test
    void bytesThatAreNotUtf8MakeTheTextUnreadableAndReadAsLatin1TheyAreKept() {
        byte[] latin = "caf\u00e9\nok\n".getBytes(StandardCharsets.ISO_8859_1);
        Text utf8 = Text.streamed("f", () -> new java.io.ByteArrayInputStream(latin), 100, 1 << 20);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> walk(utf8)).isInstanceOf(Text.Unreadable.class)
                .extracting(e -> ((Text.Unreadable) e).io()).isInstanceOf(java.nio.charset.CharacterCodingException.class);
        Text asLatin1 = Text.streamed("f", () -> new java.io.ByteArrayInputStream(latin), true, 1 << 20);
        assertThat(walk(asLatin1)).containsExactly("caf\u00e9", "ok");
    }

    @Test
    void aParserThatNeedsTheWholeFileGetsItUpToTheBound() {
        Text small = Text.streamed("x", () -> bytes("a\nb\n"), 100, 10);
        assertThat(small.lines()).containsExactly("a", "b");
        Text big = Text.streamed("x", () -> bytes("a".repeat(100_000)), 100, 50_000);
        org.assertj.core.api.Assertions.assertThatThrownBy(big::lines).isInstanceOf(Text.Unreadable.class)
                .hasMessageContaining("the most this parser reads whole into memory");
    }

    private static InputStream bytes(String s) {
        return new java.io.ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String resource(String path) throws IOException {
        try (InputStream in = StreamedTextTest.class.getResourceAsStream("/" + path)) {
            if (in == null) throw new UncheckedIOException(new IOException("no resource " + path));
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
