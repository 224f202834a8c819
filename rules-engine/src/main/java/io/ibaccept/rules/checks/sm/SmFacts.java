package io.ibaccept.rules.checks.sm;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.HostData;
import io.ibaccept.model.Ibstat;
import io.ibaccept.model.SmConfig;
import io.ibaccept.model.SmInfo;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What the SM configuration checks share: the SM nodes' files, effective options, the live master. */
public final class SmFacts {
    private SmFacts() {}

    /** Root-cause keys shared with the live checks (a config fault is the root, what the fabric shows lies under it). */
    public static final String PRIORITY_EQUAL = "sm:priority-equal";
    public static final String DEFAULT_LIMITED = "pkey:default-limited";

    public static String limitedKey(int partition) {
        return String.format("pkey:limited:0x%04x", partition);
    }

    public static String mtuKey(int partition) {
        return String.format("mtu:partition:0x%04x", partition);
    }

    /** Root-cause keys of sm.failover: a designated SM node without a running opensm, a standby that took over. */
    public static String downKey(String host) {
        return "sm:down:" + host;
    }

    /** Root-cause key of an SM that runs without a partitions.conf (sm.config.consistency): the partitions it drops. */
    public static String defaultsKey(String host) {
        return "sm:defaults:" + host;
    }

    /** Root-cause key of a master SM on a node not meant to run one (sm.count): what its own configuration does lies under it. */
    public static String rogueKey(String host) {
        return "sm:rogue:" + host;
    }

    public static String takeoverKey(String host) {
        return "sm:takeover:" + host;
    }

    /** Root-cause key of a split brain whose SMs ignore each other (sm_key differs or ignore_other_sm). */
    public static final String SPLIT = "sm:split";

    /**
     * The nodes meant to run the SM and how that is known: declared (the contract's sm: or sm.count.designated), named
     * with 'collect --sm-nodes', or only inferred from the collected SM nodes that have an opensm.conf (a guess: a
     * finding resting on it is a WARN to confirm, never a FAIL).
     */
    public record Designated(List<String> hosts, How how) {
        public boolean contains(String host) {
            return hosts.contains(host);
        }
    }

    public enum How {
        DECLARED("declared"), NAMED("named with collect --sm-nodes"), INFERRED("inferred: the collected SM nodes with an opensm.conf"), NONE("none");

        public final String text;

        How(String text) {
            this.text = text;
        }
    }

    public static Designated designated(Ctx c) {
        List<String> declared = c.listOf("sm.count", "designated");
        if (!declared.isEmpty()) return new Designated(declared, How.DECLARED);
        List<String> named = c.data.manifest().smNodes();
        if (!named.isEmpty()) return new Designated(named, How.NAMED);
        List<String> withConf = configs(c).values().stream().filter(s -> s.conf() != null).map(SmConfig::host).toList();
        return new Designated(withConf, withConf.isEmpty() ? How.NONE : How.INFERRED);
    }

    public static String syntaxKey(String host) {
        return "partitions:syntax:" + host;
    }

    /** Any of the SM node's files: the process record or opensm.conf. */
    static Input config() {
        return Input.of(Cmd.OPENSM_PROCESS, Cmd.OPENSM_CONF);
    }

    public static Map<String, SmConfig> configs(Ctx c) {
        return c.data.fabric().smConfigs();
    }

    /** sminfo (else ibdiagnet2.sm) deduplicated per LID (the local SM and the SA-listed ones may be the same). */
    static List<SmInfo> liveSms(Ctx c) {
        if (c.data.fabric().smsOrIbdiagnet() == null) return List.of();
        Map<Integer, SmInfo> byLid = new LinkedHashMap<>();
        for (SmInfo s : c.data.fabric().smsOrIbdiagnet()) byLid.putIfAbsent(s.lid(), s);
        return new ArrayList<>(byLid.values());
    }

    /** The host holding the SM port (first word of a node description where ibstat does not know it, as for SM-only nodes). */
    static String host(Ctx c, SmInfo s) {
        String w = c.index.whoIs(s.guid(), s.lid());
        String first = io.ibaccept.fabric.Fabric.hostPart(w);
        // an SM node named with --sm-nodes need not be a collected host: its SM files name it
        return c.index.isHost(first) || configs(c).containsKey(first) ? first : w;
    }

    /**
     * The SM LID each port with its physical link up carries (ibstat "SM lid", else smpquery portinfo SMLid): where the
     * ports think the master is. bySmLid maps that LID to the ports' evidence, linkUp counts the ports read.
     */
    public record PortSmLids(Map<Integer, List<Evidence>> bySmLid, int linkUp) {
        /** The LID most ports carry, 0 when no port was read. */
        public int common() {
            return bySmLid.entrySet().stream().max(Map.Entry.comparingByValue((a, b) -> Integer.compare(a.size(), b.size())))
                    .map(Map.Entry::getKey).orElse(0);
        }

        public int carrying(int lid) {
            return bySmLid.getOrDefault(lid, List.of()).size();
        }
    }

    public static PortSmLids portSmLids(Ctx c) {
        Map<Integer, List<Evidence>> pointedBy = new java.util.TreeMap<>();
        int linkUp = 0;
        for (HostData h : c.data.hosts().values()) {
            if (h.ibstat() != null) {
                for (Ibstat.Ca ca : h.ibstat())
                    for (Ibstat.Port p : ca.ports()) {
                        if (!p.physicalState().equalsIgnoreCase("LinkUp")) continue;
                        linkUp++;
                        pointedBy.computeIfAbsent(p.smLid(), k -> new ArrayList<>())
                                .add(Evidence.of(h.host() + " " + ca.name() + " port " + p.number() + ": SM lid " + p.smLid() + ", State " + p.state(), p.ref()));
                    }
            } else if (h.portInfo() != null && h.portInfo().smLid() >= 0 && "LinkUp".equalsIgnoreCase(h.portInfo().physLinkState())) {
                linkUp++;
                pointedBy.computeIfAbsent(h.portInfo().smLid(), k -> new ArrayList<>())
                        .add(Evidence.of(h.host() + ": SMLid " + h.portInfo().smLid() + ", LinkState " + h.portInfo().linkState(), h.portInfo().ref()));
            }
        }
        return new PortSmLids(pointedBy, linkUp);
    }

    /** The SM that was master before the live one, how the dump shows it, and the lines that show it. */
    public record Former(String host, String how, List<Evidence> evidence) {}

    /**
     * The master before the live one, where the dump records a change of master: an SM node whose opensm.log shows it
     * MASTER, then handing over (STANDBY) or exiting; ibdiagnet2.sm's master (another moment of the same fabric); or
     * the SM LID the hosts' ports still carry (the new master had not rewritten them when they were read).
     */
    public static Optional<Former> formerMaster(Ctx c, SmInfo master) {
        String now = host(c, master);
        for (SmConfig s : configs(c).values()) {
            if (s.host().equals(now) || s.log() == null) continue;
            SmConfig.LogEvent wasMaster = null, after = null;
            for (SmConfig.LogEvent e : s.log().events()) {
                if (e.kind().equals("master")) {
                    wasMaster = e;
                    after = null;
                } else if (wasMaster != null && (e.kind().equals("standby") || e.kind().equals("exit"))) after = e;
            }
            if (wasMaster != null && after != null)
                return Optional.of(new Former(s.host(), "its opensm.log: MASTER, then '" + after.message() + "'",
                        List.of(Evidence.of(s.host() + " opensm.log: " + wasMaster.message(), wasMaster.ref()),
                                Evidence.of(s.host() + " opensm.log: " + after.message(), after.ref()))));
        }
        var fd = c.data.fabric();
        if (fd.sms() != null && !fd.sms().isEmpty() && fd.diagSms() != null)
            for (var d : fd.diagSms())
                if (d.isMaster() && d.guid() != master.guid()) {
                    String who = host(c, new SmInfo(d.lid(), d.guid(), -1, d.priority(), 3, "SMINFO_MASTER", d.ref()));
                    if (!who.equals(now))
                        return Optional.of(new Former(who, "ibdiagnet2.sm names it master", List.of(Evidence.of(String.format(
                                "ibdiagnet2.sm: master lid %d guid 0x%016x priority %d (%s)", d.lid(), d.guid(), d.priority(), who), d.ref()))));
                }
        PortSmLids ports = portSmLids(c);
        int old = ports.common();
        // only the LID of an SM the dump knows (sminfo, ibdiagnet2.sm, an SM node): a port read at another moment
        // could carry anything
        Optional<SmInfo> listed = liveSms(c).stream().filter(x -> x.lid() == old).findFirst();
        String who = host(c, listed.orElse(new SmInfo(old, 0, -1, 0, 0, "", null)));
        if (old > 0 && old != master.lid() && (listed.isPresent() || configs(c).containsKey(who))) {
            List<Evidence> ev = ports.bySmLid().get(old).stream().limit(3).toList();
            return Optional.of(new Former(who, ports.carrying(old) + " of " + ports.linkUp() + " host ports still carry SM lid " + old, ev));
        }
        return Optional.empty();
    }

    static Optional<SmInfo> liveMaster(Ctx c) {
        List<SmInfo> masters = liveSms(c).stream().filter(SmInfo::isMaster).toList();
        return masters.size() == 1 ? Optional.of(masters.get(0)) : Optional.empty();
    }

    /**
     * The SM nodes whose options can be judged: a named SM node where no opensm runs and whose opensm.conf was not
     * found has unknown options (its -F file is only known from a running process), not opensm's defaults.
     */
    static Map<String, SmConfig> configured(Ctx c) {
        Map<String, SmConfig> out = new LinkedHashMap<>();
        configs(c).forEach((h, s) -> {
            if (s.conf() != null || s.process() == null || s.process().running()) out.put(h, s);
        });
        return out;
    }

    /** The SM whose partitions.conf the fabric runs with: the live master's, else the only one, else the first. */
    static Optional<SmConfig> governing(Ctx c) {
        Map<String, SmConfig> all = configs(c);
        Optional<SmInfo> m = liveMaster(c);
        if (m.isPresent() && all.containsKey(host(c, m.get()))) return Optional.of(all.get(host(c, m.get())));
        return all.values().stream().filter(s -> s.partitions() != null).findFirst();
    }

    /** Key of the finding that an SM's routing engine failed and opensm fell back (the routes' findings go under it). */
    public static final String ROUTING_FALLBACK = "sm:routing-fallback";

    /**
     * An SM node's routing engine: configured is the first engine of routing_engine ("minhop" when unset), ran the one
     * opensm.log last reported as "... tables configured on all switches" (null when the log does not say), with the
     * option and log lines as evidence.
     */
    public record Engine(String host, String configured, boolean unset, String value, String ran, List<Evidence> evidence) {
        /** The engine the routes are from: what ran if logged, else what is configured. */
        public String effective() {
            return ran != null ? ran : configured;
        }

        public boolean fellBack() {
            return ran != null && !ran.equalsIgnoreCase(configured);
        }
    }

    /** The routing engine of every SM node whose options can be judged. */
    public static List<Engine> engines(Ctx c) {
        List<Engine> out = new ArrayList<>();
        for (SmConfig s : configured(c).values()) {
            String value = s.option("routing_engine").map(SmConfig.Option::value).orElse("(null)");
            boolean unset = value.isBlank() || value.equals("(null)");
            String first = unset ? "minhop" : value.split(",")[0].trim().toLowerCase(java.util.Locale.ROOT);
            List<Evidence> ev = new ArrayList<>(List.of(evidence(s, "routing_engine", "(null): minhop")));
            String ran = null;
            if (s.log() != null)
                for (SmConfig.LogEvent e : s.log().events())
                    if (e.kind().equals("routing") || e.kind().equals("routing-failed")) {
                        if (e.kind().equals("routing")) ran = e.message().substring(e.message().indexOf(':') + 1).trim().split("\\s+")[0];
                        ev.add(Evidence.of(s.host() + " opensm.log: " + e.message(), e.ref()));
                    }
            out.add(new Engine(s.host(), first, unset, value, ran, ev));
        }
        return out;
    }

    /**
     * What a routing engine that puts routes on several SLs (dfsssp, lash, nue) logged in its last run: the layers it
     * needed to break the credit loops of its routes, the VLs available (dfsssp), and the SLs of each layer. dfsssp
     * spreads its layers over every available VL (a layer with many paths over several SLs, as its balancing does;
     * exact when its "Paths per VL (before balancing)" lines are in the log, else each SL is taken for a layer of its
     * own); lash puts layer i on SL lash_start_vl + i.
     */
    public record Layers(int needed, int available, List<List<Integer>> sls, boolean exact, List<Evidence> evidence) {
        /** Every SL the routes use. */
        public List<Integer> all() {
            return sls.stream().flatMap(List::stream).toList();
        }
    }

    /** The layers the engine that routed the fabric logged in the run that configured the switches, if its opensm.log says. */
    public static Optional<Layers> layers(Ctx c, Engine e) {
        SmConfig s = configured(c).get(e.host());
        if (s == null || s.log() == null) return Optional.empty();
        List<SmConfig.LogEvent> ev = s.log().events();
        // the run that configured the switches: from after the routing before it to its "tables configured" line
        int last = -1, before = -1;
        for (int i = 0; i < ev.size(); i++)
            if (ev.get(i).kind().equals("routing")) {
                before = last;
                last = i;
            }
        List<SmConfig.LogEvent> run = last < 0 ? ev : ev.subList(before + 1, last);
        SmConfig.LogEvent needed = null, available = null;
        List<Long> paths = new ArrayList<>();
        boolean inPaths = false;
        for (SmConfig.LogEvent x : run) {
            switch (x.kind()) {
                case "vl-needed" -> needed = x;
                case "vl-available" -> available = x;
                case "vl-paths-before" -> {
                    inPaths = true;
                    paths.clear();
                }
                case "vl-lane" -> {
                    if (inPaths) paths.add(lanePaths(x.message()));
                }
                default -> inPaths = false;
            }
        }
        if (needed == null) return Optional.empty();
        int n = loggedCount(needed.message()), a = available == null ? 0 : loggedCount(available.message());
        if (n < 0) return Optional.empty();
        List<Evidence> out = new ArrayList<>();
        if (available != null) out.add(Evidence.of(s.host() + " opensm.log: " + available.message(), available.ref()));
        out.add(Evidence.of(s.host() + " opensm.log: " + needed.message(), needed.ref()));
        List<List<Integer>> sls = new ArrayList<>();
        boolean exact = true;
        if (e.effective().equalsIgnoreCase("lash")) {
            int first = s.option("lash_start_vl").map(o -> parseInt(o.value(), 0)).orElse(0);
            for (int i = 0; i < n && first + i < 16; i++) sls.add(List.of(first + i));
        } else if (a > n && paths.size() >= n && paths.subList(0, n).stream().allMatch(p -> p >= 0)) {
            int[] split = split(paths.subList(0, n), a);
            for (int layer = 0, sl = 0; layer < n; sl += split[layer++]) {
                List<Integer> mine = new ArrayList<>();
                for (int k = 0; k < split[layer] && sl + k < 16; k++) mine.add(sl + k);
                sls.add(mine);
            }
        } else {
            exact = a <= n;
            for (int sl = 0; sl < Math.max(n, a) && sl < 16; sl++) sls.add(List.of(sl));
        }
        return Optional.of(new Layers(n, Math.max(a, 0), sls, exact, out));
    }

    /**
     * How many SLs each layer gets when dfsssp spreads needed layers over available VLs (osm_ucast_dfsssp.c,
     * dfsssp_remove_deadlocks): each free VL goes to the layer with the most paths per SL so far.
     */
    static int[] split(List<Long> paths, int available) {
        int n = paths.size();
        int[] split = new int[n];
        java.util.Arrays.fill(split, 1);
        for (int i = n; i < available; i++) {
            int vl = 0;
            double most = 0;
            for (int t = 0; t < n; t++)
                if (most < (double) paths.get(t) / split[t]) {
                    vl = t;
                    most = (double) paths.get(t) / split[t];
                }
            split[vl]++;
        }
        return split;
    }

    private static final java.util.regex.Pattern LANE = java.util.regex.Pattern.compile("lane: (\\d{1,18})\\s*$"),
            COUNT = java.util.regex.Pattern.compile("(?:needed: |available: |nue_max_num_vls )(\\d{1,2})\\b");

    // "   1. lane: 4"
    private static long lanePaths(String message) {
        java.util.regex.Matcher m = LANE.matcher(message);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    // "Virtual Lanes needed: 2", "Lanes needed: 3, Balancing", "... using nue_max_num_vls 1"
    private static int loggedCount(String message) {
        java.util.regex.Matcher m = COUNT.matcher(message);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    /** The engine the fabric's routes come from: the live master's SM node's, else the only SM node's; empty if unknown. */
    public static Optional<Engine> routingEngine(Ctx c) {
        List<Engine> all = engines(c);
        Optional<SmInfo> m = liveMaster(c);
        if (m.isPresent()) {
            String h = host(c, m.get());
            for (Engine e : all) if (e.host().equals(h)) return Optional.of(e);
        }
        return all.size() == 1 ? Optional.of(all.get(0)) : Optional.empty();
    }

    /** A running opensm that found no option file (none given with -F, none at the default paths): it runs on its defaults. */
    public static boolean withoutConfigFile(SmConfig s) {
        return s.conf() == null && s.process() != null && s.process().running() && s.process().configFile().isBlank();
    }

    /**
     * A running opensm whose partitions file was not there: the collector records nothing for a file that is not
     * present, and it read the process record in the same run.
     */
    public static boolean withoutPartitionsFile(SmConfig s) {
        return s.partitions() == null && s.process() != null && s.process().running();
    }

    /** ignore_other_sm TRUE, where set: this opensm neither hands over nor stands by. */
    public static Optional<SmConfig.Option> ignoresOtherSms(SmConfig s) {
        return s.option("ignore_other_sm").filter(o -> o.value().trim().equalsIgnoreCase("TRUE"));
    }

    /** The log lines where this opensm met an SM with another sm_key (ERR 2F18): the two ignore each other. */
    public static List<SmConfig.LogEvent> smkeyMismatches(SmConfig s) {
        return s.log() == null ? List.of() : s.log().events().stream().filter(e -> e.kind().equals("smkey-mismatch")).toList();
    }

    /** opensm's sm_priority: the command line's -p, else opensm.conf, else 0 (opensm's default). */
    static int priority(SmConfig s) {
        return s.option("sm_priority").map(o -> parseInt(o.value(), 0)).orElse(0);
    }

    /** Keys whose values are secrets: the report says whether they are set, never what they are. */
    private static final java.util.Set<String> SECRETS = java.util.Set.of("sm_key", "sa_key", "m_key", "cc_key");

    static Evidence evidence(SmConfig s, String key, String dflt) {
        Optional<SmConfig.Option> o = s.option(key);
        return o.map(x -> Evidence.of(s.host() + ": " + key + " " + (SECRETS.contains(key) ? secret(x.value()) : x.value()), x.ref()))
                .orElseGet(() -> Evidence.of(s.host() + ": " + key + " not set (opensm default " + dflt + ")",
                        s.conf() != null ? s.conf().file() : Cmd.OPENSM_PROCESS.path(s.host())));
    }

    /** opensm's defaults (0x0, 0x1) shown as they are; any other key as "set". */
    static String secret(String v) {
        String t = v.trim().toLowerCase(java.util.Locale.ROOT);
        return t.matches("0x0*[01]") || t.equals("0") || t.equals("1") ? v.trim() + " (opensm default)" : "set (value not shown)";
    }

    static int parseInt(String v, int dflt) {
        try {
            String t = v.trim();
            return t.startsWith("0x") ? Integer.parseInt(t.substring(2), 16) : Integer.parseInt(t);
        } catch (NumberFormatException e) {
            return dflt;
        }
    }

    /**
     * Whether a limited membership of partition is declared, for every host given: the contract lists the partition as
     * limited with those hosts, or the partitions.conf the fabric runs with writes each of them limited on purpose
     * ('=limited', or the partition's defmember=limited). A partition whose members are such a declared subset is a
     * design (storage clients that reach only the servers), not the default-membership pitfall.
     */
    public static boolean limitedByDesign(Ctx c, int partition, java.util.Collection<String> hosts) {
        if (hosts.isEmpty()) return false;
        if (c.contract().map(k -> k.partitions().stream().anyMatch(p -> p.pkey() == partition && "limited".equals(p.membership())
                && p.members().containsAll(hosts))).orElse(false)) return true;
        Optional<SmConfig> gov = governing(c);
        if (gov.isEmpty() || gov.get().partitions() == null) return false;
        Map<Long, String> guids = guidHosts(c);
        java.util.Set<String> declared = new java.util.HashSet<>();
        for (SmConfig.Partition p : gov.get().partitions().partitions()) {
            if (p.pkey() != partition) continue;
            for (SmConfig.Member m : p.members()) {
                boolean onPurpose = m.membership() == SmConfig.Membership.LIMITED && (m.flagWritten() || p.defmemberWritten());
                if (onPurpose && m.isGuid() && guids.get(m.guid()) != null) declared.add(guids.get(m.guid()));
            }
        }
        return declared.containsAll(hosts);
    }

    /** Port and node GUIDs of every host's CAs -> host (partitions list thousands of GUIDs: build it once per check). */
    static Map<Long, String> guidHosts(Ctx c) {
        Map<Long, String> m = new java.util.HashMap<>();
        for (HostData h : c.data.hosts().values())
            for (Ibstat.Ca ca : h.cas()) {
                m.putIfAbsent(ca.nodeGuid(), h.host());
                for (Ibstat.Port p : ca.ports()) m.putIfAbsent(p.portGuid(), h.host());
            }
        return m;
    }

    /** IB MTU code of partitions.conf (1..5) in bytes. */
    static int mtuBytes(int code) {
        return 128 << code;
    }
}
