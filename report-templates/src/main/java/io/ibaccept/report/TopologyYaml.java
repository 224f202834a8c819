package io.ibaccept.report;

import io.ibaccept.rules.Hostlists;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Slurm topology.yaml (Slurm 24.11 and later, topology.yaml(5)): the tree of topology.conf as the cluster's default
 * topology, and, where the fabric has regular blocks, a block topology for the topology/block plugin.
 * <p>
 * A base block is the set of hosts the leaves share: one leaf's hosts on a fat tree, the hosts of a scalable unit on a
 * rail-optimised fabric, where every rail's leaf of the unit has the same hosts. Slurm takes the first block_sizes
 * value as the base block size, refuses a block with fewer nodes, and plans larger blocks as power-of-two runs of
 * consecutive base blocks (src/plugins/topology/block/block_record.c). So blocks are written only when the leaves'
 * host sets are disjoint and all of one size; on three levels or more, the scalable units of the fabric graph (the
 * switch groups below the top) become the second size when each holds the same power-of-two number of blocks, and
 * the blocks are listed unit by unit so those runs are the units. Otherwise only the tree is written, with a comment
 * saying why.
 */
final class TopologyYaml {
    private TopologyYaml() {}

    static String render(ReportFacts facts) {
        FabricView f = facts.view();
        StringBuilder sb = new StringBuilder(OpsOutputs.header(facts, "Slurm topology.yaml (topology/tree and topology/block)"));
        sb.append("# Slurm reads topology.yaml instead of topology.conf when both exist (Slurm 24.11 and later)\n");
        if (!f.known()) return sb.append("# no usable ibnetdiscover topology in the dump: nothing to write\n").toString();
        Map<String, Set<String>> leafHosts = new TreeMap<>();
        Set<String> skipped = new TreeSet<>();
        f.leafHosts.forEach((leaf, hosts) -> {
            Set<String> safe = new TreeSet<>();
            for (String h : hosts) if (OpsOutputs.safeName(h)) safe.add(h); else skipped.add(h);
            if (!safe.isEmpty()) leafHosts.put(leaf, safe);
        });
        if (!skipped.isEmpty()) sb.append("# left out: ").append(skipped.size()).append(" CA(s) whose host name is not a valid Slurm node name\n");

        sb.append("- topology: tree\n  cluster_default: true\n  tree:\n    switches:\n");
        leafHosts.forEach((leaf, hosts) -> sb.append("    - switch: ").append(quote(leaf)).append("\n      nodes: ").append(quote(Hostlists.compress(hosts))).append('\n'));
        for (String empty : OpsOutputs.emptyLeaves(f, leafHosts.keySet())) sb.append("    - switch: ").append(quote(empty)).append('\n');
        for (Map<String, Set<String>> level : f.upper)
            level.forEach((sw, children) -> sb.append("    - switch: ").append(quote(sw)).append("\n      children: ").append(quote(Hostlists.compress(children))).append('\n'));

        Blocks b = blocks(leafHosts, f);
        if (b.why() != null) return sb.append("# no block topology: ").append(b.why()).append('\n').toString();
        if (b.noUnits() != null) sb.append("# block sizes: the base block only, ").append(b.noUnits()).append('\n');
        sb.append("- topology: block\n  cluster_default: false\n  block:\n    block_sizes:\n");
        for (int size : b.sizes()) sb.append("      - ").append(size).append('\n');
        sb.append("    blocks:\n");
        for (Block x : b.blocks()) {
            if (x.leaves().size() > 1) sb.append("    # the hosts of leaves ").append(Hostlists.compress(x.leaves())).append('\n');
            sb.append("    - block: ").append(quote(x.leaves().get(0))).append("\n      nodes: ").append(quote(Hostlists.compress(x.hosts()))).append('\n');
        }
        return sb.toString();
    }

    /** One base block: the leaves that share these hosts (sorted; the first names the block) and its unit (group). */
    record Block(List<String> leaves, Set<String> hosts, int unit) {}

    /**
     * The blocks in the order Slurm should pair them and the block sizes; why: the reason there are none (else null);
     * noUnits: why the sizes stop at the base block (else null).
     */
    record Blocks(List<Block> blocks, List<Integer> sizes, String why, String noUnits) {}

    static Blocks blocks(Map<String, Set<String>> leafHosts, FabricView f) {
        Map<Set<String>, List<String>> byHosts = new LinkedHashMap<>();
        leafHosts.forEach((leaf, hosts) -> byHosts.computeIfAbsent(hosts, k -> new ArrayList<>()).add(leaf));
        Map<String, String> blockOf = new TreeMap<>();
        for (Map.Entry<Set<String>, List<String>> e : byHosts.entrySet())
            for (String h : e.getKey()) {
                String other = blockOf.putIfAbsent(h, e.getValue().get(0));
                if (other != null)
                    return none(h + " is cabled to leaves " + other + " and " + e.getValue().get(0) + ", whose hosts differ, so the leaves form no disjoint blocks");
            }
        if (byHosts.size() < 2) return none("the hosts share one leaf (or one set of leaves): a single block plans nothing");
        Map<Integer, List<String>> bySize = new TreeMap<>();
        byHosts.forEach((hosts, leaves) -> bySize.computeIfAbsent(hosts.size(), k -> new ArrayList<>()).add(leaves.get(0)));
        if (bySize.size() > 1) {
            List<String> parts = new ArrayList<>();
            bySize.forEach((n, leaves) -> parts.add(Hostlists.compress(leaves) + " " + n + " host" + (n == 1 ? "" : "s")));
            return none("the leaves have different numbers of hosts (" + String.join("; ", parts) + "), and Slurm plans blocks of one base size");
        }
        int base = bySize.keySet().iterator().next();

        List<Block> blocks = new ArrayList<>();
        String mixed = null;
        for (Map.Entry<Set<String>, List<String>> e : byHosts.entrySet()) {
            Set<Integer> units = new TreeSet<>();
            for (String leaf : e.getValue()) units.add(f.switchGroup.getOrDefault(leaf, 0));
            if (units.size() > 1 && mixed == null) mixed = "the leaves " + Hostlists.compress(e.getValue()) + " share hosts across scalable units";
            blocks.add(new Block(List.copyOf(e.getValue()), e.getKey(), units.iterator().next()));
        }
        blocks.sort(Comparator.comparingInt(Block::unit).thenComparing(x -> x.leaves().get(0)));
        Map<Integer, Integer> perUnit = new TreeMap<>();
        for (Block x : blocks) perUnit.merge(x.unit(), 1, Integer::sum);
        String noUnits;
        if (f.levels < 3) noUnits = "a fabric of " + f.levels + " switch level" + (f.levels == 1 ? "" : "s") + " has no scalable units below its top";
        else if (mixed != null) noUnits = mixed;
        else if (perUnit.size() < 2) noUnits = "all blocks are in one scalable unit";
        else if (new TreeSet<>(perUnit.values()).size() > 1) noUnits = "the scalable units hold different numbers of blocks " + new TreeSet<>(perUnit.values());
        else {
            int k = perUnit.values().iterator().next();
            noUnits = k < 2 ? "each scalable unit is one block"
                    : Integer.bitCount(k) != 1 ? "each scalable unit holds " + k + " blocks, not a power of two, so Slurm's larger blocks cannot be the units"
                    : null;
        }
        List<Integer> sizes = noUnits == null ? List.of(base, base * perUnit.values().iterator().next()) : List.of(base);
        return new Blocks(List.copyOf(blocks), sizes, null, noUnits);
    }

    private static Blocks none(String why) {
        return new Blocks(List.of(), List.of(), why, null);
    }

    /** Slurm-safe names and hostlists hold no quote or backslash; quoted, a name such as "true" or "0012" stays a string. */
    private static String quote(String s) {
        return '"' + s + '"';
    }
}
