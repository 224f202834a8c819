package io.ibaccept.rules.checks.fabric;

import io.ibaccept.dump.Cmd;
import io.ibaccept.fabric.Fabric;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Rails: on a rail-optimized GPU fabric each leaf carries one HCA index (mlx5_N) of every host below it. The device of
 * a host port is the name the host's ibstat gives the CA (by GUID), else the second word of its node description as
 * rdma-ndd writes it ("dgx-04 mlx5_5"). The fabric is taken as rail-optimized when the acceptance contract declares
 * rails, or when nearly every host cable lands on its leaf's rail (a fabric of mixed leaves is not judged). A host cable on a
 * leaf of another rail than most of that leaf's cables, from a host that has that rail's index too, is a swapped cable:
 * one FAIL naming each move.
 */
public final class FabricRails implements Check {
    /** Share of host cables on their leaf's own rail for a fabric to count as rail-optimized undeclared. */
    static final double RAIL_SHARE = 0.9;

    public String id() {
        return "fabric.rails";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBLINKINFO, Cmd.IBNETDISCOVER));
    }

    /** A swapped cable is one cable moved: the cable's fault, explaining what runs over it. */
    public RootRole rootRole(io.ibaccept.rules.Finding f) {
        return f.variant().equals("swap") ? RootRole.CABLE : null;
    }

    public void evaluate(Ctx c) {
        Fabric f = c.fabric();
        Integer declared = c.contract().map(k -> k.fabric() == null ? null : k.fabric().rails()).orElse(null);
        // leaf -> device -> the host cables on it
        Map<String, Map<String, List<String>>> byLeaf = new TreeMap<>();
        Set<String> rails = new TreeSet<>();
        Map<String, Set<String>> devicesOf = new HashMap<>();
        for (Fabric.Link l : f.links()) {
            if (f.linkClass(l) != Fabric.LinkClass.HOST) continue;
            Fabric.Node a = f.node(l.a().guid()), b = f.node(l.b().guid());
            if (a == null || b == null) continue;
            Fabric.Node ca = a.isSwitch() ? b : a, sw = a.isSwitch() ? a : b;
            String[] words = ca.description().trim().split("\\s+");
            String known = c.index.deviceOf(ca.guid());
            String device = known != null ? known : words.length > 1 && words[1].matches("[A-Za-z]+\\d*_\\d+") ? words[1] : null;
            if (device == null) continue;
            rails.add(device);
            devicesOf.computeIfAbsent(words[0], x -> new TreeSet<>()).add(device);
            byLeaf.computeIfAbsent(sw.name(), x -> new TreeMap<>()).computeIfAbsent(device, x -> new ArrayList<>())
                    .add(words[0] + " " + device + " <-> " + sw.name() + " port " + l.endAt(sw.guid()).port());
        }
        if (rails.size() < 2 && declared == null) {
            c.pass("not a rail-optimized fabric (" + (rails.isEmpty() ? "no HCA device names known" : "one HCA index per host") + ")", List.of(), List.of());
            return;
        }
        long cables = 0, onRail = 0;
        for (Map<String, List<String>> leaf : byLeaf.values()) {
            cables += leaf.values().stream().mapToInt(List::size).sum();
            onRail += leaf.values().stream().mapToInt(List::size).max().orElse(0);
        }
        if (declared == null && onRail < RAIL_SHARE * cables) {
            c.pass("not a rail-optimized fabric: " + (cables - onRail) + " of " + cables + " host cables share their leaf with another HCA index"
                    + " (declare rails in the acceptance contract if it should be)", List.of(), List.of());
            return;
        }
        int bad = 0;
        if (declared != null && rails.size() != declared) {
            bad++;
            c.problem(Status.FAIL, List.of("fabric"), List.of(Evidence.of("HCA devices on the leaves: " + String.join(", ", rails), Cmd.IBNETDISCOVER.path(null)),
                            Evidence.of("the contract declares " + declared + " rails", c.contract().get().where("fabric.rails"))),
                    "the hosts' HCAs are on " + rails.size() + " rail(s) (" + String.join(", ", rails) + "), the contract declares " + declared, "count",
                    Map.of("found", rails.size(), "declared", declared));
        }
        List<String> swapped = new ArrayList<>();
        for (Map<String, List<String>> leaf : byLeaf.values()) {
            if (leaf.size() < 2) continue;
            String rail = leaf.entrySet().stream().max(Comparator.comparingInt(e -> e.getValue().size())).get().getKey();
            // a host of another build on the leaf (a storage node among GPU nodes) is no swap: only a host that also
            // has the leaf's own index can have its cables crossed
            leaf.forEach((dev, ports) -> {
                if (dev.equals(rail)) return;
                for (String p : ports)
                    if (devicesOf.getOrDefault(p.split(" ")[0], Set.of()).contains(rail)) swapped.add(p + " (the leaf's rail is " + rail + ")");
            });
        }
        if (!swapped.isEmpty()) {
            bad++;
            List<Evidence> ev = new ArrayList<>();
            for (String s : swapped.subList(0, Math.min(10, swapped.size()))) ev.add(Evidence.of(s, Cmd.IBNETDISCOVER.path(null)));
            c.problem(Status.FAIL, swapped.stream().map(x -> x.split(" <-> ")[0]).distinct().toList(), ev,
                    swapped.size() + " host cable(s) on a leaf of another rail: " + String.join("; ", swapped.subList(0, Math.min(5, swapped.size())))
                            + (swapped.size() > 5 ? "; and " + (swapped.size() - 5) + " more" : ""), "swap",
                    Map.of("count", swapped.size(), "first", swapped.get(0)));
        }
        if (bad == 0) c.pass(rails.size() + " rails (" + String.join(", ", rails) + "): no host has an HCA cable on the leaf of another of its rails"
                        + (declared != null ? "; as many rails as the contract declares" : ""),
                List.of(), List.of());
    }
}
