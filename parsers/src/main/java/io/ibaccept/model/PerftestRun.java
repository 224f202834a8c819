package io.ibaccept.model;

/** A pairwise perftest: client on one host against the server on another. A result is null if unusable. */
public record PerftestRun(String id, String test, String client, String server, Perftest clientResult,
                          Perftest serverResult, String file) {
    /** The side that reports the result: client for bandwidth tests, either for latency. */
    public Perftest result() {
        return clientResult != null ? clientResult : serverResult;
    }
}
