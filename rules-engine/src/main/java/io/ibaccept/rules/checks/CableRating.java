package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.LinkSpeed;
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
import java.util.stream.Collectors;

/**
 * The cable is rated for the speed its link runs at: the module's own "Supported Cable Speed" (mlxlink) must contain
 * the active speed. A link trained above its cable's rating runs on a cable that was not qualified for it; a link at its
 * cable's top rating below what the HCA supports is slowed by the cable.
 */
final class CableRating implements Check {
    public String id() {
        return "cable.rating";
    }

    /** A cable finding names the host whose cable it is. */
    public Naming naming() {
        return Naming.HOST_CABLES;
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.MLXLINK));
    }

    public void evaluate(Ctx c) {
        int judged = 0;
        List<String> bad = new ArrayList<>();
        for (Cables.Cable cb : Cables.of(c.data, c.fabric())) {
            if (cb.rated().isEmpty() || cb.active() == null) continue;
            judged++;
            LinkSpeed top = cb.rated().stream().max(java.util.Comparator.comparingDouble(LinkSpeed::dataGbpsPerLane)).orElseThrow();
            HostData h = cb.host() == null ? null : c.data.hosts().get(cb.host());
            LinkSpeed hca = h == null || h.portInfo() == null ? null : h.portInfo().maxSupportedSpeed();
            if (cb.rated().contains(cb.active()) && hca != null && top == cb.active() && hca.dataGbpsPerLane() > top.dataGbpsPerLane()) {
                // the link runs at the cable's ceiling, below what the HCA can do: the cable is what slows it
                bad.add(cb.object());
                Map<String, Object> v = vars(cb);
                v.put("hca_speed", hca.name());
                c.problem(Status.WARN, List.of(cb.host()), List.of(
                                Evidence.of(cb.object() + ": Supported Cable Speed up to " + top.name(), cb.ratedWhere()),
                                Evidence.of(cb.host() + ": HCA supports up to " + hca.name(), h.portInfo().ref())),
                        cb.object() + " (" + v.get("pn") + ") is rated up to " + top.name() + " while the HCA supports " + hca.name()
                                + ": the link runs " + cb.active().name() + " because of the cable", "limits", v);
                continue;
            }
            if (cb.rated().contains(cb.active())) continue;
            bad.add(cb.object());
            String rated = cb.rated().stream().map(LinkSpeed::name).collect(Collectors.joining(","));
            Map<String, Object> v = vars(cb);
            c.problem(Status.WARN, List.of(cb.host() != null ? cb.host() : cb.object()),
                    List.of(Evidence.of(cb.object() + ": Supported Cable Speed " + rated + ", link " + cb.active().name(), cb.ratedWhere())),
                    cb.object() + " (" + v.get("pn") + ") runs " + cb.active().name() + " but the cable is rated for " + rated, "", v);
        }
        if (judged == 0) {
            c.skip("no cable printed its rated speeds (mlxlink 'Supported Cable Speed' with module info: collect with --mlxlink)");
            return;
        }
        if (bad.isEmpty()) c.pass(judged + " cable(s) rated for the speed their link runs at", List.of(), List.of());
    }

    private static Map<String, Object> vars(Cables.Cable cb) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("cable", cb.object());
        v.put("host", cb.host() == null ? "" : cb.host());
        v.put("speed", cb.active().name());
        v.put("rated", cb.rated().stream().map(LinkSpeed::name).collect(Collectors.joining(",")));
        v.put("pn", Cables.known(cb.partNumber()) ? cb.partNumber().trim() : "unknown part number");
        return v;
    }
}
