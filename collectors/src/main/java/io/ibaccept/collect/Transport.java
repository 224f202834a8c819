package io.ibaccept.collect;

import io.ibaccept.dump.CommandResult;
import io.ibaccept.safety.Shell;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Runs a shell command on a node. Implementations only decide the argv and environment. The host name is validated
 * here ({@link Shell#requireHost}) before anything starts, so no transport can pass a hostile name to ssh or srun; the
 * script is a trusted template whose variable parts were quoted with {@link Shell} by whoever built it.
 *
 * Every process started here is registered until it ends: a JVM shutdown (Ctrl-C, SIGTERM) destroys them and their
 * descendants, so ssh/srun clients and local tools do not outlive an interrupted collect or rdma run.
 */
public abstract class Transport {
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
    /** Processes ended by {@link #stopAll}: their result is "interrupted", whatever exit code the kill produced. */
    private static final Set<Process> STOPPED = ConcurrentHashMap.newKeySet();

    /** Set once the JVM is shutting down: nothing new is started, and no run may call itself complete. */
    private static volatile boolean stopping;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopping = true;
            stopAll();
        }, "ibaccept-stop-commands"));
    }

    /** True once the JVM is shutting down (Ctrl-C, SIGTERM): collectors must leave their dump marked partial. */
    public static boolean stopping() {
        return stopping;
    }

    public abstract String name();

    /** argv that runs the shell snippet on host. */
    protected abstract List<String> argv(String host, String script);

    /** As above, for transports that also bound the remote side (ssh wraps the command in timeout(1)). */
    protected List<String> argv(String host, String script, Duration timeout) {
        return argv(host, script);
    }

    protected Map<String, String> env(String host) {
        return Map.of();
    }

    /** Classify a non-zero exit: 127 is "command not found" in every shell; subclasses add their own. */
    protected String classify(int exit, String stderr) {
        if (exit == 127 || stderr.contains("command not found")) return CommandResult.MISSING_TOOL;
        return CommandResult.FAILED;
    }

    public ExecResult run(String host, String script, Duration timeout) {
        return run(host, script, timeout, false, null);
    }

    /** Takes a command's stdout as it arrives, instead of holding it in memory (an output of gigabytes). */
    public interface StdoutSink {
        void take(InputStream stdout) throws IOException;
    }

    /**
     * Runs the command with its stdout handed to sink as it arrives, every byte and without a size limit (the timeout
     * bounds it); the result's stdout is empty. A sink that fails (a full disk) makes the result FAILED, saying why.
     */
    public ExecResult run(String host, String script, Duration timeout, StdoutSink sink) {
        return run(host, script, timeout, false, sink);
    }

    /**
     * Puts back what an active command changed (a drill restarting the SM it stopped): runs even while the JVM shuts
     * down, and is not among the commands a shutdown stops.
     */
    public ExecResult restore(String host, String script, Duration timeout) {
        return run(host, script, timeout, true, null);
    }

    private ExecResult run(String host, String script, Duration timeout, boolean restoring, StdoutSink sink) {
        long t0 = System.nanoTime();
        try {
            Shell.requireHost(host);
        } catch (Shell.UnsafeValue e) {
            return new ExecResult(CommandResult.FAILED, -1, "", "not run: " + e.getMessage(), 0);
        }
        if (stopping && !restoring) return new ExecResult(CommandResult.TIMEOUT, -1, "", "not run: ibaccept is shutting down", 0);
        ProcessBuilder pb = new ProcessBuilder(argv(host, script, timeout));
        pb.environment().putAll(env(host));
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            return new ExecResult(CommandResult.MISSING_TOOL, 127, "", "cannot start " + pb.command().get(0) + ": " + e.getMessage(), ms(t0));
        }
        if (!restoring) LIVE.add(p);
        // one thread per stream, started now: output is read as it comes, whatever else the JVM is doing
        Drainer out = sink == null ? new Drainer(p.getInputStream(), "ibaccept-stdout-" + host) : new Drainer(p.getInputStream(), "ibaccept-stdout-" + host, sink);
        Drainer err = new Drainer(p.getErrorStream(), "ibaccept-stderr-" + host);
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                stop(p);
                out.join(2000);
                err.join(2000);
                return new ExecResult(CommandResult.TIMEOUT, -1, out.text(), "timed out after " + timeout.toSeconds() + " s", ms(t0));
            }
            // the pipes end when the last writer exits; a background child that keeps them open is stopped
            long left = Math.max(2000, timeout.toMillis() - ms(t0));
            if (!out.join(left) | !err.join(left)) {
                stop(p);
                out.join(2000);
                err.join(2000);
            }
            int exit = p.exitValue();
            String so = out.text(), se = err.text();
            if (STOPPED.remove(p)) return new ExecResult(CommandResult.TIMEOUT, exit, so, "interrupted: ibaccept was stopped while this ran", ms(t0));
            if (out.sinkFailure() != null)
                return new ExecResult(CommandResult.FAILED, exit, so, "its output could not be written: " + out.sinkFailure(), ms(t0));
            if (out.dropped() > 0)
                return new ExecResult(CommandResult.FAILED, exit, so, String.format(java.util.Locale.ROOT, "output cut: the command printed %.1f MiB, more than the"
                        + " limit of %d MiB (-Dibaccept.max-file-mib=N)", (so.length() + out.dropped()) / 1048576.0, outputLimit() >> 20), ms(t0));
            String status = exit == 0 ? CommandResult.OK : classify(exit, se);
            return new ExecResult(status, exit, so, se, ms(t0));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop(p);
            return new ExecResult(CommandResult.TIMEOUT, -1, out.text(), "interrupted", ms(t0));
        } finally {
            LIVE.remove(p);
            STOPPED.remove(p);
        }
    }

    /**
     * Starts a long-running process whose output the caller reads itself (a whole job step): registered like every
     * command, so a JVM shutdown stops it; the caller ends it with {@link #forget} once it has exited.
     */
    static Process start(List<String> argv) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(argv);
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        return start(pb);
    }

    /** As {@link #start(List)}, with exactly this environment and working directory (ClusterShell's upcalls, nodeset). */
    static Process start(List<String> argv, Map<String, String> environment, java.nio.file.Path cwd) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(argv);
        pb.environment().clear();
        pb.environment().putAll(environment);
        if (cwd != null && java.nio.file.Files.isDirectory(cwd)) pb.directory(cwd.toFile());
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        return start(pb);
    }

    private static Process start(ProcessBuilder pb) throws IOException {
        if (stopping) throw new IOException("ibaccept is shutting down");
        Process p = pb.start();
        LIVE.add(p);
        return p;
    }

    static void forget(Process p) {
        LIVE.remove(p);
        STOPPED.remove(p);
    }

    /** Stops every command still running (JVM shutdown, or a caller giving up): the whole process tree of each. */
    public static void stopAll() {
        List<Process> all = List.copyOf(LIVE);
        STOPPED.addAll(all);
        stop(all);
    }

    /** Number of commands running now (for tests). */
    static int running() {
        return LIVE.size();
    }

    static void stop(Process p) {
        stop(List.of(p));
    }

    /**
     * SIGTERM to every tree first (srun forwards it to the job step, ssh closes the session), SIGKILL to what is left
     * after one grace period. Descendants are listed before their parents die, or they would be reparented and lost.
     */
    private static void stop(List<Process> ps) {
        List<ProcessHandle> tree = new java.util.ArrayList<>();
        for (Process p : ps) {
            tree.addAll(p.descendants().toList());
            tree.add(p.toHandle());
        }
        tree.forEach(ProcessHandle::destroy);
        long end = System.nanoTime() + 2_000_000_000L;
        while (tree.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < end) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (Process p : ps) p.descendants().forEach(ProcessHandle::destroyForcibly);
        tree.forEach(ProcessHandle::destroyForcibly);
    }

    private static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    /**
     * Most bytes of one stream kept in memory: what the analysis would read of the file anyway
     * (ibaccept.max-file-mib, default 64); the rest is read and dropped so the command is not blocked.
     */
    static long outputLimit() {
        try {
            long mib = Long.parseLong(System.getProperty("ibaccept.max-file-mib", "64").trim());
            return mib > 0 && mib < 2048 ? mib << 20 : 64L << 20;
        } catch (NumberFormatException e) {
            return 64L << 20;
        }
    }

    /** Reads one stream to its end on its own daemon thread; text() is what arrived so far (up to the limit). */
    static final class Drainer {
        private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
        private final Thread thread;
        private final long limit;
        private long dropped;

        Drainer(InputStream in, String name) {
            this(in, name, outputLimit());
        }

        private volatile String sinkFailure;

        /** Hands the stream to sink on its own thread; what the sink leaves unread (after a failure) is read and dropped. */
        Drainer(InputStream in, String name, StdoutSink sink) {
            this.limit = 0;
            thread = new Thread(() -> {
                try (in) {
                    try {
                        sink.take(in);
                    } catch (IOException e) {
                        sinkFailure = io.ibaccept.safety.IoMessages.why(e);
                    }
                    in.transferTo(java.io.OutputStream.nullOutputStream()); // the command must not block on a full pipe
                } catch (IOException ignored) {
                    // the process was stopped and its pipe closed
                }
            }, name);
            thread.setDaemon(true);
            thread.start();
        }

        /** Why the sink could not take the stream, or null. */
        String sinkFailure() {
            return sinkFailure;
        }

        Drainer(InputStream in, String name, long limit) {
            this.limit = limit;
            thread = new Thread(() -> {
                byte[] b = new byte[16384];
                try (in) {
                    int n;
                    while ((n = in.read(b)) > 0) {
                        synchronized (buf) {
                            int keep = (int) Math.max(0, Math.min(n, limit - buf.size()));
                            buf.write(b, 0, keep);
                            dropped += n - keep;
                        }
                    }
                } catch (IOException ignored) {
                    // the process was stopped and its pipe closed: keep what arrived
                }
            }, name);
            thread.setDaemon(true);
            thread.start();
        }

        boolean join(long millis) throws InterruptedException {
            thread.join(Math.max(1, millis));
            return !thread.isAlive();
        }

        /** What arrived, every byte kept: bytes that are not UTF-8 are carried as {@link io.ibaccept.dump.RawText} escapes. */
        String text() {
            synchronized (buf) {
                return io.ibaccept.dump.RawText.decode(buf.toByteArray(), buf.size());
            }
        }

        /** Bytes beyond the limit that were read and dropped (0 when everything was kept). */
        long dropped() {
            synchronized (buf) {
                return dropped;
            }
        }
    }
}
