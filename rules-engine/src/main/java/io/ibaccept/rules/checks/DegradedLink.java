package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.FabricIndex;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Shared by width and speed: compares each active link's value with the expected one. */
abstract class DegradedLink<T extends Comparable<T>> implements Check {
    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBLINKINFO));
    }

    abstract T value(LinkInfo l);

    abstract Optional<T> parse(String s);

    abstract double scale(T v);

    public void evaluate(Ctx c) {
        List<FabricIndex.Link> active = c.index.links().stream()
                .filter(l -> l.a().isActive() && value(l.a()) != null).toList();
        if (active.isEmpty()) {
            c.skip("no active links in iblinkinfo");
            return;
        }
        Optional<T> configured = parse(c.text("expected"));
        T expected;
        String how;
        if (configured.isEmpty()) {
            expected = Majority.of(active.stream().map(l -> value(l.a())).toList(), Comparator.naturalOrder()).orElseThrow();
            how = "most common in this fabric";
        } else {
            expected = configured.get();
            how = "configured";
        }
        int bad = 0;
        for (FabricIndex.Link l : active) {
            T got = value(l.a());
            if (got.compareTo(expected) >= 0) continue;
            bad++;
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("active", got);
            v.put("expected", expected);
            v.put("ratio", Math.round(100 * scale(got) / scale(expected)) + "%");
            v.put("a", FabricIndex.Link.end(l.a()));
            v.put("b", l.b() != null ? FabricIndex.Link.end(l.b()) : l.a().remoteName());
            v.put("a_short", l.a().nodeName());
            v.put("lid", l.a().lid());
            v.put("port", l.a().port());
            List<Evidence> ev = new ArrayList<>();
            ev.add(Evidence.of(line(l.a()), l.a().ref()));
            if (l.b() != null) ev.add(Evidence.of(line(l.b()), l.b().ref()));
            List<String> objs = new ArrayList<>(List.of(FabricIndex.Link.end(l.a())));
            if (l.b() != null) objs.add(FabricIndex.Link.end(l.b()));
            c.problem(Status.FAIL, objs, ev, l.name() + " runs at " + got + ", expected " + expected + " (" + how + ")", "", v);
        }
        if (bad == 0) c.pass("all " + active.size() + " active links run at " + expected + " (" + how + ")", List.of(), List.of());
    }

    static String line(LinkInfo l) {
        return l.nodeName() + " port " + l.port() + ": " + (l.width() == null ? "" : l.width() + " ")
                + (l.speed() == null ? "" : l.speed() + " ") + l.state() + "/" + l.physState() + " -> \"" + l.remoteName() + "\" port " + l.remotePort();
    }
}
