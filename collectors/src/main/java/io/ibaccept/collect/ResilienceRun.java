package io.ibaccept.collect;

import io.ibaccept.fabric.Fabric;
import io.ibaccept.fabric.FabricBuilder;
import io.ibaccept.fabric.Routing;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.ForwardingTables;
import io.ibaccept.model.Topology;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * N-1 on the fabric's twin: every switch-to-switch cable (and with switches every switch) is taken out of the twin in
 * turn, opensm re-routes as it would on the live fabric (the port's trap, else a forced sweep), its tables are read
 * with dump_fts and walked (reachability, forwarding loops, credit loops, uplink balance), and the cable or switch is
 * put back before the next loss, so each twin's healthy sweep is reused. Losses run on several twins in parallel, each
 * an ibsim and opensm of its own. The record is the dump's fabric/resilience.out.
 */
public final class ResilienceRun {
    /** parallel: twins at once; sample: losses to run, 0 all of them; sweep: how long one re-route may take. */
    public record Options(boolean switches, int parallel, int sample, Duration sweep) {}

    /** A cable (b a switch, ports on both ends) or a switch (b 0). */
    record Loss(String kind, long a, int portA, long b, int portB, String name) {}

    /** What the tables do after one loss. */
    record Outcome(int unreachable, List<String> cutOff, int loops, int creditLoops, int worstUplink, String worstAt, int lostHosts, String fix) {
        String fields() {
            return "unreachable=" + unreachable + "\tcut_off=" + String.join(",", cutOff) + "\tloops=" + loops + "\tcredit_loops=" + creditLoops
                    + "\tworst_uplink=" + worstUplink + "\tworst_at=" + worstAt + "\tlost_hosts=" + lostHosts + "\tfix=" + fix;
        }
    }

    private final ClusterData dump;
    private final Options opt;
    private final PrintStream progress;
    private final Path work;
    private final Twin twin;
    private final Fabric fabric;

    public ResilienceRun(ClusterData dump, Options opt, Path work, PrintStream progress) {
        this.dump = dump;
        this.opt = opt;
        this.work = work;
        this.progress = progress;
        this.twin = Twin.of(dump);
        this.fabric = FabricBuilder.build(dump.fabric().anyTopology(), null, null);
    }

    /** Runs the twin and every loss; returns the record's text. */
    public String run() {
        long t0 = System.nanoTime();
        List<Loss> all = losses();
        long cables = all.stream().filter(l -> l.kind().equals("cable")).count();
        List<Loss> chosen = sample(all, opt.sample());
        int workers = Math.max(1, Math.min(opt.parallel(), chosen.size()));
        StringBuilder rec = new StringBuilder("# ibaccept resilience: N-1 on a twin of the fabric (ibsim with the dump's topology, opensm with its routing settings)\n");
        rec.append("engine: ").append(twin.engine()).append('\n');
        List<Worker> started = new java.util.concurrent.CopyOnWriteArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "ibaccept-twin");
            t.setDaemon(true);
            return t;
        });
        try {
            progress.println("twin: starting ibsim with " + fabric.switches().size() + " switch(es) and opensm (" + twin.engine() + ")");
            Worker first = new Worker(0);
            started.add(first);
            ForwardingTables healthy = first.tables();
            List<String> diff = dump.fabric().lfts() == null ? null : Twin.differences(dump.fabric().lfts(), twin.toDump(healthy), 6);
            String same = diff == null ? "the dump has no forwarding tables (dump_fts) to compare with"
                    : diff.isEmpty() ? "same forwarding tables as the dump's (" + healthy.switches().size() + " switches, " + healthy.destinations().size() + " LIDs)"
                    : "forwarding tables differ from the dump's: " + String.join("; ", diff);
            if (!twin.missingFiles.isEmpty()) same += "; opensm.conf names files the dump does not hold, the twin's opensm ran without them: " + String.join(", ", twin.missingFiles);
            rec.append("twin: ").append(same).append('\n');
            progress.println("twin: " + same);
            Outcome h = judge(null, healthy);
            healthyCreditLoops = h.creditLoops();
            rec.append("healthy worst uplink: ").append(h.worstUplink()).append(h.worstAt().isEmpty() ? "" : " at " + h.worstAt()).append('\n');
            rec.append("healthy credit loops: ").append(h.creditLoops()).append('\n');
            rec.append("sm: ").append(twin.smSource.isEmpty() ? "no SM configuration in the dump: opensm's defaults" : "routing settings of the SM on " + twin.smSource)
                    .append('\n');

            ConcurrentLinkedQueue<Integer> queue = new ConcurrentLinkedQueue<>();
            for (int i = 0; i < chosen.size(); i++) queue.add(i);
            Outcome[] out = new Outcome[chosen.size()];
            List<Future<?>> jobs = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                int id = w;
                jobs.add(pool.submit(() -> {
                    Worker me = id == 0 ? first : new Worker(id);
                    if (id != 0) started.add(me);
                    Integer i;
                    while ((i = queue.poll()) != null) {
                        Loss l = chosen.get(i);
                        out[i] = me.take(l);
                        progress.println("loss of " + l.name() + ": " + (out[i].fix().isEmpty() ? "survivable" : "CRITICAL") + " (" + out[i].fields().replace('\t', ' ') + ")");
                    }
                    return null;
                }));
            }
            for (Future<?> j : jobs) j.get();
            for (int i = 0; i < chosen.size(); i++)
                rec.append("loss ").append(chosen.get(i).kind()).append('\t').append(chosen.get(i).name()).append('\t').append(out[i].fields()).append('\n');
            long switches = chosen.stream().filter(l -> l.kind().equals("switch")).count();
            rec.append("coverage: ").append(chosen.size() - switches).append(" of ").append(cables).append(" switch-to-switch cable(s)")
                    .append(chosen.size() < all.size() ? " (a sample of " + opt.sample() + ", spread evenly over the fabric)" : "")
                    .append(opt.switches() ? ", " + switches + " of " + fabric.switches().size() + " switch(es)" : "; switches not taken out (--switches)")
                    .append('\n');
            rec.append(String.format(Locale.ROOT, "time: %.1f s, %d twin(s) in parallel%n", (System.nanoTime() - t0) / 1e9, workers));
            return rec.toString();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("the twin failed: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        } finally {
            pool.shutdownNow();
            for (Worker w : started) w.close();
        }
    }

    /** Every active switch-to-switch link (chassis backplane links included), then with --switches every switch. */
    List<Loss> losses() {
        List<Loss> out = new ArrayList<>();
        for (Fabric.Link l : fabric.links()) {
            Fabric.LinkClass c = fabric.linkClass(l);
            if ((c != Fabric.LinkClass.SWITCH_TO_SWITCH && c != Fabric.LinkClass.CHASSIS_INTERNAL) || !l.isActive()) continue;
            if (l.a().guid() == l.b().guid()) continue; // a looped cable carries no route
            out.add(new Loss("cable", l.a().guid(), l.a().port(), l.b().guid(), l.b().port(),
                    fabric.name(l.a().guid()) + " port " + l.a().port() + " <-> " + fabric.name(l.b().guid()) + " port " + l.b().port()
                            + (c == Fabric.LinkClass.CHASSIS_INTERNAL ? " (chassis internal)" : "")));
        }
        if (opt.switches()) for (Fabric.Node s : fabric.switches()) out.add(new Loss("switch", s.guid(), 0, 0, 0, fabric.name(s.guid())));
        return out;
    }

    /** n losses spread evenly over the list (every k-th), all of them when n is 0 or not less. */
    static <T> List<T> sample(List<T> all, int n) {
        if (n <= 0 || n >= all.size()) return all;
        List<T> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(all.get((int) ((long) i * all.size() / n)));
        return out;
    }

    /** The topology without the lost cable or switch (and without the hosts that hung only on that switch). */
    Topology without(Loss l) {
        Topology t = twin.topology;
        List<Topology.Node> nodes = new ArrayList<>();
        for (Topology.Node n : t.nodes()) {
            if (l.kind().equals("switch") && n.guid() == l.a()) continue;
            List<Topology.Port> ports = new ArrayList<>();
            for (Topology.Port p : n.ports()) {
                if (l.kind().equals("switch") && p.remoteGuid() == l.a()) continue;
                if (l.kind().equals("cable") && (n.guid() == l.a() && p.port() == l.portA() || n.guid() == l.b() && p.port() == l.portB())) continue;
                ports.add(p);
            }
            if (n.type() != Topology.NodeType.SWITCH && ports.isEmpty() && !n.ports().isEmpty()) continue;
            nodes.add(new Topology.Node(n.type(), n.guid(), n.id(), n.description(), n.numPorts(), n.lid(), ports, n.ref(), n.sysImageGuid()));
        }
        return new Topology(nodes);
    }

    /** The walk of the tables after a loss (null: the healthy fabric), and what would fix it. */
    Outcome judge(Loss l, ForwardingTables tables) {
        Topology t = l == null ? twin.topology : without(l);
        int lostHosts = (int) (twin.topology.nodes().stream().filter(n -> n.type() != Topology.NodeType.SWITCH).count()
                - t.nodes().stream().filter(n -> n.type() != Topology.NodeType.SWITCH).count());
        Fabric f = FabricBuilder.build(t, null, null);
        Routing r = Routing.analyze(f, twin.toDump(tables));
        Set<Integer> lost = new HashSet<>(r.unroutedLids());
        for (Routing.DeadEnd e : r.deadEnds()) lost.addAll(e.lids());
        for (Routing.Loop x : r.loops()) lost.addAll(x.lids());
        List<String> cut = r.switchesWithoutTable().stream().map(fabric::name).toList();
        int worst = 0;
        String at = "";
        for (Routing.Spread s : r.spreads()) {
            if (!s.kind().equals("uplinks")) continue;
            for (Routing.PortLoad p : s.ports())
                if (p.lids() > worst) {
                    worst = p.lids();
                    at = fabric.name(s.switchGuid()) + " port " + p.port();
                }
        }
        Outcome o = new Outcome(lost.size(), cut, r.loops().size(), r.creditLoops().size(), worst, at, lostHosts, "");
        if (l == null) return o;
        return new Outcome(o.unreachable(), cut, o.loops(), o.creditLoops(), worst, at, lostHosts, fix(l, t, o));
    }

    /** Credit loops the healthy fabric's routes already have: a loss is judged by the loops it adds. */
    private volatile int healthyCreditLoops;

    /** Empty when the loss is survivable; else add a cable (the fabric is split) or change the routing engine (it is not). */
    private String fix(Loss l, Topology t, Outcome o) {
        boolean bad = o.unreachable() > 0 || !o.cutOff().isEmpty() || o.loops() > 0 || o.creditLoops() > healthyCreditLoops;
        if (!bad) return "";
        List<String> apart = cutApart(t);
        if (!apart.isEmpty())
            return "add a cable: " + String.join(", ", apart) + " hang" + (apart.size() == 1 ? "s" : "") + " on this " + l.kind()
                    + " alone; cable " + (apart.size() == 1 ? "it" : "them") + " to a second switch";
        return "change the routing engine: the fabric is still connected, but " + twin.engine() + " leaves "
                + (o.loops() > 0 || o.creditLoops() > 0 ? "loops" : "destinations unreached")
                + " (use ftree or updn with a root_guid_file on a tree, dfsssp or nue elsewhere)";
    }

    /** Switches no longer cabled to the part of the fabric that holds most of the hosts. */
    private List<String> cutApart(Topology t) {
        Map<Long, Topology.Node> by = t.byGuid();
        Map<Long, Integer> comp = new HashMap<>();
        int c = 0;
        Map<Integer, Integer> hosts = new HashMap<>();
        for (Topology.Node n : t.nodes()) {
            if (comp.containsKey(n.guid())) continue;
            ArrayDeque<Long> q = new ArrayDeque<>(List.of(n.guid()));
            comp.put(n.guid(), c);
            while (!q.isEmpty()) {
                Topology.Node x = by.get(q.poll());
                if (x == null) continue;
                if (x.type() != Topology.NodeType.SWITCH) hosts.merge(c, 1, Integer::sum);
                for (Topology.Port p : x.ports())
                    if (by.containsKey(p.remoteGuid()) && comp.putIfAbsent(p.remoteGuid(), c) == null) q.add(p.remoteGuid());
            }
            c++;
        }
        int main = hosts.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(0);
        Set<String> out = new TreeSet<>();
        for (Topology.Node n : t.switches()) if (comp.get(n.guid()) != main) out.add(fabric.name(n.guid()));
        return new ArrayList<>(out);
    }

    /** One twin: an ibsim and opensm of its own, kept up for every loss it runs. */
    private final class Worker implements AutoCloseable {
        private final SimFabric sim;
        private final Path dir;
        private final Path conf;
        private String sm;

        Worker(int id) {
            dir = work.resolve("twin-" + id);
            sim = SimFabric.start(twin.netfile(), dir);
            try {
                Path defaults = sim.opensmConf("opensm-defaults.conf");
                conf = dir.resolve("twin-opensm.conf");
                Files.writeString(conf, twin.conf(Files.readString(defaults), dir));
                startSm(twin.smHost(Set.of()));
            } catch (IOException | RuntimeException e) {
                sim.close();
                throw new IllegalStateException("twin " + id + " did not start: " + e.getMessage() + " (its files are in " + dir + ")", e);
            }
        }

        private void startSm(String host) {
            sm = host;
            Twin.write(dir.resolve("sm-" + host).resolve("guid2lid"), twin.guid2lid());
            int before = routed();
            sim.startSm(host, null, conf, null, null);
            awaitRouted(before, false);
        }

        private Path log() {
            return dir.resolve("sm-" + sm).resolve("opensm.log");
        }

        /** How many times opensm logged that it configured the switches' tables (once per heavy sweep). */
        private int routed() {
            try {
                if (!Files.exists(log())) return 0;
                String s = Files.readString(log());
                int n = 0;
                for (int i = s.indexOf("tables configured on all switches"); i >= 0; i = s.indexOf("tables configured on all switches", i + 1)) n++;
                return n;
            } catch (IOException e) {
                return 0;
            }
        }

        /**
         * Waits until opensm has routed again and its log has been quiet for a while (a trap and a forced sweep may give
         * two sweeps). sweep: when the first wait passes without a new route, forces one (SIGHUP).
         */
        private void awaitRouted(int before, boolean sweep) {
            long end = System.nanoTime() + opt.sweep().toNanos();
            long nudge = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            boolean nudged = !sweep;
            while (routed() <= before) {
                if (System.nanoTime() > end) throw new IllegalStateException("the twin's opensm did not route within " + opt.sweep().toSeconds() + " s (see " + log() + ")");
                if (!nudged && System.nanoTime() > nudge) {
                    sim.sweep(sm);
                    nudged = true;
                }
                sim.settle(Duration.ofMillis(200));
            }
            long size = -1;
            while (System.nanoTime() < end) {
                long now;
                try {
                    now = Files.size(log());
                } catch (IOException e) {
                    now = -2;
                }
                if (now == size) return;
                size = now;
                sim.settle(Duration.ofMillis(1500));
            }
        }

        ForwardingTables tables() {
            return Twin.readTables(sim, sm);
        }

        /** Takes the loss out, lets opensm re-route, judges the tables, and puts the cable or switch back whatever happens. */
        Outcome take(Loss l) {
            String node = twin.ids.get(l.a());
            if (l.kind().equals("switch") && twin.switchOf(sm) == l.a()) {
                // the SM's own switch: opensm runs on a host elsewhere, as a standby would take over
                sim.stopSm(sm);
                startSm(twin.smHost(Set.of(l.a())));
            }
            int before = routed();
            try {
                sim.console(l.kind().equals("switch") ? "Unlink \"" + node + "\"" : "Unlink \"" + node + "\"[" + l.portA() + "]");
                awaitRouted(before, true);
                return judge(l, tables());
            } catch (RuntimeException e) {
                return new Outcome(0, List.of("(" + e.getMessage().replace('\t', ' ') + ")"), 0, 0, 0, "", 0, "the twin's opensm did not re-route: " + e.getMessage().replace('\t', ' '));
            } finally {
                int b = routed();
                sim.console(l.kind().equals("switch") ? "ReLink \"" + node + "\"" : "ReLink \"" + node + "\"[" + l.portA() + "]");
                // a port coming back sends no trap: force the sweep
                sim.sweep(sm);
                awaitRouted(b, true);
            }
        }

        @Override
        public void close() {
            sim.close();
        }
    }
}
