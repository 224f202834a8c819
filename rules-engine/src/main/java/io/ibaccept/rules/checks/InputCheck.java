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

/** Every unusable input becomes a finding of its own, so the report says exactly what is missing where. */
final class InputCheck implements Check {
    public String id() {
        return "input";
    }

    /** An input problem is no root: a port down explains a query or test that needs the host's fabric port. */
    public RootRole rootRole(io.ibaccept.rules.Finding f) {
        return null;
    }

    public java.util.Set<ExplainedBy> explainedBy(io.ibaccept.rules.Finding f) {
        // the finding's summary starts with its command, as evaluate() writes it
        String command = f.summary().split(":", 2)[0];
        return FABRIC_PORT.matcher(command).lookingAt() ? java.util.Set.of(ExplainedBy.PORT_DOWN) : java.util.Set.of();
    }

    /** Commands that need the host's fabric port: MAD queries, fabric scans, RDMA and collective tests (ulimit or ofed_info do not). */
    private static final java.util.regex.Pattern FABRIC_PORT =
            java.util.regex.Pattern.compile("(smpquery|perfquery|saquery|sminfo|ibqueryerrors|iblinkinfo|ibnetdiscover|ibdiagnet|perftest|ib_|collective|osu_|nccl)");

    public List<Input> inputs() {
        return List.of();
    }

    public void evaluate(Ctx c) {
        // One finding per problem kind+command; hosts and locations listed
        Map<String, List<InputProblem>> groups = new LinkedHashMap<>();
        boolean noMaster = PortState.noMaster(c);
        for (InputProblem p : c.data.problems()) groups.computeIfAbsent(groupKey(p), k -> new ArrayList<>()).add(p);
        for (List<InputProblem> g : groups.values()) {
            InputProblem p = g.get(0);
            // a required input missing from the dump is damage (the verdict cannot be ACCEPTED without it); an optional
            // one not collected on purpose (mlxlink, ibdiagnet, ethtool, ibstatus, ...) or a tool not installed is not
            Status st = switch (p.kind()) {
                case TOOL_MISSING -> Status.SKIP;
                // without the manifest neither the nodes meant to be collected nor whether the collection finished are known
                case MISSING -> required(p.command()) || p.command().equals("manifest") ? Status.ERROR : Status.SKIP;
                default -> bestEffort(p.command()) ? Status.WARN : Status.ERROR;
            };
            // a MAD query that failed because the host's own port is down is a consequence, not an input error
            boolean downHost = st == Status.ERROR && p.command().startsWith("smpquery") && g.stream().allMatch(x -> portDown(c, x.host()));
            // a perftest pair with a host whose port is down cannot run: a consequence of that port
            List<String> downPeers = p.command().equals("perftest") ? g.stream().map(x -> downIn(c, x.file())).toList() : List.of();
            boolean downPair = !downPeers.isEmpty() && downPeers.stream().allMatch(x -> x != null);
            if (downPair) {
                downHost = true;
                st = Status.SKIP;
            }
            if (downHost) st = Status.SKIP;
            // without a master SM, SA/PMA queries fail or print nothing: a consequence of the SM finding
            // (an unreadable line is damage of its own, whatever the SM does)
            boolean noSm = !downHost && noMaster && needsSm(p.command()) && p.kind() != InputProblem.Kind.PARSE_ERROR;
            List<String> hosts = g.stream().map(x -> x.host() == null ? "fabric" : x.host()).distinct().toList();
            List<Evidence> ev = g.stream().limit(20).map(x -> Evidence.of(x.message(), x.where())).collect(Collectors.toList());
            if (g.size() > 20) ev.add(Evidence.of("... and " + (g.size() - 20) + " more", ""));
            String summary = p.where() + ": " + p.message() + (g.size() > 1 ? " (and " + (g.size() - 1) + " more like it)" : "")
                    + (downHost ? " - expected: the HCA port is down (see port.state)" : "")
                    + (noSm ? " - expected: no master subnet manager (see sm.count)" : "");
            Finding f = new Finding(id(), c.cfg.text(id(), "title"), st, hosts, ev, p.command() + ": " + summary,
                    c.cfg.fill(id(), "cause", Map.of("message", p.message())),
                    c.cfg.fill(id(), "fix", Map.of("command", p.command(), "host", String.join(",", hosts))));
            f = c.add(f);
            if (downPair) c.explainedBy(f, downPeers.stream().distinct().map(PortState::hostDown).toList());
            else if (downHost) c.explainedBy(f, hosts.stream().map(PortState::hostDown).toList());
            if (noSm) c.explainedBy(f, List.of(SmCount.NO_SM));
            // a check that judges what a failed run means (time.sync: chronyd not answering) covers these runs
            if (!downPair && !downHost && !noSm && p.kind() == InputProblem.Kind.COMMAND_FAILED)
                c.explainedBy(f, hosts.stream().map(h -> failedRun(p.command(), h)).toList());
        }
        if (groups.isEmpty()) c.pass("all " + c.data.commands().size() + " collected command outputs were read and parsed", List.of(), List.of());
    }

    /**
     * Problems alike but for their host or file (100,000 perftest .meta files without outputs) are one finding that
     * lists the first of them and counts the rest: the message is keyed with its host and its file's name left out.
     */
    static String groupKey(InputProblem p) {
        String message = p.message();
        String name = p.file().substring(p.file().lastIndexOf('/') + 1);
        int dot = name.indexOf('.');
        String stem = dot > 0 ? name.substring(0, dot) : name;
        if (stem.length() > 2) message = message.replace(stem, "FILE"); // before the host, which the file's name may hold
        if (p.host() != null && !p.host().isEmpty()) message = message.replace(p.host(), "HOST");
        return p.kind() + " " + p.command() + " " + message;
    }

    /** Root-cause key of a command that failed on a host ("fabric" for fabric-wide ones): a check that judges it covers it. */
    static String failedRun(String command, String host) {
        return "failed-run:" + command + ":" + host;
    }

    /** A host or SM configuration fact whose failure leaves it unverified (see Source.bestEffort). */
    static boolean bestEffort(String command) {
        return Cmd.named(command).map(cmd -> cmd.source().bestEffort()).orElse(false);
    }

    /** A dump command every collection gathers (its source not optional); perftest and unknown names are not. */
    static boolean required(String command) {
        return Cmd.named(command).map(cmd -> !cmd.source().optional()).orElse(false);
    }

    /** A command that needs a master SM to answer (LIDs, SA records, PMA queries by LID). */
    static boolean needsSm(String command) {
        return Cmd.named(command).map(cmd -> cmd.source().needsSm()).orElse(false);
    }

    /** The first host of a perftest file name (perftest/TEST__CLIENT__SERVER.client.out) whose ports are all down, or null. */
    static String downIn(Ctx c, String file) {
        String name = file.substring(file.lastIndexOf('/') + 1);
        String[] parts = name.split("__");
        if (parts.length < 3) return null;
        String server = parts[2].contains(".") ? parts[2].substring(0, parts[2].indexOf('.')) : parts[2];
        for (String h : new String[] {parts[1], server}) if (portDown(c, h)) return h;
        return null;
    }

    static boolean portDown(Ctx c, String host) {
        HostData h = host == null ? null : c.data.hosts().get(host);
        return h != null && h.ibstat() != null && h.ibstat().stream().allMatch(ca -> ca.ports().stream().noneMatch(Ibstat.Port::isActive));
    }
}
