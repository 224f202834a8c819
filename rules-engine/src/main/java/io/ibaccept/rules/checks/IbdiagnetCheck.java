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

/** Each ibdiagnet2 -E- / -W- message. */
final class IbdiagnetCheck implements Check {
    public String id() {
        return "ibdiagnet";
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBDIAGNET_LOG));
    }

    public void evaluate(Ctx c) {
        Ibdiagnet.Log log = c.data.fabric().diagLog();
        int n = 0;
        for (Ibdiagnet.Message m : log.messages()) {
            if (m.stageSummary()) continue; // "X finished with errors": its detail messages are the findings
            n++;
            Status st = m.level() == Ibdiagnet.Level.ERROR ? Status.FAIL : Status.WARN;
            c.problem(st, List.of("fabric"), List.of(Evidence.of((st == Status.FAIL ? "-E- " : "-W- ") + m.text(), m.ref())),
                    m.text(), "", Map.of("message", m.text(), "where", m.ref().toString()));
        }
        if (n == 0) c.pass("ibdiagnet2 " + log.version() + " reported no errors or warnings", List.of(), List.of());
    }
}
