package io.ibaccept.rules;

import java.util.List;

/**
 * One check of the field troubleshooting table: its id (the key prefix of its texts and settings), the dump inputs it
 * reads, its typed settings, and its evaluation. The engine SKIPs the check with the collect hint when a
 * declared input is unusable, so {@link #evaluate} only runs when there is something to judge. Register a new check
 * in {@code io.ibaccept.rules.checks.Checks}.
 */
public interface Check {
    String id();

    /** Inputs the check needs; each one may list alternatives (any usable one satisfies it). */
    List<Input> inputs();

    /**
     * Thresholds and options of the check, each with its type, default and description: the only place the default is
     * declared; a user's rules file overrides it as {@code <id>.<key>}.
     */
    default List<Setting> settings() {
        return List.of();
    }

    void evaluate(Ctx ctx);
}
