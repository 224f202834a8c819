package io.ibaccept.rules;

/** Quoting of names pasted into fix commands, so a copied command cannot run anything the name contains. */
public final class Shell {
    private Shell() {}

    private static boolean plain(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "_-./:=@,+%".indexOf(c) >= 0;
    }

    /**
     * The value as one POSIX shell word: unchanged when it only has characters no shell interprets
     * (letters, digits, {@code _-./:=@,+%}, not starting with '-'), else single-quoted with embedded quotes as '\''.
     * Newlines and other control characters are shown as '?' (a fix text is one line).
     */
    public static String quote(String v) {
        StringBuilder clean = new StringBuilder(v.length());
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            clean.append(Character.isISOControl(c) ? '?' : c);
        }
        String s = clean.toString();
        boolean safe = !s.isEmpty() && !s.startsWith("-");
        for (int i = 0; safe && i < s.length(); i++) safe = plain(s.charAt(i));
        if (safe) return s;
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
