package io.ibaccept.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.ibaccept.analysis.Analysis;
import io.ibaccept.dump.DumpLoader;
import io.ibaccept.dump.Manifest;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.Hostlist;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.model.Topology;
import io.ibaccept.parse.SourceRef;
import io.ibaccept.rules.Report;
import io.ibaccept.samples.SyntheticDump;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * topology.yaml read with SnakeYAML (the parser the contract uses) and held to the schema of Slurm's topology.yaml(5):
 * the same checks must pass on the man page's own example. On top of the schema, what Slurm's tree and block plugins
 * refuse or mis-plan: hostlist expressions that do not expand, a child switch that is not defined, a block smaller
 * than the base block size, block sizes that are not the base times a power of two (block_record.c), a node in two
 * blocks, and blocks that do not cover the tree's nodes.
 */
class TopologyYamlTest {
    static List<Object> load(String text) {
        Object doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
        assertThat(doc).isInstanceOf(List.class);
        @SuppressWarnings("unchecked")
        List<Object> list = (List<Object>) doc;
        return list;
    }

    /** What topology.yaml(5) documents, as errors (empty: valid). */
    static List<String> schema(List<Object> doc) {
        List<String> err = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Object o : doc) {
            if (!(o instanceof Map<?, ?> t)) {
                err.add("not a mapping: " + o);
                continue;
            }
            List<?> keys = new ArrayList<>(t.keySet());
            if (keys.isEmpty() || !"topology".equals(keys.get(0))) err.add("topology must be the first attribute: " + keys);
            if (!(t.get("topology") instanceof String n) || !names.add(n)) err.add("topology name missing or not unique: " + t.get("topology"));
            if (t.containsKey("cluster_default") && !(t.get("cluster_default") instanceof Boolean)) err.add("cluster_default not a boolean");
            for (Object k : keys)
                if (!List.of("topology", "cluster_default", "tree", "block", "flat").contains(k)) err.add("unknown attribute " + k);
            int types = (t.containsKey("tree") ? 1 : 0) + (t.containsKey("block") ? 1 : 0) + (t.containsKey("flat") ? 1 : 0);
            if (types != 1) err.add("exactly one of tree, block, flat: " + keys);
            if (t.get("flat") != null && !(t.get("flat") instanceof Boolean)) err.add("flat not a boolean");
            if (t.get("tree") instanceof Map<?, ?> tree) {
                if (!(tree.get("switches") instanceof List<?> sws) || sws.isEmpty()) err.add("tree without switches");
                else for (Object s : sws) {
                    if (!(s instanceof Map<?, ?> sw) || !(sw.get("switch") instanceof String name) || name.length() > 64) {
                        err.add("switch without a name of at most 64 characters: " + s);
                        continue;
                    }
                    for (Object k : sw.keySet()) if (!List.of("switch", "children", "nodes").contains(k)) err.add("unknown switch attribute " + k);
                    for (String k : List.of("children", "nodes"))
                        if (sw.containsKey(k) && !(sw.get(k) instanceof String)) err.add(k + " of " + name + " not a hostlist string");
                }
            } else if (t.containsKey("tree")) err.add("tree not a mapping");
            if (t.get("block") instanceof Map<?, ?> block) {
                if (!(block.get("block_sizes") instanceof List<?> sizes) || sizes.isEmpty() || !sizes.stream().allMatch(x -> x instanceof Integer))
                    err.add("block_sizes not a list of integers: " + block.get("block_sizes"));
                if (!(block.get("blocks") instanceof List<?> bs) || bs.isEmpty()) err.add("block without blocks");
                else for (Object b : bs)
                    if (!(b instanceof Map<?, ?> bm) || !(bm.get("block") instanceof String) || !(bm.get("nodes") instanceof String)
                            || bm.size() != 2)
                        err.add("a block is a name and a hostlist string: " + b);
            } else if (t.containsKey("block")) err.add("block not a mapping");
        }
        return err;
    }

    /** What Slurm's plugins refuse or plan wrongly, beyond the schema (the document must pass schema first). */
    static List<String> semantics(List<Object> doc) {
        List<String> err = new ArrayList<>();
        for (Object o : doc) {
            Map<?, ?> t = (Map<?, ?>) o;
            Set<String> treeNodes = new HashSet<>(), blockNodes = new HashSet<>();
            if (t.get("tree") instanceof Map<?, ?> tree) {
                Set<String> defined = new HashSet<>();
                List<String> children = new ArrayList<>();
                for (Object s : (List<?>) tree.get("switches")) {
                    Map<?, ?> sw = (Map<?, ?>) s;
                    if (!defined.add((String) sw.get("switch"))) err.add("switch defined twice: " + sw.get("switch"));
                    if (sw.get("nodes") instanceof String n) treeNodes.addAll(Hostlist.expand(n));
                    if (sw.get("children") instanceof String c) children.addAll(Hostlist.expand(c));
                }
                for (String c : children) if (!defined.contains(c)) err.add("child switch not defined: " + c);
            }
            if (t.get("block") instanceof Map<?, ?> block) {
                List<?> sizes = (List<?>) block.get("block_sizes");
                int base = (Integer) sizes.get(0);
                for (Object s : sizes) {
                    int n = (Integer) s;
                    if (n <= 0 || n % base != 0 || Integer.bitCount(n / base) != 1 || Integer.numberOfTrailingZeros(n / base) > 15)
                        err.add("block size " + n + " is not the base " + base + " times a power of two (at most 2^15)");
                }
                Set<String> blockNames = new HashSet<>();
                for (Object b : (List<?>) block.get("blocks")) {
                    Map<?, ?> bm = (Map<?, ?>) b;
                    if (!blockNames.add((String) bm.get("block"))) err.add("block defined twice: " + bm.get("block"));
                    List<String> nodes = Hostlist.expand((String) bm.get("nodes"));
                    if (nodes.size() < base) err.add("block " + bm.get("block") + " has " + nodes.size() + " nodes, fewer than the base " + base);
                    for (String n : nodes) if (!blockNodes.add(n)) err.add(n + " is in two blocks");
                }
            }
        }
        return err;
    }

    static String render(ClusterData data) {
        return TopologyYaml.render(new ReportFacts(Analysis.of(new Report(data, List.of()))));
    }

    /** Our output: valid, and its block topology (if any) holds exactly the nodes of its tree. */
    static List<Object> valid(String yaml) {
        List<Object> doc = load(yaml);
        assertThat(schema(doc)).as(yaml).isEmpty();
        assertThat(semantics(doc)).as(yaml).isEmpty();
        Map<?, ?> block = topology(doc, "block");
        if (block != null) {
            Set<String> inTree = new HashSet<>(), inBlocks = new HashSet<>();
            for (Object s : (List<?>) ((Map<?, ?>) topology(doc, "tree").get("tree")).get("switches"))
                if (((Map<?, ?>) s).get("nodes") instanceof String n) inTree.addAll(Hostlist.expand(n));
            for (Object b : (List<?>) ((Map<?, ?>) block.get("block")).get("blocks")) inBlocks.addAll(Hostlist.expand((String) ((Map<?, ?>) b).get("nodes")));
            assertThat(inBlocks).isEqualTo(inTree);
        }
        return doc;
    }

    static Map<?, ?> topology(List<Object> doc, String name) {
        return doc.stream().map(o -> (Map<?, ?>) o).filter(t -> name.equals(t.get("topology"))).findFirst().orElse(null);
    }

    @Test
    void theManPagesExampleMeetsTheSameChecks() throws Exception {
        try (InputStream in = TopologyYamlTest.class.getResourceAsStream("slurm-topology.yaml.5-example.yaml")) {
            List<Object> doc = load(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            assertThat(doc).hasSize(3);
            assertThat(schema(doc)).isEmpty();
            assertThat(semantics(doc)).isEmpty();
            // the checks can fail: a block below the base size, a size that is not a power-of-two multiple, a name type
            Map<String, Object> broken = new LinkedHashMap<>();
            broken.put("topology", "t");
            broken.put("block", Map.of("block_sizes", List.of(4, 12), "blocks", List.of(Map.of("block", "b1", "nodes", "n[1-3]"))));
            assertThat(semantics(List.of(broken))).hasSize(2);
            assertThat(schema(List.of(Map.of("topology", 5, "flat", true)))).isNotEmpty();
        }
    }

    @Test
    void demoDumpHasTheTreeOfTopologyConfAndNoBlocksBecauseALeafLacksAHost() {
        String yaml = render(DumpLoader.load(ReportRenderingTest.DEMO));
        List<Object> doc = valid(yaml);
        assertThat(doc).hasSize(1);
        Map<?, ?> tree = topology(doc, "tree");
        assertThat(tree.get("cluster_default")).isEqualTo(true);
        // the same switches and nodes as topology.conf (OpsOutputsTest): node16's port is down
        assertThat(tree.get("tree").toString()).isEqualTo("{switches=[{switch=leaf01, nodes=node[01-04]}, {switch=leaf02, nodes=node[05-08]}, "
                + "{switch=leaf03, nodes=node[09-12]}, {switch=leaf04, nodes=node[13-15]}, {switch=spine01, children=leaf[01-04]}, "
                + "{switch=spine02, children=leaf[01-04]}]}");
        assertThat(yaml).contains("# no block topology: the leaves have different numbers of hosts (leaf04 3 hosts; leaf[01-03] 4 hosts)");
    }

    @Test
    void twoLevelFatTreeHasOneBlockPerLeafAndOnlyTheBaseSize(@TempDir Path tmp) {
        SyntheticDump.generate(tmp, 160, false);
        String yaml = render(DumpLoader.load(tmp));
        Map<?, ?> block = topology(valid(yaml), "block");
        assertThat(block.get("cluster_default")).isEqualTo(false);
        Map<?, ?> b = (Map<?, ?>) block.get("block");
        assertThat(b.get("block_sizes")).isEqualTo(List.of(20));
        assertThat((List<?>) b.get("blocks")).hasSize(8).first().hasToString("{block=leaf001, nodes=cn[0001-0020]}");
        assertThat(yaml).contains("# block sizes: the base block only, a fabric of 2 switch levels has no scalable units below its top");
    }

    @Test
    void unitsOfThreeLeavesKeepTheBaseSizeAndSayWhy() {
        String yaml = render(new FatTree(2, 3, 4, 2).cluster());
        Map<?, ?> b = (Map<?, ?>) topology(valid(yaml), "block").get("block");
        assertThat(b.get("block_sizes")).isEqualTo(List.of(4));
        assertThat((List<?>) b.get("blocks")).hasSize(6);
        assertThat(yaml).contains("# block sizes: the base block only, each scalable unit holds 3 blocks, not a power of two");
    }

    /**
     * A three-level tree built in the model: units of 2 leaves x 2 hosts with 2 spines each, spine j of every unit
     * cabled to core j. The units hold a power-of-two number of blocks, so they are the second block size, and the
     * blocks are listed unit by unit.
     */
    @Test
    void scalableUnitsOfAPowerOfTwoLeavesBecomeTheSecondBlockSize() {
        FatTree t = new FatTree(3, 2, 2, 2);
        String yaml = render(t.cluster());
        Map<?, ?> b = (Map<?, ?>) topology(valid(yaml), "block").get("block");
        assertThat(b.get("block_sizes")).isEqualTo(List.of(2, 4));
        assertThat(((List<?>) b.get("blocks")).stream().map(x -> (String) ((Map<?, ?>) x).get("block")).toList())
                .containsExactly("u1leaf1", "u1leaf2", "u2leaf1", "u2leaf2", "u3leaf1", "u3leaf2");
        assertThat(topology(load(yaml), "tree").get("tree").toString()).contains("{switch=core1, children=u1spine1,u2spine1,u3spine1}");
    }

    /** A rail-optimised unit: each host on one leaf per rail; the rails' leaves share the hosts, one block per unit. */
    @Test
    void railLeavesSharingTheirHostsAreOneBlock() {
        FatTree t = new FatTree(2, 2, 4, 2).rails();
        String yaml = render(t.cluster());
        Map<?, ?> b = (Map<?, ?>) topology(valid(yaml), "block").get("block");
        assertThat(b.get("block_sizes")).isEqualTo(List.of(4));
        assertThat((List<?>) b.get("blocks")).hasSize(2).first().hasToString("{block=u1leaf1, nodes=u1n[1-4]}");
        assertThat(yaml).contains("# the hosts of leaves u1leaf[1-2]");
    }

    @Test
    void selenesComputeFabricAsCaptured(@TempDir Path tmp) throws Exception {
        BrowserCheckTest.seleneCompute(tmp);
        ReportFacts facts = new ReportFacts(Analysis.of(new Report(DumpLoader.load(tmp), List.of())));
        String yaml = TopologyYaml.render(facts);
        List<Object> doc = valid(yaml);
        assertThat(topology(doc, "tree")).isNotNull();
        assertThat(OpsOutputs.topologyConf(facts)).contains("\nSwitchName=MLG01-05\n");
        // the rails' leaves of a unit share its DGX systems, but the units as captured hold 14 to 20 of them (and the
        // management leaves fewer): no regular blocks
        assertThat(yaml).contains("# no block topology: the leaves have different numbers of hosts (").contains("LG01-01,LG06-01,LG11-01,LG12-01,LG13-01 20 hosts)");
        // a leaf without a host Slurm can take is an empty leaf switch, so the switches above it name a known child
        assertThat(yaml).contains("    - switch: \"MLG01-05\"\n    - switch:");
    }

    /**
     * A fat tree in the model, hosts named u{unit}n{i}: units of `leaves` leaves with `hosts` hosts each and `spines`
     * spines per unit (leaf i cabled to every spine of its unit); with units > 1 spine j of each unit goes to core j.
     * rails(): every host has one HCA per leaf of its unit instead of one leaf.
     */
    static final class FatTree {
        final int units, leaves, hosts, spines;
        boolean rails;

        FatTree(int units, int leaves, int hosts, int spines) {
            this.units = units;
            this.leaves = leaves;
            this.hosts = hosts;
            this.spines = spines;
        }

        FatTree rails() {
            rails = true;
            return this;
        }

        private final Map<String, Long> guid = new LinkedHashMap<>();
        private final Map<String, List<Topology.Port>> ports = new LinkedHashMap<>();
        private final Map<String, Integer> next = new LinkedHashMap<>();
        private final Set<String> cas = new HashSet<>();

        private long guid(String name) {
            return guid.computeIfAbsent(name, k -> 0x200000L + 2L * guid.size());
        }

        private String id(String name) {
            return String.format(cas.contains(name) ? "H-%016x" : "S-%016x", guid(name));
        }

        private int lid(String name) {
            guid(name);
            return new ArrayList<>(guid.keySet()).indexOf(name) + 1;
        }

        private void cable(String a, String b) {
            int pa = next.merge(a, 1, Integer::sum), pb = next.merge(b, 1, Integer::sum);
            SourceRef ref = new SourceRef("fabric/ibnetdiscover.out", 1);
            ports.computeIfAbsent(a, k -> new ArrayList<>()).add(new Topology.Port(pa, cas.contains(a) ? guid(a) + 1 : 0, cas.contains(a) ? lid(a) : 0,
                    id(b), guid(b), pb, b, lid(b), LinkWidth.X4, LinkSpeed.HDR, ref));
            ports.computeIfAbsent(b, k -> new ArrayList<>()).add(new Topology.Port(pb, cas.contains(b) ? guid(b) + 1 : 0, cas.contains(b) ? lid(b) : 0,
                    id(a), guid(a), pa, a, lid(a), LinkWidth.X4, LinkSpeed.HDR, ref));
        }

        ClusterData cluster() {
            for (int u = 1; u <= units; u++) {
                for (int l = 1; l <= leaves; l++) {
                    String leaf = "u" + u + "leaf" + l;
                    for (int s = 1; s <= spines; s++) cable(leaf, "u" + u + "spine" + s);
                    for (int h = 1; h <= hosts; h++) {
                        String ca = rails ? "u" + u + "n" + h + " mlx5_" + (l - 1) : "u" + u + "n" + ((l - 1) * hosts + h) + " HCA-1";
                        cas.add(ca);
                        cable(ca, leaf);
                    }
                }
                if (units > 1) for (int s = 1; s <= spines; s++) cable("u" + u + "spine" + s, "core" + s);
            }
            List<Topology.Node> nodes = new ArrayList<>();
            SourceRef ref = new SourceRef("fabric/ibnetdiscover.out", 1);
            for (Map.Entry<String, List<Topology.Port>> e : ports.entrySet()) {
                boolean ca = cas.contains(e.getKey());
                nodes.add(new Topology.Node(ca ? Topology.NodeType.CA : Topology.NodeType.SWITCH, guid(e.getKey()), id(e.getKey()), e.getKey(),
                        ca ? 1 : 40, ca ? 0 : lid(e.getKey()), e.getValue(), ref, 0));
            }
            FabricData fabric = new FabricData(new Topology(nodes), null, null, null, null, null, null, null);
            Manifest m = new Manifest(1, "model", "2026-12-02T10:00:00Z", "test", "", List.of(), Map.of());
            return new ClusterData("", m, Map.of(), fabric, List.of(), List.of(), List.of());
        }
    }
}
