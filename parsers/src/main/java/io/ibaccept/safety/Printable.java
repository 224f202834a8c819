package io.ibaccept.safety;

/**
 * Text from a dump made harmless to show: a terminal must not receive escape sequences (title, clear-screen, colour),
 * C0/C1 controls or invisible format characters (U+202E reverses the text around it), and strict JSON/XML readers
 * must not receive lone surrogates or noncharacters. Each such character becomes a visible escape (\x1b, \\u202e,
 * \U0001xxxx); newline and tab are kept. Everything else, any script included, is kept as it is.
 */
public final class Printable {
    private Printable() {}

    /** s with every unsafe character escaped; s itself (no copy) when there is none, null stays null. */
    public static String of(String s) {
        if (s == null) return null;
        int n = s.length();
        int i = 0;
        while (i < n) {
            int c = s.codePointAt(i);
            if (unsafe(c)) break;
            i += Character.charCount(c);
        }
        if (i == n) return s;
        StringBuilder b = new StringBuilder(n + 16).append(s, 0, i);
        while (i < n) {
            int c = s.codePointAt(i);
            if (unsafe(c)) escape(b, c);
            else b.appendCodePoint(c);
            i += Character.charCount(c);
        }
        return b.toString();
    }

    /** Whether code point c must be escaped (a lone surrogate, as codePointAt returns it, is). */
    public static boolean unsafe(int c) {
        if (c < 0x20) return c != '\n' && c != '\t';
        if (c < 0x7f) return false;
        if ((c & 0xfffe) == 0xfffe || c >= 0xfdd0 && c <= 0xfdef) return true; // noncharacters (U+FFFE, U+FFFF, ...)
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                    Character.SURROGATE, Character.PRIVATE_USE -> true;
            default -> false;
        };
    }

    /** Appends c as an escape: \\xHH, \\uHHHH or \\UHHHHHHHH. */
    public static void escape(StringBuilder b, int c) {
        if (c < 0x100) b.append("\\x").append(hex(c, 2));
        else if (c < 0x10000) b.append("\\u").append(hex(c, 4));
        else b.append("\\U").append(hex(c, 8));
    }

    private static String hex(int c, int digits) {
        String h = Integer.toHexString(c);
        return "0".repeat(Math.max(0, digits - h.length())) + h;
    }
}
