package io.ibaccept.collect;

import io.ibaccept.dump.Cmd;
import io.ibaccept.dump.CommandResult;
import io.ibaccept.dump.DumpWriter;
import io.ibaccept.dump.Manifest;
import io.ibaccept.dump.sources.CollectOptions;
import io.ibaccept.dump.sources.Source;
import io.ibaccept.safety.Shell;
import java.io.PrintStream;
import java.nio.file.Files;
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
     * The fabric node's fabric-wide queries get this plus what they are expected to take on the fabric ({@link FabricBudget}).
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

    private int collected, notOk;

    /** Command outputs the last collect() recorded, and how many of them are not ok (failed, timed out, missing tool, not run). */
    public int collected() {
        return collected;
    }

    public int notOk() {
        return notOk;
    }

    /** The manifest of the collection this run adds to (collect --only), or null. */
    private Manifest earlier;

    public Collector(Transport transport, Options opt, PrintStream progress) {
        this.transport = transport;
        this.opt = opt;
        this.progress = progress;
    }

    private CounterWindow.Options counterWindow;

    private List<String> smNodes;

    /**
     * Reads the subnet manager's files (opensm.conf, partitions.conf, opensm.log tail) from these nodes ('collect
     * --sm-nodes'); they need not be among the collected nodes. Without it, from every collected node where an opensm
     * process runs.
     */
    public Collector withSmNodes(List<String> nodes) {
        if (nodes != null) nodes.forEach(Shell::requireHost);
        this.smNodes = nodes == null ? null : List.copyOf(new java.util.LinkedHashSet<>(nodes));
        return this;
    }

    /** Also take two fabric-wide counter samples a window apart, overlapping the collection (collect --window). */
    /**
     * Re-collects into a dump that already holds a collection (collect --only): its manifest stays the earlier one
     * with this run's nodes added, from the first write on, so an interrupted re-collect leaves the earlier outputs
     * current (the loader ignores outputs older than the manifest's start) and a finished one does not shrink the dump.
     */
    public Collector extending(Manifest earlier) {
        this.earlier = earlier;
        return this;
    }

    public Collector withCounterWindow(CounterWindow.Options window) {
        this.counterWindow = window;
        return this;
    }

    /**
     * Host names are validated before anything runs (a hostile name in a host file is a usage error, not a command).
     * The manifest says "state: partial" until every output is written, so an interrupted run leaves a dump that
     * says it is incomplete; a JVM shutdown stops the commands still running (see {@link Transport}).
     */
    public Path collect(List<String> nodes, Path out) {
        if (nodes.isEmpty()) throw new IllegalArgumentException("no nodes to collect from");
        nodes.forEach(Shell::requireHost);
        String fabricNode = opt.fabricNode() == null || opt.fabricNode().isEmpty() ? nodes.get(0) : Shell.requireHost(opt.fabricNode());
        // on ibsim every "host" is this machine: its OS facts (MPI/UCX/GPU, IPoIB, clock) are not the simulated hosts'
        CollectOptions options = new CollectOptions(opt.mlxlink(), opt.ibdiagnet(), opt.ethtoolIface(), opt.probeCommand(),
                smNodes != null, transport instanceof Transports.Sim);
        List<CommandSet.Spec> perNode = selected(CommandSet.perNode(options));
        List<CommandSet.Spec> fabric = selected(CommandSet.fabric(options));
        List<CommandSet.Spec> sm = selected(CommandSet.smConfig(options));
        // with --sm-nodes, the other collected nodes are still asked whether an opensm runs there (a rogue SM is found
        // with its files); one that runs none records nothing
        List<CommandSet.Spec> smFound = smNodes == null ? sm : selected(CommandSet.smConfig(new CollectOptions(opt.mlxlink(), opt.ibdiagnet(),
                opt.ethtoolIface(), opt.probeCommand(), false, transport instanceof Transports.Sim)));
        List<String> smOnly = smNodes == null ? List.of() : smNodes.stream().filter(n -> !nodes.contains(n)).toList();
        DumpWriter w = new DumpWriter(out);
        Map<String, String> tools = new LinkedHashMap<>();
        tools.put("transport", transport.name());
        List<String> listed = nodes;
        List<String> smListed = smNodes == null ? List.of() : smNodes;
        if (earlier != null) {
            listed = union(earlier.nodes(), nodes);
            smListed = union(earlier.smNodes(), smListed);
        }
        Manifest manifest = earlier != null ? earlier.withNodes(listed).withSmNodes(smListed).withState(Manifest.PARTIAL)
                : new Manifest(Manifest.FORMAT, opt.cluster(), Instant.now().toString(), "ibaccept collect", fabricNode, listed, tools, Manifest.PARTIAL,
                        smListed);
        w.manifest(manifest);
        ExecResult ver = transport.run(fabricNode, "ibstat -V 2>&1 | head -1", java.time.Duration.ofSeconds(20));
        if (CommandResult.OK.equals(ver.status())) tools.put("infiniband-diags", ver.stdout().trim());

        // the progress counts what will really run: every node's own list, the fabric node's, the SM-only nodes'
        Map<String, List<CommandSet.Spec>> perHost = new LinkedHashMap<>();
        for (String node : nodes) perHost.put(node, concat(perNode, smNodes == null || smNodes.contains(node) ? sm : smFound));
        int total = fabric.size() + perHost.values().stream().mapToInt(List::size).sum() + smOnly.size() * sm.size();
        AtomicInteger done = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(opt.parallel(), nodes.size() + 1)));
        List<Future<?>> fs = new ArrayList<>();
        Thread window = new Thread(() -> {
            if (counterWindow != null) new CounterWindow(transport, counterWindow, progress).run(fabricNode, nodes, w);
        }, "counter-window");
        window.start();
        // the fabric node's deadline and its commands' timeouts follow the fabric's size (FabricBudget)
        int hosts = Math.max(nodes.size(), earlier == null ? 0 : earlier.nodes().size());
        FabricBudget fabricBudget = new FabricBudget(opt.nodeDeadline(), fabric, FabricBudget.Size.estimate(hosts));
        int fabricTotal = total;
        fs.add(pool.submit(() -> series(w, fabricNode, fabric, fabricBudget, done, failed, fabricTotal)));
        int all = total;
        if (transport instanceof Transports.Srun srun && srun.oneStep()) {
            // every node's own list in one job step (SlurmStep); the SM-only nodes and the fabric node's queries as before
            SlurmStep step = new SlurmStep(srun, opt.nodeDeadline(), (node, spec, r) -> {
                if (!spec.notHere(r)) record(w, spec, node, r, done, failed, all);
            });
            // without --sm-nodes every node runs the SM snippets that record nothing where no opensm runs
            fs.add(pool.submit(() -> step.run(nodes, perNode, smNodes == null ? List.of() : sm, smNodes == null ? sm : smFound,
                    smNodes == null ? List.of() : smNodes)));
        } else perHost.forEach((node, specs) -> fs.add(pool.submit(() -> series(w, node, specs, fixed(opt.nodeDeadline()), done, failed, all))));
        for (String node : smOnly) fs.add(pool.submit(() -> series(w, node, sm, fixed(opt.nodeDeadline()), done, failed, all)));
        for (Future<?> f : fs) {
            try {
                f.get();
            } catch (InterruptedException e) {
                pool.shutdownNow();
                // the workers stop their commands; wait for them so nothing writes into the dump after we return
                try {
                    pool.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException again) {
                    // a second interrupt: stop waiting
                }
                window.interrupt();
                Thread.currentThread().interrupt();
                throw new IllegalStateException("collection interrupted: the dump in " + out + " is marked partial");
            } catch (Exception e) {
                progress.println("collector task failed: " + e.getMessage());
            }
        }
        pool.shutdownNow();
        try {
            window.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (Transport.stopping()) throw new IllegalStateException("collection stopped: the dump in " + out + " is marked partial");
        w.manifest(earlier != null ? earlier.withNodes(listed).withSmNodes(smListed).withState(Manifest.COMPLETE)
                : new Manifest(Manifest.FORMAT, opt.cluster(), manifest.created(), "ibaccept collect", fabricNode, listed, tools, Manifest.COMPLETE,
                        smListed));
        progress.printf("collected %d command outputs (%d not ok) from %d node(s) into %s%n", done.get(), failed.get(), nodes.size(), out);
        collected = done.get();
        notOk = failed.get();
        return out;
    }

    /**
     * Runs specs one after the other on host. Once the host is unreachable, has timed out twice in a row, or has
     * spent its deadline, the remaining commands are recorded as not run.
     */
    private void series(DumpWriter w, String host, List<CommandSet.Spec> specs, Budget budget,
                        AtomicInteger done, AtomicInteger failed, int total) {
        boolean unreachable = false;
        int timeoutsInARow = 0;
        String missingIbdiagnet = null;
        boolean noSm = false;
        for (CommandSet.Spec s : specs) {
            // an interrupted collection (Ctrl-C, shutdownNow) stops here instead of writing into a dump being abandoned
            if (Thread.currentThread().isInterrupted()) return;
            if (noSm && s.cmd().source().scope() == Source.Scope.SM_NODE) continue;
            ExecResult r;
            if (unreachable) r = new ExecResult(CommandResult.UNREACHABLE, -1, "", host + " unreachable (earlier command)", 0);
            else if (timeoutsInARow >= 2) r = new ExecResult(CommandResult.TIMEOUT, -1, "", "not run: " + host + " hung on the two previous commands", 0);
            else if (System.nanoTime() > budget.deadlineNanos()) r = new ExecResult(CommandResult.TIMEOUT, -1, "",
                    "not run: node deadline of " + budget.total().toSeconds() + " s exceeded", 0);
            else if (s.cmd() == Cmd.IBDIAGNET_DB && missingIbdiagnet != null)
                r = new ExecResult(CommandResult.MISSING_TOOL, 127, "", missingIbdiagnet, 0);
            else {
                java.time.Duration left = java.time.Duration.ofNanos(Math.max(1_000_000, budget.deadlineNanos() - System.nanoTime()));
                java.time.Duration timeout = budget.timeout(s);
                java.time.Duration bound = left.compareTo(timeout) < 0 ? left : timeout;
                r = s.cmd().source().storedCompressed()
                        ? transport.run(host, s.script(), bound, stdout -> w.stream(s.cmd().path(host), stdout))
                        : transport.run(host, s.script(), bound);
                budget.ran(s, r);
            }
            if (s.cmd() == Cmd.IBDIAGNET_LOG && CommandResult.MISSING_TOOL.equals(r.status())) missingIbdiagnet = r.stderr();
            if (s.notHere(r)) { // not an SM node / no such file: nothing to record
                if (s.cmd() == Cmd.OPENSM_PROCESS) noSm = true;
                continue;
            }
            if (CommandResult.UNREACHABLE.equals(r.status())) unreachable = true;
            timeoutsInARow = CommandResult.TIMEOUT.equals(r.status()) ? timeoutsInARow + 1 : 0;
            record(w, s, host, r, done, failed, total);
        }
    }

    /** How long one node's commands may take: its deadline, and each command's timeout. */
    interface Budget {
        java.time.Duration total();

        long deadlineNanos();

        default java.time.Duration timeout(CommandSet.Spec spec) {
            return spec.timeout();
        }

        /** A command ended: what it printed may change the budget (the fabric's size). */
        default void ran(CommandSet.Spec spec, ExecResult r) {}
    }

    /** A fixed deadline from now: a compute node's, whatever the fabric. */
    static Budget fixed(java.time.Duration d) {
        long deadline = System.nanoTime() + d.toNanos();
        return new Budget() {
            public java.time.Duration total() {
                return d;
            }

            public long deadlineNanos() {
                return deadline;
            }
        };
    }

    private static List<CommandSet.Spec> concat(List<CommandSet.Spec> a, List<CommandSet.Spec> b) {
        List<CommandSet.Spec> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private void record(DumpWriter w, CommandSet.Spec s, String host, ExecResult r, AtomicInteger done, AtomicInteger failed, int total) {
        if (CommandResult.FAILED.equals(r.status()) && s.okExits().contains(r.exitCode()))
            r = new ExecResult(CommandResult.OK, r.exitCode(), r.stdout(), r.stderr(), r.durationMs());
        CommandResult cr = new CommandResult(s.cmd().fileName(), host, s.script(), r.status(), r.exitCode(), r.durationMs(),
                Instant.now().toString(), r.stderr());
        // a compressed output went to its file as it arrived; one that never ran has none
        if (s.cmd().source().storedCompressed() && Files.exists(w.root().resolve(s.cmd().path(host) + ".gz"), java.nio.file.LinkOption.NOFOLLOW_LINKS))
            w.commandStored(s.cmd().path(host), cr);
        else w.command(s.cmd(), host, cr, r.stdout());
        int n = done.incrementAndGet();
        if (!CommandResult.OK.equals(r.status())) failed.incrementAndGet();
        progress.printf("[%4d/%d] %-12s %-20s %-12s %6d ms%n", n, total, host, s.cmd().fileName(), r.status(), r.durationMs());
    }

    private static List<String> union(List<String> a, List<String> b) {
        java.util.LinkedHashSet<String> all = new java.util.LinkedHashSet<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }
}
