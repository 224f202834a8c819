package io.ibaccept.rules.counters;

import io.ibaccept.dump.CommandResult;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.CounterSample;
import io.ibaccept.model.HostData;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The two counter samples of a dump with their times: each sample is dated at the middle of its run (reading a large
 * fabric takes a while), the window is the time between the two. cleared: ibaccept cleared the counters right before
 * the first sample. uptimes: seconds since boot per host, read right after the first sample.
 */
public record CounterWindowData(CounterSample start, CounterSample end, double seconds, boolean cleared,
                                Map<String, Double> uptimes) {
    public CounterWindowData {
        uptimes = Map.copyOf(uptimes);
    }

    /** Why the window cannot be judged (only one or no sample), or empty when it can. */
    public static String missing(ClusterData d) {
        boolean s = d.fabric().countersStart() != null, e = d.fabric().countersEnd() != null;
        boolean asked = s || e || command(d, "counters-start").isPresent() || command(d, "counters-end").isPresent();
        if (!asked) return "no counter window in this dump (collect --window): error counters are judged on a single snapshot by link.errors";
        if (s && e) return seconds(d) > 0 ? "" : "the two counter samples have no usable times (counters-start/-end .meta)";
        return "only one counter sample is usable (" + (s ? "fabric/counters-end.out" : "fabric/counters-start.out")
                + " is missing or failed, see the input findings): error counters are judged on the snapshot by link.errors";
    }

    public static Optional<CounterWindowData> of(ClusterData d) {
        if (!missing(d).isEmpty()) return Optional.empty();
        Map<String, Double> up = new LinkedHashMap<>();
        for (HostData h : d.hosts().values()) if (h.uptimeSeconds() != null) up.put(h.host(), h.uptimeSeconds());
        boolean cleared = command(d, "counters-clear").map(CommandResult::ok).orElse(false);
        return Optional.of(new CounterWindowData(d.fabric().countersStart(), d.fabric().countersEnd(), seconds(d), cleared, up));
    }

    static double seconds(ClusterData d) {
        Optional<Double> a = mid(d, "counters-start"), b = mid(d, "counters-end");
        if (a.isEmpty() || b.isEmpty()) return -1;
        return b.get() - a.get();
    }

    private static Optional<Double> mid(ClusterData d, String name) {
        return command(d, name).flatMap(c -> {
            try {
                Instant t = Instant.parse(c.started());
                return Optional.of(t.toEpochMilli() / 1000.0 + c.durationMs() / 2000.0);
            } catch (DateTimeParseException e) {
                return Optional.empty();
            }
        });
    }

    private static Optional<CommandResult> command(ClusterData d, String name) {
        return d.commands().stream().filter(c -> c.name().equals(name)).findFirst();
    }
}
