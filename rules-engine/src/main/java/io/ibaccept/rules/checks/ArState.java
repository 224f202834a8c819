package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.Ibdiagnet;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Adaptive routing on the switches, from ibdiagnet2.db_csv's AR_INFO section (one row per AR-capable switch; column
 * 'e' is ARInfo's enable bit, fr_enabled fast recovery, by_sl_en AR per SL). Reported as a fact; switches with AR off
 * while others have it on are a WARN: traffic through them is routed statically and congests where the rest spreads.
 */
final class ArState implements Check {
    public String id() {
        return "ar.state";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBDIAGNET_DB));
    }

    public void evaluate(Ctx c) {
        Ibdiagnet.Db db = c.data.fabric().diagDb();
        Ibdiagnet.Section s = db == null ? null : db.section("AR_INFO");
        if (s == null || s.rows().isEmpty()) {
            c.skip("ibdiagnet2.db_csv has no AR_INFO rows: no switch reported adaptive-routing state (AR not supported, or not queried)");
            return;
        }
        DiagNodes nodes = DiagNodes.of(db);
        List<String> on = new ArrayList<>(), off = new ArrayList<>();
        List<Evidence> offEv = new ArrayList<>();
        Evidence onEv = null;
        for (Ibdiagnet.Row r : s.rows()) {
            String name = nodes.name(c, r.get("NodeGUID"));
            boolean enabled = r.get("e").equals("1");
            String detail = name + ": AR " + (enabled ? "enabled" : "disabled") + " (e=" + r.get("e") + ", fr_enabled=" + r.get("fr_enabled")
                    + ", by_sl_en=" + r.get("by_sl_en") + ")";
            if (enabled) {
                on.add(name);
                if (onEv == null) onEv = Evidence.of(detail, r.ref());
            } else {
                off.add(name);
                offEv.add(Evidence.of(detail, r.ref()));
            }
        }
        if (!on.isEmpty() && !off.isEmpty()) {
            List<Evidence> ev = new ArrayList<>(HostConfigs.limit(offEv));
            ev.add(onEv);
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("switches", HostConfigs.hostlist(off));
            v.put("on", on.size());
            c.problem(Status.WARN, off, ev, off.size() + " switch(es) " + HostConfigs.hostlist(off) + " with adaptive routing disabled while "
                    + on.size() + " switch(es) have it enabled", "", v);
            return;
        }
        c.pass("adaptive routing " + (off.isEmpty() ? "enabled" : "disabled") + " on all " + s.rows().size() + " AR-capable switch(es) (ibdiagnet AR_INFO)",
                List.of(), List.of());
    }
}
