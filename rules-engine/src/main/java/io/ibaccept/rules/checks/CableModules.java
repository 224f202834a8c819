package io.ibaccept.rules.checks;

import io.ibaccept.fabric.Fabric;
import io.ibaccept.parse.SourceRef;
import io.ibaccept.rules.Check;
import io.ibaccept.rules.Ctx;
import io.ibaccept.rules.Evidence;
import io.ibaccept.rules.Input;
import io.ibaccept.rules.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every cable module ibdiagnet read (ibdiagnet2.cables, switch and HCA ends) against its own thresholds and flags:
 * temperature, per-lane RX/TX optical power and TX bias outside the module's thresholds are a FAIL, a latched alarm,
 * warning, loss-of-signal or loss-of-lock flag a WARN. Readings a module does not report (-999.999 mW, inf, 0C, N/A)
 * and modules without monitors (passive copper) are counted as not judged, never as values. One finding per switch,
 * naming its ports and the HCA ends of its cables, so a fabric with hundreds of modules gives at most one per switch.
 * Silent when ibdiagnet2.cables was not collected.
 */
final class CableModules implements Check {
    /** Evidence lines per finding: the first modules, each at its line; the objects still name every port. */
    private static final int EVIDENCE = 8;

    public String id() {
        return "cable.module";
    }

    /** None declared: without ibdiagnet2.cables the check says nothing (the --ibdiagnet hint is the other ibdiagnet checks'). */
    public List<Input> inputs() {
        return List.of();
    }

    /** A module out of its range or latching faults is the cable's own fault: what else is found on that cable follows from it. */
    public RootRole rootRole(io.ibaccept.rules.Finding f) {
        return RootRole.CABLE;
    }

    /** What was found wrong with one module. */
    private record Bad(Fabric.End end, String port, boolean fail, List<String> what, SourceRef where) {}

    public void evaluate(Ctx c) {
        List<io.ibaccept.model.CableModule> modules = c.data.fabric() == null ? null : c.data.fabric().diagCables();
        if (modules == null) return;
        Fabric fabric = fabricOf(c, modules.isEmpty() ? 0 : modules.get(0).guid());
        int judged = 0, atSwitch = 0, unmonitored = 0, notReported = 0;
        // the switch a module's finding goes to: its own, or the one at the far end of an HCA's cable
        Map<Long, List<Bad>> bySwitch = new TreeMap<>();
        for (io.ibaccept.model.CableModule m : modules) {
            if (!m.monitored()) {
                unmonitored++;
                continue;
            }
            judged++;
            Fabric.End end = new Fabric.End(m.guid(), m.port());
            Fabric.Node node = fabric == null ? null : fabric.node(m.guid());
            // without a graph that knows the node: ibdiagnet names a switch port by its system GUID or its /U1/P label
            boolean switchEnd = node != null ? node.isSwitch() : m.portName().startsWith("S") && m.portName().contains("/N") || m.portName().contains("/U1/P");
            if (switchEnd) atSwitch++;
            List<String> what = new ArrayList<>();
            boolean fail = false;
            SourceRef where = null;
            Double t = m.temperature();
            if (t == null) notReported++;
            else {
                String out = outside(t, m.temperatureLowAlarm(), m.temperatureHighAlarm(), "C", "alarm");
                if (out != null) {
                    what.add("temperature " + out);
                    fail = true;
                    where = m.ref("Temperature");
                } else if ((out = outside(t, m.temperatureLowWarning(), m.temperatureHighWarning(), "C", "warning")) != null) {
                    what.add("temperature " + out);
                    where = m.ref("Temperature");
                }
            }
            String[][] lanes = {{"RX", " Power", "RX power"}, {"TX", " Power", "TX power"}, {"TX", " Bias", "TX bias"}};
            for (String[] l : lanes) {
                List<Double> values = l[1].equals(" Bias") ? m.txBiasMa() : l[0].equals("RX") ? m.rxPowerMw() : m.txPowerMw();
                double[] th = l[1].equals(" Bias") ? m.txBiasThresholdsMa() : l[0].equals("RX") ? m.rxPowerThresholdsDbm() : m.txPowerThresholdsDbm();
                for (int i = 0; i < values.size(); i++) {
                    Double v = values.get(i);
                    if (v == null) {
                        notReported++;
                        continue;
                    }
                    if (th == null) continue;
                    boolean bias = l[1].equals(" Bias");
                    double x = bias ? v : v <= 0 ? Double.NEGATIVE_INFINITY : 10 * Math.log10(v);
                    String out = outside(x, th[0], th[1], bias ? " mA" : " dBm", "threshold");
                    if (out == null) continue;
                    what.add(l[2] + " lane " + (i + 1) + " " + out);
                    fail = true;
                    if (where == null) where = m.ref(l[0] + (i + 1) + l[1]);
                }
            }
            for (io.ibaccept.model.CableModule.Flag f : m.setFlags()) {
                what.add(f.text() + " (latched)");
                if (where == null) where = f.ref();
            }
            if (what.isEmpty()) continue;
            long sw = m.guid();
            if (!switchEnd && fabric != null)
                sw = fabric.linkAt(end).map(k -> k.other(end).guid()).orElse(m.guid());
            String port = portName(c, fabric, end);
            bySwitch.computeIfAbsent(sw, k -> new ArrayList<>()).add(new Bad(end, port, fail, what, where == null ? m.ref() : where));
        }
        String notJudged = notJudged(unmonitored, notReported);
        if (bySwitch.isEmpty()) {
            c.pass(judged + " cable module(s) within their own thresholds and with no flag set (" + atSwitch + " at switch ports, "
                    + (judged - atSwitch) + " at HCA ports)" + notJudged, List.of(), List.of());
            return;
        }
        for (var e : bySwitch.entrySet()) {
            List<Bad> bad = e.getValue();
            String sw = nodeName(c, fabric, e.getKey());
            boolean fail = bad.stream().anyMatch(Bad::fail);
            List<Evidence> ev = bad.stream().limit(EVIDENCE)
                    .map(b -> Evidence.of(b.port() + ": " + String.join("; ", b.what()), b.where())).toList();
            String ports = bad.stream().limit(EVIDENCE).map(b -> b.port() + " (" + String.join("; ", b.what()) + ")")
                    .reduce((a, b) -> a + ", " + b).orElse("") + (bad.size() > EVIDENCE ? ", +" + (bad.size() - EVIDENCE) + " more" : "");
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("switch", sw);
            v.put("count", bad.size());
            v.put("ports", bad.stream().map(Bad::port).limit(EVIDENCE).reduce((a, b) -> a + ", " + b).orElse("")
                    + (bad.size() > EVIDENCE ? ", ..." : ""));
            v.put("not_judged", notJudged.isEmpty() ? "" : " Not judged: " + notJudged.substring(2) + ".");
            c.problem(fail ? Status.FAIL : Status.WARN, bad.stream().map(Bad::port).toList(), ev,
                    sw + ": " + bad.size() + " cable module(s) " + (fail ? "outside their own thresholds" : "with latched flags") + ": " + ports,
                    fail ? "" : "flags", v);
        }
    }

    /** "85C above its high alarm 80C", null when inside (or no threshold). */
    private static String outside(double x, Double low, Double high, String unit, String kind) {
        if (high != null && x > high) return num(x) + unit + " above its high " + kind + " " + num(high) + unit;
        if (low != null && x < low) return (Double.isInfinite(x) ? "no light" : num(x) + unit) + " below its low " + kind + " " + num(low) + unit;
        return null;
    }

    private static String num(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.format(Locale.ROOT, "%.2f", d);
    }

    private static String notJudged(int unmonitored, int notReported) {
        List<String> parts = new ArrayList<>();
        if (unmonitored > 0) parts.add(unmonitored + " module(s) report no monitors (passive copper: thresholds 0, 0C), not judged");
        if (notReported > 0) parts.add(notReported + " reading(s) not reported by their module (-999.999 mW, inf, 0C, N/A), not judged");
        return parts.isEmpty() ? "" : "; " + String.join("; ", parts);
    }

    /**
     * The fabric graph that holds the node ibdiagnet reported: the dump's (from ibnetdiscover or iblinkinfo), else one
     * built from ibdiagnet's own topology (ibdiagnet2.ibnetdiscover, of the same run) when the dump's graph does not know
     * it; null when neither does.
     */
    static Fabric fabricOf(Ctx c, long guid) {
        Fabric f = c.fabric();
        if (f != null && f.node(guid) != null) return f;
        Fabric d = c.facts.diagFabric();
        return d != null && d.node(guid) != null ? d : f;
    }

    /** A node by the name the other checks give it (a description several nodes share carries the GUID). */
    static String nodeName(Ctx c, Fabric fabric, long guid) {
        Fabric.Node n = fabric == null ? null : fabric.node(guid);
        return c.index.nameOfGuid(guid, n == null ? null : n.name());
    }

    /** "NODE port N", as the other checks name a port, so findings about one port meet in the root-cause pass. */
    static String portName(Ctx c, Fabric fabric, Fabric.End end) {
        return nodeName(c, fabric, end.guid()) + " port " + end.port();
    }
}
