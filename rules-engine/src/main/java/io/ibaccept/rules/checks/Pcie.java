package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Mlxlink;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The HCA's PCIe link at its enabled generation and width (mlxlink --port_type PCIE). */
final class Pcie implements HostLocalCheck {
    public String id() {
        return "pcie";
    }

    public RootRole rootRole(io.ibaccept.rules.Finding f) {
        return RootRole.HOST_HARDWARE;
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.MLXLINK_PCIE));
    }

    public void evaluate(Ctx c) {
        int checked = 0, bad = 0;
        for (HostData h : c.data.hosts().values()) {
            Mlxlink m = h.mlxlinkPcie();
            if (m == null || m.pcieGenActive() == null) continue;
            checked++;
            int ga = m.pcieGenActive(), ge = m.pcieGenEnabled() == null ? ga : m.pcieGenEnabled();
            int wa = m.pcieWidthActive() == null ? 0 : m.pcieWidthActive();
            int we = m.pcieWidthEnabled() == null ? wa : m.pcieWidthEnabled();
            if (ga >= ge && wa >= we) continue;
            bad++;
            String ca = h.ibstat() != null && !h.ibstat().isEmpty() ? h.ibstat().get(0).name() : "<dev>";
            Map<String, Object> v = Map.of("host", h.host(), "ca", ca, "gen_active", ga, "gen_enabled", ge,
                    "width_active", wa, "width_enabled", we);
            List<Evidence> ev = new ArrayList<>();
            ev.add(Evidence.of("Link Speed Active (Enabled): Gen " + ga + " (Gen " + ge + ")", m.ref("Link Speed Active (Enabled)")));
            if (m.ref("Link Width Active (Enabled)") != null)
                ev.add(Evidence.of("Link Width Active (Enabled): " + wa + "X (" + we + "X)", m.ref("Link Width Active (Enabled)")));
            c.problem(Status.FAIL, List.of(h.host()), ev, h.host() + ": HCA PCIe at Gen" + ga + " x" + wa + ", capable of Gen" + ge + " x" + we, "", v);
        }
        if (checked == 0) c.skip("no PCIe link state in the mlxlink --port_type PCIE outputs");
        else if (bad == 0) c.pass(checked + " HCA(s) run PCIe at their enabled generation and width", List.of(), List.of());
    }
}
