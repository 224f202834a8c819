package io.ibaccept.collect;

import io.ibaccept.dump.Cmd;
import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.dump.Manifest;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the command set on every node (bounded parallelism) and the fabric-wide set on the fabric node, and writes
 * the dump. A failing, hung or unreachable node becomes error records; collection goes on for the others.
 */
public final class Collector {
    /**
     * probeCommand: the command that runs 'ibaccept probe' on a node (null: no native probe). nodeDeadline: total time
     * one node may take; once spent, or after two consecutive timeouts, its remaining commands are recorded as not run.
     */
    public record Options(String cluster, String fabricNode, int parallel, boolean mlxlink, boolean ibdiagnet,
                          String ethtoolIface, String probeCommand, java.time.Duration nodeDeadline) {
        public Options(String cluster, String fabricNode, int parallel, boolean mlxlink, boolean ibdiagnet,
                       String ethtoolIface, String probeCommand) {
            this(cluster, fabricNode, parallel, mlxlink, ibdiagnet, ethtoolIface, probeCommand, java.time.Duration.ofMinutes(5));
        }
    }

    private final Transport transport;
    private final Options opt;
    private final PrintStream progress;
    private java.util.Set<Cmd> only;

    /** Runs only these commands ('collect --only'); the other files of the dump are left as they are. */
    public Collector only(java.util.Set<Cmd> cmds) {
        this.only = cmds;
        return this;
    }

    private List<CommandSet.Spec> selected(List<CommandSet.Spec> specs) {
        return only == null ? specs : specs.stream().filter(s -> only.contains(s.cmd())).toList();
    }

    public Collector(Transport transport, Options opt, PrintStream progress) {
        this.transport = transport;
        this.opt = opt;
        this.progress = progress;
    }

    public Path collect(List<String> nodes, Path out) {
        DumpWriter w = new DumpWriter(out);
        String fabricNode = opt.fabricNode() == null || opt.fabricNode().isEmpty() ? nodes.get(0) : opt.fabricNode();
        Map<String, String> tools = new LinkedHashMap<>();
        tools.put("transport", transport.name());
        ExecResult ver = transport.run(fabricNode, "ibstat -V 2>&1 | head -1", java.time.Duration.ofSeconds(20));
        if (CommandResult.OK.equals(ver.status())) tools.put("infiniband-diags", ver.stdout().trim());
        w.manifest(new Manifest(Manifest.FORMAT, opt.cluster(), Instant.now().toString(), "ibaccept collect", fabricNode, nodes, tools));

        List<CommandSet.Spec> perNode = selected(CommandSet.perNode(opt.mlxlink(), opt.ethtoolIface(), opt.probeCommand()));
        List<CommandSet.Spec> fabric = selected(CommandSet.fabric(opt.ibdiagnet()));
        int total = nodes.size() * perNode.size() + fabric.size();
        AtomicInteger done = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(opt.parallel(), nodes.size() + 1)));
        List<Future<?>> fs = new ArrayList<>();
        fs.add(pool.submit(() -> {
            String missingTool = null;
            for (CommandSet.Spec s : fabric) {
                if (s.cmd() == Cmd.IBDIAGNET_DB && missingTool != null) {
                    record(w, s, fabricNode, new ExecResult(CommandResult.MISSING_TOOL, 127, "", missingTool, 0), done, failed, total);
                    continue;
                }
                ExecResult r = transport.run(fabricNode, s.script(), s.timeout());
                if (s.cmd() == Cmd.IBDIAGNET_LOG && CommandResult.MISSING_TOOL.equals(r.status())) missingTool = r.stderr();
                record(w, s, fabricNode, r, done, failed, total);
            }
        }));
        for (String node : nodes) {
            fs.add(pool.submit(() -> {
                boolean unreachable = false;
                int timeoutsInARow = 0;
                long deadline = System.nanoTime() + opt.nodeDeadline().toNanos();
                for (CommandSet.Spec s : perNode) {
                    ExecResult r;
                    if (unreachable) r = new ExecResult(CommandResult.UNREACHABLE, -1, "", node + " unreachable (earlier command)", 0);
                    else if (timeoutsInARow >= 2) r = new ExecResult(CommandResult.TIMEOUT, -1, "", "not run: " + node + " hung on the two previous commands", 0);
                    else if (System.nanoTime() > deadline) r = new ExecResult(CommandResult.TIMEOUT, -1, "",
                            "not run: node deadline of " + opt.nodeDeadline().toSeconds() + " s exceeded", 0);
                    else {
                        java.time.Duration left = java.time.Duration.ofNanos(Math.max(1_000_000, deadline - System.nanoTime()));
                        r = transport.run(node, s.script(), left.compareTo(s.timeout()) < 0 ? left : s.timeout());
                    }
                    if (CommandResult.UNREACHABLE.equals(r.status())) unreachable = true;
                    timeoutsInARow = CommandResult.TIMEOUT.equals(r.status()) ? timeoutsInARow + 1 : 0;
                    record(w, s, node, r, done, failed, total);
                }
            }));
        }
        for (Future<?> f : fs) {
            try {
                f.get();
            } catch (Exception e) {
                progress.println("collector task failed: " + e.getMessage());
            }
        }
        pool.shutdownNow();
        progress.printf("collected %d command outputs (%d not ok) from %d node(s) into %s%n", done.get(), failed.get(), nodes.size(), out);
        return out;
    }

    private void record(DumpWriter w, CommandSet.Spec s, String host, ExecResult r, AtomicInteger done, AtomicInteger failed, int total) {
        if (CommandResult.FAILED.equals(r.status()) && s.okExits().contains(r.exitCode()))
            r = new ExecResult(CommandResult.OK, r.exitCode(), r.stdout(), r.stderr(), r.durationMs());
        w.command(s.cmd(), host, new CommandResult(s.cmd().fileName(), host, s.script(), r.status(), r.exitCode(), r.durationMs(),
                Instant.now().toString(), r.stderr()), r.stdout());
        int n = done.incrementAndGet();
        if (!CommandResult.OK.equals(r.status())) failed.incrementAndGet();
        progress.printf("[%4d/%d] %-12s %-20s %-12s %6d ms%n", n, total, host, s.cmd().fileName(), r.status(), r.durationMs());
    }
}
