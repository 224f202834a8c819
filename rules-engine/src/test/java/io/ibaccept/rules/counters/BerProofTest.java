package io.ibaccept.rules.counters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import io.ibaccept.rules.Status;
import org.junit.jupiter.api.Test;

/** What a counter window proves about a link's bit error rate, at 95 % confidence (Poisson upper limits). */
class BerProofTest {
    @Test
    void zeroErrorsProveThreeOverTheBitsCarried() {
        assertThat(Rates.berUpperBound(0, 3.0e12, 0.95)).isCloseTo(0.9986e-12, within(0.001e-12));
        assertThat(Rates.bitsToProve(1e-12, 0.95)).isCloseTo(2.9957e12, within(0.0001e12));
        assertThat(Rates.berUpperBound(0, 0, 0.95)).isNaN();
    }

    @Test
    void fewErrorsGiveThePoissonUpperLimit() {
        // the 95 % upper limits of a Poisson mean (one-sided, as tabulated): 1 -> 4.744, 2 -> 6.296, 10 -> 16.96
        assertThat(Rates.berUpperBound(1, 1e12, 0.95) * 1e12).isCloseTo(4.744, within(0.001));
        assertThat(Rates.berUpperBound(2, 1e12, 0.95) * 1e12).isCloseTo(6.296, within(0.001));
        assertThat(Rates.berUpperBound(10, 1e12, 0.95) * 1e12).isCloseTo(16.96, within(0.01));
    }

    @Test
    void manyErrorsStayNearTheMeasuredRate() {
        // a saturated 16-bit SymbolErrorCounter is "at least 65535": its bound is at least this, near the count itself
        double b = Rates.berUpperBound(65_535, 1e15, 0.95);
        assertThat(b).isGreaterThan(65_535 / 1e15).isLessThan(1.01 * 65_535 / 1e15);
        double huge = Rates.berUpperBound(5_000_000, 1e15, 0.95);
        assertThat(huge).isGreaterThan(5e-9).isLessThan(5.02e-9);
    }

    @Test
    void aWrappedDeltaIsReadUnsigned() {
        // a 64-bit PortRcvData delta above 2^63 is still a positive number of octets/4
        assertThat(Rates.bitsReceived(-2L)).isGreaterThan(0);
        assertThat(Rates.berUpperBound(0, Rates.bitsReceived(-2L), 0.95)).isGreaterThan(0).isLessThan(1e-18);
    }

    @Test
    void theWindowSaysWhatItProvedPerLinkClass() {
        List<LinkWindowRow> rows = List.of(row(false, 0, 3.2e12), row(false, 0, 9.0e12), row(true, 0, 4.0e11));
        assertThat(LinkErrorsWindow.proof(rows, 1e-12))
                .contains("every error-free host link carried >= 3.2e+12 bits with 0 symbol errors: BER < 9.4e-13 at 95 % confidence;")
                .contains("switch-to-switch link carried >= 4.0e+11 bits with 0 symbol errors: BER < 7.5e-12 at 95 % confidence, short of the target 1.0e-12");
        assertThat(LinkErrorsWindow.leastProvenBits(rows)).isEqualTo(4.0e11);
    }

    private static LinkWindowRow row(boolean isl, long errors, double bits) {
        return new LinkWindowRow("a port 1", "b port 1", isl, errors, false, 0, 0, bits, true, bits / 8, 0, 0, false, Status.PASS, "");
    }
}
