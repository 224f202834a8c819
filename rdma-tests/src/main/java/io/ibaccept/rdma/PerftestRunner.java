package io.ibaccept.rdma;

import io.ibaccept.collect.ExecResult;
import io.ibaccept.collect.Transport;
import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.DumpWriter;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs perftest pairs round by round: in each round every pair starts its server, waits, then runs the client
 * against it; each pair uses its own TCP port. Outputs go to perftest/ID.{client,server}.{out,err,meta}.
 */
public final class PerftestRunner {
    public record Options(List<String> tests, String device, int basePort, Duration timeout, Duration serverStartDelay,
                          String extraArgs) {}

    private final Transport transport;
    private final Options opt;
    private final PrintStream progress;

    public PerftestRunner(Transport transport, Options opt, PrintStream progress) {
        this.transport = transport;
        this.opt = opt;
        this.progress = progress;
    }

    /** The command line of one side; the client gets the server's host name. */
    public String command(String test, String serverHost, int port) {
        StringBuilder sb = new StringBuilder(test);
        if (opt.device() != null && !opt.device().isEmpty()) sb.append(" -d ").append(opt.device());
        sb.append(" -p ").append(port);
        if (test.endsWith("_bw")) sb.append(" --report_gbits");
        if (opt.extraArgs() != null && !opt.extraArgs().isBlank()) sb.append(' ').append(opt.extraArgs());
        if (serverHost != null) sb.append(' ').append(serverHost);
        return sb.toString();
    }

    public int run(List<List<PairScheduler.Pair>> rounds, DumpWriter w) {
        int ran = 0;
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            for (String test : opt.tests()) {
                for (int r = 0; r < rounds.size(); r++) {
                    List<CompletableFuture<Void>> fs = new ArrayList<>();
                    int slot = 0;
                    for (PairScheduler.Pair p : rounds.get(r)) {
                        int port = opt.basePort() + slot++;
                        String id = test + "__" + p.client() + "__" + p.server();
                        fs.add(CompletableFuture.runAsync(() -> runPair(test, id, p, port, w), pool));
                        ran++;
                    }
                    CompletableFuture.allOf(fs.toArray(new CompletableFuture[0])).join();
                    progress.printf("%s round %d/%d: %d pair(s) done%n", test, r + 1, rounds.size(), rounds.get(r).size());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return ran;
    }

    private void runPair(String test, String id, PairScheduler.Pair p, int port, DumpWriter w) {
        String serverCmd = command(test, null, port);
        CompletableFuture<ExecResult> server = CompletableFuture.supplyAsync(() -> transport.run(p.server(), serverCmd, opt.timeout()));
        try {
            Thread.sleep(opt.serverStartDelay().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String clientCmd = command(test, p.server(), port);
        ExecResult client = transport.run(p.client(), clientCmd, opt.timeout());
        ExecResult srv = server.join();
        write(w, id + ".client", test, p.client(), p.server(), clientCmd, client);
        write(w, id + ".server", test, p.server(), p.client(), serverCmd, srv);
    }

    private static void write(DumpWriter w, String base, String test, String host, String peer, String cmd, ExecResult r) {
        w.command("perftest/" + base + ".out", new CommandResult(test, host, cmd, r.status(), r.exitCode(), r.durationMs(),
                Instant.now().toString(), r.stderr()), r.stdout(), Map.of("peer", peer));
    }
}
