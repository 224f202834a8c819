package io.ibaccept.dump.sources;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.HostConfig;
import io.ibaccept.model.HostData;
import io.ibaccept.model.RdmaRuntime;
import io.ibaccept.model.SmConfig;
import io.ibaccept.model.Topology;
import io.ibaccept.parse.Parser;
import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Everything ibaccept knows about one output of a dump: its file name and scope, how it is collected (script, timeout,
 * accepted exit codes, depending on the collect options), the parser that reads it, the hint a check SKIPped for want
 * of it gives, and where its parsed result lives in the model. One per tool, each in its own file, listed in
 * {@link Sources}.
 *
 * @param <T> what the parser makes of the output: the type of the model field it fills
 */
public final class Source<T> {
    /** Where the output is collected, and so where it is stored in the dump. */
    public enum Scope {
        /** Run once, on the fabric node: {@code fabric/NAME.out}. */
        FABRIC,
        /** Run on every collected node: {@code nodes/HOST/NAME.out}. */
        NODE,
        /** Run on the subnet manager nodes ({@code --sm-nodes}, else where opensm runs): {@code nodes/HOST/NAME.out}. */
        SM_NODE,
        /** Run on a pair of nodes, client and server: {@code perftest/TEST__CLIENT__SERVER.{client,server}.out}. */
        PAIR
    }

    /** Which ibaccept command writes the output. */
    public enum CollectedBy {
        /** {@code ibaccept collect}, with the command set of {@link #collect(CollectOptions)}. */
        COLLECT,
        /** The counter window of {@code collect --window} and {@code burn}: its scripts follow the fabric's ports. */
        COUNTER_WINDOW,
        /** {@code ibaccept rdma}: one command per pair, built from the rdma options. */
        RDMA,
        /** {@code ibaccept drill}: an active test that changes the fabric and puts it back. */
        DRILL,
        /** None: read when someone put the file into the dump (a ticket's output, ibdiagnet's own files). */
        ATTACHED
    }

    private final Cmd cmd;
    private final String fileName;
    private final Scope scope;
    private final CollectedBy collectedBy;
    private final Parser<T> parser;
    private final Function<CollectOptions, Collect> collect;
    private final boolean readsHostOs;
    private final boolean optional;
    private final boolean bestEffort;
    private final boolean needsSm;
    private final boolean silentWithoutSm;
    private final boolean silentWithoutSwitches;
    private final boolean silentWithoutSwitchLinks;
    private final boolean oneValue;
    private final String hint;
    private final Predicate<ClusterData> usable;
    private final Predicate<HostData> onHost;
    private final Function<Topology, ReadLimit> readLimit;
    private final boolean storedCompressed;

    /** Most bytes a fabric-wide output is read to on a fabric, and why: it grows with the fabric, a fixed limit would cut it. */
    public record ReadLimit(long bytes, String why) {}

    /** Most a fabric-wide tool prints for one port (perfquery -x of every port: some 40 lines of 40 characters). */
    static final long BYTES_PER_PORT = 4096;

    private Source(Builder<T> b, Predicate<ClusterData> usable) {
        this(b, usable, null);
    }

    private Source(Builder<T> b, Predicate<ClusterData> usable, Predicate<HostData> onHost) {
        this.onHost = onHost;
        this.cmd = b.cmd;
        this.fileName = b.fileName;
        this.scope = b.scope;
        this.collectedBy = b.collectedBy != null ? b.collectedBy : b.collect != null ? CollectedBy.COLLECT : CollectedBy.ATTACHED;
        this.parser = b.parser;
        this.collect = b.collect;
        this.readsHostOs = b.readsHostOs;
        this.optional = b.optional;
        this.bestEffort = b.bestEffort;
        this.oneValue = b.oneValue;
        this.needsSm = b.needsSm;
        this.silentWithoutSm = b.silentWithoutSm;
        this.silentWithoutSwitches = b.silentWithoutSwitches;
        this.silentWithoutSwitchLinks = b.silentWithoutSwitchLinks;
        this.hint = Objects.requireNonNull(b.hint, () -> fileName + ": every source says how to collect it");
        this.usable = usable;
        this.readLimit = b.readLimit;
        this.storedCompressed = b.storedCompressed;
    }

    static <T> Builder<T> fabric(Cmd cmd, String fileName, Parser<T> parser) {
        return new Builder<>(cmd, fileName, Scope.FABRIC, parser);
    }

    static <T> Builder<T> node(Cmd cmd, String fileName, Parser<T> parser) {
        return new Builder<>(cmd, fileName, Scope.NODE, parser);
    }

    static <T> Builder<T> smNode(Cmd cmd, String fileName, Parser<T> parser) {
        return new Builder<>(cmd, fileName, Scope.SM_NODE, parser);
    }

    /** fileName: the directory of the pair outputs. */
    static <T> Builder<T> pair(String fileName, Parser<T> parser) {
        return new Builder<>(null, fileName, Scope.PAIR, parser);
    }

    /** The key checks and findings name it by; null for pair outputs, which are not collected by name. */
    public Cmd cmd() {
        return cmd;
    }

    /** The file name in the dump without .out/.err/.meta; findings, problems and 'collect --only' use it. */
    public String fileName() {
        return fileName;
    }

    public Scope scope() {
        return scope;
    }

    public CollectedBy collectedBy() {
        return collectedBy;
    }

    public Parser<T> parser() {
        return parser;
    }

    /**
     * How the output is collected with these options; empty when it is not (an option that was not given, a fact of
     * the host's own OS on the simulator, or an output no script writes).
     */
    public Optional<Collect> collect(CollectOptions o) {
        if (collect == null || readsHostOs && o.simulated()) return Optional.empty();
        return Optional.ofNullable(collect.apply(o));
    }

    /**
     * Collected only on request (--mlxlink, --ibdiagnet, --ethtool, --probe-cmd), on some nodes only, or added to the
     * collection after older dumps were written (saquery-g, smpquery-portinfo-peer): absence is not a missing input.
     */
    public boolean optional() {
        return optional;
    }

    /**
     * Host and SM configuration facts gathered on every node whether or not the site uses the tool: an installed tool
     * that fails on a healthy node (nvidia-smi without a loaded driver, mlxconfig without root or on a VF, chronyc
     * without chronyd) leaves that fact unverified, which is worth a warning but does not make the acceptance incomplete.
     */
    public boolean bestEffort() {
        return bestEffort;
    }

    /** It needs a master SM to answer (LIDs, SA records, PMA queries by LID): without one it fails or prints nothing. */
    public boolean needsSm() {
        return needsSm;
    }

    /** Without an SM it prints nothing rather than failing (no LIDs to query): an empty output says so. */
    public boolean silentWithoutSm() {
        return silentWithoutSm;
    }

    /** On a fabric without a switch (two hosts back to back) it prints nothing, rightly: there is no table to dump. */
    public boolean silentWithoutSwitches() {
        return silentWithoutSwitches;
    }

    /** On a fabric where no port joins two switches (one switch, or none) it prints nothing, rightly: it reads only such ports. */
    public boolean silentWithoutSwitchLinks() {
        return silentWithoutSwitchLinks;
    }

    /**
     * It prints one value (a limit, a version), not a list of records: when it fails, what it printed is not judged
     * (a failed 'ulimit -l' that printed 64 is no proof of a 64 KiB limit). A tool that lists records keeps those it
     * printed before failing (ibstat exits 255 after the CAs it could read).
     */
    public boolean oneValue() {
        return oneValue;
    }

    /** How to collect it, for the SKIP of a check that needs it. */
    public String hint() {
        return hint;
    }

    /** Whether the dump holds a parsed result of it, where its model field is (per-node outputs: on at least one host). */
    public boolean usable(ClusterData d) {
        return usable.test(d);
    }

    /** Whether the host's record holds a parsed result of it; false for outputs that are not per host. */
    public boolean usableOn(HostData h) {
        return onHost != null && onHost.test(h);
    }

    /**
     * How much of it is read on a fabric of this topology (null topology: not known yet, the dump's limit holds): a
     * fabric-wide output by what it prints per port, unless its descriptor bounds it otherwise; null for the others.
     */
    public ReadLimit readLimit(Topology topology) {
        if (topology == null || scope != Scope.FABRIC) return null;
        if (readLimit != null) return readLimit.apply(topology);
        long ports = topology.nodes().stream().mapToLong(n -> Math.max(1, n.numPorts())).sum();
        return new ReadLimit(ports * BYTES_PER_PORT, ports + " ports in the topology x " + BYTES_PER_PORT / 1024 + " KiB");
    }

    /**
     * Its script prints gzip (the tool's text compressed on the node, as it is printed): collect streams it into
     * NAME.out.gz without holding it, and the loader reads it through the decompressor. For an output that grows with
     * switches x LIDs.
     */
    public boolean storedCompressed() {
        return storedCompressed;
    }

    /** Whether its result is kept per host (so coverage can be counted in hosts). */
    public boolean perHost() {
        return onHost != null;
    }

    /**
     * The stdout file relative to the dump root. name: the host of a node output, ignored for a fabric output, the
     * run's file name ({@code TEST__CLIENT__SERVER.client}) for a pair output.
     */
    public String path(String name) {
        return switch (scope) {
            case FABRIC -> "fabric/" + fileName + ".out";
            case NODE, SM_NODE -> "nodes/" + name + "/" + fileName + ".out";
            case PAIR -> fileName + "/" + name + ".out";
        };
    }

    @Override
    public String toString() {
        return fileName;
    }

    /** A descriptor under construction; naming the model field it fills completes it. */
    static final class Builder<T> {
        private final Cmd cmd;
        private final String fileName;
        private final Scope scope;
        private final Parser<T> parser;
        private CollectedBy collectedBy;
        private Function<CollectOptions, Collect> collect;
        private boolean readsHostOs, optional, bestEffort, needsSm, silentWithoutSm, silentWithoutSwitches, silentWithoutSwitchLinks, oneValue;
        private String hint;
        private Function<Topology, ReadLimit> readLimit;
        private boolean storedCompressed;

        private Builder(Cmd cmd, String fileName, Scope scope, Parser<T> parser) {
            this.cmd = cmd;
            this.fileName = fileName;
            this.scope = scope;
            this.parser = parser;
        }

        /** Collected with this script whatever the options. */
        Builder<T> collect(String script, Duration timeout) {
            return collect(new Collect(script, timeout));
        }

        Builder<T> collect(Collect how) {
            return collect(o -> how);
        }

        /** Collected as the options say: null for options it is not collected with. */
        Builder<T> collect(Function<CollectOptions, Collect> how) {
            this.collect = how;
            return this;
        }

        Builder<T> collectedBy(CollectedBy by) {
            this.collectedBy = by;
            return this;
        }

        /** It reads the OS state of the host it runs on: on the simulator every host is this machine, so it is not run. */
        Builder<T> readsHostOs() {
            this.readsHostOs = true;
            return this;
        }

        /** See {@link Source#optional()}. */
        Builder<T> optional() {
            this.optional = true;
            return this;
        }

        /** See {@link Source#bestEffort()}; such a fact is also optional. */
        Builder<T> bestEffort() {
            this.bestEffort = true;
            return optional();
        }

        Builder<T> needsSm() {
            this.needsSm = true;
            return this;
        }

        /** See {@link Source#silentWithoutSm()}; such a tool needs an SM. */
        Builder<T> silentWithoutSm() {
            this.silentWithoutSm = true;
            return needsSm();
        }

        /** See {@link Source#silentWithoutSwitches()}. */
        Builder<T> silentWithoutSwitches() {
            this.silentWithoutSwitches = true;
            return this;
        }

        /** See {@link Source#silentWithoutSwitchLinks()}. */
        Builder<T> silentWithoutSwitchLinks() {
            this.silentWithoutSwitchLinks = true;
            return this;
        }

        /** See {@link Source#oneValue()}. */
        Builder<T> oneValue() {
            this.oneValue = true;
            return this;
        }

        /** See {@link Source#readLimit}: this output grows with the fabric otherwise than per port. */
        Builder<T> readLimit(Function<Topology, ReadLimit> limit) {
            this.readLimit = limit;
            return this;
        }

        /** See {@link Source#storedCompressed()}. */
        Builder<T> storedCompressed() {
            this.storedCompressed = true;
            return this;
        }

        Builder<T> hint(String text) {
            this.hint = text;
            return this;
        }

        /** The hint to re-collect it alone with 'collect --only', then more (what the tool needs, starting "; " or " ("). */
        Builder<T> recollectHint(String more) {
            String fabricNode = scope == Scope.FABRIC ? "--fabric-node NODE " : "";
            return hint("collect with 'ibaccept collect --nodes NODES " + fabricNode + "-o DUMP --only " + fileName + "'" + more);
        }

        /** Its result is this field of the fabric-wide record. */
        Source<T> inFabric(Function<FabricData, T> field) {
            return new Source<>(this, d -> field.apply(d.fabric()) != null);
        }

        /**
         * Its result is this list of records of the fabric-wide record: usable unless nothing was read from it and the
         * file had problems (a garbage or truncated file keeps no record; a healthy ibqueryerrors with no port over
         * threshold is an empty list without problems).
         */
        Source<T> inFabricRecords(Function<FabricData, T> field) {
            return new Source<>(this, d -> {
                T v = field.apply(d.fabric());
                return v != null && (!(v instanceof Collection<?> c) || !c.isEmpty() || d.problemsFor(null, fileName).isEmpty());
            });
        }

        /** Its result is this field of each host's record. */
        Source<T> inHost(Function<HostData, T> field) {
            Predicate<HostData> on = h -> field.apply(h) != null;
            return new Source<>(this, d -> d.hosts().values().stream().anyMatch(on), on);
        }

        /** Its result is this field of each host's MPI/UCX/GPU runtime facts. */
        Source<T> inRuntime(Function<RdmaRuntime, T> field) {
            return inHostPart(HostData::runtime, field);
        }

        /** Its result is this field of each host's configuration (IPoIB, time, mlxconfig). */
        Source<T> inHostConfig(Function<HostConfig, T> field) {
            return inHostPart(HostData::config, field);
        }

        private <P> Source<T> inHostPart(Function<HostData, P> part, Function<P, T> field) {
            Predicate<HostData> on = h -> {
                P p = part.apply(h);
                return p != null && field.apply(p) != null;
            };
            return new Source<>(this, d -> d.hosts().values().stream().anyMatch(on), on);
        }

        /** Its result is this field of each SM node's configuration. */
        Source<T> inSmConfig(Function<SmConfig, T> field) {
            return new Source<>(this, d -> d.fabric().smConfigs().values().stream().anyMatch(s -> field.apply(s) != null));
        }

        /** Its results are found in the model this way (pair outputs: a list of runs). */
        Source<T> usableWhen(Predicate<ClusterData> present) {
            return new Source<>(this, present);
        }
    }

    /**
     * How a source is run on a node: a shell script (fixed text; the only values from outside, an interface name or the
     * probe command, are validated and quoted), its timeout, okExits: the exit codes that still mean "ran and printed
     * its result" (ibqueryerrors exits 1 when it found errors), notHereExits: those that mean "nothing of this kind on
     * this node" (not an SM node, no such file), which is not recorded.
     */
    public record Collect(String script, Duration timeout, Set<Integer> okExits, Set<Integer> notHereExits) {
        public Collect(String script, Duration timeout, Set<Integer> okExits) {
            this(script, timeout, okExits, Set.of());
        }

        public Collect(String script, Duration timeout) {
            this(script, timeout, Set.of(0));
        }

        public Collect {
            okExits = Set.copyOf(okExits);
            notHereExits = Set.copyOf(notHereExits);
        }
    }
}
