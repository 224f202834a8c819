package io.ibaccept.rules;

import static io.ibaccept.rules.TestDump.of;
import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.dump.DumpLoader;
import io.ibaccept.rules.counters.LinkWindowRow;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** link.errors.window on the demo dump with counter samples written the way perfquery prints them. */
class CounterWindowRuleTest {
    @TempDir
    Path tmp;

    /** One "perfquery LID PORT" block (PortCounters) as infiniband-diags prints it. */
    static String block(int lid, int port, Map<String, Long> values) {
        Map<String, Long> v = new LinkedHashMap<>();
        for (String n : List.of("SymbolErrorCounter", "LinkErrorRecoveryCounter", "LinkDownedCounter", "PortRcvErrors",
                "PortRcvRemotePhysicalErrors", "PortRcvSwitchRelayErrors", "PortXmitDiscards", "PortXmitConstraintErrors",
                "PortRcvConstraintErrors", "LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors", "QP1Dropped",
                "VL15Dropped", "PortXmitData", "PortRcvData", "PortXmitPkts", "PortRcvPkts", "PortXmitWait"))
            v.put(n, values.getOrDefault(n, 0L));
        StringBuilder sb = new StringBuilder("# Port counters: Lid " + lid + " port " + port + " (CapMask: 0x1300)\n");
        sb.append(line("PortSelect", port)).append("CounterSelect:...................0x0000\n");
        v.forEach((k, x) -> sb.append(line(k, x)));
        return sb.toString();
    }

    /** One "perfquery -x LID PORT" block of a PMA without the 64-bit error counters (data counters only). */
    static String ext(int lid, int port, long rcvData) {
        return "# Port extended counters: Lid " + lid + " port " + port + " (CapMask: 0x1300 CapMask2: 0x0000000)\n"
                + line("PortSelect", port) + "CounterSelect:...................0x0000\n" + line("PortXmitData", rcvData)
                + line("PortRcvData", rcvData) + line("PortXmitPkts", 0) + line("PortRcvPkts", 0) + line("PortUnicastXmitPkts", 0)
                + line("PortUnicastRcvPkts", 0) + line("PortMulticastXmitPkts", 0) + line("PortMulticastRcvPkts", 0);
    }

    static String line(String name, long value) {
        return name + ":" + ".".repeat(Math.max(1, 32 - name.length())) + value + "\n";
    }

    static String meta(String name, String started, long ms) {
        return "name: " + name + "\nhost: node01\ncommand: perfquery\nstatus: ok\nexit: 0\nduration_ms: " + ms + "\nstarted: " + started + "\n";
    }

    TestDump window(String start, String end) {
        TestDump d = TestDump.demoCopy(tmp.resolve("d"));
        d.write("fabric/counters-start.out", start).write("fabric/counters-start.meta", meta("counters-start", "2026-12-02T15:00:00Z", 2000));
        if (end != null) d.write("fabric/counters-end.out", end).write("fabric/counters-end.meta", meta("counters-end", "2026-12-02T15:10:00Z", 2000));
        return d;
    }

    static Report run(TestDump d) {
        return new RulesEngine(RuleConfig.defaults()).run(DumpLoader.load(d.dir));
    }

    @Test
    void onlyOneSampleSaysSoAndTheSnapshotIsJudgedAsBefore() {
        Report r = run(window(block(4, 3, Map.of("SymbolErrorCounter", 7L)), null));
        assertThat(r.checkStatus().get("link.errors.window")).isEqualTo(Status.SKIP);
        assertThat(of(r, "link.errors.window").get(0).summary()).contains("needs counters-end").contains("only one counter sample");
        // the demo's own snapshot counts are still read by link.errors: history (a WARN naming the window), never a FAIL
        assertThat(r.checkStatus().get("link.errors")).isEqualTo(Status.WARN);


        List<LinkWindowRow> rows = new DumpFacts(DumpLoader.load(tmp.resolve("d")), RuleConfig.defaults(), null).linkWindow();
        assertThat(rows).filteredOn(x -> x.a().equals("leaf01 port 3") || x.b().equals("leaf01 port 3")).singleElement()
                .satisfies(x -> {
                    assertThat(x.snapshotOnly()).isTrue();
                    assertThat(x.errorsBefore()).isEqualTo(7);
                    assertThat(x.errorsPerHour()).isNaN();
                });
    }

    /** An error-free window proves a BER only for the bits it carried: judged through the window judge, both ends. */
    @Test
    void anErrorFreeWindowProvesTheBerOfTheBitsItCarried() {
        // leaf03 port 3 (LID 7) and node11's HCA (LID 17) each received 1e11 x 4 octets = 3.2e12 bits
        String start = ext(7, 3, 0) + ext(17, 1, 0);
        String end = ext(7, 3, 100_000_000_000L) + ext(17, 1, 100_000_000_000L);
        TestDump d = window(block(7, 3, Map.of()) + block(17, 1, Map.of()) + start, block(7, 3, Map.of()) + block(17, 1, Map.of()) + end);
        var data = DumpLoader.load(d.dir);
        List<LinkWindowRow> rows = new DumpFacts(data, RuleConfig.defaults(), null).linkWindow();
        assertThat(rows).filteredOn(x -> x.link().contains("leaf03 port 3")).singleElement()
                .satisfies(x -> assertThat(x.bitsReceived()).isEqualTo(3.2e12));
        Report r = io.ibaccept.analysis.Analysis.of(data).report();
        assertThat(of(r, "link.errors.window")).filteredOn(f -> f.status() == Status.PASS).singleElement()
                .satisfies(f -> assertThat(f.summary()).contains("every error-free host link carried >= 3.2e+12 bits with 0 symbol errors: BER < 9.4e-13"));
        assertThat(r.coverage().gaps()).extracting(Coverage.Required::check).doesNotContain("link.errors.window");
        // the target 1e-13 needs 3.0e13 bits: the same window does not cover it
        Report strict = io.ibaccept.analysis.Analysis.of(data, io.ibaccept.analysis.Analysis.Options.of(
                RuleConfig.defaults().with(Map.of("link.errors.window.ber_target", "1e-13"), k -> "test"))).report();
        assertThat(strict.coverage().gapLines()).anySatisfy(l -> assertThat(l).startsWith("link.errors.window: the window proved BER < 9.4e-13")
                .contains("burn --duration auto"));
    }

    @Test
    void noWindowAtAllIsASkipNamingTheOption() {
        Report r = run(TestDump.demoCopy(tmp.resolve("d")));
        assertThat(of(r, "link.errors.window").get(0).summary()).contains("collect --window");
    }

    /**
     * An inter-switch link that waited for credits most of the window and discarded what it could not send: congestion,
     * never the cable's fault (no cable root); the same discards without the waiting stay "traffic", for the path to tell.
     */
    @Test
    void discardsOnACongestedIslAreCongestionNotTheCable() {
        // leaf01 (LID 4) port 17 <-> spine01 (LID 2); 3e9 PortXmitWait ticks in 10 minutes = 5e6 ticks/s
        String quiet = block(4, 17, Map.of()) + block(2, 1, Map.of());
        Report r = run(window(quiet, block(4, 17, Map.of("PortXmitDiscards", 120L, "PortXmitWait", 3_000_000_000L)) + block(2, 1, Map.of())));
        assertThat(of(r, "link.errors.window")).filteredOn(f -> f.objects().contains("leaf01 port 17")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.WARN);
            assertThat(f.variant()).isEqualTo("congestion");
            assertThat(f.summary()).contains("PortXmitDiscards +120").contains("ticks/s: congestion");
            assertThat(f.cause()).contains("PortXmitDiscards").contains("not a cable fault");
        });
        assertThat(r.findings()).noneSatisfy(f -> assertThat(f.summary()).contains("leaf01 port 17").contains("cable"));
        Report discardsOnly = run(window(quiet, block(4, 17, Map.of("PortXmitDiscards", 120L)) + block(2, 1, Map.of())));
        assertThat(of(discardsOnly, "link.errors.window")).filteredOn(f -> f.objects().contains("leaf01 port 17")).singleElement()
                .satisfies(f -> assertThat(f.variant()).isEqualTo("traffic"));
    }

    @Test
    void rebootOfTheHostBetweenSamplesCountsFromTheReset() {
        // node03's HCA port (LID 8): counters went down (reboot); it went down once and saw 3 symbol errors since
        String start = block(8, 1, Map.of("SymbolErrorCounter", 50L, "PortRcvData", 900_000L)) + block(4, 3, Map.of());
        String end = block(8, 1, Map.of("SymbolErrorCounter", 3L, "LinkDownedCounter", 1L, "PortRcvData", 1000L)) + block(4, 3, Map.of());
        Report r = run(window(start, end));
        assertThat(of(r, "link.errors.window")).filteredOn(f -> f.objects().contains("node03 HCA-1 port 1")).singleElement().satisfies(f -> {
            assertThat(f.status()).isEqualTo(Status.FAIL);
            assertThat(f.summary()).contains("LinkDownedCounter +at least 1 (counters were reset during the window)")
                    .contains("counters were reset during the window (reboot");
            assertThat(f.objects()).containsExactlyInAnyOrder("node03 HCA-1 port 1", "leaf01 port 3");
        });
        // the window replaces the snapshot judgement
        assertThat(r.checkStatus().get("link.errors")).isEqualTo(Status.PASS);
    }

    @Test
    void saturatedSixteenBitCounterIsAtLeastAndRateIsPerHour() {
        String start = block(4, 3, Map.of("SymbolErrorCounter", 65000L));
        String end = block(4, 3, Map.of("SymbolErrorCounter", 65535L));
        Report r = run(window(start, end));
        assertThat(of(r, "link.errors.window")).filteredOn(f -> f.status() == Status.FAIL).singleElement().satisfies(f ->
                // 535 in 600 s = 3210/h; no PortRcvData moved: no BER
                assertThat(f.summary()).contains("leaf01 port 3: SymbolErrorCounter +at least 535 (saturated 16-bit counter, stuck at 65535) (3210/h, symbol BER not measurable: nothing received)")
                        .contains("10.0 min window"));
    }

    @Test
    void fewSymbolErrorsWithLittleTrafficWarnsAndBigTrafficJudgesBer() {
        // 1 symbol error in 10 min = 6/h: above warn (0), below fail (60)
        Report r = run(window(block(4, 3, Map.of()), block(4, 3, Map.of("SymbolErrorCounter", 1L))));
        assertThat(of(r, "link.errors.window")).filteredOn(f -> f.objects().contains("leaf01 port 3")).singleElement()
                .satisfies(f -> assertThat(f.status()).isEqualTo(Status.WARN));
        // 1 error over 3.2e13 bits: BER 3.1e-14, above ber_warn only
        r = run(window(ext(4, 3, 0) + block(4, 3, Map.of()),
                ext(4, 3, 1_000_000_000_000L) + block(4, 3, Map.of("SymbolErrorCounter", 1L, "PortRcvData", 4_294_967_295L))));
        assertThat(of(r, "link.errors.window")).filteredOn(f -> f.objects().contains("leaf01 port 3")).singleElement()
                .satisfies(f -> assertThat(f.summary()).contains("symbol BER 3.1e-14"));
    }

    @Test
    void aPortMissingFromOneSampleIsNamed() {
        Report r = run(window(block(4, 3, Map.of()) + block(10, 1, Map.of()), block(4, 3, Map.of())));
        assertThat(of(r, "link.errors.window")).filteredOn(f -> f.status() == Status.WARN).singleElement()
                .satisfies(f -> assertThat(f.summary()).startsWith("1 port(s) were read in only one of the two samples").contains("LID 10 port 1"));
    }
}
