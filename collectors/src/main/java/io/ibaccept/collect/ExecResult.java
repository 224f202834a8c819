package io.ibaccept.collect;

import io.ibaccept.dump.CommandResult;

/** How one remote command ended. status uses the {@link CommandResult} status words. */
public record ExecResult(String status, int exitCode, String stdout, String stderr, long durationMs) {}
