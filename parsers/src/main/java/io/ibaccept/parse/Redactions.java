package io.ibaccept.parse;

/**
 * GUIDs redacted before an output was published ("0x7cfe90xxxxxx1234", "S-e41d2d030xxxxxx"): no value, never read as
 * one. A parser reads them as unknown (0) through {@link #hex} and says so once per file, at the first of them.
 */
final class Redactions {
    private int count, first;
    private String example = "";

    /** A GUID, or 0 for a redacted one (counted). */
    long hex(Text t, int ln, String v) {
        if (!Nums.redacted(v)) return Nums.hex(t, ln, v);
        seen(ln, v.trim());
        return 0;
    }

    /** A node id of the form "S-GUID" / "H-GUID" whose GUID is redacted is counted too. */
    void id(int ln, String id) {
        if (id.indexOf('-') == 1 && Nums.redacted(id.substring(2))) seen(ln, id);
    }

    private void seen(int ln, String v) {
        if (count++ == 0) {
            first = ln;
            example = v;
        }
    }

    boolean any() {
        return count > 0;
    }

    /** The one issue of the file, when anything was redacted; after tells what the reader did instead. */
    void report(Text t, Issues issues, String after) {
        if (count > 0)
            issues.add(t, first, String.format(java.util.Locale.ROOT, "%d GUID value(s) are redacted (digits replaced by x, e.g. '%s'),"
                    + " as outputs are published: they are not read as GUIDs%s", count, Text.excerpt(example), after));
    }
}
