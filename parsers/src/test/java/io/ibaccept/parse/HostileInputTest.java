package io.ibaccept.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.ibaccept.dump.KeyValues;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Every parser on hostile input: a 20 MB single line (over the line bound: one problem, not parsed) and lines just
 * under the bound built to make backtracking patterns blow up (long runs of digits, spaces, brackets, quotes). All must
 * finish within the time limit, and no message may carry a Java exception name.
 */
class HostileInputTest {
    private static final int UNDER = Text.DEFAULT_MAX_LINE_CHARS - 10;

    static Stream<Arguments> parsers() {
        return Stream.of(
                Arguments.of("ibstat", (Parser<?>) IbstatParser::parse, "CA 'mlx5_0'\n\tPort 1:\n\t\tRate: "),
                Arguments.of("ibstatus", (Parser<?>) IbstatusParser::parse, "Infiniband device 'mlx4_0' port 1 status:\n\trate: "),
                Arguments.of("iblinkinfo", (Parser<?>) IblinkinfoParser::parse, "CA: x:\n 0x1 1 1[ ] ==( 4X "),
                Arguments.of("ibnetdiscover", (Parser<?>) IbnetdiscoverParser::parse, "Switch 36 \"S-1\" # \"a\" lid 1\n[1](1/1/1) \"H-"),
                Arguments.of("ibqueryerrors", (Parser<?>) CountersParser::ibqueryerrors, "Errors for \"x\"\n GUID 0x1 port 1: [SymbolErrorCounter == "),
                Arguments.of("perfquery", (Parser<?>) CountersParser::perfquery, "# Port counters: Lid 1 port 1\nSymbolErrorCounter:....."),
                Arguments.of("sminfo", (Parser<?>) SmParser::sminfo, "sminfo: sm lid "),
                Arguments.of("saquery", (Parser<?>) SmParser::saquerySm, "IsSM ports\nPortInfoRecord dump:\nEndPortLid......"),
                Arguments.of("portinfo", (Parser<?>) SmpqueryParser::portInfo, "# Port info: Lid 1 port 1\nLinkState:......"),
                Arguments.of("nodeinfo", (Parser<?>) SmpqueryParser::nodeInfo, "# Node info: Lid 1\nNodeType:......"),
                Arguments.of("pkeys", (Parser<?>) SmpqueryParser::pkeys, "   0: 0xffff "),
                Arguments.of("ulimit", (Parser<?>) HostParsers::memlockKib, ""),
                Arguments.of("ofed_info", (Parser<?>) HostParsers::ofedVersion, "MLNX_OFED_LINUX-"),
                Arguments.of("ethtool", (Parser<?>) HostParsers::ethtoolStats, "NIC statistics:\n rx: "),
                Arguments.of("mlxlink", (Parser<?>) MlxlinkParser::parse, "State : Active\nLink Width Active (Enabled) : "),
                Arguments.of("perftest", (Parser<?>) PerftestParser::parse, "                    RDMA_Write BW Test\n #bytes #iterations BW peak[Gb/sec] BW average[Gb/sec] MsgRate[Mpps]\n "),
                Arguments.of("ibdiagnet log", (Parser<?>) IbdiagnetParser::log, "ibdiagnet "),
                Arguments.of("ibdiagnet db", (Parser<?>) IbdiagnetParser::db, "START_PM_INFO\nNodeGUID,PortNumber,SymbolErrorCounter\n"),
                Arguments.of("ibdiagnet pm", (Parser<?>) IbdiagnetParser::pm, "Port=1 Lid=0x1 GUID=0x1 Port Name=x\nsymbol_error_counter="),
                Arguments.of("key: value", (Parser<?>) (t, is) -> KeyValues.parse(t), "status: "));
    }

    /** Patterns that make nested or adjacent quantifiers backtrack. */
    static List<String> payloads(int n) {
        return List.of("9".repeat(n), " ".repeat(n / 2) + "x", "0x" + "1 ".repeat(n / 2), "[".repeat(n),
                "\"".repeat(n), "ibdiagnet ".repeat(n / 10), "1X ".repeat(n / 3) + "(", "Gen".repeat(n / 3),
                "a:".repeat(n / 2), "-".repeat(n) + "x", "==(".repeat(n / 3));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("parsers")
    void twentyMegabyteLineIsOneProblemAndFast(String name, Parser<?> parser, String prefix) {
        String big = prefix + "9".repeat(20 * 1024 * 1024) + "\n";
        Parsed<?> r = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> Parsing.run(new Text("f.out", big), parser));
        assertThat(r.issues()).as(name).anySatisfy(e -> assertThat(e.reason()).contains("characters long (limit"));
        assertThat(r.issues()).allSatisfy(e -> assertThat(e.getMessage()).doesNotContainPattern("[A-Z][a-z]+Exception|java\\."));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("parsers")
    void longHostileLinesUnderTheBoundAreLinear(String name, Parser<?> parser, String prefix) {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            for (String p : payloads(UNDER - prefix.length())) {
                Parsed<?> r = Parsing.run(new Text("f.out", prefix + p + "\n" + p + "\n"), parser);
                assertThat(r.issues()).allSatisfy(e -> assertThat(e.getMessage())
                        .doesNotContainPattern("[A-Z][a-z]+Exception|java\\.").hasSizeLessThan(400));
            }
        });
    }

    @Test
    void outOfRangeCountersAreProblemsNotNumbers() {
        Parsed<?> r = Parsing.run(new Text("q.out", "Errors for \"x\"\n   GUID 0x1 port 1: [SymbolErrorCounter == 99999999999999999999] [LinkDownedCounter == 3]\n## Summary\n"),
                CountersParser::ibqueryerrors);
        assertThat(r.issues()).singleElement().satisfies(e -> {
            assertThat(e.getMessage()).isEqualTo("q.out:2: counter SymbolErrorCounter value 99999999999999999999 does not fit 64 bits");
        });
        @SuppressWarnings("unchecked")
        List<io.ibaccept.model.PortCounters> pcs = (List<io.ibaccept.model.PortCounters>) r.value();
        assertThat(pcs.get(0).counters()).containsExactly(Map.entry("LinkDownedCounter", 3L));
        Parsed<?> neg = Parsing.run(new Text("p.out", "# Port counters: Lid 1 port 1\nSymbolErrorCounter:.....-5\nLinkDownedCounter:......300\nPortXmitWait:...........7\n"),
                CountersParser::perfquery);
        assertThat(neg.issues()).extracting(ParseException::getMessage).containsExactly(
                "p.out:2: counter SymbolErrorCounter has a negative value -5: not a counter reading",
                "p.out:3: counter LinkDownedCounter value 300 is above its 8-bit field (max 255)");
        Parsed<?> perf = Parsing.run(new Text("b.out", "                    RDMA_Write BW Test\n #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n"
                + " 65536      5000           1e999             196.41  		   0.374622\n 131072      5000           196.53             196.41  		   0.187311\n"),
                PerftestParser::parse);
        assertThat(perf.issues()).singleElement().satisfies(e -> assertThat(e.getMessage()).isEqualTo("b.out:3: value 1e999 is out of range"));
        Parsed<?> eth = Parsing.run(new Text("e.out", "NIC statistics:\n rx_crc_errors_phy: -1\n tx: 5\n"), HostParsers::ethtoolStats);
        assertThat(eth.issues()).singleElement().satisfies(e -> assertThat(e.reason()).contains("negative"));
    }
}
