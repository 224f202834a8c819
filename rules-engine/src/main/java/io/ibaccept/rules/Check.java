package io.ibaccept.rules;

import java.util.List;

/**
 * One check of the field troubleshooting table: its id (the key prefix of its block in rules.properties), the dump
 * inputs it reads, its typed settings, and its evaluation. The engine SKIPs the check with the collect hint when a
 * declared input is unusable, so {@link #evaluate} only runs when there is something to judge. Register a new check
 * in {@code io.ibaccept.rules.checks.Checks}.
 */
public interface Check {
    String id();

    /** Inputs the check needs; each one may list alternatives (any usable one satisfies it). */
    List<Input> inputs();

    /** Thresholds and options of the check (the {@code <id>.<key>} entries of its rules.properties block). */
    default List<Setting> settings() {
        return List.of();
    }

    void evaluate(Ctx ctx);
}
