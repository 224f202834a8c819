package io.ibaccept.rules.checks;

import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Most-common-value helpers for "consistent across the cluster" checks. */
final class Majority {
    private Majority() {}

    /** The most frequent value; ties go to the greatest per the comparator (the better value, e.g. faster). */
    static <T> Optional<T> of(Collection<T> values, Comparator<T> tieBreak) {
        return counts(values).entrySet().stream()
                .max(Comparator.<Map.Entry<T, Long>>comparingLong(Map.Entry::getValue).thenComparing(Map.Entry::getKey, tieBreak))
                .map(Map.Entry::getKey);
    }

    /** value -> keys holding it, in first-seen order. */
    static <K, V> Map<V, List<K>> groups(Map<K, V> byKey) {
        return byKey.entrySet().stream().collect(Collectors.groupingBy(Map.Entry::getValue, LinkedHashMap::new,
                Collectors.mapping(Map.Entry::getKey, Collectors.toList())));
    }

    /** Whether the two most frequent values are equally frequent (no majority to speak of). */
    static <T> boolean tie(Collection<T> values) {
        List<Long> top = counts(values).values().stream().sorted(Comparator.reverseOrder()).limit(2).toList();
        return top.size() == 2 && top.get(0).equals(top.get(1));
    }

    /** "1000 at 4X, 999 at 1X": the values by frequency. */
    static <T> String describe(Collection<T> values) {
        return counts(values).entrySet().stream().sorted(Map.Entry.<T, Long>comparingByValue().reversed())
                .map(e -> e.getValue() + " at " + e.getKey()).collect(Collectors.joining(", "));
    }

    private static <T> Map<T, Long> counts(Collection<T> values) {
        return values.stream().collect(Collectors.groupingBy(Function.identity(), LinkedHashMap::new, Collectors.counting()));
    }
}
