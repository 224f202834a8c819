package io.ibaccept.rules.checks.sm;

import io.ibaccept.rules.checks.SmCheck;
import io.ibaccept.model.SmConfig;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * sm_key set when several SMs run: with the default key (0x1 in opensm 3.3's own file, 0x0 in older ones) any SM on
 * the fabric, including one started by accident on a compute node, takes part in the election and can take over.
 */
public final class SmConfigKey implements SmCheck {
    public String id() {
        return "sm.config.smkey";
    }

    public List<Input> inputs() {
        return List.of(SmFacts.config());
    }

    public List<Setting> settings() {
        return List.of(Setting.of("defaults", Setting.Type.LIST, "0x0000000000000000,0x0000000000000001",
                "sm_key values that count as not set (opensm's defaults)"));
    }

    public void evaluate(Ctx c) {
        Map<String, SmConfig> sms = SmFacts.configured(c);
        int count = Math.max(sms.size(), SmFacts.liveSms(c).size());
        List<Long> defaults = c.list("defaults").stream().map(SmConfigKey::key).toList();
        List<String> unset = new ArrayList<>();
        List<Evidence> ev = new ArrayList<>();
        for (SmConfig s : sms.values()) {
            long k = s.option("sm_key").map(o -> key(o.value())).orElse(1L);
            ev.add(SmFacts.evidence(s, "sm_key", "0x0000000000000001"));
            if (defaults.contains(k)) unset.add(s.host());
        }
        if (count > 1 && !unset.isEmpty())
            c.problem(Status.WARN, unset, ev, count + " SMs on the fabric and sm_key left at its default on " + String.join(", ", unset)
                    + ": any SM can join the election and take over", "", Map.of("hosts", String.join(", ", unset)));
        else c.pass(count <= 1 ? "one SM: sm_key not needed" : "sm_key set on every SM node", List.copyOf(sms.keySet()), ev);
    }

    static long key(String v) {
        String t = v.trim().toLowerCase(Locale.ROOT);
        try {
            return t.startsWith("0x") ? Long.parseUnsignedLong(t.substring(2), 16) : Long.parseUnsignedLong(t);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
