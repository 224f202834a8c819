package io.ibaccept.rules.checks;

import io.ibaccept.dump.Cmd;
import io.ibaccept.model.LinkInfo;
import io.ibaccept.model.PortCounters;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.FabricIndex;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Setting;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Error counters per port (ibdiagnet2 PM_INFO / ibdiagnet2.pm, ibqueryerrors, perfquery; PM_DELTA) against thresholds. */
final class LinkErrors implements Check {
    public String id() {
        return "link.errors";
    }

    /**
     * Physical-layer counters (the check's default variant, and their history) are the cable's fault; congestion and
     * the rest are not roots.
     */
    public RootRole rootRole(io.ibaccept.rules.Finding f) {
        return f.variant().isEmpty() || f.variant().equals("history") ? RootRole.CABLE : null;
    }

    /** Error counters are the strongest evidence about a cable. */
    public int rootStrength() {
        return 0;
    }

    public List<Input> inputs() {
        return List.of(Input.of(Cmd.IBQUERYERRORS, Cmd.PERFQUERY, Cmd.IBDIAGNET_DB, Cmd.IBDIAGNET_PM));
    }

    public List<Setting> settings() {
        return List.of(Setting.number("link_downed_max", "0", "LinkDownedCounter above this fails"),
                Setting.number("link_recovery_max", "0", "LinkErrorRecoveryCounter above this fails"),
                Setting.number("symbol_warn", "10", "SymbolErrorCounter above this warns"),
                Setting.number("symbol_fail", "100", "SymbolErrorCounter above this fails"),
                Setting.number("other_warn", "0", "receive/discard/integrity/constraint errors above this warn"),
                Setting.number("xmit_wait_warn", "1000000", "PortXmitWait ticks (time the port had data but no credits to send) above this warn of congestion"));
    }

    /** Further counters that point at the cable (link-level integrity); the rest are judged by what they mean. */
    private static final List<String> CABLE_OTHER = List.of("PortRcvErrors", "LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors");

    /**
     * Every port's counters, one record per port: all sources merged per node GUID + port (ibdiagnet PM_INFO or
     * ibdiagnet2.pm, ibqueryerrors, perfquery; see FabricData#countersByPort), named from the fabric (a name shared by
     * several nodes, like switches left at their default description, gets the GUID). Records known by LID only
     * (perfquery) are kept when no GUID-keyed record covers that port.
     */
    static List<PortCounters> records(Ctx c) {
        List<PortCounters> out = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (PortCounters pc : c.data.fabric().countersByPort()) {
            if (pc.nodeGuid() != 0) {
                String name = c.index.nameOfGuid(pc.nodeGuid(), pc.nodeName());
                seen.add(name + ":" + pc.port());
                if (pc.lid() > 0) seen.add("lid" + pc.lid() + ":" + pc.port());
                out.add(new PortCounters(pc.nodeGuid(), name, pc.lid(), pc.port(), pc.counters(), pc.ref(), pc.portGuid()));
            }
        }
        for (PortCounters pc : c.data.fabric().countersByPort()) {
            if (pc.nodeGuid() != 0) continue;
            String name = pc.nodeName() != null && !pc.nodeName().isEmpty() && pc.lid() <= 0 ? pc.nodeName()
                    : c.index.nameOfLid(pc.lid()).orElse("lid " + pc.lid());
            if (seen.contains("lid" + pc.lid() + ":" + pc.port()) || !seen.add(name + ":" + pc.port())) continue;
            out.add(new PortCounters(0, name, pc.lid(), pc.port(), pc.counters(), pc.ref(), pc.portGuid()));
        }
        return out;
    }

    /** "Name=value", marked when a classic 8/16/32-bit counter sits at its maximum (the real count is higher). */
    private static String part(PortCounters pc, String name, long value) {
        return name + "=" + value + (pc.saturated(name) ? " (saturated: at least)" : "");
    }

    public void evaluate(Ctx c) {
        if (io.ibaccept.rules.counters.LinkErrorsWindow.judgesWindow(c.data)) {
            c.pass("the dump has a counter window: errors are judged on what changed during it (link.errors.window), not on the cumulative snapshot", List.of(), List.of());
            return;
        }
        List<PortCounters> recs = records(c);
        // PM_DELTA: what rose during ibdiagnet's two samples (--pm_pause_time): the error is happening now
        Map<PortCounters.Key, PortCounters> deltas = new java.util.HashMap<>();
        for (PortCounters d : c.data.fabric().ibdiagnetDeltas()) if (!d.nonZeroErrors().isEmpty()) deltas.put(d.key(), d);
        double downMax = c.number("link_downed_max"), recMax = c.number("link_recovery_max");
        double symWarn = c.number("symbol_warn"), symFail = c.number("symbol_fail"), otherWarn = c.number("other_warn");
        double waitWarn = c.number("xmit_wait_warn");
        // physical-layer counters point at the cable: one finding per cable, both ends named
        Map<Object, CableFault> cables = new LinkedHashMap<>();
        int bad = 0, congestionUnjudged = 0;
        Map<String, History> history = new java.util.TreeMap<>();
        for (PortCounters pc : recs) {
            long down = pc.get("LinkDownedCounter"), rec = pc.get("LinkErrorRecoveryCounter"), sym = pc.get("SymbolErrorCounter");
            String obj = pc.nodeName() + " port " + pc.port();
            Optional<FabricIndex.Link> link = c.index.linkAt(pc.nodeGuid(), pc.lid(), pc.nodeName(), pc.port())
                    .or(() -> pc.portGuid() != 0 ? c.index.linkAt(pc.portGuid(), 0, null, pc.port()) : Optional.empty());
            CableFault cf = new CableFault(link.orElse(null), obj);
            if (down > downMax) cf.add(Status.FAIL, part(pc, "LinkDownedCounter", down), "flapping (went down " + down + " times)");
            if (rec > recMax) cf.add(Status.FAIL, part(pc, "LinkErrorRecoveryCounter", rec), "retraining (" + rec + " error recoveries)");
            if (sym > symWarn) cf.add(sym > symFail ? Status.FAIL : Status.WARN, part(pc, "SymbolErrorCounter", sym), "seeing symbol errors");
            for (String o : CABLE_OTHER)
                if (pc.get(o) > otherWarn) cf.add(Status.WARN, part(pc, o, pc.get(o)), "dropping or corrupting packets");
            PortCounters delta = pc.nodeGuid() != 0 ? deltas.get(pc.key()) : null;
            if (rose(delta, "LinkDownedCounter", "LinkErrorRecoveryCounter", "SymbolErrorCounter", "PortRcvErrors", "LocalLinkIntegrityErrors",
                    "ExcessiveBufferOverrunErrors")) {
                // a rise during ibdiagnet's two samples is judged on its own: the cumulative counts are context only
                String before = String.join(" ", cf.parts);
                cf = new CableFault(link.orElse(null), obj);
                for (String o : List.of("LinkDownedCounter", "LinkErrorRecoveryCounter", "SymbolErrorCounter"))
                    if (delta.get(o) > 0) cf.add(Status.FAIL, o + " rose by " + delta.get(o) + " during ibdiagnet's sampling (PM_DELTA)", "still erring now");
                for (String o : CABLE_OTHER)
                    if (delta.get(o) > 0) cf.add(Status.WARN, o + " rose by " + delta.get(o) + " during ibdiagnet's sampling (PM_DELTA)", "dropping or corrupting packets now");
                if (!before.isEmpty()) cf.parts.add("(since an unknown time: " + before + ")");
                cf.rising = true;
            }
            if (cf.status != null) {
                cf.owner = owner(c, link.orElse(null), pc.nodeName());
                cf.score = Math.max(cf.score, score(pc));
                cf.ev.add(Evidence.of(obj + ": " + String.join(" ", cf.parts), pc.ref()));
                if (delta != null) cf.ev.add(Evidence.of(obj + " PM_DELTA: " + delta.nonZeroErrors(), delta.ref()));
                cf.ends.add(obj);
                cf.lid = pc.lid() > 0 ? String.valueOf(pc.lid()) : c.index.lidOfName(pc.nodeName()).map(String::valueOf).orElse("<lid>");
                cf.port = pc.port();
                cf.clear.add("'perfquery -R " + cf.lid + " " + pc.port() + "'");
                Object key = link.isPresent() ? link.get() : obj;
                cables.merge(key, cf, CableFault::merge);
            }
            // the other counters say something about traffic, not about this port's cable; without a known start they
            // are history, grouped per switch, and congestion is judged as a rate only
            String owner = owner(c, link.orElse(null), pc.nodeName());
            // congestion is judged as a rate only: what rose during ibdiagnet's sampling
            if (rose(delta, "PortXmitDiscards", "PortXmitWait")) bad += other(c, delta, obj, link, "congestion", Map.of("PortXmitDiscards", otherWarn, "PortXmitWait", waitWarn), true);
            else if (over(pc, Map.of("PortXmitDiscards", otherWarn, "PortXmitWait", waitWarn)) != null) congestionUnjudged++;
            for (String[] cls : new String[][] {{"upstream", "PortRcvRemotePhysicalErrors"}, {"constraint", "PortXmitConstraintErrors", "PortRcvConstraintErrors"},
                    {"relay", "PortRcvSwitchRelayErrors"}}) {
                Map<String, Double> max = new LinkedHashMap<>();
                for (int i = 1; i < cls.length; i++) max.put(cls[i], otherWarn);
                if (rose(delta, max.keySet().toArray(new String[0]))) bad += other(c, delta, obj, link, cls[0], max, true);
                else {
                    List<String> parts = over(pc, max);
                    if (parts != null) {
                        History h = history.computeIfAbsent(owner + "\u0000" + cls[0], k -> new History(owner, cls[0]));
                        h.add("", obj + ": " + String.join(", ", parts), score(pc), List.of(Evidence.of(obj + ": " + String.join(" ", parts), pc.ref())));
                        if (!h.objects.contains(obj)) h.objects.add(obj);
                    }
                }
            }
        }
        for (CableFault cf : cables.values()) {
            if (cf.rising) continue;
            History h = history.computeIfAbsent(cf.owner + "\u0000physical", k -> new History(cf.owner, "physical"));
            h.add(cf.link != null ? "cable " + cf.link.name() + ":" : "", String.join("; ", cf.evTexts()), cf.score, cf.ev);
            for (String e : cf.ends) if (!h.objects.contains(e)) h.objects.add(e);
        }
        for (History h : history.values()) {
            bad++;
            h.report(c);
        }
        for (CableFault cf : cables.values()) {
            if (!cf.rising) continue;
            bad++;
            String a = cf.link != null ? FabricIndex.Link.end(cf.link.a()) : cf.ends.get(0);
            String b = cf.link == null ? "" : cf.link.b() != null ? FabricIndex.Link.end(cf.link.b()) : "\"" + cf.link.a().remoteName() + "\" port " + cf.link.a().remotePort();
            List<String> objs = new ArrayList<>(cf.ends);
            for (String e : new String[] {a, b}) if (!e.isEmpty() && !objs.contains(e) && !e.startsWith("\"")) objs.add(e);
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("counters", String.join(", ", cf.parts));
            v.put("a", cf.ends.get(0));
            v.put("ends", b.isEmpty() ? a : a + " <-> " + b);
            v.put("what", String.join(" and ", cf.what));
            v.put("lid", cf.lid);
            v.put("port", cf.port);
            v.put("clear", String.join(" and ", cf.clear));
            String where = cf.ends.size() > 1 ? String.join("; ", cf.evTexts()) : cf.ends.get(0) + ": " + String.join(", ", cf.parts);
            c.problem(cf.status, objs, cf.ev, where + (b.isEmpty() ? "" : " (cable " + a + " <-> " + b + ")"), "", v);
        }
        if (bad == 0) c.pass("no port has error counters above thresholds (" + recs.size() + " port records read)"
                + (congestionUnjudged > 0 ? "; " + congestionUnjudged + " port(s) with congestion counts since an unknown time, judged as rates only (collect a counter window)" : ""),
                List.of(), List.of());
    }

    /** Whether one of these counters rose during ibdiagnet's two samples (PM_DELTA): a count over a known time. */
    private static boolean rose(PortCounters delta, String... counters) {
        if (delta == null) return false;
        for (String k : counters) if (delta.get(k) > 0) return true;
        return false;
    }

    /**
     * The switch a port's errors are grouped under: a host link's leaf (named as the fabric names it, with its GUID
     * where its description is shared), else the port's own node.
     */
    private static String owner(Ctx c, FabricIndex.Link link, String node) {
        if (link == null) return node;
        LinkInfo ca = c.index.caEnd(link);
        if (ca == null) return node;
        LinkInfo sw = ca == link.a() ? link.b() : link.a();
        if (sw == null) return ca.remoteName();
        return c.index.nameOfGuid(sw.nodeGuid(), sw.nodeName());
    }

    /** How bad a port's counts look, to list the worst first: symbol errors, then link-downs and recoveries, then the rest. */
    private static double score(PortCounters pc) {
        return pc.get("SymbolErrorCounter") * 1e6 + (pc.get("LinkDownedCounter") + pc.get("LinkErrorRecoveryCounter")) * 1e3
                + pc.get("PortRcvErrors") + pc.get("PortRcvRemotePhysicalErrors") + pc.get("PortRcvSwitchRelayErrors")
                + pc.get("PortXmitConstraintErrors") + pc.get("PortRcvConstraintErrors");
    }

    /** The counters over their limits, as "Name=value" parts, or null when none is. */
    private static List<String> over(PortCounters pc, Map<String, Double> max) {
        List<String> parts = new ArrayList<>();
        for (String k : new java.util.TreeMap<>(max).keySet()) if (pc.get(k) > max.get(k)) parts.add(part(pc, k, pc.get(k)));
        return parts.isEmpty() ? null : parts;
    }

    /**
     * Counts read once, with no known start (no window, no clear at a known time, not rising during ibdiagnet's
     * sampling): history, not proof. Link-downs rise with every reboot of an installation. One WARN per switch and
     * cause, the worst ports first, with the command that turns them into a rate.
     */
    private static final class History {
        static final int TOP = 5;
        final String owner, cause;
        final List<String> objects = new ArrayList<>();
        final List<Object[]> items = new ArrayList<>(); // name, parts, score, evidence

        History(String owner, String cause) {
            this.owner = owner;
            this.cause = cause;
        }

        /** One cable (both ends' counts) or port: label ("cable A <-> B:" or ""), what it counted, how bad, its evidence. */
        void add(String label, String counts, double score, List<Evidence> ev) {
            items.add(new Object[] {label, counts, score, List.copyOf(ev)});
        }

        void report(Ctx c) {
            items.sort((x, y) -> Double.compare((double) y[2], (double) x[2]));
            List<String> top = new ArrayList<>();
            List<Evidence> ev = new ArrayList<>();
            for (Object[] i : items.subList(0, Math.min(TOP, items.size()))) {
                // the switch is named once, in front: its ports are "port N" in the counts (the cable keeps both names)
                String counts = ((String) i[1]).replace(owner + " port ", "port ");
                top.add(((String) i[0]).isEmpty() ? counts : i[0] + " " + counts);
                @SuppressWarnings("unchecked")
                List<Evidence> e = (List<Evidence>) i[3];
                ev.addAll(e);
            }
            if (items.size() > TOP) ev.add(Evidence.of("... and " + (items.size() - TOP) + " more, named in this finding's objects", ""));
            String what = switch (cause) {
                case "physical" -> "cable(s) with link-down, recovery, symbol or receive error counts";
                case "upstream" -> "port(s) receiving packets marked bad upstream";
                case "constraint" -> "port(s) dropping packets on partition constraints";
                default -> "port(s) with switch relay errors";
            };
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("node", owner);
            v.put("count", items.size());
            v.put("top", String.join("; ", top));
            c.problem(Status.WARN, objects, ev, owner + ": " + items.size() + " " + what + " since an unknown time (one snapshot, no counter window): "
                    + String.join("; ", top) + (items.size() > TOP ? "; and " + (items.size() - TOP) + " more" : ""),
                    cause.equals("physical") ? "history" : "history_" + cause, v);
        }
    }

    /** Counters of one class over the threshold on one port: one finding with that class's cause. */
    private static int other(Ctx c, PortCounters pc, String obj, Optional<FabricIndex.Link> link, String variant, Map<String, Double> max, boolean sampled) {
        List<String> parts = over(pc, max);
        if (parts == null) return 0;
        String peer = link.map(l -> l.a() != null && (FabricIndex.Link.end(l.a())).equals(obj)
                ? (l.b() != null ? FabricIndex.Link.end(l.b()) : l.a().remoteName()) : FabricIndex.Link.end(l.a())).orElse("its peer");
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("counters", String.join(", ", parts));
        v.put("a", obj);
        v.put("peer", peer);
        v.put("lid", pc.lid() > 0 ? String.valueOf(pc.lid()) : c.index.lidOfName(pc.nodeName()).map(String::valueOf).orElse("<lid>"));
        v.put("port", pc.port());
        String when = sampled ? " rose during ibdiagnet's sampling (PM_DELTA)" : "";
        c.problem(Status.WARN, List.of(obj), List.of(Evidence.of(String.join(" ", parts) + when, pc.ref())), obj + ": " + String.join(", ", parts) + when,
                variant, v);
        return 1;
    }

    /** Physical-layer errors of one cable, from one or both ends. */
    private static final class CableFault {
        final FabricIndex.Link link;
        final List<String> ends = new ArrayList<>();
        final List<String> parts = new ArrayList<>();
        final List<String> what = new ArrayList<>();
        final List<Evidence> ev = new ArrayList<>();
        final List<String> clear = new ArrayList<>();
        Status status;
        String lid;
        int port;
        boolean rising;
        String owner;
        double score;

        CableFault(FabricIndex.Link link, String end) {
            this.link = link;
        }

        void add(Status st, String part, String w) {
            parts.add(part);
            if (!what.contains(w)) what.add(w);
            if (status == null || st.worseThan(status)) status = st;
        }

        List<String> evTexts() {
            return ev.stream().map(Evidence::text).toList();
        }

        CableFault merge(CableFault o) {
            ends.addAll(o.ends);
            ev.addAll(o.ev);
            clear.addAll(o.clear);
            if (rising != o.rising) {
                // one end rose during ibdiagnet's sampling, the other has only old counts: the rise decides, the old
                // counts are context
                CableFault now = rising ? this : o, old = rising ? o : this;
                List<String> context = new ArrayList<>(old.parts);
                parts.clear();
                parts.addAll(now.parts);
                if (!context.isEmpty()) parts.add("(since an unknown time: " + String.join(" ", context) + ")");
                what.clear();
                what.addAll(now.what);
                status = now.status;
                rising = true;
                score = Math.max(score, o.score);
                if (owner == null) owner = o.owner;
                return this;
            }
            parts.addAll(o.parts);
            for (String w : o.what) if (!what.contains(w)) what.add(w);
            if (o.status.worseThan(status)) status = o.status;
            score = Math.max(score, o.score);
            if (owner == null) owner = o.owner;
            return this;
        }
    }
}
