package io.ibaccept.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every value written into a YAML file reads back as the same scalar, and a comment stays one comment. */
class YamlTextTest {
    static final List<String> HOSTILE = List.of("plain-1.2_3/x", "node[01-16]", "HDR 4X", "28.39.1002", "a\rb", "a\nb", "a\u0085b",
            "a\u2028b", "a\u2029b", "x\u0000y\u0007z\u001b[31m", "tab\there", "# comment", "key: value", "a #b", "'single'", "\"double\"",
            "- item", "-leading", "? q", "&anchor", "*alias", "!tag", "%YAML", "@at", "`tick", "{flow: map}", "[flow, seq]", "| literal",
            "> folded", "true", "no", "null", "~", "1.0", "0x10", "1_000", "2026-12-05", "trailing ", " leading", "back\\slash",
            "bom\ufeffzwj\u200dbidi\u202e", "nonchar\ufffe", "emoji \ud83d\ude00", "Ελληνικά", "a\u0085performance:\u2028  bandwidth_percent: 1");

    @Test
    void eachValueReadsBackAsTheSameScalar() {
        for (String v : HOSTILE) {
            String doc = "cluster: " + YamlText.scalar(v) + "\n";
            Map<String, Object> m = new org.yaml.snakeyaml.Yaml().load(doc);
            assertThat(m).as(doc).containsOnlyKeys("cluster");
            assertThat(m.get("cluster")).as(doc).isEqualTo(v);
            // the contract's reader takes the scalar's text (trimmed: a value is a word, never its blanks)
            assertThat(ContractFile.parse("c.yaml", doc.getBytes(StandardCharsets.UTF_8)).cluster()).as(doc).isEqualTo(v.strip());
        }
    }

    @Test
    void wordsStayPlainAndAnythingElseIsQuoted() {
        assertThat(YamlText.scalar("node[01-16]")).isEqualTo("node[01-16]");
        assertThat(YamlText.scalar("HDR 4X")).isEqualTo("HDR 4X");
        assertThat(YamlText.scalar("8")).isEqualTo("8");
        assertThat(YamlText.scalar("true")).isEqualTo("\"true\"");
        assertThat(YamlText.scalar("- item")).isEqualTo("\"- item\"");
        assertThat(YamlText.scalar("a\u2028b")).isEqualTo("\"a\\u2028b\"");
        assertThat(YamlText.scalar("a\u0085b\rc")).isEqualTo("\"a\\x85b\\x0dc\"");
    }

    @Test
    void aCommentStaysOneLine() {
        for (String v : HOSTILE) {
            String doc = "k: v   # " + YamlText.comment(v) + "\nother: 1\n";
            Map<String, Object> m = new org.yaml.snakeyaml.Yaml().load(doc);
            assertThat(m).as(doc).containsExactly(Map.entry("k", "v"), Map.entry("other", 1));
            assertThat(doc.lines()).hasSize(2);
        }
    }
}
