package io.ibaccept.contract;

import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the cluster must be, as the customer's design and bill of materials declare it: read from the acceptance
 * contract file by {@link ContractFile}. Every part is optional (null or empty when not declared); what is not declared
 * is inferred from the fabric and the report says so. lines gives the contract line of each declared key, by its path
 * ("classes.gpu.firmware"), so a finding about it can point there.
 */
public record Contract(String file, String id, String cluster, List<String> hosts, List<NodeClass> classes,
        Fabric fabric, Link hostLink, Link switchLink, Integer mtu, Sm sm, List<Partition> partitions, Versions versions,
        Performance performance, Counters counters, List<String> required, Map<String, Integer> lines, Map<String, NodeClass> classByHost) {

    /** The names of switch levels 1, 2 and 3 in a contract. */
    public static final List<String> ROLES = List.of("leaves", "spines", "cores");

    public Contract {
        hosts = List.copyOf(hosts);
        classes = List.copyOf(classes);
        Map<String, NodeClass> index = new java.util.HashMap<>();
        for (NodeClass c : classes) for (String h : c.hosts()) index.putIfAbsent(h, c);
        classByHost = Map.copyOf(index);
        partitions = List.copyOf(partitions);
        required = List.copyOf(required);
        lines = Map.copyOf(lines);
    }

    /** A link class: speed and width, either may be null ("HDR" alone, "4X" alone). */
    public record Link(LinkSpeed speed, LinkWidth width) {
        @Override
        public String toString() {
            return ((speed != null ? speed.name() : "") + " " + (width != null ? width.toString() : "")).trim();
        }
    }

    /**
     * A class of hosts sharing a build: how many InfiniBand HCAs each has and their device names (mlx5_0..), how many
     * GPUs, their links, their firmware.
     */
    public record NodeClass(String name, List<String> hosts, Integer hcas, List<String> devices, Integer gpus, Link link, String firmware) {
        public NodeClass {
            hosts = List.copyOf(hosts);
            devices = List.copyOf(devices);
        }
    }

    /**
     * switches: the switch count (null: not declared); fromPlan: the count is the cabling plan's. ratio: down:up per
     * leaf (the leaves' entry of a per-level ratio). leaves, spines, cores: the switches of levels 1, 2 and 3. ratioByLevel:
 * the ratio declared per switch level (1 = leaves), when declared per level. rails: HCAs per host each on a rail of
 * its own (rail-optimized: a leaf carries one HCA index, mlx5_N, of every host below it).
     */
    public record Fabric(Integer switches, boolean switchesFromPlan, Integer levels, Double blockingRatio, Integer leaves, Integer spines,
                         Integer cores, Map<Integer, Double> ratioByLevel, Integer rails) {
        public Fabric {
            ratioByLevel = ratioByLevel == null ? Map.of() : Map.copyOf(ratioByLevel);
        }
    }

    public record Sm(String primary, List<String> standby) {
        public Sm {
            standby = List.copyOf(standby);
        }

        public List<String> nodes() {
            List<String> all = new ArrayList<>();
            if (primary != null) all.add(primary);
            all.addAll(standby);
            return all;
        }
    }

    /**
     * A partition: its name in partitions.conf, its 15-bit key, the hosts that must be members (empty: not declared)
     * and how ("full" or "limited"; null: either).
     */
    public record Partition(String name, int pkey, List<String> members, String membership) {
        public Partition {
            members = List.copyOf(members);
        }
    }

    /**
     * firmware: HCA model (ibstat's CA type, e.g. MT4123) -> version; switchFirmware: switch device ID (decimal, as
     * ibdiagnet's NODES section gives it, e.g. 54002 for Quantum-2) -> version; "*" for every model in both.
     */
    public record Versions(Map<String, String> firmware, Map<String, String> switchFirmware, String ofed, String ucx, String ompi) {
        public Versions {
            firmware = Map.copyOf(firmware);
            switchFirmware = Map.copyOf(switchFirmware);
        }

        public boolean any() {
            return !firmware.isEmpty() || !switchFirmware.isEmpty() || ofed != null || ucx != null || ompi != null;
        }
    }

    /** Targets: bandwidth in % of the pair's line rate, typical latency, collective bus bandwidth in % of line rate. */
    public record Performance(Double bandwidthPercent, Double latencyUsec, Double collectiveBusbwPercent) {}

    /** The highest bit error rate allowed, and the shortest counter window that can show it. */
    public record Counters(Double berMax, Duration windowMin) {}

    /**
     * The firmware declared for an HCA model (ibstat CA type) on a host: the versions' entry for that model, else the
     * host's class firmware, else the versions' one for every model; null when none is declared. A model named in
     * versions.firmware wins over the class, so a DPU or a second HCA model of a class host is held to its own.
     */
    public String firmwareFor(String model, String host) {
        String[] d = firmwareDeclaration(model, host);
        return d == null ? null : d[0];
    }

    /** Where firmwareFor's value is declared ("c.yaml:12"), or the file. */
    public String firmwareWhere(String model, String host) {
        String[] d = firmwareDeclaration(model, host);
        return d == null ? file : where(d[1]);
    }

    private String[] firmwareDeclaration(String model, String host) {
        if (model != null && versions.firmware().containsKey(model)) return new String[] {versions.firmware().get(model), "versions.firmware." + model};
        NodeClass c = classOf(host);
        if (c != null && c.firmware() != null) return new String[] {c.firmware(), "classes." + c.name() + ".firmware"};
        if (versions.firmware().containsKey("*")) return new String[] {versions.firmware().get("*"), "versions.firmware"};
        return null;
    }

    /** The class a host belongs to, or null. */
    public NodeClass classOf(String host) {
        return classByHost.get(host);
    }

    /** The host link declared for this host: its class's, else the contract's host link, else null. */
    public Link hostLinkFor(String host) {
        NodeClass c = classOf(host);
        return c != null && c.link() != null ? c.link() : hostLink;
    }

    /** "contract.yaml:12" for a declared key (or the nearest declared key above it: its section), or the file alone. */
    public String where(String path) {
        for (String p = path; ; p = p.substring(0, p.lastIndexOf('.'))) {
            Integer line = lines.get(p);
            if (line != null) return file + ":" + line;
            if (p.indexOf('.') < 0) return file;
        }
    }

    /** The contract in a few lines, for page 1 of the report. */
    public List<String> summaryLines() {
        List<String> out = new ArrayList<>();
        StringBuilder h = new StringBuilder();
        if (!hosts.isEmpty()) h.append(hosts.size()).append(" hosts");
        if (!classes.isEmpty()) {
            List<String> cs = new ArrayList<>();
            for (NodeClass c : classes) {
                List<String> parts = new ArrayList<>();
                if (c.hcas() != null) parts.add(c.hcas() + " HCA" + (c.hcas() == 1 ? "" : "s"));
                if (!c.devices().isEmpty()) parts.add(String.join(",", c.devices()));
                if (c.gpus() != null) parts.add(c.gpus() + " GPU" + (c.gpus() == 1 ? "" : "s"));
                if (c.link() != null) parts.add(c.link().toString());
                if (c.firmware() != null) parts.add("fw " + c.firmware());
                cs.add(c.name() + " " + c.hosts().size() + (parts.isEmpty() ? "" : ": " + String.join(", ", parts)));
            }
            h.append(h.length() > 0 ? " in " : "").append(classes.size()).append(" class").append(classes.size() == 1 ? "" : "es")
                    .append(" (").append(String.join("; ", cs)).append(")");
        }
        if (h.length() > 0) out.add("hosts: " + h);
        List<String> f = new ArrayList<>();
        if (fabric != null) {
            if (fabric.levels() != null) f.add(fabric.levels() + " level" + (fabric.levels() == 1 ? "" : "s"));
            if (fabric.leaves() != null) f.add(fabric.leaves() + " leaves");
            if (fabric.spines() != null) f.add(fabric.spines() + " spines");
            if (fabric.cores() != null) f.add(fabric.cores() + " cores");
            if (fabric.switchesFromPlan()) f.add("switches as the cabling plan");
            if (fabric.rails() != null) f.add(fabric.rails() + " rails");
            else if (fabric.switches() != null) f.add(fabric.switches() + " switches");
            if (!fabric.ratioByLevel().isEmpty()) {
                new java.util.TreeMap<>(fabric.ratioByLevel()).forEach((lv, r) -> f.add("blocking " + ratio(r) + ":1 at the " + ROLES.get(lv - 1)));
            } else if (fabric.blockingRatio() != null) f.add("blocking " + ratio(fabric.blockingRatio()) + ":1");
        }
        if (hostLink != null) f.add("host links " + hostLink);
        if (switchLink != null) f.add("switch links " + switchLink);
        if (mtu != null) f.add("MTU " + mtu);
        if (!f.isEmpty()) out.add("fabric: " + String.join(", ", f));
        List<String> s = new ArrayList<>();
        if (sm != null && !sm.nodes().isEmpty())
            s.add("SM " + (sm.primary() != null ? "primary " + sm.primary() : "") + (sm.standby().isEmpty() ? "" : (sm.primary() != null ? ", " : "") + "standby " + String.join(", ", sm.standby())));
        if (!partitions.isEmpty()) {
            List<String> ps = new ArrayList<>();
            for (Partition p : partitions) ps.add(p.name() + String.format(" 0x%04x", p.pkey()));
            s.add("partitions " + String.join(", ", ps));
        }
        if (!s.isEmpty()) out.add(String.join("; ", s));
        List<String> v = new ArrayList<>();
        Map<String, String> fw = new LinkedHashMap<>(versions.firmware());
        fw.forEach((model, ver) -> v.add("HCA fw " + (model.equals("*") ? "" : model + " ") + ver));
        new java.util.TreeMap<>(versions.switchFirmware()).forEach((dev, ver) -> v.add("switch fw " + (dev.equals("*") ? "" : "device " + dev + " ") + ver));
        if (versions.ofed() != null) v.add("OFED " + versions.ofed());
        if (versions.ucx() != null) v.add("UCX " + versions.ucx());
        if (versions.ompi() != null) v.add("Open MPI " + versions.ompi());
        if (!v.isEmpty()) out.add("versions: " + String.join(", ", v));
        List<String> t = new ArrayList<>();
        if (performance.bandwidthPercent() != null) t.add("bandwidth >= " + num(performance.bandwidthPercent()) + "% of line rate");
        if (performance.latencyUsec() != null) t.add("latency <= " + num(performance.latencyUsec()) + " us");
        if (performance.collectiveBusbwPercent() != null) t.add("collective bus bandwidth >= " + num(performance.collectiveBusbwPercent()) + "%");
        if (counters.berMax() != null) t.add("BER <= " + counters.berMax());
        if (counters.windowMin() != null) t.add("counter window >= " + counters.windowMin().toMinutes() + " min");
        if (!t.isEmpty()) out.add("targets: " + String.join(", ", t));
        if (!required.isEmpty()) out.add("required: " + required.size() + " checks");
        return out;
    }

    private static String ratio(double r) {
        return num(r);
    }

    private static String num(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }
}
