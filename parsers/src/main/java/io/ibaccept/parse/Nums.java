package io.ibaccept.parse;

/**
 * Number parsing by plain scanning (no regex, no exception on the normal path). Malformed or out-of-range values
 * become line-numbered {@link ParseException}s written for an engineer, never a Java exception name.
 */
public final class Nums {
    private Nums() {}

    /** The unsigned decimal number in s[from, to) (at most 9 digits, the caller's fixed-width field), -1 when it is not one. */
    public static int digits(CharSequence s, int from, int to) {
        int v = 0;
        for (int i = from; i < to; i++) {
            char ch = s.charAt(i);
            if (ch < '0' || ch > '9') return -1;
            v = v * 10 + (ch - '0');
        }
        return v;
    }

    public static long hex(Text t, int line, String value) {
        String v = value.trim();
        String digits = v.startsWith("0x") || v.startsWith("0X") ? v.substring(2) : v;
        if (digits.isEmpty() || digits.length() > 16 || !isHex(digits)) {
            if (!digits.isEmpty() && isHex(digits))
                throw t.error(line, "hexadecimal value '" + Text.excerpt(v) + "' does not fit 64 bits");
            throw t.error(line, "expected a hexadecimal number, found '" + Text.excerpt(v) + "'");
        }
        return Long.parseUnsignedLong(digits, 16);
    }

    /**
     * A value whose digits were partly or wholly replaced by x's, as people redact GUIDs before they publish an output
     * ("0x7cfe90xxxxxx1234", "e41d2d030xxxxxx", "xxxx"): no value at all, never to be read as one.
     */
    public static boolean redacted(String value) {
        String v = value.trim();
        String digits = v.startsWith("0x") || v.startsWith("0X") ? v.substring(2) : v;
        boolean masked = false;
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (c == 'x' || c == 'X' || c == '*') masked = true;
            else if (!isAsciiDigit(c) && "abcdefABCDEF".indexOf(c) < 0) return false;
        }
        return masked;
    }

    public static int integer(Text t, int line, String value) {
        long v = longValue(t, line, value);
        if (v > Integer.MAX_VALUE || v < Integer.MIN_VALUE)
            throw t.error(line, "value " + value.trim() + " is out of range for this field");
        return (int) v;
    }

    /** A decimal or 0x-hex integer that fits a signed 64-bit value. */
    public static long longValue(Text t, int line, String value) {
        String v = value.trim();
        if (v.startsWith("0x") || v.startsWith("0X")) return hex(t, line, v);
        Long r = parseDecimal(v);
        if (r == null) {
            if (isSignedDigits(v)) throw t.error(line, "value " + Text.excerpt(v) + " does not fit 64 bits");
            throw t.error(line, "expected an integer, found '" + Text.excerpt(v) + "'");
        }
        return r;
    }

    /** A counter: non-negative, fits 64 bits, and when bits is below 64, not above the field's width. */
    public static long counter(Text t, int line, String counterName, String value, int bits) {
        String v = value.trim();
        String name = Text.excerpt(counterName);
        if (v.startsWith("-") && isSignedDigits(v))
            throw t.error(line, "counter " + name + " has a negative value " + Text.excerpt(v) + ": not a counter reading");
        long r;
        if (v.startsWith("0x") || v.startsWith("0X")) {
            r = hex(t, line, v);
            if (r < 0) throw t.error(line, "counter " + name + " value " + Text.excerpt(v)
                    + " is above 2^63: not a plausible reading (a wrapped, negative or uninitialised value)");
        } else {
            Long p = parseDecimal(v);
            if (p == null) {
                if (fitsUnsigned64(v))
                    throw t.error(line, "counter " + name + " value " + v
                            + " is above 2^63: not a plausible reading (a wrapped, negative or uninitialised value)");
                if (isSignedDigits(v))
                    throw t.error(line, "counter " + name + " value " + Text.excerpt(v) + " does not fit 64 bits");
                throw t.error(line, "counter " + name + ": expected an integer, found '" + Text.excerpt(v) + "'");
            }
            r = p;
        }
        if (bits < 63 && r > (1L << bits) - 1)
            throw t.error(line, "counter " + name + " value " + r + " is above its " + bits + "-bit field (max " + ((1L << bits) - 1) + ")");
        return r;
    }

    public static double decimal(Text t, int line, String value) {
        String v = value.trim().replace(",", "");
        if (!isDecimal(v)) throw t.error(line, "expected a number, found '" + Text.excerpt(value.trim()) + "'");
        double d = Double.parseDouble(v);
        if (Double.isInfinite(d)) throw t.error(line, "value " + Text.excerpt(v) + " is out of range");
        return d;
    }

    /** Decimal integer, or null when malformed or outside the long range. */
    public static Long parseDecimal(String v) {
        if (!isSignedDigits(v)) return null;
        boolean neg = v.charAt(0) == '-';
        int i = v.charAt(0) == '-' || v.charAt(0) == '+' ? 1 : 0;
        long r = 0;
        for (; i < v.length(); i++) {
            int d = v.charAt(i) - '0';
            if (r > (Long.MAX_VALUE - d) / 10) return null;
            r = r * 10 + d;
        }
        return neg ? -r : r;
    }

    /** Plain digits no larger than 2^64 - 1. */
    private static boolean fitsUnsigned64(String v) {
        String max = "18446744073709551615";
        return isDigits(v) && (v.length() < max.length() || v.length() == max.length() && v.compareTo(max) <= 0);
    }

    public static boolean isDigits(String v) {
        if (v.isEmpty()) return false;
        for (int i = 0; i < v.length(); i++) if (v.charAt(i) < '0' || v.charAt(i) > '9') return false;
        return true;
    }

    private static boolean isSignedDigits(String v) {
        if (v.isEmpty()) return false;
        int s = v.charAt(0) == '-' || v.charAt(0) == '+' ? 1 : 0;
        return v.length() > s && isDigits(v.substring(s));
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHex(String v) {
        for (int i = 0; i < v.length(); i++) if (!isAsciiDigit(v.charAt(i)) && "abcdefABCDEF".indexOf(v.charAt(i)) < 0) return false;
        return true;
    }

    /** [-+]digits[.digits][e[-+]digits], scanned by hand. */
    public static boolean isDecimal(String v) {
        int i = 0, n = v.length();
        if (n == 0 || n > 64) return false;
        if (v.charAt(i) == '-' || v.charAt(i) == '+') i++;
        int digits = 0;
        while (i < n && isAsciiDigit(v.charAt(i))) { i++; digits++; }
        if (i < n && v.charAt(i) == '.') {
            i++;
            while (i < n && isAsciiDigit(v.charAt(i))) { i++; digits++; }
        }
        if (digits == 0) return false;
        if (i < n && (v.charAt(i) == 'e' || v.charAt(i) == 'E')) {
            i++;
            if (i < n && (v.charAt(i) == '-' || v.charAt(i) == '+')) i++;
            int ed = 0;
            while (i < n && isAsciiDigit(v.charAt(i))) { i++; ed++; }
            if (ed == 0) return false;
        }
        return i == n;
    }
}
