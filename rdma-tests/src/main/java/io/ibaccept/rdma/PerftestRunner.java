package io.ibaccept.rdma;

import io.ibaccept.collect.ExecResult;
import io.ibaccept.collect.Transport;
import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.dump.Manifest;
import io.ibaccept.dump.sources.Sources;
import io.ibaccept.safety.Shell;
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
    /** Test names, device and port are validated here ({@link Shell}): they end up in command lines and file names. */
    public record Options(List<String> tests, String device, int basePort, Duration timeout, Duration serverStartDelay,
                          String extraArgs) {
        public Options {
            tests = List.copyOf(tests);
            tests.forEach(Shell::requirePerftest);
            if (device != null && !device.isEmpty()) Shell.requireDevice(device);
            Shell.requirePort(basePort);
        }
    }

    private final Transport transport;
    private final Options opt;
    private final PrintStream progress;

    public PerftestRunner(Transport transport, Options opt, PrintStream progress) {
        this.transport = transport;
        this.opt = opt;
        this.progress = progress;
    }

    /** The command line of one side (every word quoted); the client gets the server's host name. */
    public String command(String test, String serverHost, int port) {
        List<String> argv = new ArrayList<>(List.of(Shell.requirePerftest(test)));
        if (opt.device() != null && !opt.device().isEmpty()) argv.addAll(List.of("-d", opt.device()));
        argv.addAll(List.of("-p", String.valueOf(Shell.requirePort(port))));
        if (test.endsWith("_bw")) argv.add("--report_gbits");
        StringBuilder sb = new StringBuilder(Shell.join(argv));
        String extra = Shell.words(opt.extraArgs());
        if (!extra.isEmpty()) sb.append(' ').append(extra);
        if (serverHost != null) sb.append(' ').append(Shell.quote(Shell.requireHost(serverHost)));
        return sb.toString();
    }

    /**
     * Runs every round of every test. Host names are checked first; the dump's manifest says "state: partial" until
     * the last pair is written (an rdma-only dump gets a manifest of its own).
     */
    public int run(List<List<PairScheduler.Pair>> rounds, DumpWriter w) {
        int widest = 0;
        for (List<PairScheduler.Pair> round : rounds) {
            widest = Math.max(widest, round.size());
            for (PairScheduler.Pair p : round) {
                Shell.requireHost(p.client());
                Shell.requireHost(p.server());
            }
        }
        if (opt.basePort() + widest - 1 > 65535)
            throw new Shell.UnsafeValue("ports " + opt.basePort() + ".." + (opt.basePort() + widest - 1) + " do not fit below 65536: lower --port");
        Manifest own = new Manifest(Manifest.FORMAT, "rdma", Instant.now().toString(), "ibaccept rdma", "", List.of(),
                Map.of("transport", transport.name()));
        w.state(Manifest.PARTIAL, own);
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
        if (Transport.stopping()) throw new IllegalStateException("rdma stopped: the dump is marked partial");
        w.state(Manifest.COMPLETE, own);
        return ran;
    }

    private void runPair(String test, String id, PairScheduler.Pair p, int port, DumpWriter w) {
        ExecResult[] r = exchange(test, id, p, port);
        write(w, id + ".client", test, p.client(), p.server(), command(test, p.server(), port), r[0]);
        write(w, id + ".server", test, p.server(), p.client(), command(test, null, port), r[1]);
    }

    /**
     * One pair outside a round, its outputs not written (a drill's check that traffic still flows): "CLIENT -> SERVER
     * TEST: ok, N Gb/s" or "...: failed (why)".
     */
    public String once(String test, PairScheduler.Pair p) {
        Shell.requireHost(p.client());
        Shell.requireHost(p.server());
        ExecResult c = exchange(test, test + "__" + p.client() + "__" + p.server(), p, opt.basePort())[0];
        String head = p.client() + " -> " + p.server() + " " + test + ": ";
        if (!CommandResult.OK.equals(c.status())) return head + "failed (" + c.status() + ", exit " + c.exitCode() + ": " + c.stderr().strip().lines().findFirst().orElse("") + ")";
        try {
            io.ibaccept.model.Perftest t = Sources.PERFTEST.parser().parse(new io.ibaccept.parse.Text("perftest", c.stdout()), io.ibaccept.parse.Issues.collecting());
            if (t.bannerOnly() || t.largest() == null) return head + "failed (no result rows)";
            return head + "ok" + (t.bandwidthTest() ? String.format(java.util.Locale.ROOT, ", %.1f Gb/s", t.perDirectionGbps(t.largest())) : "");
        } catch (RuntimeException unreadable) {
            return head + "failed (output unreadable: " + unreadable.getMessage() + ")";
        }
    }

    /** Server started, client run against it: {client, server}. */
    private ExecResult[] exchange(String test, String id, PairScheduler.Pair p, int port) {
        String serverCmd = command(test, null, port);
        // its own thread, not the common pool: a busy pool must not delay a server its client is waiting for
        CompletableFuture<ExecResult> server = new CompletableFuture<>();
        Thread st = new Thread(() -> {
            try {
                server.complete(transport.run(p.server(), serverCmd, opt.timeout()));
            } catch (RuntimeException e) {
                server.completeExceptionally(e);
            }
        }, "perftest-server-" + id);
        st.setDaemon(true);
        st.start();
        try {
            Thread.sleep(opt.serverStartDelay().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String clientCmd = command(test, p.server(), port);
        ExecResult client = transport.run(p.client(), clientCmd, opt.timeout());
        return new ExecResult[] {client, server.join()};
    }

    private static void write(DumpWriter w, String base, String test, String host, String peer, String cmd, ExecResult r) {
        w.command(Sources.PERFTEST.path(base), new CommandResult(test, host, cmd, r.status(), r.exitCode(), r.durationMs(),
                Instant.now().toString(), r.stderr()), r.stdout(), Map.of("peer", peer));
    }
}
