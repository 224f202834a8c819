package io.ibaccept.dump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ibaccept.parse.ParseException;
import io.ibaccept.parse.Text;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeyValuesTest {
    @Test
    void keysAndValuesAreTrimmedCommentsAndBlankLinesSkippedWhateverTheLineEnds() {
        String meta = "# written by collect\nname: ibstat\r\n  host :  cn0001 \r\n\n\tcommand: ibstat -v\rstatus: ok\nurl: http://x:80/a";
        assertThat(KeyValues.parse(new Text("n/ibstat.meta", meta))).containsExactly(Map.entry("name", "ibstat"),
                Map.entry("host", "cn0001"), Map.entry("command", "ibstat -v"), Map.entry("status", "ok"), Map.entry("url", "http://x:80/a"));
    }

    @Test
    void aLineWithoutAKeyNamesItsLineAndAnOverLongLineIsSkippedAsTextReadsIt() {
        assertThatThrownBy(() -> KeyValues.parse(new Text("m.meta", "name: a\r\n\r\n: no key\n")))
                .isInstanceOf(ParseException.class).hasMessageContaining("m.meta:3").hasMessageContaining("': no key'");
        assertThatThrownBy(() -> KeyValues.parse(new Text("m.meta", "name: a\njust words\n")))
                .isInstanceOf(ParseException.class).hasMessageContaining("m.meta:2");
        assertThat(KeyValues.parse(new Text("m.meta", "a: 1\n" + "b: " + "x".repeat(200) + "\nc: 3\n", 100)))
                .containsOnlyKeys("a", "c");
    }

    @Test
    void collectsTimestampsAreReadAsJavaTimeReadsThem() {
        for (String s : List.of("2026-12-02T12:00:00Z", "2024-02-29T23:59:59Z", "1970-01-01T00:00:00Z", "2026-12-02T12:00:00.250Z",
                " 2026-12-02T12:00:00Z ", "2026-12-02T12:00:00+01:00", "2026-12-02T24:00:00Z"))
            assertThat(DumpLoader.instant(s)).as(s).isEqualTo(javaTime(s));
        for (String s : List.of("2026-02-29T12:00:00Z", "2026-13-02T12:00:00Z", "2026-12-02T12:60:00Z",
                "2026-12-02 12:00:00Z", "2026-12-0xT12:00:00Z", "x", "", "2026-12-02T12:00:00"))
            assertThat(DumpLoader.instant(s)).as(s).isNull();
    }

    private static Instant javaTime(String s) {
        try {
            return Instant.parse(s.trim());
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }
}
