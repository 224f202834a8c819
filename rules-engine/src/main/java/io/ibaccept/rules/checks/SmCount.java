package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibdiagnet;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.InputProblem;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.Perftest;
import io.ibaccept.model.PerftestRun;
import io.ibaccept.model.SmInfo;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.FabricIndex;
import io.ibaccept.rules.Finding;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Exactly one master subnet manager. */
final class SmCount implements Check {
    public String id() {
        return "sm.count";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.SMINFO, Cmd.SAQUERY_SM, Cmd.IBSTAT));
    }

    public void evaluate(Ctx c) {
        List<SmInfo> sms = c.data.fabric().sms();
        List<InputProblem> smProblems = c.data.problemsFor(null, Cmd.SMINFO.fileName());
        // Hosts whose ports say "SM lid: 0" corroborate "no SM"
        List<Evidence> noSmLid = new ArrayList<>();
        int activeOrInit = 0;
        for (HostData h : c.data.hosts().values())
            if (h.ibstat() != null)
                for (Ibstat.Ca ca : h.ibstat())
                    for (Ibstat.Port p : ca.ports()) {
                        if (!p.physicalState().equalsIgnoreCase("LinkUp")) continue;
                        activeOrInit++;
                        if (p.smLid() == 0 && noSmLid.size() < 5) noSmLid.add(Evidence.of(h.host() + " " + ca.name() + " port " + p.number() + ": SM lid 0, State " + p.state(), p.ref()));
                    }
        if (sms == null) {
            boolean failedQuery = smProblems.stream().anyMatch(p -> p.kind() == InputProblem.Kind.COMMAND_FAILED
                    || p.kind() == InputProblem.Kind.TIMEOUT);
            if (failedQuery && (!noSmLid.isEmpty() || activeOrInit == 0)) {
                List<Evidence> ev = new ArrayList<>();
                ev.add(Evidence.of(smProblems.get(0).message(), smProblems.get(0).where()));
                ev.addAll(noSmLid);
                c.problem(Status.FAIL, List.of("fabric"), ev, "no subnet manager answers (sminfo failed, ports report SM lid 0)", "none", Map.of());
            } else {
                c.skip("no usable sminfo output" + c.inputs(null, Cmd.SMINFO.fileName()));
            }
            return;
        }
        List<SmInfo> masters = sms.stream().filter(SmInfo::isMaster).toList();
        List<Evidence> ev = sms.stream().map(s -> Evidence.of(describe(s), s.ref())).collect(Collectors.toList());
        if (masters.isEmpty()) {
            ev.addAll(noSmLid);
            c.problem(Status.FAIL, List.of("fabric"), ev, "no master SM (" + sms.size() + " SM(s) answered, none MASTER)", "none", Map.of());
        } else if (masters.size() > 1) {
            c.problem(Status.FAIL, masters.stream().map(s -> "SM lid " + s.lid()).toList(), ev,
                    masters.size() + " SMs in MASTER state (split brain)", "many", Map.of("count", masters.size()));
        } else {
            c.pass("exactly one master SM: " + describe(masters.get(0)) + (sms.size() > 1 ? "; " + (sms.size() - 1) + " standby" : ""),
                    List.of("SM lid " + masters.get(0).lid()), ev);
        }
    }

    static String describe(SmInfo s) {
        return String.format("SM lid %d guid 0x%x priority %d %s", s.lid(), s.guid(), s.priority(), s.stateName());
    }
}
