package io.ibaccept.safety;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrintableTest {
    @Test
    void escapesEveryTerminalControlAndInvisibleFormatCharacter() {
        // OSC title, clear screen, colour, bell, backspace, CR, DEL, C1 CSI, RLO, line separator, noncharacter, BOM,
        // a lone surrogate and a private-use character
        String corpus = "a\u001b]0;pwned\u0007\u001b[2J\u001b[31m\b\r\u007f\u009b\u202e\u2028\ufffe\ufeff\ud800\ue000z";
        assertThat(Printable.of(corpus)).isEqualTo("a\\x1b]0;pwned\\x07\\x1b[2J\\x1b[31m\\x08\\x0d\\x7f\\x9b\\u202e\\u2028\\ufffe\\ufeff\\ud800\\ue000z");
        assertThat(Printable.of("\udbff\udfff")).isEqualTo("\\U0010ffff"); // a noncharacter beyond the BMP
    }

    @Test
    void keepsTextOfAnyScriptNewlinesAndTabsAsTheyAre() {
        String fine = "Leaf 3 \u2013 Stra\u00dfe \u00e9t\u00e9 \u4e2d\u6587 \ud83d\ude80\tcol\nnext";
        assertThat(Printable.of(fine)).isSameAs(fine);
        assertThat(Printable.of(null)).isNull();
    }
}
