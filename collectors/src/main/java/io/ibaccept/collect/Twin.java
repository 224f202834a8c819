package io.ibaccept.collect;

import io.ibaccept.dump.CommandResult;
import io.ibaccept.model.ClusterData;
import io.ibaccept.model.ForwardingTables;
import io.ibaccept.model.Lft;
import io.ibaccept.model.LinkSpeed;
import io.ibaccept.model.SmConfig;
import io.ibaccept.model.Topology;
import io.ibaccept.parse.IbrouteParser;
import io.ibaccept.parse.Issues;
import io.ibaccept.parse.Text;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The fabric's twin: ibsim running the topology of a dump as built (its switches and port numbers, hosts as CAs, the
 * widths and speeds the links trained at, the same node GUIDs and LIDs) and the real opensm with the dump's own
 * settings that decide routing. Switch GUIDs are the fabric's; a CA keeps its node GUID and ibsim numbers its ports
 * from it, so CA port GUIDs are translated both ways ({@link #twinPort}, {@link #toDump}).
 */
public final class Twin {
    /** opensm.conf keys whose values decide the routes (copied from the dump's SM configuration into the twin's). */
    static final List<String> ROUTING_KEYS = List.of("routing_engine", "lmc", "lmc_esp0", "max_op_vls", "avoid_throttled_links",
            "connect_roots", "port_shifting", "scatter_ports", "max_reverse_hops", "guid_routing_order_no_scatter", "qos",
            "qos_max_vls", "qos_high_limit", "qos_vlarb_high", "qos_vlarb_low", "qos_sl2vl", "qos_ca_max_vls", "qos_ca_high_limit",
            "qos_ca_vlarb_high", "qos_ca_vlarb_low", "qos_ca_sl2vl", "qos_sw0_max_vls", "qos_sw0_high_limit", "qos_sw0_vlarb_high",
            "qos_sw0_vlarb_low", "qos_sw0_sl2vl", "qos_swe_max_vls", "qos_swe_high_limit", "qos_swe_vlarb_high", "qos_swe_vlarb_low",
            "qos_swe_sl2vl", "port_profile_switch_nodes", "no_fallback_routing_engine");
    /** Routing files opensm.conf may name: the twin needs their content, which the dump does not carry. */
    static final List<String> ROUTING_FILES = List.of("root_guid_file", "cn_guid_file", "io_guid_file", "ids_guid_file",
            "guid_routing_order_file", "port_prof_ignore_file", "hop_weights_file", "port_search_ordering_file", "torus_config",
            "qos_policy_file");

    final Topology topology;
    final String netfile;
    /** dump CA port GUID to the twin's */
    final Map<Long, Long> twinPort = new HashMap<>();
    /** the twin's CA port GUID to the dump's */
    final Map<Long, Long> toDump = new HashMap<>();
    /** the LID of each twin port GUID (switches: node GUID), as the dump has it */
    final Map<Long, Integer> lids = new LinkedHashMap<>();
    /** node GUID to the ibsim node id */
    final Map<Long, String> ids = new HashMap<>();
    /** what the twin's opensm.conf takes from the dump (key, value), and the routing files named but not in the dump */
    final Map<String, String> settings = new LinkedHashMap<>();
    final List<String> missingFiles = new ArrayList<>();
    /** the routing files the dump holds, by opensm.conf key */
    final Map<String, String> files = new LinkedHashMap<>();
    final String smSource;

    private Twin(Topology t, ClusterData d) {
        this.topology = t;
        SmConfig sm = masterConfig(d);
        this.smSource = sm == null ? "" : sm.host();
        if (sm != null) {
            for (String k : ROUTING_KEYS) sm.option(k).map(SmConfig.Option::value).filter(v -> !v.isBlank() && !v.equals("(null)"))
                    .ifPresent(v -> settings.put(k, v));
            String engine = settings.getOrDefault("routing_engine", "");
            boolean qos = settings.getOrDefault("qos", "FALSE").equalsIgnoreCase("TRUE");
            for (String k : ROUTING_FILES) {
                // opensm -c writes these two with a default path; they matter only to their engine, or with QoS on
                if (k.equals("torus_config") && !engine.contains("torus") || k.equals("qos_policy_file") && !qos) continue;
                String v = sm.option(k).map(SmConfig.Option::value).filter(x -> !x.isBlank() && !x.equals("(null)")).orElse(null);
                if (v == null) continue;
                SmConfig.RoutingFile f = sm.routingFiles() == null ? null : sm.routingFiles().files().get(k);
                if (f != null && f.text() != null) files.put(k, f.text());
                else missingFiles.add(k + " " + v);
            }
        }
        this.netfile = netfile(t);
    }

    /** The twin of a dump's fabric: its ibnetdiscover topology (else ibdiagnet's copy) and its SM's routing settings. */
    public static Twin of(ClusterData d) {
        Topology t = d.fabric() == null ? null : d.fabric().anyTopology();
        if (t == null || t.switches().isEmpty()) throw new IllegalArgumentException("the dump has no topology with switches (fabric/ibnetdiscover.out): nothing to build a twin of");
        return new Twin(t, d);
    }

    /** The SM configuration the fabric runs with: a node whose opensm runs, else any with an opensm.conf. */
    private static SmConfig masterConfig(ClusterData d) {
        SmConfig any = null;
        for (SmConfig c : d.fabric().smConfigs().values()) {
            if (c.conf() == null && c.process() == null) continue;
            if (c.process() != null && c.process().running()) return c;
            if (any == null) any = c;
        }
        return any;
    }

    public String netfile() {
        return netfile;
    }

    public String engine() {
        return settings.getOrDefault("routing_engine", "minhop (opensm's default)");
    }

    private String netfile(Topology t) {
        Map<Long, Topology.Node> byGuid = t.byGuid();
        for (Topology.Node n : t.nodes()) ids.put(n.guid(), (n.type() == Topology.NodeType.SWITCH ? "S-" : "H-") + String.format("%016x", n.guid()));
        StringBuilder sb = new StringBuilder("# twin of the fabric as built, written by 'ibaccept resilience' from the dump's topology\n");
        // every width and speed the Debian ibsim knows (up to HDR) enabled; each port line's comment gives the rate it trained at
        sb.append("width=31\nspeed=7\nextspeed=7\n\n");
        for (Topology.Node n : t.nodes()) {
            if (n.type() == Topology.NodeType.SWITCH) {
                sb.append(String.format("switchguid=0x%016x%n", n.guid()));
                sb.append("Switch\t").append(n.numPorts()).append(" \"").append(ids.get(n.guid())).append("\"\t# \"").append(desc(n.description()))
                        .append("\" enhanced port 0 lid ").append(n.lid()).append(" lmc 0\n");
                if (n.lid() > 0) lids.put(n.guid(), n.lid());
            } else {
                sb.append(String.format("%s=0x%016x%n", n.type() == Topology.NodeType.ROUTER ? "rtguid" : "caguid", n.guid()));
                sb.append(n.type() == Topology.NodeType.ROUTER ? "Rt\t" : "Ca\t").append(Math.max(1, n.numPorts())).append(" \"")
                        .append(ids.get(n.guid())).append("\"\t# \"").append(desc(n.description())).append("\"\n");
            }
            for (Topology.Port p : n.ports()) {
                String remote = ids.get(p.remoteGuid());
                Topology.Node r = byGuid.get(p.remoteGuid());
                if (remote == null || r == null) continue;
                sb.append('[').append(p.port()).append("]\t\"").append(remote).append("\"[").append(p.remotePort()).append("]\t# ");
                if (n.type() != Topology.NodeType.SWITCH) {
                    long twin = n.guid() + p.port();
                    if (p.portGuid() != 0) {
                        twinPort.put(p.portGuid(), twin);
                        toDump.put(twin, p.portGuid());
                    }
                    if (p.lid() > 0) lids.put(twin, p.lid());
                    sb.append("lid ").append(p.lid()).append(" lmc 0 ");
                }
                sb.append('"').append(desc(p.remoteDescription().isEmpty() ? r.description() : p.remoteDescription())).append('"');
                String rate = rate(p);
                if (rate != null) sb.append(" lid ").append(Math.max(1, p.remoteLid())).append(' ').append(rate);
                sb.append('\n');
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** "4xHDR": the width and speed as ibnetdiscover prints them, which ibsim's netfile reads; null when not known. */
    private static String rate(Topology.Port p) {
        if (p.width() == null || p.speed() == null || p.speed() == LinkSpeed.XDR) return null;
        return p.width().lanes() + "x" + p.speed().name();
    }

    /** A node description as a netfile comment can hold it (ibsim keeps 64 bytes; quotes end the field). */
    private static String desc(String s) {
        String d = s.replace('"', '\'').replace('\n', ' ');
        return d.length() > 63 ? d.substring(0, 63) : d;
    }

    int lmc() {
        try {
            return Math.max(0, Math.min(7, Integer.parseInt(settings.getOrDefault("lmc", "0").trim())));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** opensm's guid2lid file: each port keeps the LID it has in the dump (opensm reads it at start, reassign_lids off). */
    String guid2lid() {
        StringBuilder sb = new StringBuilder();
        int span = 1 << lmc();
        for (Map.Entry<Long, Integer> e : lids.entrySet())
            sb.append(String.format("0x%016x %d %d%n", e.getKey(), e.getValue(), e.getValue() + (ids.containsKey(e.getKey()) && ids.get(e.getKey()).startsWith("S-") ? 0 : span - 1)));
        return sb.toString();
    }

    /**
     * The twin's opensm.conf: opensm's defaults ('opensm -c'), the dump's routing settings and its routing files (written
     * into dir, CA port GUIDs as the twin numbers them), a log flushed as it goes.
     */
    String conf(String defaults, Path dir) {
        Map<String, String> set = new LinkedHashMap<>(settings);
        for (Map.Entry<String, String> f : files.entrySet()) {
            Path p = dir.resolve(f.getKey());
            write(p, translate(f.getValue()));
            set.put(f.getKey(), p.toString());
        }
        set.put("force_log_flush", "TRUE");
        // every sweep routes again: the cache would keep routes of a link that is gone
        set.put("use_ucast_cache", "FALSE");
        set.put("reassign_lids", "FALSE");
        StringBuilder sb = new StringBuilder();
        Set<String> done = new java.util.HashSet<>();
        for (String line : defaults.split("\n", -1)) {
            String[] kv = line.trim().split("\\s+", 2);
            if (!line.startsWith("#") && kv.length >= 1 && set.containsKey(kv[0])) {
                sb.append(kv[0]).append(' ').append(set.get(kv[0])).append('\n');
                done.add(kv[0]);
            } else sb.append(line).append('\n');
        }
        for (Map.Entry<String, String> e : set.entrySet()) if (!done.contains(e.getKey())) sb.append(e.getKey()).append(' ').append(e.getValue()).append('\n');
        return sb.toString();
    }

    private static final java.util.regex.Pattern GUID = java.util.regex.Pattern.compile("0x[0-9a-fA-F]{1,16}\\b");

    /** A routing file with each CA port GUID of the dump replaced by the twin's (switch GUIDs are the same). */
    String translate(String text) {
        java.util.regex.Matcher m = GUID.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            Long t = twinPort.get(Long.parseUnsignedLong(m.group().substring(2), 16));
            m.appendReplacement(sb, t == null ? m.group() : String.format("0x%016x", t));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    /** A CA to run opensm and the tools at: one on the switch with the most switch-to-switch cables, not on avoid. */
    String smHost(Set<Long> avoidSwitches) {
        Map<Long, Topology.Node> byGuid = topology.byGuid();
        String best = null;
        long most = -1;
        for (Topology.Node sw : topology.switches()) {
            if (avoidSwitches.contains(sw.guid())) continue;
            long isls = sw.ports().stream().filter(p -> byGuid.containsKey(p.remoteGuid()) && byGuid.get(p.remoteGuid()).type() == Topology.NodeType.SWITCH).count();
            for (Topology.Port p : sw.ports()) {
                Topology.Node r = byGuid.get(p.remoteGuid());
                if (r != null && r.type() == Topology.NodeType.CA && isls > most) {
                    most = isls;
                    best = ids.get(r.guid()).substring(2);
                }
            }
        }
        if (best == null) throw new IllegalStateException("no CA on a switch of the fabric to run the twin's opensm at");
        return best;
    }

    /** The switch a twin host (ibsim id without "H-") hangs on. */
    long switchOf(String host) {
        long g = Long.parseUnsignedLong(host, 16);
        for (Topology.Node n : topology.nodes())
            if (n.guid() == g) for (Topology.Port p : n.ports()) return p.remoteGuid();
        return 0;
    }

    /** The twin's tables as the dump's: CA destinations named by the dump's port GUIDs. */
    ForwardingTables toDump(ForwardingTables t) {
        Map<Integer, ForwardingTables.Destination> d = new HashMap<>();
        for (ForwardingTables.Destination x : t.destinations().values())
            d.put(x.lid(), x.isSwitch() ? x : new ForwardingTables.Destination(x.lid(), x.type(), toDump.getOrDefault(x.portGuid(), x.portGuid()), x.description()));
        return new ForwardingTables(t.switches(), d);
    }

    /**
     * How the twin's tables differ from the dump's: by switch GUID, and each destination by its port (the LIDs may
     * differ when the dump's were not kept). Empty when they are the same.
     */
    static List<String> differences(ForwardingTables dump, ForwardingTables twin, int max) {
        List<String> out = new ArrayList<>();
        Map<Long, Lft> t = new HashMap<>();
        for (Lft l : twin.switches()) t.put(l.switchGuid(), l);
        Map<Long, Integer> twinLidOf = new HashMap<>();
        for (ForwardingTables.Destination x : twin.destinations().values()) twinLidOf.merge(x.portGuid(), x.lid(), Math::min);
        Map<Long, Integer> baseOf = new HashMap<>();
        for (ForwardingTables.Destination x : dump.destinations().values()) baseOf.merge(x.portGuid(), x.lid(), Math::min);
        int entries = 0, switches = 0;
        for (Lft a : dump.switches()) {
            Lft b = t.get(a.switchGuid());
            if (b == null) {
                out.add(a.switchName() + " has no table in the twin");
                continue;
            }
            int[] diff = {0};
            a.lids().forEach(lid -> {
                ForwardingTables.Destination x = dump.destinations().get(lid);
                if (x == null || x.isSwitch()) return;
                Integer tl = twinLidOf.get(x.portGuid());
                int base = baseOf.get(x.portGuid());
                int twinPort = tl == null ? -1 : b.port(tl + (lid - base));
                if (twinPort != a.port(lid)) {
                    if (diff[0]++ < 2 && out.size() < max)
                        out.add(String.format(Locale.ROOT, "%s: %s (LID 0x%04x) out of port %d in the dump, %s in the twin", a.switchName(), x.description(),
                                lid, a.port(lid), twinPort < 0 ? "not routed" : "port " + twinPort));
                }
            });
            if (diff[0] > 0) {
                switches++;
                entries += diff[0];
            }
        }
        if (entries > 0) out.add(0, entries + " entries on " + switches + " switch(es) differ");
        return out;
    }

    /** The tables the twin's opensm wrote, read with dump_fts at the SM's host. */
    static ForwardingTables readTables(SimFabric f, String host) {
        ExecResult r = f.transport().run(host, "dump_fts", Duration.ofMinutes(10));
        if (!CommandResult.OK.equals(r.status()) || r.stdout().isBlank())
            throw new IllegalStateException("dump_fts on the twin failed (" + r.status() + "): " + r.stderr().strip());
        return IbrouteParser.fabric(new Text("dump_fts", r.stdout()), Issues.collecting());
    }

    static void write(Path p, String text) {
        try {
            Files.createDirectories(p.getParent());
            Files.writeString(p, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
