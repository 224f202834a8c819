package io.ibaccept.model;

import java.util.Locale;
import java.util.Optional;

/** InfiniBand link width (number of lanes). */
public enum LinkWidth {
    X1(1), X2(2), X4(4), X8(8), X12(12);

    private final int lanes;

    LinkWidth(int lanes) {
        this.lanes = lanes;
    }

    public int lanes() {
        return lanes;
    }

    @Override
    public String toString() {
        return lanes + "X";
    }

    /** Accepts "4X", "4x", " 4x", "4". */
    public static Optional<LinkWidth> parse(String s) {
        if (s == null) return Optional.empty();
        String v = s.trim().toUpperCase(Locale.ROOT);
        if (v.endsWith("X")) v = v.substring(0, v.length() - 1);
        for (LinkWidth w : values()) if (String.valueOf(w.lanes).equals(v)) return Optional.of(w);
        return Optional.empty();
    }
}
