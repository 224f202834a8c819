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
import java.util.regex.Pattern;

/**
 * Rails: on a rail-optimized GPU fabric each leaf carries one HCA index of every host below it. The index of a host
 * port is read from the name the host's ibstat gives the CA (by GUID), else from its node description: "dgx-04 mlx5_5"
 * as rdma-ndd writes it (index 5), "dgx-04 HCA-6" as older drivers write it (1-based: index 5 too, so leaves of one
 * rail named both ways stay one rail); a host whose CAs name no device is ranked by port GUID order ("#1", "#2"). A
 * rail is a leaf, or the leaves whose names carry the same rail tag ("su1-leaf-R3") when every tag holds one index.
 * The fabric is taken as rail-optimized when the acceptance contract declares rails, or when nearly every host cable
 * lands on its rail (a fabric of mixed leaves is not judged). A host cable on a rail of another index than most of
 * that rail's cables, from a host that has that rail's index too, is a swapped cable: one FAIL naming each move.
 */
public final class FabricRails implements Check {
    /** Share of host cables on their leaf's own rail for a fabric to count as rail-optimized undeclared. */
    static final double RAIL_SHARE = 0.9;

    /** More CAs than a host holds under one name: hosts named alike ("localhost"), whose GUIDs say nothing of an index. */
    private static final int MAX_HCAS = 16;
    private static final Pattern DEFAULT_DESCRIPTION = Pattern.compile("(?i)Mellanox Technologies|NVIDIA");
    private static final Pattern MLX = Pattern.compile("[A-Za-z]+\\d*_(\\d+)");
    private static final Pattern HCA = Pattern.compile("(?i)HCA-?(\\d+)");
    /** A rail tag in a leaf's name: "R3", "rail3", "rail-03" standing as a word. */
    private static final Pattern RAIL_TAG = Pattern.compile("(?i)(?:^|[^A-Za-z0-9])(?:R|rail)[-_]?(\\d+)(?=$|[^A-Za-z0-9])");

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

    /** One host cable: the host, its device as named, the index it stands for, the leaf and the leaf's port. */
    private record Cable(String host, String device, String index, Fabric.Node leaf, int port) {
        /** The index was read from port GUID order, not from a device name. */
        boolean byGuid() {
            return index.startsWith("#");
        }

        String text() {
            return host + " " + device + " <-> " + leaf.name() + " port " + port;
        }
    }

    public void evaluate(Ctx c) {
        Fabric f = c.fabric();
        Integer declared = c.contract().map(k -> k.fabric() == null ? null : k.fabric().rails()).orElse(null);
        List<Cable> all = cables(c, f);
        // rail -> index -> the host cables on it; a rail is a leaf, or its rail tag when the tags hold one index each
        Map<String, Map<String, List<Cable>>> byLeaf = new TreeMap<>(), byTag = new TreeMap<>();
        Map<String, Set<String>> namesOf = new TreeMap<>();
        Map<String, Set<String>> devicesOf = new HashMap<>();
        boolean tagged = true;
        for (Cable x : all) {
            namesOf.computeIfAbsent(x.index(), k -> new TreeSet<>()).add(x.device());
            devicesOf.computeIfAbsent(x.host(), k -> new TreeSet<>()).add(x.index());
            byLeaf.computeIfAbsent(x.leaf().name(), k -> new TreeMap<>()).computeIfAbsent(x.index(), k -> new ArrayList<>()).add(x);
            java.util.regex.Matcher m = RAIL_TAG.matcher(x.leaf().shortName());
            if (m.find()) byTag.computeIfAbsent("rail " + Integer.parseInt(m.group(1)), k -> new TreeMap<>()).computeIfAbsent(x.index(), k -> new ArrayList<>()).add(x);
            else tagged = false;
        }
        Map<String, Map<String, List<Cable>>> byRail = tagged && !byTag.isEmpty() && share(byTag) >= RAIL_SHARE ? byTag : byLeaf;
        List<String> rails = namesOf.values().stream().map(n -> String.join("/", n)).toList();
        if (rails.size() < 2 && declared == null) {
            c.pass("not a rail-optimized fabric (" + (rails.isEmpty() ? "no HCA device names known" : "one HCA index per host") + ")", List.of(), List.of());
            return;
        }
        long cables = all.size(), onRail = Math.round(share(byRail) * cables);
        if (declared == null && share(byRail) < RAIL_SHARE) {
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
        // swaps read from device names are certain; those read from port GUID order only may be an HCA replaced (a new
        // card's GUID is out of sequence), so they are a warning to check at the host
        Map<Boolean, List<Cable>> moved = new HashMap<>(Map.of(true, new ArrayList<>(), false, new ArrayList<>()));
        Map<Cable, String> railName = new HashMap<>();
        for (Map<String, List<Cable>> rail : byRail.values()) {
            if (rail.size() < 2) continue;
            String index = rail.entrySet().stream().max(Comparator.comparingInt(e -> e.getValue().size())).get().getKey();
            String name = String.join("/", namesOf.get(index));
            // a host of another build on the leaf (a storage node among GPU nodes) is no swap: only a host that also
            // has the leaf's own index can have its cables crossed
            rail.forEach((dev, on) -> {
                if (dev.equals(index)) return;
                for (Cable x : on)
                    if (devicesOf.getOrDefault(x.host(), Set.of()).contains(index)) {
                        moved.get(!x.byGuid()).add(x);
                        railName.put(x, name);
                    }
            });
        }
        for (boolean named : List.of(true, false)) {
            List<Cable> list = moved.get(named);
            if (list.isEmpty()) continue;
            if (named) bad++;
            List<String> swapped = list.stream().map(x -> x.text() + " (the leaf's rail is " + railName.get(x) + ")").toList();
            List<Evidence> ev = new ArrayList<>();
            for (String s : swapped.subList(0, Math.min(10, swapped.size()))) ev.add(Evidence.of(s, Cmd.IBNETDISCOVER.path(null)));
            c.problem(named ? Status.FAIL : Status.WARN, list.stream().map(x -> x.host() + " " + x.device()).distinct().toList(), ev,
                    swapped.size() + " host cable(s) on a leaf of another rail" + (named ? "" : " by port GUID order") + ": "
                            + String.join("; ", swapped.subList(0, Math.min(5, swapped.size())))
                            + (swapped.size() > 5 ? "; and " + (swapped.size() - 5) + " more" : ""), named ? "swap" : "swap_by_guid",
                    Map.of("count", swapped.size(), "first", swapped.get(0)));
        }
        if (bad == 0 && moved.get(false).isEmpty()) c.pass(rails.size() + " rails (" + String.join(", ", rails) + "): no host has an HCA cable on the leaf of another of its rails"
                        + (declared != null ? "; as many rails as the contract declares" : ""),
                List.of(), List.of());
    }

    /** The host cables whose HCA index is known, from ibstat's device names, the node descriptions, else port GUID order. */
    private static List<Cable> cables(Ctx c, Fabric f) {
        Map<String, List<Fabric.Link>> unnamed = new TreeMap<>();
        List<Cable> out = new ArrayList<>();
        for (Fabric.Link l : f.links()) {
            if (f.linkClass(l) != Fabric.LinkClass.HOST) continue;
            Fabric.Node a = f.node(l.a().guid()), b = f.node(l.b().guid());
            Fabric.Node ca = a.isSwitch() ? b : a, sw = a.isSwitch() ? a : b;
            String host = Fabric.hostPart(ca.description());
            // a CA that kept its driver's default description ("MT4129 ConnectX7   Mellanox Technologies") names no host
            if (host.isEmpty() || DEFAULT_DESCRIPTION.matcher(ca.description()).find()) continue;
            String known = c.index.deviceOf(ca.guid());
            String device = known != null ? known : deviceIn(ca.description());
            if (device == null) {
                unnamed.computeIfAbsent(host, k -> new ArrayList<>()).add(l);
                continue;
            }
            out.add(new Cable(host, device, index(device), sw, l.endAt(sw.guid()).port()));
        }
        // a host whose CAs name no device: its CAs in port GUID order stand for its HCA indexes, when it has several
        unnamed.forEach((host, links) -> {
            if (links.size() < 2 || links.size() > MAX_HCAS) return;
            List<Fabric.Link> sorted = new ArrayList<>(links);
            sorted.sort(Comparator.comparing(l -> f.node(l.a().guid()).isSwitch() ? l.b().guid() : l.a().guid(), Long::compareUnsigned));
            for (int i = 0; i < sorted.size(); i++) {
                Fabric.Link l = sorted.get(i);
                Fabric.Node sw = f.node(l.a().guid()).isSwitch() ? f.node(l.a().guid()) : f.node(l.b().guid());
                out.add(new Cable(host, "#" + (i + 1) + " (by port GUID)", "#" + (i + 1), sw, l.endAt(sw.guid()).port()));
            }
        });
        return out;
    }

    /** The device a node description names after its host: "mlx5_4", "HCA-5"; null when none. */
    static String deviceIn(String description) {
        String[] words = description.trim().split("\\s+");
        for (int i = 1; i < words.length; i++)
            if (MLX.matcher(words[i]).matches() || HCA.matcher(words[i]).matches()) return words[i];
        return null;
    }

    /** The 0-based index a device name stands for: mlx5_4 -> "4", HCA-5 -> "4" (counted from 1). */
    static String index(String device) {
        java.util.regex.Matcher m = MLX.matcher(device);
        if (m.matches()) return String.valueOf(Integer.parseInt(m.group(1)));
        m = HCA.matcher(device);
        if (m.matches()) return String.valueOf(Math.max(0, Integer.parseInt(m.group(1)) - 1));
        return device;
    }

    /** Share of the host cables that carry their rail's most common index. */
    private static double share(Map<String, Map<String, List<Cable>>> byRail) {
        long cables = 0, on = 0;
        for (Map<String, List<Cable>> rail : byRail.values()) {
            cables += rail.values().stream().mapToInt(List::size).sum();
            on += rail.values().stream().mapToInt(List::size).max().orElse(0);
        }
        return cables == 0 ? 0 : (double) on / cables;
    }
}
