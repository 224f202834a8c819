package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The cable is rated for the speed its link runs at: the module's own "Supported Cable Speed" (mlxlink) must contain
 * the active speed. A link trained above its cable's rating runs on a cable that was not qualified for it.
 */
final class CableRating implements Check {
    public String id() {
        return "cable.rating";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.MLXLINK));
    }

    public void evaluate(Ctx c) {
        int judged = 0;
        List<String> bad = new ArrayList<>();
        for (Cables.Cable cb : Cables.of(c)) {
            if (cb.rated().isEmpty() || cb.active() == null) continue;
            judged++;
            if (cb.rated().contains(cb.active())) continue;
            bad.add(cb.object());
            String rated = cb.rated().stream().map(LinkSpeed::name).collect(Collectors.joining(","));
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("cable", cb.object());
            v.put("host", cb.host() == null ? "" : cb.host());
            v.put("speed", cb.active().name());
            v.put("rated", rated);
            v.put("pn", Cables.known(cb.partNumber()) ? cb.partNumber() : "unknown part number");
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
}
