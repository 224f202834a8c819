package io.ibaccept.parse;

/** Number parsing helpers that turn malformed values into line-numbered {@link ParseException}s. */
public final class Nums {
    private Nums() {}

    public static long hex(Text t, int line, String value) {
        String v = value.trim();
        try {
            if (v.startsWith("0x") || v.startsWith("0X")) v = v.substring(2);
            return Long.parseUnsignedLong(v, 16);
        } catch (NumberFormatException e) {
            throw t.error(line, "expected a hexadecimal number, found '" + value.trim() + "'");
        }
    }

    public static int integer(Text t, int line, String value) {
        String v = value.trim();
        try {
            if (v.startsWith("0x") || v.startsWith("0X")) return Integer.parseUnsignedInt(v.substring(2), 16);
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw t.error(line, "expected an integer, found '" + value.trim() + "'");
        }
    }

    public static long longValue(Text t, int line, String value) {
        String v = value.trim();
        try {
            if (v.startsWith("0x") || v.startsWith("0X")) return Long.parseUnsignedLong(v.substring(2), 16);
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw t.error(line, "expected an integer, found '" + value.trim() + "'");
        }
    }

    public static double decimal(Text t, int line, String value) {
        try {
            return Double.parseDouble(value.trim().replace(",", ""));
        } catch (NumberFormatException e) {
            throw t.error(line, "expected a number, found '" + value.trim() + "'");
        }
    }
}
