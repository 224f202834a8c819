package io.ibaccept.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** "90s", "10m", "1h30m", "2h" (or a plain number of seconds) for --window and --duration. */
final class Durations implements CommandLine.ITypeConverter<Duration> {
    private static final Pattern PART = Pattern.compile("(\\d{1,7})([hms])");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    static Duration parse(String value) {
        String v = value.trim().toLowerCase(java.util.Locale.ROOT);
        if (v.matches("\\d{1,7}")) return Duration.ofSeconds(Long.parseLong(v));
        Matcher m = PART.matcher(v);
        Duration d = Duration.ZERO;
        int at = 0;
        while (m.find() && m.start() == at) {
            long n = Long.parseLong(m.group(1));
            d = d.plus(switch (m.group(2)) {
                case "h" -> Duration.ofHours(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofSeconds(n);
            });
            at = m.end();
        }
        if (at == 0 || at != v.length())
            throw new CommandLine.TypeConversionException("expected a duration like 90s, 10m or 1h30m, found '" + value + "'");
        if (d.isZero()) throw new CommandLine.TypeConversionException("the duration must be longer than 0, found '" + value + "'");
        return d;
    }

    static String format(Duration d) {
        long s = d.toSeconds();
        return s % 3600 == 0 ? s / 3600 + "h" : s % 60 == 0 ? s / 60 + "m" : s + "s";
    }
}
