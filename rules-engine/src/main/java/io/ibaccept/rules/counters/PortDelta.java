package io.ibaccept.rules.counters;

import io.ibaccept.model.CounterSample;
import java.util.LinkedHashMap;
import java.util.Map;

/** All counter deltas of one port over the window. reset: the port's counters were reset between the samples. */
public record PortDelta(int lid, int port, Map<String, CounterDelta> deltas, boolean reset, double seconds,
                        CounterSample.Port start, CounterSample.Port end) {
    public PortDelta {
        deltas = Map.copyOf(deltas);
    }

    public static PortDelta of(CounterSample.Port start, CounterSample.Port end, double seconds) {
        boolean reset = false;
        for (Map.Entry<String, Long> e : end.counters().entrySet()) {
            Long s = start.counters().get(e.getKey());
            if (s == null || mixed(start, end, e.getKey())) continue;
            int bits = CounterDelta.bits(e.getKey(), end.extended().contains(e.getKey()));
            if (Long.compareUnsigned(e.getValue(), s) < 0 && !CounterDelta.looksWrapped(e.getKey(), s, e.getValue(), bits)) {
                reset = true;
                break;
            }
        }
        Map<String, CounterDelta> d = new LinkedHashMap<>();
        for (Map.Entry<String, Long> e : end.counters().entrySet()) {
            Long s = start.counters().get(e.getKey());
            if (s == null || mixed(start, end, e.getKey())) continue; // one 64-bit, one 32-bit reading: not comparable
            boolean ext = end.extended().contains(e.getKey());
            d.put(e.getKey(), CounterDelta.of(e.getKey(), s, e.getValue(), CounterDelta.bits(e.getKey(), ext), reset));
        }
        return new PortDelta(end.lid(), end.port(), d, reset, seconds, start, end);
    }

    private static boolean mixed(CounterSample.Port a, CounterSample.Port b, String name) {
        return a.extended().contains(name) != b.extended().contains(name);
    }

    /** The delta of a counter, or null when a sample lacks it. */
    public CounterDelta get(String name) {
        return deltas.get(name);
    }

    public long delta(String name) {
        CounterDelta c = deltas.get(name);
        return c == null ? 0 : c.delta();
    }

    /** Value at the start of the window (what had accumulated before it). */
    public long before(String name) {
        return start.counters().getOrDefault(name, 0L);
    }

    public String key() {
        return lid + ":" + port;
    }
}
