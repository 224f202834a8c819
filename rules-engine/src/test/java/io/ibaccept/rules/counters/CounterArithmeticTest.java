package io.ibaccept.rules.counters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ibaccept.model.CounterSample;
import io.ibaccept.parse.SourceRef;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CounterArithmeticTest {
    static CounterSample.Port port(Map<String, Long> c, Set<String> ext) {
        return new CounterSample.Port(4, 2, c, ext, SourceRef.file("f"));
    }

    @Test
    void plainIncrease() {
        CounterDelta d = CounterDelta.of("SymbolErrorCounter", 10, 25, 16, false);
        assertThat(d.delta()).isEqualTo(15);
        assertThat(d.kind()).isEqualTo(CounterDelta.Kind.EXACT);
        assertThat(d.atLeast()).isFalse();
    }

    @Test
    void sixteenBitErrorCounterStuckAtMaxIsAtLeast() {
        CounterDelta d = CounterDelta.of("SymbolErrorCounter", 65000, 65535, 16, false);
        assertThat(d.kind()).isEqualTo(CounterDelta.Kind.SATURATED);
        assertThat(d.delta()).isEqualTo(535);
        assertThat(d.atLeast()).isTrue();
        assertThat(d.describe()).contains("at least 535", "saturated 16-bit");
        CounterDelta before = CounterDelta.of("SymbolErrorCounter", 65535, 65535, 16, false);
        assertThat(before.kind()).isEqualTo(CounterDelta.Kind.UNKNOWN);
        assertThat(before.describe()).contains("unknown");
        assertThat(CounterDelta.of("LinkDownedCounter", 254, 255, 8, false).kind()).isEqualTo(CounterDelta.Kind.SATURATED);
        assertThat(CounterDelta.of("ExcessiveBufferOverrunErrors", 0, 15, 4, false).kind()).isEqualTo(CounterDelta.Kind.SATURATED);
    }

    @Test
    void thirtyTwoBitDataCounterWraps() {
        long start = 4_294_000_000L, end = 1_000L;
        CounterDelta d = CounterDelta.of("PortRcvData", start, end, 32, false);
        assertThat(d.kind()).isEqualTo(CounterDelta.Kind.WRAPPED);
        assertThat(d.delta()).isEqualTo(4_294_967_296L - start + end);
    }

    @Test
    void sixtyFourBitExtendedCounterWraps() {
        long start = -1000L; // 2^64 - 1000 unsigned
        CounterDelta d = CounterDelta.of("PortXmitData", start, 500, 64, false);
        assertThat(d.kind()).isEqualTo(CounterDelta.Kind.WRAPPED);
        assertThat(d.delta()).isEqualTo(1500);
        // 64-bit counters never saturate: a value in the upper half that grows is exact
        assertThat(CounterDelta.of("PortXmitData", -1000L, -10L, 64, false).kind()).isEqualTo(CounterDelta.Kind.EXACT);
    }

    @Test
    void rebootBetweenSamplesMakesEveryCounterOfThePortCountFromTheReset() {
        var start = port(Map.of("SymbolErrorCounter", 40L, "LinkDownedCounter", 3L, "PortRcvData", 900_000L), Set.of("PortRcvData"));
        var end = port(Map.of("SymbolErrorCounter", 2L, "LinkDownedCounter", 1L, "PortRcvData", 1_200_000L), Set.of("PortRcvData"));
        PortDelta p = PortDelta.of(start, end, 600);
        assertThat(p.reset()).isTrue();
        assertThat(p.get("SymbolErrorCounter").kind()).isEqualTo(CounterDelta.Kind.RESET);
        assertThat(p.delta("SymbolErrorCounter")).isEqualTo(2);
        // even the counter that went up counts only from the reset
        assertThat(p.delta("PortRcvData")).isEqualTo(1_200_000L);
        assertThat(p.get("LinkDownedCounter").describe()).startsWith("at least 1");
    }

    @Test
    void dataCounterDroppingFromLowValuesIsAResetNotAWrap() {
        var start = port(Map.of("PortXmitData", 5000L), Set.of());
        var end = port(Map.of("PortXmitData", 100L), Set.of());
        assertThat(PortDelta.of(start, end, 60).reset()).isTrue();
    }

    @Test
    void wrapAloneIsNoReset() {
        var start = port(Map.of("PortXmitData", 4_294_000_000L, "SymbolErrorCounter", 5L), Set.of());
        var end = port(Map.of("PortXmitData", 10L, "SymbolErrorCounter", 7L), Set.of());
        PortDelta p = PortDelta.of(start, end, 60);
        assertThat(p.reset()).isFalse();
        assertThat(p.delta("SymbolErrorCounter")).isEqualTo(2);
        assertThat(p.before("SymbolErrorCounter")).isEqualTo(5);
    }

    @Test
    void extendedAndPlainReadingsAreNotCompared() {
        var start = port(Map.of("PortRcvData", 9_000_000_000L), Set.of("PortRcvData"));
        var end = port(Map.of("PortRcvData", 100L), Set.of());
        PortDelta p = PortDelta.of(start, end, 60);
        assertThat(p.reset()).isFalse();
        assertThat(p.get("PortRcvData")).isNull();
    }

    @Test
    void berIsSymbolErrorsPerReceivedBit() {
        // PortRcvData counts 4-octet words: 1e12 words = 3.2e13 bits
        assertThat(Rates.bitsReceived(1_000_000_000_000L)).isEqualTo(3.2e13);
        assertThat(Rates.symbolBer(32, 1_000_000_000_000L)).isCloseTo(1e-12, within(1e-24));
        assertThat(Rates.symbolBer(5, 0)).isNaN();
        assertThat(Rates.bitsReceived(-1L)).isEqualTo(1.8446744073709552E19 * 32);
    }

    @Test
    void ratesPerHourAndPerSecond() {
        assertThat(Rates.perHour(5, 600)).isEqualTo(30.0);
        assertThat(Rates.perHour(5, 0)).isNaN();
        assertThat(Rates.perSecond(1_000, 10)).isEqualTo(100.0);
    }
}
