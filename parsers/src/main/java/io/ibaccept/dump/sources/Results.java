package io.ibaccept.dump.sources;

import java.util.HashMap;
import java.util.Map;

/** What the sources of one host (or of the fabric) parsed to, by source: the model records are built from it. */
public final class Results {
    private final Map<Source<?>, Object> values = new HashMap<>();

    /** value: null when the output was absent or unusable. */
    public <T> void put(Source<T> source, T value) {
        if (value != null) values.put(source, value);
    }

    /** The parsed result, null when there is none. */
    public <T> T get(Source<T> source) {
        @SuppressWarnings("unchecked") // put takes only a value of the source's own type
        T value = (T) values.get(source);
        return value;
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }
}
