package io.ibaccept.contract;

import io.ibaccept.safety.Printable;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * Values from a dump written into a YAML file (a drafted contract): a value must read back as the same scalar, and a
 * comment must stay one comment. A node description or firmware string is untrusted: YAML ends a line at \r, U+0085,
 * U+2028 and U+2029 as well as at \n, so such a character written raw would end a comment or a value and let the
 * rest of the string become keys (a bandwidth target of 1 %).
 */
public final class YamlText {
    private YamlText() {}

    private static final Resolver RESOLVER = new Resolver();

    /**
     * s as a YAML scalar: plain when it is a word YAML reads back as the same text (letters, digits, '_', '.', '-', '/',
     * brackets and inner spaces, starting with a letter or digit: "node[01-16]", "28.39.1002", "HDR 4X"), else
     * double-quoted with every quote, backslash, control, line-break and invisible format character escaped.
     */
    public static String scalar(String s) {
        if (s.matches("[A-Za-z0-9][A-Za-z0-9_.\\-/\\[\\] ]*") && !s.endsWith(" ")
                && (s.matches("\\d+") || RESOLVER.resolve(NodeId.scalar, s, true).equals(Tag.STR)))
            return s;
        StringBuilder b = new StringBuilder(s.length() + 8).append('"');
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            if (c == '"' || c == '\\') b.append('\\').appendCodePoint(c);
            else if (c == '\n') b.append("\\n");
            else if (c == '\t') b.append("\\t");
            else if (Printable.unsafe(c)) Printable.escape(b, c); // YAML double quotes read these escapes
            else b.appendCodePoint(c);
        }
        return b.append('"').toString();
    }

    /** s for the text of a comment: one line whatever it holds (line breaks and controls shown as escapes). */
    public static String comment(String s) {
        return Printable.of(s).replace("\n", "\\n");
    }
}
