package io.ibaccept.report;

import io.ibaccept.dump.Manifest;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.FabricData;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.model.Topology;
import io.ibaccept.parse.SourceRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A model built directly (no dump on disk): n hosts, 40 per leaf, two spines, for size and naming tests. */
final class Synthetic {
    private Synthetic() {}

    static ClusterData cluster(List<String> hosts, String source) {
        Map<String, HostData> hd = new LinkedHashMap<>();
        List<Topology.Node> nodes = new ArrayList<>();
        int perLeaf = 40, leaves = (hosts.size() + perLeaf - 1) / perLeaf;
        List<List<Topology.Port>> leafPorts = new ArrayList<>();
        for (int l = 0; l < leaves; l++) leafPorts.add(new ArrayList<>());
        for (int i = 0; i < hosts.size(); i++) {
            String h = hosts.get(i);
            long guid = 0x100000L + 2L * i;
            long leafGuid = 0x200000L + 10 + i / perLeaf;
            SourceRef ref = new SourceRef("nodes/" + h + "/ibstat.out", 1);
            Ibstat.Port p = new Ibstat.Port(1, "Active", "LinkUp", 200, i + 1, 0, 1, 0, guid + 1, "InfiniBand", ref);
            hd.put(h, new HostData(h, List.of(new Ibstat.Ca("mlx5_0", "MT4123", 1, "20.31.1014", "0", guid, guid, List.of(p), ref)),
                    null, null, null, null, 64L, "MLNX_OFED_LINUX-5.8", null, null, null, null));
            String desc = h + " HCA-1";
            nodes.add(new Topology.Node(Topology.NodeType.CA, guid, String.format("H-%016x", guid), desc, 1, 0,
                    List.of(new Topology.Port(1, guid + 1, i + 1, String.format("S-%016x", leafGuid), leafGuid, 1 + i % perLeaf,
                            String.format("leaf%03d", i / perLeaf + 1), 0, LinkWidth.X4, LinkSpeed.HDR, ref)), ref));
            leafPorts.get(i / perLeaf).add(new Topology.Port(1 + i % perLeaf, 0, 0, String.format("H-%016x", guid), guid, 1, desc, i + 1,
                    LinkWidth.X4, LinkSpeed.HDR, ref));
        }
        for (int l = 0; l < leaves; l++) {
            long leafGuid = 0x200000L + 10 + l;
            List<Topology.Port> ports = new ArrayList<>(leafPorts.get(l));
            for (int s = 0; s < 2; s++)
                ports.add(new Topology.Port(41 + s, 0, 0, String.format("S-%016x", 0x200000L + s), 0x200000L + s, l + 1, "spine0" + (s + 1), 0,
                        LinkWidth.X4, LinkSpeed.HDR, new SourceRef("fabric/ibnetdiscover.out", l + 1)));
            nodes.add(new Topology.Node(Topology.NodeType.SWITCH, leafGuid, String.format("S-%016x", leafGuid),
                    String.format("MF0;leaf%03d:MQM8790/U1", l + 1), 80, 5000 + l, ports, new SourceRef("fabric/ibnetdiscover.out", l + 1)));
        }
        for (int s = 0; s < 2; s++) {
            List<Topology.Port> ports = new ArrayList<>();
            for (int l = 0; l < leaves; l++)
                ports.add(new Topology.Port(l + 1, 0, 0, String.format("S-%016x", 0x200000L + 10 + l), 0x200000L + 10 + l, 41 + s,
                        String.format("leaf%03d", l + 1), 0, LinkWidth.X4, LinkSpeed.HDR, new SourceRef("fabric/ibnetdiscover.out", 9000 + s)));
            nodes.add(new Topology.Node(Topology.NodeType.SWITCH, 0x200000L + s, String.format("S-%016x", 0x200000L + s),
                    "spine0" + (s + 1), 80, 4000 + s, ports, new SourceRef("fabric/ibnetdiscover.out", 9000 + s)));
        }
        FabricData fabric = new FabricData(new Topology(nodes), null, null, null, null, null, null, null);
        Manifest m = new Manifest(1, "big", "2026-12-02T10:00:00Z", "test", hosts.get(0), hosts, Map.of());
        return new ClusterData(source, m, hd, fabric, List.of(), List.of(), List.of());
    }
}
