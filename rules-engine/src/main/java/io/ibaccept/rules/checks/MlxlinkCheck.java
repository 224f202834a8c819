package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Mlxlink;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.List;
import java.util.Map;

/** mlxlink's troubleshooting status and the pre-/post-FEC bit error rates. */
final class MlxlinkCheck implements Check {
    public String id() {
        return "mlxlink";
    }

    public RootRole rootRole(io.ibaccept.rules.Finding f) {
        return RootRole.CABLE;
    }

    /** After the counters and the trained rate: mlxlink's own verdict on the same cable is the weakest evidence. */
    public int rootStrength() {
        return 4;
    }

    public java.util.Set<ExplainedBy> explainedBy(io.ibaccept.rules.Finding f) {
        return java.util.Set.of(ExplainedBy.PORT_DOWN, ExplainedBy.CABLE, ExplainedBy.CABLE_AT_HCA);
    }

    /** mlxlink judges the host's link: a finding about the host is about its cables. */
    public Naming naming() {
        return Naming.HOST_CABLES;
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.MLXLINK));
    }

    public List<Setting> settings() {
        return List.of(Setting.number("raw_ber_warn", "1e-8", "pre-FEC (raw) BER above this is a warning"),
                Setting.number("effective_ber_fail", "1e-12", "post-FEC (effective) BER above this fails"));
    }

    public void evaluate(Ctx c) {
        double rawWarn = c.number("raw_ber_warn"), effFail = c.number("effective_ber_fail");
        int checked = 0, bad = 0;
        for (HostData h : c.data.hosts().values()) {
            Mlxlink m = h.mlxlink();
            if (m == null) continue;
            checked++;
            if (m.statusOpcode() != null && m.statusOpcode() != 0) {
                bad++;
                c.problem(Status.FAIL, List.of(h.host()),
                        List.of(Evidence.of("Status Opcode: " + m.statusOpcode(), m.ref("Status Opcode")),
                                Evidence.of("Recommendation: " + m.recommendation(), m.ref("Recommendation"))),
                        // the tool's recommendation is quoted as evidence only: a fix comes from the rules, never from the dump
                        h.host() + ": mlxlink troubleshooting status " + m.statusOpcode(), "status",
                        Map.of("host", h.host(), "opcode", m.statusOpcode()));
            }
            if (m.effectiveBer() != null && m.effectiveBer() > effFail) {
                bad++;
                c.problem(Status.FAIL, List.of(h.host()), List.of(Evidence.of("Effective Physical BER: " + m.effectiveBer(), m.ref("Effective Physical BER"))),
                        h.host() + ": effective (post-FEC) BER " + m.effectiveBer() + " above " + effFail, "effective_ber",
                        Map.of("host", h.host(), "ber", m.effectiveBer()));
            } else if (m.rawBer() != null && m.rawBer() > rawWarn) {
                bad++;
                c.problem(Status.WARN, List.of(h.host()), List.of(Evidence.of("Raw Physical BER: " + m.rawBer(), m.ref("Raw Physical BER"))),
                        h.host() + ": raw (pre-FEC) BER " + m.rawBer() + " above " + rawWarn, "raw_ber",
                        Map.of("host", h.host(), "ber", m.rawBer()));
            }
        }
        if (bad == 0) c.pass(checked + " host(s): mlxlink reports no issue, BER within limits", List.of(), List.of());
    }
}
