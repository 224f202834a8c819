package io.ibaccept.dump;

/**
 * The .meta record of one command run: what ran where, how it ended, how long it took.
 * status is one of ok, failed (non-zero exit), missing-tool, timeout, unreachable.
 */
public record CommandResult(String name, String host, String commandLine, String status, int exitCode,
                            long durationMs, String started, String stderr) {
    public static final String OK = "ok";
    public static final String FAILED = "failed";
    public static final String MISSING_TOOL = "missing-tool";
    public static final String TIMEOUT = "timeout";
    public static final String UNREACHABLE = "unreachable";

    public boolean ok() {
        return OK.equals(status);
    }
}
