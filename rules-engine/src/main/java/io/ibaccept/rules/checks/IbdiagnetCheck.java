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

    /** ibdiagnet's messages repeat what the checks find: never a root, listed under the root about the same thing. */
    public RootRole rootRole(io.ibaccept.rules.Finding f) {
        return null;
    }

    public java.util.Set<ExplainedBy> explainedBy(io.ibaccept.rules.Finding f) {
        return java.util.Set.of(ExplainedBy.PORT_DOWN, ExplainedBy.CABLE, ExplainedBy.SAME_OBJECT);
    }

    public Naming naming() {
        return Naming.TOOL_MESSAGES;
    }

    /** A stage's "Note: ..." line announces the messages of the stage that follow it. */
    public boolean announcesNext(io.ibaccept.rules.Finding f) {
        return STAGE_SUMMARY.matcher(f.summary()).find();
    }

    /**
     * A warning about whole nodes (the same message on every switch with the vendor's default description, an old
     * firmware, no answer to a vendor MAD): the message without the node it names and its numbers. Errors and
     * messages about ports stay apart (the pass leaves out findings with port or cable references): two cables are
     * two faults.
     */
    public String sameKind(io.ibaccept.rules.Finding f) {
        if (f.status() != io.ibaccept.rules.Status.WARN || announcesNext(f)) return null;
        String m = f.summary();
        int dash = m.indexOf(" - ");
        String t = dash > 0 && dash < 120 ? m.substring(dash + 3) : m;
        return t.replaceAll("0x[0-9a-fA-F]+|\\b[0-9a-fA-F]{16}\\b|\\d+", "#");
    }

    private static final java.util.regex.Pattern STAGE_SUMMARY = java.util.regex.Pattern.compile("(?i)\\bfinished with (\\d+ )?(errors|warnings)\\s*$|^Note: ");

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
