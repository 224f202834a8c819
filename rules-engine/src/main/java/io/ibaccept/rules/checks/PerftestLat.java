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

/** Typical RDMA latency against the maximum. */
final class PerftestLat implements Check {
    public String id() {
        return "perftest.lat";
    }

    public List<Input> inputs() {
        return List.of(Input.perftestResults());
    }

    public List<Setting> settings() {
        return List.of(Setting.number("max_usec", "3.0", "maximum typical latency in microseconds"));
    }

    public void evaluate(Ctx c) {
        double max = c.number("max_usec");
        int judged = 0, bad = 0;
        for (PerftestRun r : c.data.perftests()) {
            Perftest p = r.result();
            if (p == null || p.bandwidthTest()) continue;
            judged++;
            Perftest.Row row = p.largest();
            if (row.tTypical() <= max) continue;
            bad++;
            Map<String, Object> v = Map.of("test", r.test(), "client", r.client(), "server", r.server(),
                    "value", row.tTypical(), "max", max, "client_lid", c.index.lidOf(r.client()), "server_lid", c.index.lidOf(r.server()));
            c.problem(Status.FAIL, List.of(r.client(), r.server()),
                    List.of(Evidence.of(String.format(Locale.ROOT, "%d bytes: t_typical %.2f us, t_avg %.2f us, 99.9%% %.2f us", row.bytes(), row.tTypical(), row.tAvg(), row.p999()), row.ref())),
                    String.format(Locale.ROOT, "%s %s->%s: typical latency %.2f us > %.2f us", r.test(), r.client(), r.server(), row.tTypical(), max), "", v);
        }
        if (judged == 0) c.skip("no usable latency test results in the dump");
        else if (bad == 0) c.pass(judged + " latency test(s) at or below " + max + " us typical", List.of(), List.of());
    }
}
