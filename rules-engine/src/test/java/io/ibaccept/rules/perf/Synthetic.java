package io.ibaccept.rules.perf;

import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleBiFunction;

/** Synthetic fabrics and pair matrices: leaves x nodes per leaf, each leaf with one uplink to each of the spines. */
final class Synthetic {
    private Synthetic() {}

    static String node(int i) {
        return String.format("node%02d", i + 1);
    }

    static List<String> nodes(int n) {
        List<String> l = new ArrayList<>();
        for (int i = 0; i < n; i++) l.add(node(i));
        return l;
    }

    static String leafName(int l) {
        return String.format("leaf%02d", l + 1);
    }

    /** Nodes 0..perLeaf-1 on leaf01 etc.; degraded = "leafNN:spineMM" uplinks that run at 1X instead of 4X. */
    static FabricView fatTree(int leaves, int perLeaf, int spines, String... degraded) {
        Map<String, String> leafOf = new HashMap<>();
        Map<String, List<FabricView.Uplink>> ups = new HashMap<>();
        for (int l = 0; l < leaves; l++) {
            for (int i = 0; i < perLeaf; i++) leafOf.put(node(l * perLeaf + i), leafName(l));
            List<FabricView.Uplink> u = new ArrayList<>();
            for (int s = 0; s < spines; s++) {
                String spine = String.format("spine%02d", s + 1);
                boolean slow = List.of(degraded).contains(leafName(l) + ":" + spine);
                u.add(new FabricView.Uplink(leafName(l), perLeaf + 1 + s, spine, l + 1, slow ? LinkWidth.X1 : LinkWidth.X4,
                        LinkSpeed.HDR, "fabric/ibnetdiscover.out:" + (100 + l * 10 + s)));
            }
            ups.put(leafName(l), u);
        }
        return new FabricView(leafOf, ups);
    }

    /** All pairs of the nodes with a value from f (client, server). */
    static PairMatrix allPairs(String test, boolean bw, List<String> nodes, ToDoubleBiFunction<String, String> f) {
        List<PairMatrix.Measurement> ms = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++)
            for (int j = i + 1; j < nodes.size(); j++)
                ms.add(new PairMatrix.Measurement(nodes.get(i), nodes.get(j), 0, f.applyAsDouble(nodes.get(i), nodes.get(j)),
                        "perftest/" + test + "__" + nodes.get(i) + "__" + nodes.get(j) + ".client.out:20", test + "__" + nodes.get(i) + "__" + nodes.get(j)));
        return new PairMatrix(test, bw, ms);
    }

    /** Deterministic jitter of +-1% so that no two pairs are equal. */
    static double jitter(String a, String b) {
        return 1 + ((a + b).hashCode() % 100) / 10000.0;
    }
}
