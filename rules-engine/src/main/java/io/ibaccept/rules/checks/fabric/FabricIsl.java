package io.ibaccept.rules.checks.fabric;

import io.ibaccept.dump.Cmd;
import io.ibaccept.fabric.Fabric;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.LinkWidth;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Switch-to-switch links (ISLs) against the rate the ISLs are built for, which may differ from the hosts' (HDR100
 * hosts, HDR 4X ISLs): an ISL narrower or slower than the other ISLs, named with both ends. ISLs below the fabric-wide
 * expectation are already link.width / link.speed findings and are not repeated here; not-Active switch ports are
 * port.state's; lost ISLs are fabric.blocking's.
 */
public final class FabricIsl implements Check {
    public String id() {
        return "fabric.isl";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBLINKINFO));
    }

    public List<Setting> settings() {
        return List.of(Setting.of("width", Setting.Type.WIDTH, "auto", "width every ISL must run at; auto = the most common ISL width"),
                Setting.of("speed", Setting.Type.SPEED, "auto", "speed every ISL must run at; auto = the most common ISL speed"));
    }

    public void evaluate(Ctx c) {
        Fabric f = c.fabric();
        List<Fabric.Link> isls = f.links().stream().filter(l -> f.isSwitchToSwitch(l) && l.isActive() && l.width() != null && l.speed() != null).toList();
        if (isls.isEmpty()) {
            c.pass("no active switch-to-switch links", List.of(), List.of());
            return;
        }
        LinkWidth w = c.width("width").orElse(mode(isls.stream().map(Fabric.Link::width).toList()));
        LinkSpeed s = c.speed("speed").orElse(mode(isls.stream().map(Fabric.Link::speed).toList()));
        // what link.width / link.speed already judge every link against
        List<Fabric.Link> all = f.links().stream().filter(l -> !l.state().isEmpty() && l.isActive() && l.width() != null && l.speed() != null).toList();
        LinkWidth fabricW = all.isEmpty() ? null : c.cfg.text("link.width", "expected").equalsIgnoreCase("auto")
                ? mode(all.stream().map(Fabric.Link::width).toList()) : LinkWidth.parse(c.cfg.text("link.width", "expected")).orElse(null);
        LinkSpeed fabricS = all.isEmpty() ? null : c.cfg.text("link.speed", "expected").equalsIgnoreCase("auto")
                ? mode(all.stream().map(Fabric.Link::speed).toList()) : LinkSpeed.parse(c.cfg.text("link.speed", "expected")).orElse(null);
        boolean widthChecked = c.cfg.enabled("link.width"), speedChecked = c.cfg.enabled("link.speed");
        int bad = 0;
        for (Fabric.Link l : isls) {
            boolean narrow = l.width().compareTo(w) < 0 && !(widthChecked && fabricW != null && l.width().compareTo(fabricW) < 0);
            boolean slow = l.speed().compareTo(s) < 0 && !(speedChecked && fabricS != null && l.speed().compareTo(fabricS) < 0);
            if (!narrow && !slow) continue;
            bad++;
            String[] ends = f.name(l).split(" <-> ");
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("a", ends[0]);
            v.put("b", ends[1]);
            v.put("active", l.rate());
            v.put("expected", w + " " + s.name());
            List<Evidence> ev = new ArrayList<>();
            for (io.ibaccept.parse.SourceRef r : l.refs()) ev.add(Evidence.of(f.name(l) + " " + l.rate() + (l.state().isEmpty() ? "" : " " + l.state()), r));
            c.problem(Status.FAIL, List.of(ends[0], ends[1]), ev, "ISL " + f.name(l) + " runs at " + l.rate() + ", the ISLs at " + w + " " + s.name(),
                    narrow ? "width" : "speed", v);
        }
        if (bad == 0) c.pass("all " + isls.size() + " active ISLs run at " + w + " " + s.name() + " or better", List.of(), List.of());
    }

    static <T extends Comparable<T>> T mode(List<T> values) {
        Map<T, Integer> n = new HashMap<>();
        for (T v : values) n.merge(v, 1, Integer::sum);
        return n.entrySet().stream().max(Map.Entry.<T, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey())).orElseThrow().getKey();
    }
}
