package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import io.ibaccept.rules.inventory.Cables;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One cable part number per link class (host links, ISLs): a different part among identical ones is a cable swapped in
 * from spares or a different vendor/type. The minority part numbers are named; lengths that differ by design (and so
 * part numbers) are waived.
 */
final class CableParts implements Check {
    public String id() {
        return "cable.parts";
    }

    /** A cable finding names the host whose cable it is. */
    public Naming naming() {
        return Naming.HOST_CABLES;
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.MLXLINK, Cmd.IBDIAGNET_DB));
    }

    public void evaluate(Ctx c) {
        Map<String, Map<String, List<Cables.Cable>>> byClass = new TreeMap<>();
        for (Cables.Cable cb : Cables.of(c.data, c.fabric())) {
            if (!cb.hasPartNumber() || cb.linkClass() == Cables.LinkClass.UNKNOWN) continue;
            byClass.computeIfAbsent(group(cb), k -> new TreeMap<>()).computeIfAbsent(cb.partNumber().trim(), k -> new ArrayList<>()).add(cb);
        }
        if (byClass.isEmpty()) {
            c.skip("no cable part numbers in the dump (mlxlink module info: --mlxlink; ibdiagnet CABLE_INFO: --ibdiagnet with --get_cable_info)");
            return;
        }
        List<String> ok = new ArrayList<>();
        boolean mixed = false;
        for (var e : byClass.entrySet()) {
            Map<String, List<Cables.Cable>> parts = e.getValue();
            int total = parts.values().stream().mapToInt(List::size).sum();
            if (parts.size() == 1) {
                ok.add(e.getKey() + ": " + parts.keySet().iterator().next() + " (" + total + ")");
                continue;
            }
            mixed = true;
            String main = parts.entrySet().stream().max(Map.Entry.comparingByValue(java.util.Comparator.comparingInt(List::size)))
                    .map(Map.Entry::getKey).orElseThrow();
            List<Cables.Cable> odd = parts.entrySet().stream().filter(p -> !p.getKey().equals(main)).flatMap(p -> p.getValue().stream()).toList();
            String counts = parts.entrySet().stream().sorted((a, b) -> b.getValue().size() - a.getValue().size())
                    .map(p -> p.getKey() + " (" + p.getValue().size() + ")").collect(Collectors.joining(", "));
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("class", e.getKey());
            v.put("parts", counts);
            v.put("main", main);
            v.put("cables", odd.stream().limit(10).map(Cables.Cable::object).collect(Collectors.joining(", ")) + (odd.size() > 10 ? ", ..." : ""));
            List<Evidence> ev = new ArrayList<>();
            ev.add(Evidence.of(parts.get(main).get(0).object() + ": " + main, parts.get(main).get(0).where()));
            odd.stream().limit(9).forEach(cb -> ev.add(Evidence.of(cb.object() + ": " + cb.partNumber().trim(), cb.where())));
            c.problem(Status.WARN, odd.stream().map(cb -> cb.host() != null ? cb.host() : cb.object()).distinct().toList(), ev,
                    e.getKey() + " use " + parts.size() + " cable part numbers: " + counts, "", v);
        }
        if (!mixed) c.pass("one cable part number per link class: " + String.join("; ", ok), List.of(), List.of());
    }

    /**
     * The class a module's part number is compared within. ibdiagnet2.cables reads both ends of every cable: the switch
     * end and the HCA end of one optical cable are different parts by design (a twin-port 800G module at the switch,
     * a 400G one at the HCA), and copper and optics of one class are chosen by reach; so its modules are compared per
     * end and medium. The other sources read one end of a host's cable.
     */
    private static String group(Cables.Cable cb) {
        if (!cb.source().equals("ibdiagnet2.cables")) return cb.linkClass().label;
        String side = cb.host() == null ? "switch ends" : "HCA ends";
        String medium = cb.type().toLowerCase(java.util.Locale.ROOT).contains("copper") ? "copper" : "optics";
        return cb.linkClass().label + " (" + side + ", " + medium + ")";
    }
}
