package io.ibaccept.rules;

import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import java.util.Locale;

/**
 * A typed setting of a check, declared by the check like a PMD rule property: key (without the check id), type and
 * default. The rules file loader validates every value against its type, so a bad value is rejected with its
 * file:line at load time instead of failing the check at run time.
 */
public record Setting(String key, Type type, String defaultValue, String description) {
    public enum Type {
        /** A finite, non-negative number. */
        NUMBER("number, 0 or more"),
        /** A number or "unlimited". */
        NUMBER_OR_UNLIMITED("number, 0 or more, or unlimited"),
        /** An InfiniBand speed name (SDR..XDR, FDR10) or "auto". */
        SPEED("speed: auto, SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR or XDR"),
        /** A link width (1X, 2X, 4X, 8X, 12X) or "auto". */
        WIDTH("width: auto, 1X, 2X, 4X, 8X or 12X"),
        /** An IB MTU in bytes (256..4096) or "auto". */
        MTU("MTU: auto, 256, 512, 1024, 2048 or 4096"),
        /** Comma-separated list (may be empty). */
        LIST("comma-separated list, may be empty"),
        BOOLEAN("true or false"),
        TEXT("text");

        /** The values the type takes, for the settings reference. */
        public final String values;

        Type(String values) {
            this.values = values;
        }

        /** null if v is a valid value of this type, else what is wrong with it (written for the user). */
        public String validate(String raw) {
            String v = raw.trim();
            String lower = v.toLowerCase(Locale.ROOT);
            switch (this) {
                case NUMBER, NUMBER_OR_UNLIMITED -> {
                    if (this == NUMBER_OR_UNLIMITED && lower.equals("unlimited")) return null;
                    double d;
                    try {
                        d = Double.parseDouble(v);
                    } catch (NumberFormatException e) {
                        return "must be a number" + (this == NUMBER_OR_UNLIMITED ? " or 'unlimited'" : "") + ", found '" + v + "'";
                    }
                    if (Double.isNaN(d) || Double.isInfinite(d) || lower.contains("nan") || lower.contains("inf"))
                        return "must be a finite number, found '" + v + "'";
                    if (d < 0) return "must not be negative, found '" + v + "'";
                    return null;
                }
                case SPEED -> {
                    if (lower.equals("auto") || LinkSpeed.parse(v).isPresent()) return null;
                    return "unknown speed '" + v + "' (expected auto or one of SDR DDR QDR FDR10 FDR EDR HDR NDR XDR)";
                }
                case WIDTH -> {
                    if (lower.equals("auto") || LinkWidth.parse(v).isPresent()) return null;
                    return "unknown link width '" + v + "' (expected auto, 1X, 2X, 4X, 8X or 12X)";
                }
                case MTU -> {
                    if (lower.equals("auto") || v.matches("256|512|1024|2048|4096")) return null;
                    return "unknown MTU '" + v + "' (expected auto, 256, 512, 1024, 2048 or 4096)";
                }
                case BOOLEAN -> {
                    if (lower.equals("true") || lower.equals("false")) return null;
                    return "must be true or false, found '" + v + "'";
                }
                default -> {
                    return null;
                }
            }
        }
    }

    public static Setting number(String key, String dflt, String description) {
        return new Setting(key, Type.NUMBER, dflt, description);
    }

    public static Setting of(String key, Type type, String dflt, String description) {
        return new Setting(key, type, dflt, description);
    }
}
