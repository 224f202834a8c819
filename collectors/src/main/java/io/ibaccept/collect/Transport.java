package io.ibaccept.collect;

import io.ibaccept.dump.CommandResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs a shell command on a node. Implementations only decide the argv and environment. */
public abstract class Transport {
    public abstract String name();

    /** argv that runs the shell snippet on host. */
    protected abstract List<String> argv(String host, String script);

    protected Map<String, String> env(String host) {
        return Map.of();
    }

    /** Classify a non-zero exit: 127 is "command not found" in every shell; subclasses add their own. */
    protected String classify(int exit, String stderr) {
        if (exit == 127 || stderr.contains("command not found")) return CommandResult.MISSING_TOOL;
        return CommandResult.FAILED;
    }

    public ExecResult run(String host, String script, Duration timeout) {
        long t0 = System.nanoTime();
        ProcessBuilder pb = new ProcessBuilder(argv(host, script));
        pb.environment().putAll(env(host));
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            return new ExecResult(CommandResult.MISSING_TOOL, 127, "", "cannot start " + pb.command().get(0) + ": " + e.getMessage(), ms(t0));
        }
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> drain(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
                return new ExecResult(CommandResult.TIMEOUT, -1, out.getNow(""), "timed out after " + timeout.toSeconds() + " s", ms(t0));
            }
            int exit = p.exitValue();
            String so = out.get(10, TimeUnit.SECONDS), se = err.get(10, TimeUnit.SECONDS);
            String status = exit == 0 ? CommandResult.OK : classify(exit, se);
            return new ExecResult(status, exit, so, se, ms(t0));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            return new ExecResult(CommandResult.TIMEOUT, -1, "", "interrupted", ms(t0));
        } catch (Exception e) {
            return new ExecResult(CommandResult.FAILED, -1, "", e.toString(), ms(t0));
        }
    }

    private static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    private static String drain(InputStream in) {
        try (in) {
            ByteArrayOutputStream bo = new ByteArrayOutputStream();
            in.transferTo(bo);
            return bo.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
